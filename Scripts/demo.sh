#!/usr/bin/env bash
# The main job: install and build, then run ToneShaper as a live JACK node, change it
# over OSC while it plays, and record it; also render a built-in shape offline. If no
# JACK server is running, a dummy one (no sound card needed) is started for the demo and
# stopped afterwards; a running server (yours) is used as it is, and left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }

bash Scripts/setup.sh

toneshaper="$(swift build -c release --show-bin-path)/toneshaper"
out_dir="$PWD/out"
mkdir -p "$out_dir"

# Renders the built-in siren to a WAV file, offline (no JACK server needed).
render_siren() {
    say "Rendering the built-in 'siren' (3 cycles) to $out_dir/siren.wav"
    "$toneshaper" render siren --cycles 3 --output "$out_dir/siren.wav"
}

list_presets() {
    say "Built-in tone shapes (render any of them by name)"
    "$toneshaper" presets
}

# Plays the built-in siren as a live JACK node, changes it over OSC while it plays, and
# records its output port with jack_capture.
record_live_node() {
    local started_server=0 jack_pid="" node_pid=""
    if ! jack_lsp >/dev/null 2>&1; then
        say "No JACK server running: starting a dummy one (jackd -d dummy, 48 kHz, 256 frames)"
        jackd --no-realtime -d dummy -r 48000 -p 256 >"$out_dir/jackd.log" 2>&1 &
        jack_pid=$!
        started_server=1
        for _ in $(seq 100); do jack_lsp >/dev/null 2>&1 && break; sleep 0.1; done
    fi
    stop_all() {
        [[ -n $node_pid ]] && kill "$node_pid" 2>/dev/null && wait "$node_pid" 2>/dev/null
        if ((started_server)); then kill "$jack_pid" 2>/dev/null; wait "$jack_pid" 2>/dev/null; fi
        return 0
    }
    trap stop_all RETURN

    say "Starting the node: toneshaper run siren (OSC on any free port)"
    "$toneshaper" run siren --osc-port 0 >"$out_dir/node.out" 2>"$out_dir/node.log" &
    node_pid=$!
    for _ in $(seq 100); do grep -q '^OSC: ' "$out_dir/node.out" 2>/dev/null && break; sleep 0.1; done
    cat "$out_dir/node.out"
    local port osc
    port=$(awk '/^JACK: / {print $2}' "$out_dir/node.out")
    osc=$(sed -n 's|^OSC: osc.udp://[^:]*:\([0-9]*\)/.*|\1|p' "$out_dir/node.out")

    say "Recording $port for 6 s to $out_dir/live.wav; changing it over OSC meanwhile"
    jack_capture --channels 1 --port "$port" --recording-time 6 --daemon "$out_dir/live.wav" &
    local capture=$!
    sleep 2; "$toneshaper" send --port "$osc" /wave "Triangle Fourier"
    sleep 1; "$toneshaper" send --port "$osc" /frequency/range 300 900
    sleep 1; "$toneshaper" send --port "$osc" /echo 0.5 0.8
    wait "$capture"
    "$toneshaper" send --port "$osc" /stats
}

list_presets
render_siren
record_live_node

say "Done. Listen with: play $out_dir/live.wav   and   play $out_dir/siren.wav   (sox), or any audio player"
