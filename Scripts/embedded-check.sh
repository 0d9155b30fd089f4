#!/usr/bin/env bash
# Compiles the plugins' modules below their shells in Embedded Swift, as the plugins (which
# ship no Swift runtime) compile them: every target of Package.swift below a shell (a target
# no other target depends on: ToneShaperLV2, ToneShaperLV2UI, ToneShaperCLAP) but those that
# link a system library (the editor window: Xlib, cairo) — the audio side (JSON, the
# parameters, the DSP module, the render kernel at each of its levels, ToneShaperAudio), the
# model, the plugin core, the LV2 port layout — each whole-module, with the release build's
# real-time proof (@_noLocks, @_noAllocation) on. Fails on the first error. The modules and
# flags come from Scripts/embedded-modules.sh, as Scripts/build-lv2.sh's do; this check needs
# neither the LV2 headers nor a link, so it is the quick one while working on the audio side.
#
#   bash Scripts/embedded-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/embedded-modules.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
embedded_modules check
embedded_build "$out"
