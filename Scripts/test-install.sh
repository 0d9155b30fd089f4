#!/usr/bin/env bash
# Tests Scripts/install.sh and Scripts/uninstall.sh (Scripts/test.sh runs it after the
# release build, which install.sh then uses as it is). Into a temporary DESTDIR + PREFIX it
# installs ToneShaper, runs the installed program from another directory (the built-in
# shapes must be found from the install, not from the repository), checks the man page,
# completions and desktop entry, installs again over it, and uninstalls: nothing may be
# left, and a file of someone else's in a shared directory must stay; an install that
# stops partway must be undone as well. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$PWD

say() { printf '==> %s\n' "$*"; }
fail() { printf 'test-install.sh: FAILED: %s\n' "$*" >&2; exit 1; }
check() { local what=$1; shift; "$@" || fail "$what"; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/toneshaper-install-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

version=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/toneshaper/Version.swift)
[[ -n $version ]] || fail "no version string in Sources/toneshaper/Version.swift"

stage=$scratch/stage
prefix=/opt/toneshaper-test
installed=$stage$prefix

# A folder of shapes above the installed program: walking up from bin/ would find it, but
# an installed program must take its prefix's own shapes first.
mkdir -p "$scratch/Sessions"
cp Sessions/siren.toneshaper "$scratch/Sessions/decoy.toneshaper"

say "Installing into DESTDIR=$stage, PREFIX=$prefix"
DESTDIR=$stage bash Scripts/install.sh "$prefix" >"$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log" >&2; fail "install.sh exited non-zero"; }

say "Checking the installed files"
expected_files=(
    bin/toneshaper
    share/man/man1/toneshaper.1
    share/bash-completion/completions/toneshaper
    share/zsh/site-functions/_toneshaper
    share/fish/vendor_completions.d/toneshaper.fish
    share/applications/toneshaper.desktop
    share/toneshaper/install-manifest
    lib/lv2/toneshaper.lv2/toneshaper.so
    lib/lv2/toneshaper.lv2/toneshaper_ui.so
    lib/lv2/toneshaper.lv2/manifest.ttl
    lib/lv2/toneshaper.lv2/toneshaper.ttl
    lib/lv2/toneshaper.lv2/presets.ttl
    lib/clap/toneshaper.clap
    "lib/vst3/toneshaper.vst3/Contents/$(uname -m)-linux/toneshaper.so"
    lib/vst3/toneshaper.vst3/Contents/Resources/moduleinfo.json
)
for document in Sessions/*.toneshaper; do
    expected_files+=("share/toneshaper/$document" "lib/lv2/toneshaper.lv2/shapes/${document#Sessions/}")
done
actual=$(cd "$installed" && find . -type f -o -type l | sed 's|^\./||' | sort)
expected=$(printf '%s\n' "${expected_files[@]}" | sort)
[[ $actual == "$expected" ]] || fail "installed files differ from the expected ones:
$(diff <(echo "$expected") <(echo "$actual") || true)"
check "the program is not executable" test -x "$installed/bin/toneshaper"
manifest=$installed/share/toneshaper/install-manifest
for file in "${expected_files[@]}"; do
    [[ $file == share/toneshaper/install-manifest ]] && continue
    check "the manifest does not list $file" grep -qxF "f $prefix/$file" "$manifest"
done
check "the manifest does not record the prefix" grep -qxF "# prefix: $prefix" "$manifest"

say "Running the installed program from another directory"
elsewhere=$scratch/elsewhere
mkdir -p "$elsewhere"
run_installed() {
    (cd "$elsewhere" && env -u TONESHAPER_SESSIONS TONESHAPER_LIBRARY="$scratch/library" \
        "$installed/bin/toneshaper" "$@")
}
[[ $(run_installed --version) == "$version" ]] || fail "--version does not print $version"
presets=$(run_installed presets)
[[ $presets == *"Built-in tone shapes ($installed/share/toneshaper/Sessions)"* ]] \
    || fail "presets does not list the installed shapes: $presets"
for document in Sessions/*.toneshaper; do
    name=${document##*/}; name=${name%.toneshaper}
    grep -qE "^  $name " <<<"$presets" || fail "presets does not list $name"
