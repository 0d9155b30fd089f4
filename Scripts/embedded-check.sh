#!/usr/bin/env bash
# Compiles the audio side in Embedded Swift, as an LV2 plugin that ships no Swift runtime
# will: the DSP module (plans, voices, waves, scalings, the kernel level's selection) and
# the render kernel at its baseline level, whole-module, for x86_64, with the release
# build's real-time proof (@_noLocks, @_noAllocation) on. Fails on the first error.
#
#   bash Scripts/embedded-check.sh
#
# The C module they import (CPUFeatures: cpuid, getenv) gets a module map of its own here,
# as SwiftPM would give it; Embedded Swift imports no C library module (Glibc) itself.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/module.modulemap" <<MAP
module CPUFeatures {
    header "$PWD/Sources/CPUFeatures/include/cpu_features.h"
    export *
}
MAP
flags=(-enable-experimental-feature Embedded -wmo -parse-as-library -target x86_64-unknown-linux-gnu -O
    -D REALTIME_PROOF -I "$out")
module() {  # name, then its sources
    local name=$1
    shift
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" -c "$@" -o "$out/$name.o"
    echo "embedded: $name compiles ($(($# )) files)"
}
module ToneShaperDSP Sources/ToneShaperDSP/*.swift
module ToneShaperKernelBaseline Sources/ToneShaperKernelBaseline/*.swift
# The JSON reader and writer the plugin shares with the node, and its number-text C module.
cat >> "$out/module.modulemap" <<MAP
module CNumberText {
    header "$PWD/Sources/CNumberText/include/number_text.h"
    export *
}
MAP
module ToneShaperJSON Sources/ToneShaperJSON/*.swift
