#!/usr/bin/env bash
# What CI runs: install and build, check the formatting, build the documentation, the LV2
# plugin (which compiles the audio side in Embedded Swift, as Scripts/embedded-check.sh
# does, and links it), the
# release build (which also proves the real-time paths: REALTIME_PROOF turns on the
# compiler's @_noAllocation/@_noLocks checks there), the install test and the whole test
# suite. Exits non-zero if anything fails. It ends with every skipped test and its reason,
# and every recording that a busy host spoilt and that was made again: a skip or a retry
# is never silent.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }

bash Scripts/setup.sh

say "swift format lint --strict (configuration: .swift-format)"
swift format lint --strict --recursive --parallel Sources Tests

if [[ -f Scripts/docs.sh ]]; then
    say "Scripts/docs.sh (the documentation site, no warnings)"
    bash Scripts/docs.sh
fi

say "Scripts/build-lv2.sh (the audio side in Embedded Swift with the real-time proof, linked as the LV2 plugin its tests load)"
bash Scripts/build-lv2.sh

# The CLAP and VST 3 shells over the LV2 build's modules, at once (each compile keeps one core
# busy; what each printed is shown after, in order). Scripts/install.sh then finds both built.
say "Scripts/build-clap.sh and Scripts/build-vst3.sh (the same modules linked as the CLAP and VST 3 plugins the tests load)"
clap_log=$(mktemp "${TMPDIR:-/tmp}/toneshaper-clap.XXXXXX")
vst3_log=$(mktemp "${TMPDIR:-/tmp}/toneshaper-vst3.XXXXXX")
bash Scripts/build-clap.sh >"$clap_log" 2>&1 &
clap_pid=$!
vst3_status=0
bash Scripts/build-vst3.sh >"$vst3_log" 2>&1 || vst3_status=$?
clap_status=0
wait "$clap_pid" || clap_status=$?
cat "$clap_log" "$vst3_log"
rm -f "$clap_log" "$vst3_log"
((clap_status == 0)) || { say "Scripts/build-clap.sh failed (exit $clap_status)"; exit "$clap_status"; }
((vst3_status == 0)) || { say "Scripts/build-vst3.sh failed (exit $vst3_status)"; exit "$vst3_status"; }

say "swift build -c release (real-time proof)"
swift build -c release --static-swift-stdlib

say "Scripts/test-install.sh (install into a temporary prefix, run it from there, uninstall)"
bash Scripts/test-install.sh

say "Scripts/test-package.sh (the .deb and the tarball, installed and played in clean Debian 12 and 11 roots)"
if [[ $(id -u) -eq 0 ]]; then
    bash Scripts/test-package.sh
elif sudo -n true 2>/dev/null; then
    sudo bash Scripts/test-package.sh
else
    say "Scripts/test-package.sh SKIPPED: it needs root (debootstrap, chroot), and sudo asks for a password"
fi

# JACK keeps a registry of at most 8 servers in /dev/shm, and forgets a server that was
# killed only when one of the same name starts again. The tests give every server a name
# of its own and some kill theirs (server loss), so on a machine that runs the suite again
# and again the registry fills up and jackd refuses to start. With no JACK server running
# nothing in it is live: start from a clean registry then, and leave it alone otherwise.
if ! pgrep -x jackd >/dev/null && ! pgrep -x jackdbus >/dev/null; then
    rm -f /dev/shm/jack-shm-registry /dev/shm/jack_sem.* /dev/shm/jack-[0-9]* 2>/dev/null || true
fi

# An mDNS responder for the announcement test (a private one, loopback only, when none runs).
bash Scripts/test-mdns.sh start
trap 'bash Scripts/test-mdns.sh stop' EXIT

say "swift test"
log=$(mktemp "${TMPDIR:-/tmp}/toneshaper-test.XXXXXX")
status=0
swift test 2>&1 | tee "$log" || status=$?

# The tests that run only in a process of their own (started by the test that needs them)
# are skipped in the main process by design: listed apart, so that any other skip stands out.
child='runs only in a process of its own'
say "Run in a child process (skipped here by design, run by the test that starts them)"
if grep -E '^.?➜ Test .* skipped' "$log" | grep -F "$child" | sed -E 's/^.?➜ Test /  /'; then :; else echo "  none"; fi
say "Skipped tests"
if grep -E '^.?➜ Test .* skipped' "$log" | grep -vF "$child" | sed -E 's/^.?➜ Test /  /'; then :; else echo "  none"; fi
say "Recordings made again (the busy host spoilt a take; each line says why)"
if grep -E '^recording again: ' "$log" | grep -v 'self-test' | sed 's/^/  /'; then :; else echo "  none"; fi
rm -f "$log"

if ((status != 0)); then
    say "swift test failed (exit $status)"
    exit "$status"
fi
say "All tests passed"
