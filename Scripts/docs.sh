#!/usr/bin/env bash
# Builds the two documentation sites into .build/docs, and fails if DocC warns about anything
# (a broken link, a missing image, an unknown symbol):
#
#   .build/docs/manual   the manual, Sources/ToneShaperManual/ToneShaper.docc: articles only
#                        (no symbol graph; code names in them are plain code voice)
#   .build/docs/api      the control module's API reference, Sources/ToneShaperControl/ToneShaperControl.docc
#
#   bash Scripts/docs.sh                    # build both, print where they are
#   python3 -m http.server -d .build/docs   # then open http://localhost:8000/manual/documentation/toneshaper
#                                           # and http://localhost:8000/api/documentation/toneshapercontrol
#
# How: the toolchain's own `docc` converts each catalog. The manual comes first and needs no
# build (seconds). The API catalog is converted with the core's symbol graph, which
# `swift package dump-symbol-graph` extracts from the debug build in .build. That build is the
# one `swift build` and `swift test` make, so after them this takes seconds (about 7 s here),
# and on a fresh checkout the build it makes (about 2 min on 2 cores) is reused by the tests.
# swift-docc-plugin would do the same through a package dependency and a plugin to compile;
# -emit-symbol-graph would need a build of its own. The package's system libraries must be
# installed: bash Scripts/setup.sh. Each site is built for the folder it is served from
# (--hosting-base-path), so one web server at .build/docs serves both.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }
started=$(date +%s)

manual_catalog=Sources/ToneShaperManual/ToneShaper.docc
api_catalog=Sources/ToneShaperControl/ToneShaperControl.docc
docs=.build/docs
manual_site=$docs/manual
api_site=$docs/api
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

log=$(mktemp)
stamp=$(mktemp)
trap 'rm -f "$log" "$stamp"' EXIT

# convert CATALOG SITE NAME [docc options...]: one catalog into one site, served from
# .build/docs/NAME; every warning fails it.
convert() {
    local catalog=$1 site=$2 name=$3
    shift 3
    say "docc convert $catalog -> $site"
    rm -rf "$site"
    if ! "$docc" convert "$catalog" --output-dir "$site" --hosting-base-path "$name" \
        --warnings-as-errors "$@" >"$log" 2>&1; then
        cat "$log" >&2
        echo "docs.sh: docc failed on $catalog (every warning counts as an error); fix what it names above and run bash Scripts/docs.sh again" >&2
        exit 1
    fi
    # --warnings-as-errors makes docc fail on a warning; this catches any that still got through.
    if grep -Eq '(^|: )(warning|error):' "$log"; then
        cat "$log" >&2
        echo "docs.sh: docc printed warnings for $catalog (see above); fix them and run bash Scripts/docs.sh again" >&2
        exit 1
    fi
}

# The manual: articles alone, no symbol graph, so it needs no build. A symbol link
# (``Name``) cannot resolve here: docc warns, and the manual writes code names as `Name`.
rm -rf "$docs"    # also what an older docs.sh left there (one site at its top)
mkdir -p "$docs"
convert "$manual_catalog" "$manual_site" manual \
    --fallback-display-name ToneShaper --fallback-bundle-identifier toneshaper.ToneShaper

say "swift package dump-symbol-graph (builds the package in debug if needed)"
# It builds every target but the tests, then extracts a graph for every module, the test
# modules included: before `swift build --build-tests` (or `swift test`) has built those, it
# reports them as errors and exits non-zero. Those two errors are expected; any other is not.
status=0
swift package dump-symbol-graph >"$log" 2>&1 || status=$?
unexpected=$(grep -E '(^|: )error:' "$log" |
    grep -Ev "Failed to emit symbol graph for 'ToneShaperPackage(Discovered)?Tests'" || true)
written=$(sed -n 's/^Files written to //p' "$log" | tail -n 1)
if ! grep -q '^Build complete!' "$log" || [[ -n $unexpected ]] ||
    [[ -z $written || ! $written/ToneShaperControl.symbols.json -nt $stamp ]]; then
    cat "$log" >&2
    echo "docs.sh: could not build the package or extract ToneShaperControl's symbol graph (dump-symbol-graph exited $status, see above); a missing system library is installed by bash Scripts/setup.sh" >&2
    exit 1
fi

# Only the core's graphs (its own symbols and its extensions of ToneShaperDSP's types): docc
# documents one module per catalog.
rm -rf "$graphs"
mkdir -p "$graphs"
shopt -s nullglob
cp "$written"/ToneShaperControl.symbols.json "$written"/ToneShaperControl@*.symbols.json "$graphs"/

convert "$api_catalog" "$api_site" api --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name ToneShaperControl --fallback-bundle-identifier toneshaper.ToneShaperControl

say "Documentation built in $(($(date +%s) - started)) s: $PWD/$manual_site (the manual), $PWD/$api_site (the API)"
say "View it: python3 -m http.server -d $docs, then open"
say "  the manual:  http://localhost:8000/manual/documentation/toneshaper"
say "  the API:     http://localhost:8000/api/documentation/toneshapercontrol"
