#!/usr/bin/env bash
# Installs ToneShaper under PREFIX (default /usr/local):
#
#   PREFIX/bin/toneshaper                                   the program
#   PREFIX/share/toneshaper/Sessions/*.toneshaper           the built-in tone shapes
#   PREFIX/share/man/man1/toneshaper.1                      the man page
#   PREFIX/share/bash-completion/completions/toneshaper     shell completions
#   PREFIX/share/zsh/site-functions/_toneshaper
#   PREFIX/share/fish/vendor_completions.d/toneshaper.fish
#   PREFIX/share/applications/toneshaper.desktop            menu entry, and NSM's list of clients
#   PREFIX/lib/lv2/toneshaper.lv2/                          the LV2 plugin (toneshaper.so, its editor window toneshaper_ui.so, *.ttl, shapes/)
#   PREFIX/lib/clap/toneshaper.clap                         the CLAP plugin (the built-in shapes inside)
#   PREFIX/lib/vst3/toneshaper.vst3/                        the VST 3 plugin (Contents/x86_64-linux/toneshaper.so, moduleinfo.json)
#   PREFIX/share/toneshaper/install-manifest                what Scripts/uninstall.sh removes
#
# Usage: Scripts/install.sh [--strip] [PREFIX]
#        Scripts/install.sh --prepare
#
#   DESTDIR=/stage Scripts/install.sh /usr   stages the files under /stage/usr for a package;
#                                            the program still looks for its shapes in /usr.
#   --strip                                  strips the program's symbols (78 MB -> 60 MB).
#   --prepare                                only builds what installing needs (the program, the
#                                            LV2, CLAP and VST 3 plugins, the man page tool), as yourself, before
#                                            `sudo install.sh`.
#   TONESHAPER_BINARY=FILE                   installs FILE instead of the build in .build.
#
# The program is built (swift build -c release --static-swift-stdlib) only when there is no
# release build, when it is older than the sources, or when it needs the Swift toolchain's
# shared libraries. Build as yourself (`Scripts/install.sh --prepare`), then install with
# sudo: nothing is built as root, and the toolchain, which sudo's PATH usually lacks, is
# not needed then. The man page comes from the argument parser's own generator (the tool
# behind its generate-manual plugin), the completions from `toneshaper
# --generate-completion-script`: both describe the options of the binary being installed.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

strip=0
prepare_only=0
prefix=/usr/local
while (($#)); do
    case $1 in
        --strip) strip=1 ;;
        --prepare) prepare_only=1 ;;
        -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) prefix=$1 ;;
    esac
    shift
done

[[ $prefix == /* ]] || die "PREFIX must be an absolute path, not '$prefix'"
[[ $prefix != *$'\n'* && ${DESTDIR:-} != *$'\n'* ]] || die "PREFIX and DESTDIR may not contain a newline"
while [[ $prefix == */ && $prefix != / ]]; do prefix=${prefix%/}; done
[[ $prefix == / ]] && prefix=""      # so "$prefix/bin" is /bin
root=${DESTDIR:-}
root=${root%/}

# --- The program and the man page tool ---------------------------------------------------

# True when the binary needs the Swift runtime as shared libraries (a plain `swift build`):
# such a binary runs only where the toolchain is installed.
uses_shared_swift_runtime() {
    local libraries
    libraries=$(ldd "$1" 2>/dev/null) || return 1
    [[ $libraries == *libswiftCore.so* ]]
}

# sudo resets PATH, so under sudo the toolchain is often out of reach: then everything
# must have been built beforehand (`Scripts/install.sh --prepare` as yourself).
have_swift=0
command -v swift >/dev/null && have_swift=1
needs_swift() {
    ((have_swift)) && return 0
    die "$1, and the Swift toolchain is not on PATH (sudo resets PATH): run \`Scripts/install.sh --prepare\` as yourself first"
}

