#!/usr/bin/env bash
# Builds the CLAP plugin .build/clap/toneshaper.clap in Embedded Swift: no Swift runtime to
# ship, one file that holds both plugins (mono and stereo) and the built-in shapes.
#
#   bash Scripts/build-clap.sh            # prints the file's path and size
#   bash Scripts/build-clap.sh --shell-only   # recompiles only the shell over the modules
#                                             # the last full build left (while working on it)
#
# The modules of Scripts/embedded-modules.sh are compiled as Scripts/build-lv2.sh compiles
# them (whole-module, Embedded, position-independent, with the real-time proof on), then the
# editor window (Sources/ToneShaperEditor, clap.gui's; Xlib and cairo), the plugin's shell
# (Sources/ToneShaperCLAP/*.swift) over them and its C (the CLAP declarations
# of Sources/ToneShaperCLAP/CCLAP, the entry and factory, the built-in documents compiled in
# as data), and everything is linked with a version script that exports clap_entry alone.
# The result is checked: no libswift* in ldd, no defined dynamic symbol but clap_entry.
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/embedded-modules.sh
source Scripts/plugin-compat.sh
source Scripts/plugin-shell.sh

out=.build/clap
objects=.build/clap-objects
shell_only=0
[[ ${1:-} == --shell-only && -f $objects/ToneShaperPlugin.o ]] && shell_only=1
rm -f "$out/toneshaper.clap"
mkdir -p "$out"
# The modules are compiled as Scripts/build-lv2.sh compiles them (Scripts/embedded-modules.sh,
# the same flags): its objects are taken when they are newer than every source they come
# from (Scripts/test.sh builds the LV2 plugin first), else compiled here.
plugin_shell_prepare "$objects" "$shell_only" CCLAP Sources/ToneShaperCLAP/CCLAP/cclap.h .build/vst3-objects
embedded_compile ToneShaperCLAP "" Sources/ToneShaperCLAP/*.swift

plugin_shell_c "$objects"
# The descriptors' version: the program's (Sources/toneshaper/Version.swift, its one place).
plugin_version || die "no version"
cc -std=gnu11 -O2 -fPIC -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -D TONESHAPER_VERSION="\"$PLUGIN_VERSION\"" \
    -I Sources/CPluginSupport/include -c Sources/ToneShaperCLAP/CCLAP/entry.c -o "$objects/entry.o"
# The built-in documents (Sessions/*.toneshaper), in name order as the node lists them,
# compiled in: a CLAP plugin is one file that users copy anywhere, so there is no folder
# beside it to lose.
plugin_builtins "$objects" toneshaper_clap

plugin_link "$objects" "$out/toneshaper.clap" clap_entry || die "the plugin failed its checks"