done
grep -q decoy <<<"$presets" && fail "presets took the folder above the prefix for the built-ins"
run_installed render siren -o x.wav >"$scratch/render.log" 2>&1 \
    || { cat "$scratch/render.log" >&2; fail "render siren -o x.wav failed"; }
[[ $(head -c 4 "$elsewhere/x.wav") == RIFF && $(stat -c %s "$elsewhere/x.wav") -gt 100000 ]] \
    || fail "render siren did not write a WAV file"

say "Checking the LV2 bundle"
lv2_installed=$installed/lib/lv2/toneshaper.lv2
cmp -s "$lv2_installed/toneshaper.so" .build/lv2/toneshaper.lv2/toneshaper.so || fail "the installed toneshaper.so is not the built one"
if command -v lv2info >/dev/null; then
    info=$(LV2_PATH="$installed/lib/lv2:/usr/lib/lv2" lv2info urn:toneshaper:instrument 2>&1) || fail "lv2info does not find the installed plugin: $info"
    [[ $info == *"Bundle:            file://$lv2_installed/"* ]] || fail "lv2info finds the plugin elsewhere: $info"
    LV2_PATH="$installed/lib/lv2:/usr/lib/lv2" lv2info urn:toneshaper:instrument-stereo >/dev/null 2>&1 \
        || fail "lv2info does not find the installed stereo plugin"
else
    say "lv2info is not installed (Debian: lilv-utils); skipped"
fi

say "Checking the CLAP plugin"
cmp -s "$installed/lib/clap/toneshaper.clap" .build/clap/toneshaper.clap || fail "the installed toneshaper.clap is not the built one"
cmp -s "$installed/lib/vst3/toneshaper.vst3/Contents/$(uname -m)-linux/toneshaper.so" ".build/vst3/toneshaper.vst3/Contents/$(uname -m)-linux/toneshaper.so" ||
    fail "the installed VST 3 plugin is not the built one"

say "Checking the man page"
page=$installed/share/man/man1/toneshaper.1
check "the man page has no version footer" grep -qxF ".Os ToneShaper $version" "$page"
for subcommand in run render presets send; do
    check "the man page does not describe $subcommand" grep -qE "^\.It Em $subcommand\$" "$page"
done
if command -v groff >/dev/null; then
    warnings=$(groff -mandoc -ww -z "$page" 2>&1)
    [[ -z $warnings ]] || fail "groff warns about the man page: $warnings"
fi