if [[ -n ${TONESHAPER_BINARY:-} ]]; then
    binary=$TONESHAPER_BINARY
    [[ -x $binary ]] || die "TONESHAPER_BINARY=$binary is not an executable file"
    if uses_shared_swift_runtime "$binary"; then
        say "Warning: $binary needs the Swift toolchain's shared libraries; build with --static-swift-stdlib for a binary that runs anywhere"
    fi
else
    if ((have_swift)); then
        binary="$(swift build -c release --show-bin-path)/toneshaper"
    else
        binary=.build/release/toneshaper
    fi
    if [[ ! -x $binary ]]; then
        reason="there is no release build"
    elif [[ -n $(find Package.swift Sources -newer "$binary" -print -quit) ]]; then
        reason="the sources are newer than $binary"
    elif uses_shared_swift_runtime "$binary"; then
        reason="$binary needs the Swift toolchain's shared libraries"
    else
        reason=""
    fi
    if [[ -n $reason ]]; then
        needs_swift "$reason"
        say "Building, as $reason: swift build -c release --static-swift-stdlib --product toneshaper"
        swift build -c release --static-swift-stdlib --product toneshaper
    else
        say "Using the existing build $binary"
    fi
fi

# The LV2 plugin's bundle (Scripts/build-lv2.sh, Embedded Swift): built when missing or
# older than its sources.
lv2_bundle=.build/lv2/toneshaper.lv2
if [[ ! -f $lv2_bundle/toneshaper.so ]]; then
    reason="there is no LV2 bundle"
elif [[ -n $(find Package.swift Scripts/build-lv2.sh Scripts/embedded-modules.sh Scripts/embedded-graph.py Scripts/plugin-compat.sh Sources/PluginCompat Sources/ToneShaperLV2 Sources/CLV2 Sources/ToneShaperLV2UI Sources/CLV2UI Sources/ToneShaperEditor Sources/CEditor Sources/CPluginSupport Sources/ToneShaperDSP Sources/ToneShaperParameters Sources/ToneShaperKernelBaseline Sources/CPUFeatures \
    Sources/ToneShaperAudio Sources/ToneShaperJSON Sources/CNumberText Sources/ToneShaperModel Sources/ToneShaperPlugin \
    Sources/ToneShaperLV2Layout Sessions \
    -newer "$lv2_bundle/toneshaper.so" -print -quit) ]]; then
    reason="the plugin's sources are newer than $lv2_bundle"
else
    reason=""
fi
if [[ -n $reason ]]; then
    needs_swift "$reason"
    say "Building the LV2 plugin, as $reason: Scripts/build-lv2.sh"
    bash Scripts/build-lv2.sh
else
    say "Using the existing LV2 bundle $lv2_bundle"
fi

# The CLAP and VST 3 plugins (Scripts/build-clap.sh, Scripts/build-vst3.sh, Embedded Swift):
# each built when missing or older than its sources ($1 the format's name, $2 the file
# built, $3 its script, $4 and $5 its shell's Swift and C).
build_plugin() {
    local reason=""
    if [[ ! -f $2 ]]; then
        reason="there is no $1 plugin"
    elif [[ -n $(find Package.swift "$3" Scripts/embedded-modules.sh Scripts/embedded-graph.py Scripts/plugin-compat.sh Scripts/plugin-shell.sh Sources/PluginCompat Sources/toneshaper/Version.swift "$4" "$5" Sources/ToneShaperEditor Sources/CEditor Sources/CPluginSupport Sources/ToneShaperPlugin Sources/ToneShaperModel Sources/ToneShaperDSP Sources/ToneShaperParameters \
        Sources/ToneShaperKernelBaseline Sources/CPUFeatures Sources/ToneShaperAudio Sources/ToneShaperJSON Sources/CNumberText Sessions \
        -newer "$2" -print -quit) ]]; then
        reason="the plugin's sources are newer than $2"
    fi
    if [[ -n $reason ]]; then
        needs_swift "$reason"
        say "Building the $1 plugin, as $reason: $3"
        bash "$3"
    else
        say "Using the existing $1 plugin $2"
    fi
}
clap_plugin=.build/clap/toneshaper.clap
build_plugin CLAP "$clap_plugin" Scripts/build-clap.sh Sources/ToneShaperCLAP Sources/CCLAP
vst3_bundle=.build/vst3/toneshaper.vst3
build_plugin "VST 3" "$vst3_bundle/Contents/$(uname -m)-linux/toneshaper.so" Scripts/build-vst3.sh Sources/ToneShaperVST3 Sources/CVST3

