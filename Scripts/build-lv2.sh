#!/usr/bin/env bash
# Builds the LV2 plugin bundle .build/lv2/toneshaper.lv2/ (toneshaper.so and the committed
# .ttl files of Sources/ToneShaperLV2/Bundle) in Embedded Swift: no Swift runtime to ship.
#
#   bash Scripts/build-lv2.sh            # prints the bundle's path and the .so's size
#
# The plugin is the target ToneShaperLV2 and every target below it in Package.swift (read by
# Scripts/embedded-modules.sh): each module is compiled whole-module, Embedded,
# position-independent, with the real-time proof (REALTIME_PROOF: @_noLocks, @_noAllocation)
# on, as Scripts/embedded-check.sh compiles them, the shell last, and everything is linked with `cc -shared` and a version script that exports lv2_descriptor
# alone (without it the object would export weak swift_* runtime symbols that another
# Swift-built library in the same host could bind to). The result is checked: no libswift*
# in ldd, no defined dynamic symbol but lv2_descriptor. Fails loudly otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/embedded-modules.sh
source Scripts/plugin-compat.sh

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-lv2.sh: %s\n' "$*" >&2; exit 1; }

[[ -f /usr/include/lv2/core/lv2.h ]] || die "no LV2 headers in /usr/include/lv2 (Debian: apt-get install lv2-dev, or bash Scripts/setup.sh)"
command -v swiftc >/dev/null || die "swiftc is not on PATH (the Swift 6.3 toolchain)"

out=.build/lv2
objects=.build/lv2-objects
bundle=$out/toneshaper.lv2
rm -rf "$objects" "$bundle"
mkdir -p "$objects" "$bundle"

# The plugin: its shell's target (ToneShaperLV2) and every target below it in Package.swift
# (Scripts/embedded-modules.sh), Swift in Embedded Swift and C as SwiftPM would compile it.
embedded_modules closure ToneShaperLV2
embedded_build "$objects"
# What lets both shared objects load with glibc 2.31 (Scripts/plugin-compat.sh): its object
# is in $objects, so both links take it.
plugin_compat "$objects"

cat >"$objects/exports.map" <<'MAP'
{
    global: lv2_descriptor;
    local: *;
};
MAP
# Embedded Swift's String case mapping (String.lowercased, in the kernel level's choice)
# needs the stdlib's Unicode tables: a static archive of data, linked in (no runtime).
unicode_tables=$(dirname "$(command -v swiftc)")/../lib/swift/embedded/$(uname -m)-unknown-linux-gnu/libswiftUnicodeDataTables.a
[[ -f $unicode_tables ]] || die "no $unicode_tables (the Swift toolchain's Embedded stdlib)"
so=$bundle/toneshaper.so
cc -shared -fPIC -O2 -Wl,--version-script="$objects/exports.map" -Wl,-z,defs -Wl,-z,relro -Wl,-z,now -Wl,--gc-sections -Wl,--build-id=sha1 \
    -o "$so" "$objects"/*.o "${PLUGIN_COMPAT_LINK[@]:1}" "$unicode_tables" -lm -lpthread "${PLUGIN_COMPAT_LIBS[@]}"

# The editor window (ui:X11UI): the window (Sources/ToneShaperEditor) and the LV2 UI shell
# over the same modules, Xlib and cairo, in a
# shared object of its own that exports lv2ui_descriptor alone (a host loads it only to
# show the window, and the plugin's .so links no X11 or cairo).
[[ -f /usr/include/cairo/cairo-xlib.h && -f /usr/include/X11/Xlib.h ]] || die "no Xlib or cairo headers (Debian: apt-get install libx11-dev libcairo2-dev, or bash Scripts/setup.sh)"
ui_objects=$objects/ui
mkdir -p "$ui_objects"
# The window's shell (ToneShaperLV2UI) and every target below it: the window itself
# (ToneShaperEditor, format-neutral) and what it has of the plugin's modules, taken from them.
embedded_modules closure ToneShaperLV2UI
embedded_build "$ui_objects" "$objects"
mapfile -t ui_link < <(embedded_objects "$ui_objects" "$objects")
cat >"$ui_objects/exports.map" <<'MAP'
{
    global: lv2ui_descriptor;
    local: *;
};
MAP
ui_so=$bundle/toneshaper_ui.so
cc -shared -fPIC -O2 -Wl,--version-script="$ui_objects/exports.map" -Wl,-z,defs -Wl,-z,relro -Wl,-z,now -Wl,--gc-sections -Wl,--build-id=sha1 \
    -o "$ui_so" "${PLUGIN_COMPAT_LINK[@]}" "${ui_link[@]}" "$unicode_tables" -lcairo -lX11 -lm

cp Sources/ToneShaperLV2/Bundle/*.ttl "$bundle/"
# The built-in documents, which MIDI program changes pick by name order (as the node lists them).
mkdir -p "$bundle/shapes"
cp Sessions/*.toneshaper "$bundle/shapes/"

# The checks: no Swift runtime library, one exported symbol.
if ldd "$so" | grep -q 'libswift'; then
    ldd "$so" >&2
    die "$so depends on the Swift runtime"
fi
exported=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort -u)
[[ $exported == lv2_descriptor ]] || die "$so exports more than lv2_descriptor: $(echo "$exported" | tr '\n' ' ')"
if ldd "$ui_so" | grep -q 'libswift'; then
    ldd "$ui_so" >&2
    die "$ui_so depends on the Swift runtime"
fi
exported=$(nm -D --defined-only "$ui_so" | awk '{print $NF}' | sort -u)
[[ $exported == lv2ui_descriptor ]] || die "$ui_so exports more than lv2ui_descriptor: $(echo "$exported" | tr '\n' ' ')"
plugin_compat_check "$so" || die "$so would not load with glibc $PLUGIN_GLIBC"
plugin_compat_check "$ui_so" || die "$ui_so would not load with glibc $PLUGIN_GLIBC"
say "editor window: $ui_so ($(stat -c %s "$ui_so") bytes)"
say "bundle: $bundle ($(stat -c %s "$so") bytes toneshaper.so; needs: $(ldd "$so" | awk '{print $1}' | tr '\n' ' '))"
