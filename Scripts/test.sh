#!/usr/bin/env bash
# What CI runs: install and build, then the release build (which also proves the
# real-time kernel: REALTIME_PROOF turns on the compiler's @_noAllocation/@_noLocks
# checks there) and the whole test suite. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }

bash Scripts/setup.sh

say "swift build -c release (real-time proof of the render kernel)"
swift build -c release --static-swift-stdlib

say "Scripts/test-install.sh (install into a temporary prefix, run it from there, uninstall)"
bash Scripts/test-install.sh

say "swift test"
swift test

say "All tests passed"