# The man page comes from swift-argument-parser's generate-manual tool. Its plugin would
# rebuild every product with its own flags (relinking the program without
# --static-swift-stdlib), so only the tool is built (asking the plugin for --help builds the
# tool and nothing else) and run on the binary being installed.
find_manual_tool() {
    local dir candidate dirs=(.build/debug)
    ((have_swift)) && dirs=("$(swift build --show-bin-path)" "${dirs[@]}")
    for dir in "${dirs[@]}"; do
        for candidate in "$dir/generate-manual-tool" "$dir/generate-manual"; do
            [[ -x $candidate ]] && { echo "$candidate"; return 0; }
        done
    done
    return 1
}
if ! manual_tool=$(find_manual_tool); then
    needs_swift "swift-argument-parser's generate-manual tool is not built"
    say "Building swift-argument-parser's generate-manual tool"
    log=$(mktemp "${TMPDIR:-/tmp}/toneshaper-install.XXXXXX")
    if ! swift package plugin generate-manual --help >"$log" 2>&1; then
        cat "$log" >&2; rm -f "$log"
        die "could not build swift-argument-parser's generate-manual tool"
    fi
    rm -f "$log"
    manual_tool=$(find_manual_tool) || die "swift-argument-parser's generate-manual tool was built but is not in .build/debug"
fi

if ((prepare_only)); then
    say "Prepared $binary, $lv2_bundle, $clap_plugin, $vst3_bundle and $manual_tool; now install with: sudo Scripts/install.sh [PREFIX]"
    exit 0
fi

version=$("$binary" --version) || die "$binary --version failed"
say "ToneShaper $version"

work=$(mktemp -d "${TMPDIR:-/tmp}/toneshaper-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- The man page -----------------------------------------------------------------------

# The page's date: SOURCE_DATE_EPOCH (reproducible builds), else the last commit's date,
# else today.
if [[ -n ${SOURCE_DATE_EPOCH:-} ]]; then
    page_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
elif ! page_date=$(git log -1 --format=%cd --date=format:%Y-%m-%d 2>/dev/null) || [[ -z $page_date ]]; then
    page_date=$(date -u +%Y-%m-%d)
fi

say "Generating the man page"
mkdir "$work/man"
"$manual_tool" "$binary" --date "$page_date" --section 1 --output-directory "$work/man"
[[ -s $work/man/toneshaper.1 ]] || die "generate-manual wrote no toneshaper.1"
# The footer names the program and its version instead of "BSD". The help texts are
# written line by line (one paragraph a line, then lists and examples), but roff would
# fill consecutive lines into one paragraph: a break goes between them, and a blank line
# (which groff warns about in mdoc) becomes a paragraph break.
awk -v footer=".Os ToneShaper $version" '
    /^\.Os$/ { print footer; text = 0; next }
    /^[[:space:]]*$/ { print ".Pp"; text = 0; next }
    /^[.\047]/ { print; text = 0; next }
    { if (text) print ".br"; print; text = 1 }
' "$work/man/toneshaper.1" >"$work/toneshaper.1"

# --- Completions ------------------------------------------------------------------------

say "Generating the bash, zsh and fish completions"
for shell in bash zsh fish; do
    "$binary" --generate-completion-script "$shell" >"$work/completion.$shell"
    [[ -s $work/completion.$shell ]] || die "no $shell completion script from $binary"
done

# --- The desktop entry ------------------------------------------------------------------

# A launcher for a terminal program: the menu entry opens a terminal playing the default
# shape as a JACK node (Ctrl-C stops it). Session managers that read desktop files (Agordejo,
# RaySession) list it as an NSM client through the X-NSM keys and start X-NSM-Exec.
# AudioVideo;Audio; are the registered categories for an audio program; it has no MIDI.
# Under /usr and /usr/local the program is on every PATH and goes by its name; from another
# prefix (~/.local, /opt/...) the menu entry names it by its full path, as a desktop session's
# PATH may not hold that bin directory. NSM starts X-NSM-Exec by name, through PATH.
# (A path with characters the Exec key would need quoted, such as spaces, goes by name.)
case $prefix in
    /usr|/usr/local) command_path=toneshaper ;;
    *) command_path=$prefix/bin/toneshaper ;;
