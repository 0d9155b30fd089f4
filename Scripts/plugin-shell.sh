# What Scripts/build-clap.sh and Scripts/build-vst3.sh share (sourced by them after
# Scripts/embedded-modules.sh and Scripts/plugin-compat.sh, not run on its own): a shell's
# modules from the package graph (the LV2 build's objects of the modules below it taken when
# fresh), the built-in shapes compiled in, and the link into one shared object that exports
# the format's entry points alone, checked.

say() { printf '==> %s\n' "$*"; }
die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }
command -v swiftc >/dev/null || die "swiftc is not on PATH (the Swift 6.3 toolchain)"
[[ -f /usr/include/cairo/cairo-xlib.h && -f /usr/include/X11/Xlib.h ]] ||
    die "no Xlib or cairo headers (Debian: apt-get install libx11-dev libcairo2-dev, or bash Scripts/setup.sh)"

# Shell target $1's modules (it and every target below it in Package.swift) compiled into
# directory $2; with $3 = 1 (--shell-only, while working on the shell or the editor window)
# the modules the last full build left are kept but those Scripts/build-lv2.sh does not
# compile. Scripts/build-lv2.sh's objects of the modules it shares are taken when every file
# they come from (theirs and their C's, the scripts, the graph) is older than the oldest of
# them (Scripts/test.sh builds the LV2 plugin first), else they are compiled here.
plugin_shell_build() {
    local shell=$1 objects=$2 shell_only=$3 lv2_objects=.build/lv2-objects module kind name rest oldest fresh=0 directory
    embedded_modules closure "$shell"
    # The LV2 build's modules, the editor window's (ToneShaperEditor, compiled for the LV2 UI
    # in its ui folder with the same flags) among them: CLAP and VST3 compiled it again each.
    local shared=() built=()
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r kind name rest <<<"$module"
        [[ $kind == swift ]] || continue
        for directory in "$lv2_objects" "$lv2_objects/ui"; do
            if [[ -f $directory/$name.swiftmodule ]]; then
                shared+=("$name")
                built+=("$directory/$name")
                break
            fi
        done
    done
    if ((shell_only)) && [[ -f $objects/$shell.swiftmodule ]]; then
        for module in "${EMBEDDED_MODULES[@]}"; do
            IFS='|' read -r kind name rest <<<"$module"
            [[ $kind == swift && ! -f $lv2_objects/$name.swiftmodule ]] && rm -f "$objects/$name.swiftmodule"
        done
    else
        rm -rf "$objects"
        mkdir -p "$objects"
        if ((${#shared[@]})); then
            oldest=$(ls -tr "${built[@]/%/.o}" 2>/dev/null | head -1) || true
            if [[ -n $oldest ]]; then
                local shell_modules=("${EMBEDDED_MODULES[@]}") inputs=()
                embedded_modules closure "${shared[@]}"
                mapfile -t inputs < <(embedded_sources)
                EMBEDDED_MODULES=("${shell_modules[@]}")
                [[ -z $(find Package.swift Scripts/embedded-modules.sh Scripts/embedded-graph.py Scripts/build-lv2.sh "${inputs[@]}" \
                    -newer "$oldest" -print -quit) ]] && fresh=1
            fi
        fi
        if ((fresh)); then
            for name in "${built[@]}"; do cp "$name.o" "$name.swiftmodule" "$objects/"; done
            say "modules: Scripts/build-lv2.sh's (${shared[*]}), compiled from the same sources"
        fi
    fi
    embedded_build "$objects"
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

