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

# JACK keeps a registry of at most 8 servers in /dev/shm, and forgets a server that was
# killed only when one of the same name starts again. The tests give every server a name
# of its own and some kill theirs (server loss), so on a machine that runs the suite again
# and again the registry fills up and jackd refuses to start. With no JACK server running
# nothing in it is live: start from a clean registry then, and leave it alone otherwise.
if ! pgrep -x jackd >/dev/null && ! pgrep -x jackdbus >/dev/null; then
    rm -f /dev/shm/jack-shm-registry /dev/shm/jack_sem.* /dev/shm/jack-[0-9]* 2>/dev/null || true
fi

say "swift test"
swift test

say "All tests passed"