esac
[[ $command_path =~ ^[A-Za-z0-9/._+-]+$ ]] || command_path=toneshaper
cat >"$work/toneshaper.desktop" <<EOF
[Desktop Entry]
Type=Application
Version=1.4
Name=ToneShaper
GenericName=Tone Shape Player
Comment=Play drawn frequency curves (sirens, chirps, drones, bird calls) as a JACK client, controlled over OSC
Exec=$command_path run
TryExec=$command_path
Terminal=true
Categories=AudioVideo;Audio;
Keywords=JACK;OSC;NSM;tone;siren;sweep;chirp;drone;synthesizer;
X-NSM-Capable=true
X-NSM-Exec=toneshaper
EOF

# --- Installing, with a manifest --------------------------------------------------------

manifest_path="$prefix/share/toneshaper/install-manifest"
manifest=$work/install-manifest
created=()     # directories this install (or an earlier one, from its manifest) created
installed=()   # files this install writes
declare -A is_created=() is_installed=()

# An earlier install's directories stay ours; its files that this one no longer installs
# are removed below.
# Only entries of a manifest for this prefix, inside it, are trusted (as by uninstall.sh).
old_files=()
if [[ -f $root$manifest_path ]] && grep -qxF "# prefix: ${prefix:-/}" "$root$manifest_path"; then
    while IFS= read -r line; do
        entry=${line#? }
        [[ $entry == /* && /$entry/ != */./* && /$entry/ != */../* ]] || continue
        case $line in
            "d "*) if [[ $entry == "$prefix"/* || $prefix/ == "$entry"/* ]]; then
                       created+=("$entry"); is_created[$entry]=1
                   fi ;;
            "f "*) if [[ $entry == "$prefix"/* ]]; then old_files+=("$entry"); fi ;;
        esac
    done <"$root$manifest_path"
fi

# Creates a directory and the missing ones above it, noting each one it creates.
make_dir() {
    local path=$1 parts part current=""
    IFS=/ read -ra parts <<<"${path#/}"
    for part in "${parts[@]}"; do
        [[ -z $part ]] && continue
        current="$current/$part"
        if [[ ! -d $root$current ]]; then
            mkdir "$root$current"
            if [[ -z ${is_created[$current]-} ]]; then
                created+=("$current")
                is_created[$current]=1
            fi
        fi
    done
}

# install_file SOURCE DESTINATION MODE (DESTINATION without DESTDIR)
install_file() {
    make_dir "$(dirname "$2")"
    install -m "$3" "$1" "$root$2"
    installed+=("$2")
    is_installed[$2]=1
}

# The manifest lists what is there now: this install's files, and an earlier install's
# that are still there (only when this one stopped partway: at the end they are removed).
write_manifest() {
    local dir file
    make_dir "$(dirname "$manifest_path")"
    {
        echo "# ToneShaper $version install manifest: what Scripts/uninstall.sh removes."
        echo "# prefix: ${prefix:-/}"
        echo "# f: a file installed; d: a directory the install created (removed when empty)."
        for dir in "${created[@]+"${created[@]}"}"; do echo "d $dir"; done
        for file in "${installed[@]+"${installed[@]}"}"; do echo "f $file"; done
        for file in "${old_files[@]+"${old_files[@]}"}"; do
            if [[ -z ${is_installed[$file]-} ]] && [[ -f $root$file || -L $root$file ]]; then
                echo "f $file"
            fi
        done
    } >"$manifest"
    install -m 644 "$manifest" "$root$manifest_path"
}

# If the install stops partway (a full disk, a permission), what it did install is still
# written down, so that uninstall.sh can remove it.
installing=0
finish() {
    if ((installing)); then
        installing=0
        if write_manifest 2>/dev/null; then
            echo "install.sh: stopped partway; Scripts/uninstall.sh ${prefix:-/} removes what was installed" >&2
        fi
    fi
    rm -rf "$work"
}
trap finish EXIT

top=$root${prefix:-/}
while [[ ! -e $top ]]; do top=$(dirname "$top"); done
[[ -w $top ]] || die "cannot write to $top: run this with sudo (after \`Scripts/install.sh --prepare\` as yourself), or give a PREFIX you can write to"

say "Installing into ${root:+$root (DESTDIR) + }${prefix:-/}"
[[ -z $root ]] || mkdir -p "$root"
installing=1
if ((strip)); then
    make_dir "$prefix/bin"
    install -s -m 755 "$binary" "$root$prefix/bin/toneshaper"
    installed+=("$prefix/bin/toneshaper")
    is_installed[$prefix/bin/toneshaper]=1
else
    install_file "$binary" "$prefix/bin/toneshaper" 755
fi
shopt -s nullglob
sessions=(Sessions/*.toneshaper)
((${#sessions[@]})) || die "no built-in shapes in Sessions/"
for document in "${sessions[@]}"; do
    install_file "$document" "$prefix/share/toneshaper/Sessions/${document##*/}" 644
done
install_file "$work/toneshaper.1" "$prefix/share/man/man1/toneshaper.1" 644
install_file "$work/completion.bash" "$prefix/share/bash-completion/completions/toneshaper" 644
install_file "$work/completion.zsh" "$prefix/share/zsh/site-functions/_toneshaper" 644
install_file "$work/completion.fish" "$prefix/share/fish/vendor_completions.d/toneshaper.fish" 644
install_file "$work/toneshaper.desktop" "$prefix/share/applications/toneshaper.desktop" 644
# The bundle's files, its built-in documents (shapes/) included.
while IFS= read -r file; do
    install_file "$file" "$prefix/lib/lv2/toneshaper.lv2/${file#"$lv2_bundle"/}" 644
done < <(find "$lv2_bundle" -type f | sort)
install_file "$clap_plugin" "$prefix/lib/clap/toneshaper.clap" 644
while IFS= read -r file; do
    install_file "$file" "$prefix/lib/vst3/toneshaper.vst3/${file#"$vst3_bundle"/}" 644
done < <(find "$vst3_bundle" -type f | sort)

for old in "${old_files[@]+"${old_files[@]}"}"; do
    if [[ -z ${is_installed[$old]-} ]] && [[ -f $root$old || -L $root$old ]]; then
        say "Removing $old (installed before, not any more)"
        rm -f "$root$old"
    fi
done

write_manifest
installing=0

say "Installed ${#installed[@]} files; the manifest is $manifest_path"
if [[ -z $root && :$PATH: != *:$prefix/bin:* ]]; then
    say "Note: $prefix/bin is not on your PATH"
fi
# VST 3 hosts search ~/.vst3, /usr/lib/vst3 and /usr/local/lib/vst3 (Steinberg's places).
if [[ $prefix != /usr && $prefix != /usr/local ]]; then
    say "Note: VST 3 hosts look in ~/.vst3, /usr/lib/vst3 and /usr/local/lib/vst3: link or copy $prefix/lib/vst3/toneshaper.vst3 there"
fi
# CLAP hosts search ~/.clap, /usr/lib/clap and the folders in CLAP_PATH, nothing else.
if [[ $prefix != /usr && :${CLAP_PATH:-}: != *:$prefix/lib/clap:* ]]; then
    say "Note: CLAP hosts find $prefix/lib/clap/toneshaper.clap only through CLAP_PATH: export CLAP_PATH=$prefix/lib/clap"
fi
