#!/usr/bin/env bash
# Compiles the audio side in Embedded Swift, as an LV2 plugin that ships no Swift runtime
# will: the DSP module (plans, voices, waves, scalings, the kernel level's selection), the
# render kernel at each of its levels, and ToneShaperAudio (the engine, its voices and mix,
# MIDI performance, the command schedule, the lock-free channels, plan building), each
# whole-module, for x86_64, with the release build's real-time proof (@_noLocks,
# @_noAllocation) on. Fails on the first error.
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
module() {  # name, extra flags (one word, may be empty), then its sources
    local name=$1
    local extra=($2)
    shift 2
    swiftc "${flags[@]}" "${extra[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" -c "$@" -o "$out/$name.o"
    echo "embedded: $name compiles ($(($# )) files)"
}
module ToneShaperDSP "" Sources/ToneShaperDSP/*.swift
module ToneShaperKernelBaseline "" Sources/ToneShaperKernelBaseline/*.swift
# The same sources at the higher x86-64 levels, as Package.swift builds them.
module ToneShaperKernelV3 "-Xcc -march=x86-64-v3 -D FUSED_MULTIPLY_ADD" Sources/ToneShaperKernelV3/*.swift
module ToneShaperKernelV4 "-Xcc -march=x86-64-v4 -D FUSED_MULTIPLY_ADD" Sources/ToneShaperKernelV4/*.swift
module ToneShaperAudio "" $(find Sources/ToneShaperAudio -name '*.swift' | sort)
# The JSON reader and writer the plugin shares with the node, and its number-text C module.
cat >> "$out/module.modulemap" <<MAP
module CNumberText {
    header "$PWD/Sources/CNumberText/include/number_text.h"
    export *
}
MAP
module ToneShaperJSON "" Sources/ToneShaperJSON/*.swift
