#!/usr/bin/env bash
# Compiles the audio side in Embedded Swift, as the LV2 plugin (which ships no Swift runtime)
# compiles it: the DSP module (plans, voices, waves, scalings, the kernel level's selection),
# the render kernel at each of its levels, ToneShaperAudio (the engine, its voices and mix,
# MIDI performance, the command schedule, the lock-free channels, plan building) and
# ToneShaperJSON, each whole-module, with the release build's real-time proof (@_noLocks,
# @_noAllocation) on. Fails on the first error. The modules and flags are those of
# Scripts/embedded-modules.sh, which Scripts/build-lv2.sh uses too; this check needs neither
# the LV2 headers nor a link, so it is the quick one while working on the audio side.
#
#   bash Scripts/embedded-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/embedded-modules.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
embedded_module_map "$out"
embedded_compile_all "$out"
