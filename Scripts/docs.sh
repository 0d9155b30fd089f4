#!/usr/bin/env bash
# Builds the documentation site of the DocC catalog (Sources/ToneShaperCore/ToneShaperCore.docc:
# the articles and the core's API) into .build/docs, and fails if DocC warns about anything
# (a broken link, a missing image, an unknown symbol).
#
#   bash Scripts/docs.sh                    # build the site, print where it is
#   python3 -m http.server -d .build/docs   # then open http://localhost:8000/documentation/toneshapercore
#
# How: the toolchain's own `docc` converts the catalog with the core's symbol graph, which
# `swift package dump-symbol-graph` extracts from the debug build in .build. That build is the
# one `swift build` and `swift test` make, so after them this takes seconds, and on a fresh
# checkout the build it makes is reused by the tests. (swift-docc-plugin would do the same
# through a package dependency and a plugin to compile; -emit-symbol-graph would need a build
# of its own.) The package's system libraries must be installed: bash Scripts/setup.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
started=$(date +%s)

catalog=Sources/ToneShaperCore/ToneShaperCore.docc
site=.build/docs
graphs=.build/docs-symbol-graphs

# docc ships with the Swift toolchain, beside swift itself.
docc=$(command -v docc || true)
if [[ -z $docc ]]; then
    swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
    [[ -x $swift_bin/docc ]] && docc=$swift_bin/docc
fi
if [[ -z $docc ]]; then
    echo "docs.sh: no docc found on PATH or beside swift; it comes with the Swift toolchain (6.0 or later)" >&2
    exit 1
fi

say "swift package dump-symbol-graph (builds the package in debug if needed)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift package dump-symbol-graph >"$log" 2>&1; then
    cat "$log" >&2
    echo "docs.sh: the build failed; if a system library is missing, run: bash Scripts/setup.sh" >&2
    exit 1
fi
written=$(sed -n 's/^Files written to //p' "$log" | tail -n 1)
if [[ -z $written || ! -f $written/ToneShaperCore.symbols.json ]]; then
    cat "$log" >&2
    echo "docs.sh: dump-symbol-graph wrote no ToneShaperCore.symbols.json" >&2
    exit 1
fi

# Only the core's graphs (its own symbols and its extensions of ToneShaperDSP's types): docc
# documents one module per catalog.
rm -rf "$graphs" "$site"
mkdir -p "$graphs"
shopt -s nullglob
cp "$written"/ToneShaperCore.symbols.json "$written"/ToneShaperCore@*.symbols.json "$graphs"/

say "docc convert $catalog"
if ! "$docc" convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-dir "$site" \
    --fallback-display-name ToneShaperCore --fallback-bundle-identifier toneshaper.ToneShaperCore \
    --warnings-as-errors >"$log" 2>&1; then
    cat "$log" >&2
    echo "docs.sh: docc failed (every warning counts as an error)" >&2
    exit 1
fi
# --warnings-as-errors makes docc fail on a warning; this catches any that still got through.
if grep -Eq '(^|: )(warning|error):' "$log"; then
    cat "$log" >&2
    echo "docs.sh: docc printed warnings" >&2
    exit 1
fi

say "Documentation built in $(($(date +%s) - started)) s: $PWD/$site"
say "View it: python3 -m http.server -d $site, then open http://localhost:8000/documentation/toneshapercore"
