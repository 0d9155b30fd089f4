#!/usr/bin/env bash
# Builds the CLAP plugin .build/clap/toneshaper.clap in Embedded Swift: no Swift runtime to
# ship, one file that holds both plugins (mono and stereo) and the built-in shapes.
#
#   bash Scripts/build-clap.sh            # prints the file's path and size
#   bash Scripts/build-clap.sh --shell-only   # recompiles only the shell over the modules
#                                             # the last full build left (while working on it)
#
# The plugin is the target ToneShaperCLAP and every target below it in Package.swift (read by
# Scripts/embedded-modules.sh), compiled as Scripts/build-lv2.sh compiles them (whole-module,
# Embedded, position-independent, with the real-time proof on; the modules it has compiled
# already are taken from it): the plugin core and the audio side, the editor window
# (ToneShaperEditor, clap.gui's; Xlib and cairo), the CLAP declarations (CCLAP) and the
# shell; then its C (CCLAP's entry.c, the entry and factory; the built-in documents compiled
# in as data), and everything is linked with a version script that exports clap_entry alone.
# The result is checked: no libswift* in ldd, no defined dynamic symbol but clap_entry.
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/embedded-modules.sh
source Scripts/plugin-compat.sh

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-clap.sh: %s\n' "$*" >&2; exit 1; }

command -v swiftc >/dev/null || die "swiftc is not on PATH (the Swift 6.3 toolchain)"

[[ -f /usr/include/cairo/cairo-xlib.h && -f /usr/include/X11/Xlib.h ]] || die "no Xlib or cairo headers (Debian: apt-get install libx11-dev libcairo2-dev, or bash Scripts/setup.sh)"

out=.build/clap
objects=.build/clap-objects
lv2_objects=.build/lv2-objects
# The plugin: its shell's target (ToneShaperCLAP) and every target below it in Package.swift
# (Scripts/embedded-modules.sh): the plugin core and the audio side, the editor window, CCLAP.
embedded_modules closure ToneShaperCLAP
# The Swift modules Scripts/build-lv2.sh compiles too (the same flags): all but the window
# and the shell.
shared=()
for module in "${EMBEDDED_MODULES[@]}"; do
    IFS='|' read -r kind name _ <<<"$module"
    [[ $kind == swift && -f $lv2_objects/$name.swiftmodule ]] && shared+=("$name")
done
shell_only=0
[[ ${1:-} == --shell-only && -f $objects/ToneShaperCLAP.swiftmodule ]] && shell_only=1
if ((shell_only)); then
    # The modules the last full build left, but those Scripts/build-lv2.sh does not compile.
    rm -f "$out/toneshaper.clap"
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r kind name _ <<<"$module"
        [[ $kind == swift && ! -f $lv2_objects/$name.swiftmodule ]] && rm -f "$objects/$name.swiftmodule"
    done