say "Checking the completions"
check "bash completion is not valid bash" bash -n "$installed/share/bash-completion/completions/toneshaper"
check "bash completion does not complete toneshaper" grep -q "complete .*toneshaper" "$installed/share/bash-completion/completions/toneshaper"
check "zsh completion is not a compdef for toneshaper" grep -q "^#compdef toneshaper" "$installed/share/zsh/site-functions/_toneshaper"
check "fish completion does not complete toneshaper" grep -qE "^complete -c '?toneshaper'? " "$installed/share/fish/vendor_completions.d/toneshaper.fish"
if command -v zsh >/dev/null; then check "zsh completion is not valid zsh" zsh -n "$installed/share/zsh/site-functions/_toneshaper"; fi
if command -v fish >/dev/null; then check "fish completion is not valid fish" fish -n "$installed/share/fish/vendor_completions.d/toneshaper.fish"; fi
# The completion scripts ask the program for the subcommands; they must all be offered.
completion=$(cd "$elsewhere" && COMP_LINE="toneshaper " bash -c '
    shopt -s extglob
    source "$1"
    COMP_WORDS=(toneshaper ""); COMP_CWORD=1; COMP_LINE="toneshaper "; COMP_POINT=${#COMP_LINE}
    PATH="$2:$PATH"
    complete_function=$(complete -p toneshaper | sed -n "s/.*-F \([^ ]*\).*/\1/p")
    "$complete_function" toneshaper "" toneshaper
    printf "%s\n" "${COMPREPLY[@]}"' _ "$installed/share/bash-completion/completions/toneshaper" "$installed/bin")
for subcommand in run render presets send; do
    grep -qx "$subcommand" <<<"$completion" || fail "bash completion does not offer $subcommand (got: $completion)"
done

say "Checking the desktop entry"
desktop=$installed/share/applications/toneshaper.desktop
check "the desktop entry is not NSM capable" grep -qx "X-NSM-Capable=true" "$desktop"
check "the desktop entry has no X-NSM-Exec" grep -qx "X-NSM-Exec=toneshaper" "$desktop"
check "the desktop entry does not start the program by its path in $prefix" grep -qx "Exec=$prefix/bin/toneshaper run" "$desktop"
if command -v desktop-file-validate >/dev/null; then
    report=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $report"
    [[ -z $report ]] || fail "desktop-file-validate: $report"
else
    say "desktop-file-validate is not installed (Debian: desktop-file-utils); skipped"
fi

say "Installing again over the same prefix"
cp "$manifest" "$scratch/first-manifest"
# As if the first install had been of a version with one more shape.
echo '{}' >"$installed/share/toneshaper/Sessions/retired.toneshaper"
echo "f $prefix/share/toneshaper/Sessions/retired.toneshaper" >>"$manifest"
DESTDIR=$stage bash Scripts/install.sh "$prefix" >"$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log" >&2; fail "the second install.sh exited non-zero"; }
diff -u "$scratch/first-manifest" "$manifest" || fail "installing twice changed the manifest"
[[ ! -e $installed/share/toneshaper/Sessions/retired.toneshaper ]] \
    || fail "installing again left a file the earlier install had and this one has not"

say "Refusing to uninstall with another prefix"
if DESTDIR=$stage bash Scripts/uninstall.sh /opt >/dev/null 2>&1; then fail "uninstall.sh /opt succeeded"; fi
check "a refused uninstall removed files" test -x "$installed/bin/toneshaper"

say "Uninstalling"
DESTDIR=$stage bash Scripts/uninstall.sh "$prefix" >"$scratch/uninstall.log" 2>&1 \
    || { cat "$scratch/uninstall.log" >&2; fail "uninstall.sh exited non-zero"; }
left=$(cd "$stage" && find . -mindepth 1)
[[ -z $left ]] || fail "uninstall left: $left"

say "Installing without DESTDIR beside someone else's files, then uninstalling"
shared=$scratch/shared
mkdir -p "$shared/share/applications" "$shared/bin"
echo "[Desktop Entry]" >"$shared/share/applications/other.desktop"
echo "#!/bin/sh" >"$shared/bin/other"
before=$(cd "$shared" && find . | sort)
bash Scripts/install.sh "$shared/" >"$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log" >&2; fail "install.sh into an existing prefix exited non-zero"; }
check "the program was not installed into $shared" test -x "$shared/bin/toneshaper"
(cd "$elsewhere" && env -u TONESHAPER_SESSIONS TONESHAPER_LIBRARY="$scratch/library" "$shared/bin/toneshaper" presets) \
    | grep -qF "($shared/share/toneshaper/Sessions)" || fail "the program in $shared does not find its shapes"
bash Scripts/uninstall.sh "$shared" >"$scratch/uninstall.log" 2>&1 \
    || { cat "$scratch/uninstall.log" >&2; fail "uninstall.sh from an existing prefix exited non-zero"; }
after=$(cd "$shared" && find . | sort)
[[ $before == "$after" ]] || fail "uninstall did not restore the prefix as it was:
$(diff <(echo "$before") <(echo "$after") || true)"

say "An install that stops partway can still be uninstalled"
broken=$scratch/broken
mkdir -p "$broken/share"
echo "not a directory" >"$broken/share/man"     # where the man page's directory must go
if bash Scripts/install.sh "$broken" >"$scratch/install.log" 2>&1; then fail "install.sh over a file in its way succeeded"; fi
check "the stopped install did not say how to undo it" grep -q "stopped partway" "$scratch/install.log"
bash Scripts/uninstall.sh "$broken" >"$scratch/uninstall.log" 2>&1 \
    || { cat "$scratch/uninstall.log" >&2; fail "uninstall.sh after a stopped install exited non-zero"; }
left=$(cd "$broken" && find . -mindepth 1 | sort)
[[ $left == $'./share\n./share/man' ]] || fail "uninstall after a stopped install left: $left"

cd "$repository"
say "Install tests passed"
