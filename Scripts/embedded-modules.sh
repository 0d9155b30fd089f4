# The plugins' modules as Embedded Swift compiles them, shared by Scripts/build-lv2.sh,
# Scripts/build-clap.sh and Scripts/embedded-check.sh (sourced by them, not run on its own).
#
# Every module is a target of Package.swift, declared there once: the audio side, the plugin
# core, the editor window, each format's shell and its C. The scripts read that graph
# (`swift package dump-package`, under a second; Scripts/embedded-graph.py turns it into
# modules): which modules a plugin is made of (its shell's target and every target below it),
# their order, their sources and their extra flags (a target's unsafeFlags and defines, e.g.
# the kernel levels' -Xcc -march=x86-64-v3 -D FUSED_MULTIPLY_ADD), and the C modules' module
# map (a C target's include folder, its linkerSettings' libraries). Why read the graph rather
# than `swift build` with an Embedded triple or a SwiftPM build plugin: the scripts keep their
# own compile and link, so the plugins come out as before (the LV2 plugin byte for byte); a
# `swift build` in Embedded mode would put its flags on every module of the build (it
# cannot tell the plugins' modules from those that need Foundation or Dispatch), would need
# a build directory of its own and a second compile of everything, and links no shared
# object with a version script and the glibc shim; a build plugin runs for one target, its
# outputs become that target's sources, so it cannot link a plugin from other targets.
# Reading the graph costs about half a second (dump-package; printed by each build).
#
# A shell is a library target no other target depends on, test targets included (only
# Scripts/embedded-check.sh needs that rule: it compiles what is below every shell; the build
# scripts name their shell). Adding one, e.g. VST3:
#   1. Package.swift: .target(name: "ToneShaperVST3", dependencies: [what it imports, "CVST3"])
#      and .target(name: "CVST3") (Sources/CVST3/include/cvst3.h, the format's ABI and the C
#      helpers Embedded Swift needs; a .c file beside include/, which SwiftPM wants). It must
#      build in `swift build` too (Swift 6 mode: a global C table is nonisolated(unsafe)).
#   2. Scripts/build-vst3.sh, as Scripts/build-clap.sh: source this file, then
#        embedded_modules closure ToneShaperVST3   # its modules, in order (reads the graph)
#        embedded_build "$objects"                 # compiles them into $objects
#      and link "$objects"/*.o, Sources/PluginCompat (Scripts/plugin-compat.sh) and the
#      Unicode tables with a version script exporting the format's entry alone (or, as the
#      LV2 UI does, embedded_build "$objects" .build/lv2-objects takes the LV2 build's
#      modules instead of compiling them again, and embedded_objects "$objects"
#      .build/lv2-objects lists what to link). C that goes into the plugin alone (as CCLAP's
#      entry.c, with the version) is excluded from its C target (exclude:) and compiled by
#      the script.

# The flags every module compiles with that a target's settings may repeat (those are left
# out of its extra flags): optimised, with the release build's real-time proof.
EMBEDDED_COMMON=(-O -D REALTIME_PROOF)

say_graph() { printf '==> %s\n' "$*"; }

# Reads Package.swift's graph into EMBEDDED_GRAPH (once per script), and says how long it took.
embedded_graph() {
    [[ -n ${EMBEDDED_GRAPH:-} ]] && return 0
    command -v python3 >/dev/null || { printf 'python3 is not on PATH (it reads the package graph)\n' >&2; return 1; }
    local start=$EPOCHREALTIME
    # A scratch path of its own: SwiftPM locks .build while it builds or tests, and the tests
    # run these scripts (a plugin missing) under `swift test`.
    EMBEDDED_GRAPH=$(swift package --scratch-path .build/package-graph dump-package) || { printf 'swift package dump-package failed\n' >&2; return 1; }
    say_graph "package graph read (swift package dump-package) in $(awk -v start="$start" -v end="$EPOCHREALTIME" 'BEGIN { printf "%.2f", end - start }') s"
}

# Sets EMBEDDED_MODULES to the modules of Scripts/embedded-graph.py's $@ (closure TARGET...,
# or check), one a line in dependency order: swift|NAME|FLAGS|SOURCES or
# c|NAME|FLAGS|SOURCES|HEADERS|LIBRARIES|INCLUDE.
embedded_modules() {
    embedded_graph || return 1
    local listing
    listing=$(EMBEDDED_COMMON="${EMBEDDED_COMMON[*]}" python3 Scripts/embedded-graph.py "$@" <<<"$EMBEDDED_GRAPH") || return 1
    mapfile -t EMBEDDED_MODULES <<<"$listing"
}

# The flags every module compiles with: Embedded, whole-module, optimised, with the release
# build's real-time proof (@_noLocks, @_noAllocation) on, position-independent (a plugin is a
# shared object). $@: the directories of module maps and compiled modules.
embedded_flags() {
    EMBEDDED_FLAGS=(-enable-experimental-feature Embedded -wmo -parse-as-library -target "$(uname -m)-unknown-linux-gnu" "${EMBEDDED_COMMON[@]}")
    local directory
    for directory in "$@"; do EMBEDDED_FLAGS+=(-I "$directory"); done
    EMBEDDED_FLAGS+=(-Xcc -fPIC -Xllvm -relocation-model=pic -package-name ToneShaper -file-prefix-map "$PWD=.")
}