else
    rm -rf "$objects" "$out/toneshaper.clap"
    mkdir -p "$objects" "$out"
    # Scripts/build-lv2.sh's objects of the shared modules are taken when every file they come
    # from (theirs and their C's, the scripts, the graph) is older than the oldest of them
    # (Scripts/test.sh builds the LV2 plugin first), else they are compiled here.
    fresh=0
    if ((${#shared[@]})); then
        oldest=$(cd "$lv2_objects" && ls -tr "${shared[@]/%/.o}" 2>/dev/null | head -1) || true
        if [[ -n $oldest ]]; then
            shared_modules=("${EMBEDDED_MODULES[@]}")
            embedded_modules closure "${shared[@]}"
            mapfile -t inputs < <(embedded_sources)
            EMBEDDED_MODULES=("${shared_modules[@]}")
            [[ -z $(find Package.swift Scripts/embedded-modules.sh Scripts/embedded-graph.py Scripts/build-lv2.sh "${inputs[@]}" \
                -newer "$lv2_objects/$oldest" -print -quit) ]] && fresh=1
        fi
    fi
    if ((fresh)); then
        for name in "${shared[@]}"; do cp "$lv2_objects/$name.o" "$lv2_objects/$name.swiftmodule" "$objects/"; done
        say "modules: Scripts/build-lv2.sh's (${shared[*]}), compiled from the same sources"
    fi
fi
embedded_build "$objects"

# The descriptors' version: the program's (Sources/toneshaper/Version.swift, its one place).
version=$(sed -n 's/.*static let string = "\([0-9.]*\)".*/\1/p' Sources/toneshaper/Version.swift)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "no version in Sources/toneshaper/Version.swift"
cc -std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -D TONESHAPER_VERSION="\"$version\"" \
    -I Sources/CCLAP/include -I Sources/CPluginSupport/include -c Sources/CCLAP/entry.c -o "$objects/entry.o"
# What lets it load with glibc 2.31 (Scripts/plugin-compat.sh).
plugin_compat "$objects"

# The built-in documents (Sessions/*.toneshaper), in name order as the node lists them,
# compiled in: a CLAP plugin is one file that users copy anywhere, so there is no folder
# beside it to lose.
builtins=$objects/builtins.c
{
    printf '#include <stddef.h>\n'
    names=()
    index=0
    while IFS= read -r file; do
        printf 'static const unsigned char document%d[] = {' "$index"
        od -An -v -tx1 "$file" | tr -s ' \n' ' ' | sed -e 's/^ //' -e 's/ $//' -e 's/ /,0x/g' -e 's/^/0x/'
        printf '};\n'
        names+=("$(basename "$file" .toneshaper)")
        index=$((index + 1))
    done < <(find Sessions -maxdepth 1 -name '*.toneshaper' | LC_ALL=C sort)
    printf 'static const unsigned char *const documents[] = {'
    for ((i = 0; i < index; i++)); do printf 'document%d,' "$i"; done
    printf '};\nstatic const size_t sizes[] = {'
    for ((i = 0; i < index; i++)); do printf 'sizeof document%d,' "$i"; done
    printf '};\nstatic const char *const names[] = {'
    for name in "${names[@]}"; do printf '"%s",' "$name"; done
    printf '};\n'
    printf 'int toneshaper_clap_builtin_count(void) { return %d; }\n' "$index"
    printf 'const unsigned char *toneshaper_clap_builtin(int index, size_t *size, const char **name) {\n'
    printf '    if (index < 0 || index >= %d) return 0;\n    *size = sizes[index];\n    *name = names[index];\n    return documents[index];\n}\n' "$index"
} >"$builtins"
cc -std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -c "$builtins" -o "$objects/builtins.o"

cat >"$objects/exports.map" <<'MAP'
{
    global: clap_entry;
    local: *;
};
MAP
unicode_tables=$(dirname "$(command -v swiftc)")/../lib/swift/embedded/$(uname -m)-unknown-linux-gnu/libswiftUnicodeDataTables.a
[[ -f $unicode_tables ]] || die "no $unicode_tables (the Swift toolchain's Embedded stdlib)"
so=$out/toneshaper.clap
cc -shared -fPIC -O2 -Wl,--version-script="$objects/exports.map" -Wl,-z,defs -Wl,-z,relro -Wl,-z,now -Wl,--gc-sections -Wl,--build-id=sha1 \
    -o "$so.partial" "$objects"/*.o "${PLUGIN_COMPAT_LINK[@]:1}" "$unicode_tables" -lcairo -lX11 -lm -lpthread "${PLUGIN_COMPAT_LIBS[@]}"
plugin_compat_check "$so.partial" || die "$so would not load with glibc $PLUGIN_GLIBC"
mv "$so.partial" "$so"

if ldd "$so" | grep -q 'libswift'; then
    ldd "$so" >&2
    die "$so depends on the Swift runtime"
fi
exported=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort -u)
[[ $exported == clap_entry ]] || die "$so exports more than clap_entry: $(echo "$exported" | tr '\n' ' ')"
say "plugin: $so ($(stat -c %s "$so") bytes; needs: $(ldd "$so" | awk '{print $1}' | tr '\n' ' '))"
