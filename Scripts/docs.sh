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
# one `swift build` and `swift test` make, so after them this takes seconds (about 7 s here),
# and on a fresh checkout the build it makes (about 2 min on 2 cores) is reused by the tests.
# swift-docc-plugin would do the same through a package dependency and a plugin to compile;
# -emit-symbol-graph would need a build of its own. The package's system libraries must be
# installed: bash Scripts/setup.sh.
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
stamp=$(mktemp)
trap 'rm -f "$log" "$stamp"' EXIT
# It builds every target but the tests, then extracts a graph for every module, the test
# modules included: before `swift build --build-tests` (or `swift test`) has built those, it
# reports them as errors and exits non-zero. Those two errors are expected; any other is not.
status=0
swift package dump-symbol-graph >"$log" 2>&1 || status=$?
unexpected=$(grep -E '(^|: )error:' "$log" |
    grep -Ev "Failed to emit symbol graph for 'ToneShaperPackage(Discovered)?Tests'" || true)
written=$(sed -n 's/^Files written to //p' "$log" | tail -n 1)
if ! grep -q '^Build complete!' "$log" || [[ -n $unexpected ]] ||
    [[ -z $written || ! $written/ToneShaperCore.symbols.json -nt $stamp ]]; then
    cat "$log" >&2
    echo "docs.sh: could not build the package or extract ToneShaperCore's symbol graph (dump-symbol-graph exited $status, see above); a missing system library is installed by bash Scripts/setup.sh" >&2
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
