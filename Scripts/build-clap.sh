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
source Scripts/plugin-shell.sh

out=.build/clap
objects=.build/clap-objects
shell_only=0
[[ ${1:-} == --shell-only ]] && shell_only=1
rm -f "$out/toneshaper.clap"
mkdir -p "$out"
# The plugin: its shell's target (ToneShaperCLAP) and every target below it in Package.swift
# (Scripts/embedded-modules.sh): the plugin core and the audio side, the editor window, CCLAP.
plugin_shell_build ToneShaperCLAP "$objects" "$shell_only"

# The descriptors' version: the program's (Sources/toneshaper/Version.swift, its one place).
plugin_version || die "no version"
cc -std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -D TONESHAPER_VERSION="\"$PLUGIN_VERSION\"" \
    -I Sources/CCLAP/include -I Sources/CPluginSupport/include -c Sources/CCLAP/entry.c -o "$objects/entry.o"
# What lets it load with glibc 2.31 (Scripts/plugin-compat.sh).
plugin_compat "$objects"
# The built-in documents (Sessions/*.toneshaper), in name order as the node lists them,
# compiled in: a CLAP plugin is one file that users copy anywhere, so there is no folder
# beside it to lose.
plugin_builtins "$objects" toneshaper_clap
plugin_link "$objects" "$out/toneshaper.clap" clap_entry || die "the plugin failed its checks"
