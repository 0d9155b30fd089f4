#!/usr/bin/env bash
# Builds the LV2 plugin bundle .build/lv2/toneshaper.lv2/ (toneshaper.so and the committed
# .ttl files of Sources/ToneShaperLV2/Bundle) in Embedded Swift: no Swift runtime to ship.
#
#   bash Scripts/build-lv2.sh            # prints the bundle's path and the .so's size
#
# Each module of Scripts/embedded-modules.sh is compiled whole-module, Embedded,
# position-independent, with the real-time proof (REALTIME_PROOF: @_noLocks, @_noAllocation)
# on, as Scripts/embedded-check.sh compiles them; then the plugin's shell
# (Sources/ToneShaperLV2/*.swift) over them, and everything is linked with `cc -shared` and a version script that exports lv2_descriptor
# alone (without it the object would export weak swift_* runtime symbols that another
# Swift-built library in the same host could bind to). The result is checked: no libswift*
# in ldd, no defined dynamic symbol but lv2_descriptor. Fails loudly otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

source Scripts/embedded-modules.sh

say() { printf '==> %s\n' "$*"; }
die() { printf 'build-lv2.sh: %s\n' "$*" >&2; exit 1; }

[[ -f /usr/include/lv2/core/lv2.h ]] || die "no LV2 headers in /usr/include/lv2 (Debian: apt-get install lv2-dev, or bash Scripts/setup.sh)"
command -v swiftc >/dev/null || die "swiftc is not on PATH (the Swift 6.3 toolchain)"

out=.build/lv2
objects=.build/lv2-objects
bundle=$out/toneshaper.lv2
rm -rf "$objects" "$bundle"
mkdir -p "$objects" "$bundle"

# C modules: those of Scripts/embedded-modules.sh, and the LV2 headers with their shims.
embedded_module_map "$objects"
cat >>"$objects/module.modulemap" <<MAP
module CLV2 {
    header "$PWD/Sources/ToneShaperLV2/CLV2/clv2.h"
    export *
}
MAP
embedded_compile_all "$objects"
embedded_compile ToneShaperLV2 "" Sources/ToneShaperLV2/*.swift

# The C the modules import (the CPU feature probe, number text for JSON): compiled here as
# SwiftPM would.
cc -O2 -fPIC -c Sources/CPUFeatures/cpu_features.c -I Sources/CPUFeatures/include -o "$objects/cpu_features.o"
cc -O2 -fPIC -c Sources/CNumberText/number_text.c -I Sources/CNumberText/include -o "$objects/number_text.o"

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
cc -shared -fPIC -O2 -Wl,--version-script="$objects/exports.map" -Wl,-z,defs -Wl,--gc-sections -o "$so" "$objects"/*.o \
    "$unicode_tables" -lm
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
say "bundle: $bundle ($(stat -c %s "$so") bytes toneshaper.so; needs: $(ldd "$so" | awk '{print $1}' | tr '\n' ' '))"