# Compiles module $1 with the extra flags $2 (one word, may be empty) from the sources that
# follow, into $EMBEDDED_OUT.
embedded_compile() {
    local name=$1
    local extra=($2)
    shift 2
    swiftc "${EMBEDDED_FLAGS[@]}" "${extra[@]}" -module-name "$name" -emit-module \
        -emit-module-path "$EMBEDDED_OUT/$name.swiftmodule" -c "$@" -o "$EMBEDDED_OUT/$name.o" || return 1
    printf '==> compiled %s in Embedded Swift (%s files)\n' "$name" "$#"
}

# Compiles EMBEDDED_MODULES into directory $1, over the directories that follow (modules an
# earlier build compiled there are taken, not compiled again): a C module is mapped into
# $1/module.modulemap (as SwiftPM maps it; Embedded Swift imports no C library module,
# Glibc, itself) and its sources compiled as SwiftPM would; a Swift module is compiled
# unless its .swiftmodule is there already. The C modules come first (they import no Swift
# module, and the map is whole before any swiftc reads it); then the Swift modules, up to
# EMBEDDED_JOBS at once (the processors, `nproc`), each once the modules it imports are
# compiled: a whole-module compile keeps one core busy, and the kernel levels, the LV2
# shell and the layout need not wait for each other.
embedded_build() {
    local out=$1 kind name extra sources headers libraries include have directory header library source object dependency finished
    local -A objects=() running=()
    local jobs=${EMBEDDED_JOBS:-$(nproc 2>/dev/null || echo 1)} status=0
    shift
    EMBEDDED_OUT=$out
    embedded_flags "$out" "$@"
    : >"$out/module.modulemap"
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r kind name extra sources headers libraries include <<<"$module"
        [[ $kind == c ]] || continue
        have=""
        for directory in "$@"; do
            grep -qs "^module $name {" "$directory/module.modulemap" && have=$directory
        done
        [[ -n $have ]] && continue
        {
            printf 'module %s {\n' "$name"
            for header in $headers; do printf '    header "%s"\n' "$PWD/$header"; done
            for library in $libraries; do printf '    link "%s"\n' "$library"; done
            printf '    export *\n}\n'
        } >>"$out/module.modulemap"
        for source in $sources; do
            object=$out/$(basename "$source" .c).o
            [[ -z ${objects[$object]:-} ]] || { printf '%s and %s make the same object %s\n' "${objects[$object]}" "$source" "$object" >&2; return 1; }
            objects[$object]=$source
            # shellcheck disable=SC2086 # the flags are words
            cc -std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. $extra -I "$include" -c "$source" -o "$object"
        done
    done
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r kind name extra sources headers _ <<<"$module"
        [[ $kind == swift ]] || continue
        have=""
        for directory in "$out" "$@"; do
            [[ -f $directory/$name.swiftmodule ]] && have=$directory
        done
        [[ -n $have ]] && continue
        for dependency in $headers; do  # a Swift line's fifth field: what it imports
            [[ -n ${running[$dependency]:-} ]] || continue
            wait "${running[$dependency]}" || status=1
            unset "running[$dependency]"
        done
        while ((${#running[@]} >= jobs)); do
            wait -n -p finished "${running[@]}" || status=1
            for dependency in "${!running[@]}"; do
                [[ ${running[$dependency]} == "$finished" ]] && unset "running[$dependency]"
            done
        done
        ((status == 0)) || break
        # shellcheck disable=SC2086 # the sources are words
        embedded_compile "$name" "$extra" $sources &
        running[$name]=$!
    done
    for dependency in "${!running[@]}"; do wait "${running[$dependency]}" || status=1; done
    return "$status"
}

# Prints the object files of EMBEDDED_MODULES, each from the first of the directories $@ that
# has it.
embedded_objects() {
    local kind name extra sources object directory source names
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r kind name extra sources _ <<<"$module"
        if [[ $kind == swift ]]; then
            names=("$name.o")
        else
            names=()
            for source in $sources; do names+=("$(basename "$source" .c).o"); done
        fi
        for object in "${names[@]}"; do
            for directory in "$@"; do
                [[ -f $directory/$object ]] && { printf '%s\n' "$directory/$object"; break; }
            done
        done
    done
}

# Prints every file EMBEDDED_MODULES are compiled from: sources and C headers.
embedded_sources() {
    local kind name extra sources headers
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r kind name extra sources headers _ <<<"$module"
        [[ $kind == c ]] || headers=""  # (a Swift line's fifth field is what it imports)
        # shellcheck disable=SC2086 # the files are words
        printf '%s\n' $sources $headers
    done
}
