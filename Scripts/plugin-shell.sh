# What Scripts/build-clap.sh and Scripts/build-vst3.sh share (sourced by them after
# Scripts/embedded-modules.sh and Scripts/plugin-compat.sh, not run on its own): the modules
# under a plugin's shell, the built-in shapes compiled in, and the link into one shared object
# that exports the format's entry points alone, checked.

# The audio side's modules and the editor window into directory $1 (its module map already
# written): the objects of Scripts/build-lv2.sh (or of another plugin's build, $2) when they
# are newer than every source they come from, else compiled here.
plugin_shell_modules() {
    local objects=$1 other module name
    for other in .build/lv2-objects "${2:-}"; do
        [[ -n $other && -f $other/ToneShaperPlugin.o ]] || continue
        [[ -z $(find Scripts/embedded-modules.sh Scripts/build-lv2.sh Sources/ToneShaperDSP Sources/ToneShaperParameters \
            Sources/ToneShaperKernelBaseline Sources/ToneShaperKernelV3 Sources/ToneShaperKernelV4 Sources/ToneShaperAudio \
            Sources/ToneShaperJSON Sources/ToneShaperModel Sources/ToneShaperPlugin Sources/ToneShaperLV2Layout Sources/CPUFeatures \
            Sources/CNumberText Sources/CPluginSupport -newer "$other/ToneShaperPlugin.o" -print -quit) ]] || continue
        for module in "${EMBEDDED_MODULES[@]}"; do
            name=$(echo "${module%%|*}" | xargs)
            cp "$other/$name.o" "$other/$name.swiftmodule" "$objects/"
        done
        printf '==> modules: %s'"'"'s, compiled from the same sources\n' "$other"
        embedded_flags "$objects"
        EMBEDDED_OUT=$objects
        embedded_compile_editor "$objects"
        return
    done
    embedded_compile_all "$objects"
    embedded_compile_editor "$objects"
}

# The C every shell links: the CPU's features, the number text, the glibc shim.
plugin_shell_c() {
    cc -O2 -fPIC -ffile-prefix-map="$PWD"=. -c Sources/CPUFeatures/cpu_features.c -I Sources/CPUFeatures/include -o "$1/cpu_features.o"
    cc -O2 -fPIC -ffile-prefix-map="$PWD"=. -c Sources/CNumberText/number_text.c -I Sources/CNumberText/include -o "$1/number_text.o"
    plugin_compat "$1"
}

# The program's version (Sources/toneshaper/Version.swift, its one place), into PLUGIN_VERSION.
plugin_version() {
    PLUGIN_VERSION=$(sed -n 's/.*static let string = "\([0-9.]*\)".*/\1/p' Sources/toneshaper/Version.swift)
    [[ $PLUGIN_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { printf 'no version in Sources/toneshaper/Version.swift\n' >&2; return 1; }
}

# The built-in documents (Sessions/*.toneshaper), in name order as the node lists them,
# compiled into $1/builtins.o as data, with functions $2_builtin_count and $2_builtin: a
# plugin that is one file (or one bundle a host may copy) carries them inside.
plugin_builtins() {
    local builtins=$1/builtins.c prefix=$2 file index=0 i
    local names=()
    {
        printf '#include <stddef.h>\n'
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
        for file in "${names[@]}"; do printf '"%s",' "$file"; done
        printf '};\n'
        printf 'int %s_builtin_count(void) { return %d; }\n' "$prefix" "$index"
        printf 'const unsigned char *%s_builtin(int index, size_t *size, const char **name) {\n' "$prefix"
        printf '    if (index < 0 || index >= %d) return 0;\n    *size = sizes[index];\n    *name = names[index];\n    return documents[index];\n}\n' "$index"
    } >"$builtins"
    cc -std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -c "$builtins" -o "$1/builtins.o"
}

# Links every object of directory $1 into shared object $2 exporting only the symbols that
# follow, then checks it: it loads with the oldest glibc, needs no libswift*, and defines no
# other dynamic symbol.
plugin_link() {
    local objects=$1 so=$2 symbol exported
    shift 2
    {
        printf '{\n    global:'
        for symbol in "$@"; do printf ' %s;' "$symbol"; done
        printf '\n    local: *;\n};\n'
    } >"$objects/exports.map"
    local unicode_tables
    unicode_tables=$(dirname "$(command -v swiftc)")/../lib/swift/embedded/$(uname -m)-unknown-linux-gnu/libswiftUnicodeDataTables.a
    [[ -f $unicode_tables ]] || { printf 'no %s (the Swift toolchain'"'"'s Embedded stdlib)\n' "$unicode_tables" >&2; return 1; }
    cc -shared -fPIC -O2 -Wl,--version-script="$objects/exports.map" -Wl,-z,defs -Wl,-z,relro -Wl,-z,now -Wl,--gc-sections -Wl,--build-id=sha1 \
        -o "$so.partial" "$objects"/*.o "${PLUGIN_COMPAT_LINK[@]:1}" "$unicode_tables" -lcairo -lX11 -lm -lpthread "${PLUGIN_COMPAT_LIBS[@]}"
    plugin_compat_check "$so.partial" || { printf '%s would not load with glibc %s\n' "$so" "$PLUGIN_GLIBC" >&2; return 1; }
    mv "$so.partial" "$so"
    if ldd "$so" | grep -q 'libswift'; then
        ldd "$so" >&2
        printf '%s depends on the Swift runtime\n' "$so" >&2
        return 1
    fi
    exported=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort -u | tr '\n' ' ')
    [[ $exported == "$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')" ]] || { printf '%s exports other symbols: %s\n' "$so" "$exported" >&2; return 1; }
    printf '==> plugin: %s (%s bytes; needs: %s)\n' "$so" "$(stat -c %s "$so")" "$(ldd "$so" | awk '{print $1}' | tr '\n' ' ')"
}

# Directory $1 made ready for a shell's Swift: with $2 = 1 (--shell-only, while working on the
# shell or the editor window) the modules the last full build left are kept and only the
# editor window is compiled again; else everything is made anew: the module map, with the
# shell's C declarations as module $3 (header $4), and the modules (another shell's objects,
# directory $5, are taken when fresh).
plugin_shell_prepare() {
    local objects=$1
    if (($2)); then
        embedded_flags "$objects"
        EMBEDDED_OUT=$objects
        embedded_compile ToneShaperEditor "" Sources/ToneShaperEditor/*.swift
        return
    fi
    rm -rf "$objects"
    mkdir -p "$objects"
    embedded_module_map "$objects"
    printf 'module %s {\n    header "%s"\n    export *\n}\n' "$3" "$PWD/$4" >>"$objects/module.modulemap"
    plugin_shell_modules "$objects" "$5"
}

say() { printf '==> %s\n' "$*"; }
die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }
command -v swiftc >/dev/null || die "swiftc is not on PATH (the Swift 6.3 toolchain)"
