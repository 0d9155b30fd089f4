# The audio side's modules as Embedded Swift compiles them, shared by Scripts/embedded-check.sh
# and Scripts/build-lv2.sh (sourced by them, not run on its own).
#
# EMBEDDED_MODULES, in dependency order (JSON, the parameters, the audio side, the model every host shares,
# the format-neutral plugin core, the LV2 port layout): name | extra compiler flags | its sources. The render
# kernel comes at every x86-64 level, as Package.swift builds it, so the plugin chooses the
# level the CPU runs (KernelLevel) exactly as the node does.
EMBEDDED_MODULES=(
    "ToneShaperJSON | | Sources/ToneShaperJSON/*.swift"
    "ToneShaperParameters | | $(find Sources/ToneShaperParameters -name '*.swift' | sort | tr '\n' ' ')"
    "ToneShaperDSP | | Sources/ToneShaperDSP/*.swift"
    "ToneShaperKernelBaseline | | Sources/ToneShaperKernelBaseline/*.swift"
)
if [[ $(uname -m) == x86_64 ]]; then
    EMBEDDED_MODULES+=(
        "ToneShaperKernelV3 | -Xcc -march=x86-64-v3 -D FUSED_MULTIPLY_ADD | Sources/ToneShaperKernelV3/*.swift"
        "ToneShaperKernelV4 | -Xcc -march=x86-64-v4 -D FUSED_MULTIPLY_ADD | Sources/ToneShaperKernelV4/*.swift"
    )
fi
EMBEDDED_MODULES+=(
    "ToneShaperAudio | | $(find Sources/ToneShaperAudio -name '*.swift' | sort | tr '\n' ' ')"
    "ToneShaperModel | | $(find Sources/ToneShaperModel -name '*.swift' | sort | tr '\n' ' ')"
    "ToneShaperPlugin | | Sources/ToneShaperPlugin/*.swift"
    "ToneShaperLV2Layout | | Sources/ToneShaperLV2Layout/*.swift"
)

# The flags every module compiles with: Embedded, whole-module, optimised, with the release
# build's real-time proof (@_noLocks, @_noAllocation) on, position-independent (a plugin is a
# shared object). $1: the directory of module maps and compiled modules.
embedded_flags() {
    EMBEDDED_FLAGS=(-enable-experimental-feature Embedded -wmo -parse-as-library -target "$(uname -m)-unknown-linux-gnu" -O
        -D REALTIME_PROOF -I "$1" -Xcc -fPIC -Xllvm -relocation-model=pic -package-name ToneShaper
        -file-prefix-map "$PWD=.")
}

# Writes $1/module.modulemap: the C modules the Swift ones import, mapped as SwiftPM would
# (Embedded Swift imports no C library module, Glibc, itself).
embedded_module_map() {
    cat >"$1/module.modulemap" <<MAP
module CPUFeatures {
    header "$PWD/Sources/CPUFeatures/include/cpu_features.h"
    export *
}
module CNumberText {
    header "$PWD/Sources/CNumberText/include/number_text.h"
    export *
}
module CPluginSupport {
    header "$PWD/Sources/CPluginSupport/include/plugin_support.h"
    export *
}
MAP
}

# Compiles module $1 with the extra flags $2 (one word, may be empty) from the sources that
# follow, into $EMBEDDED_OUT.
embedded_compile() {
    local name=$1
    local extra=($2)
    shift 2
    swiftc "${EMBEDDED_FLAGS[@]}" "${extra[@]}" -module-name "$name" -emit-module \
        -emit-module-path "$EMBEDDED_OUT/$name.swiftmodule" -c "$@" -o "$EMBEDDED_OUT/$name.o"
    printf '==> compiled %s in Embedded Swift (%s files)\n' "$name" "$#"
}

# The editor window (Sources/ToneShaperEditor): X11 and cairo, so it is compiled only into
# what shows a window (the LV2 UI's shared object, the CLAP plugin), not with the audio
# side's modules. Its C (module CEditor) is mapped into $1/module.modulemap, then the module
# is compiled into $1 (EMBEDDED_FLAGS must already hold the directory of the audio side's
# modules, which it imports).
embedded_compile_editor() {
    [[ -f /usr/include/cairo/cairo-xlib.h && -f /usr/include/X11/Xlib.h ]] ||
        { printf 'no Xlib or cairo headers (Debian: apt-get install libx11-dev libcairo2-dev, or bash Scripts/setup.sh)\n' >&2; return 1; }
    cat >>"$1/module.modulemap" <<MAP
module CEditor {
    header "$PWD/Sources/ToneShaperEditor/CEditor/ceditor.h"
    link "X11"
    link "cairo"
    export *
}
MAP
    EMBEDDED_OUT=$1
    embedded_compile ToneShaperEditor "" Sources/ToneShaperEditor/*.swift
}

# Compiles every module of EMBEDDED_MODULES into directory $1.
embedded_compile_all() {
    EMBEDDED_OUT=$1
    embedded_flags "$1"
    local module name extra sources
    for module in "${EMBEDDED_MODULES[@]}"; do
        IFS='|' read -r name extra sources <<<"$module"
        # shellcheck disable=SC2086 # the glob of sources expands here
        embedded_compile $name "$extra" $sources
    done
}
