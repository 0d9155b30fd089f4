#!/usr/bin/env bash
# A longer run of the hostile-controller test a user can leave going: a seeded corpus of
# OSC (1,000,000 messages by default) sent at full speed while the node plays under a
# private dummy JACK server and jack_capture records it; then the state, the recording
# and the node's health are checked as in CI, and the server-loss test runs again.
#
#   bash Scripts/soak.sh [MESSAGES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
messages=${1:-1000000}
seed=${2:-7360090}
bash Scripts/setup.sh
echo "==> fuzzing the live node with $messages OSC messages (seed $seed)"
TONESHAPER_FUZZ_MESSAGES=$messages TONESHAPER_FUZZ_SEED=$seed swift test --filter 'OSCFuzz|ServerLoss' 2>&1 \
    | grep -E 'fuzz:|✔|✘|passed|failed|error'
