#!/usr/bin/env bash
# Builds the VST 3 plugin .build/vst3/toneshaper.vst3 in Embedded Swift: no Swift runtime to
# ship, one bundle whose shared object holds both instruments (mono and stereo) and the
# built-in shapes, laid out as Steinberg's bundles are on Linux:
#
#   toneshaper.vst3/Contents/x86_64-linux/toneshaper.so
#   toneshaper.vst3/Contents/Resources/moduleinfo.json      what a host may read without loading it
#
#   bash Scripts/build-vst3.sh                # prints the shared object's path and size
#   bash Scripts/build-vst3.sh --shell-only   # recompiles only the shell over the modules
#                                             # the last full build left (while working on it)
#
# As Scripts/build-clap.sh builds the CLAP plugin (Scripts/plugin-shell.sh: the same modules,
# the objects of Scripts/build-lv2.sh or of the CLAP build taken when fresh), with the shell
# of Sources/ToneShaperVST3 (Swift) and Sources/CVST3 (the VST 3 declarations, the factory and
# the entry points). The result is checked: no libswift* in ldd, no defined dynamic symbol but
# GetPluginFactory, ModuleEntry and ModuleExit.
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/embedded-modules.sh
source Scripts/plugin-compat.sh
source Scripts/plugin-shell.sh

bundle=.build/vst3/toneshaper.vst3
binary=$bundle/Contents/$(uname -m)-linux
objects=.build/vst3-objects
shell_only=0
[[ ${1:-} == --shell-only ]] && shell_only=1
rm -rf "$bundle"
mkdir -p "$binary" "$bundle/Contents/Resources"
# Its shell's target (ToneShaperVST3) and every target below it in Package.swift.
plugin_shell_build ToneShaperVST3 "$objects" "$shell_only"

plugin_version || die "no version"
cc -std=gnu11 -O2 -fPIC -fvisibility=hidden -Wall -Wextra -Werror -ffile-prefix-map="$PWD"=. -D TONESHAPER_VERSION="\"$PLUGIN_VERSION\"" \
    -I Sources/CVST3/include -I Sources/CPluginSupport/include -c Sources/CVST3/entry.c -o "$objects/entry.o"
plugin_compat "$objects"
plugin_builtins "$objects" toneshaper_vst3
plugin_link "$objects" "$binary/toneshaper.so" GetPluginFactory ModuleEntry ModuleExit || die "the plugin failed its checks"

# moduleinfo.json (VST 3.7.5): the factory's classes, as entry.c declares them.
class_id() {
    sed -n "s/^ *UID(0x\([0-9A-F]*\), 0x\([0-9A-F]*\), 0x\([0-9A-F]*\), 0x\([0-9A-F]*\)),  \/\/ ToneShaper ($1)/\1\2\3\4/p" \
        Sources/CVST3/entry.c
}
mono=$(class_id mono)
stereo=$(class_id stereo)
[[ ${#mono} == 32 && ${#stereo} == 32 ]] || die "no class ids in Sources/CVST3/entry.c"
class_json() {
    printf '    {\n      "CID": "%s",\n      "Category": "Audio Module Class",\n      "Name": "%s",\n' "$1" "$2"
    printf '      "Vendor": "ToneShaper",\n      "Version": "%s",\n      "SDKVersion": "VST 3.7.9",\n' "$PLUGIN_VERSION"
    printf '      "Sub Categories": ["Instrument", "Synth"],\n      "Class Flags": 2,\n      "Cardinality": 2147483647,\n'
    printf '      "Snapshots": []\n    }'
}
{
    printf '{\n  "Name": "toneshaper",\n  "Version": "%s",\n' "$PLUGIN_VERSION"
    printf '  "Factory Info": {\n    "Vendor": "ToneShaper",\n    "URL": "",\n    "E-Mail": "",\n'
    printf '    "Flags": {\n      "Unicode": true,\n      "Classes Discardable": false,\n      "Component Non Discardable": false\n    }\n  },\n'
    printf '  "Compatibility": [],\n  "Classes": [\n'
    class_json "$mono" "ToneShaper"
    printf ',\n'
    class_json "$stereo" "ToneShaper (stereo)"
    printf '\n  ]\n}\n'
} >"$bundle/Contents/Resources/moduleinfo.json"
say "bundle: $bundle"
