#!/usr/bin/env bash
# The main job: install and build, then show ToneShaper working. Each part of the demo
# is a function; add new parts (a live node on a dummy JACK server, say) the same way
# and call them at the bottom.
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

list_presets
render_siren

say "Done. Listen to it with: play $out_dir/siren.wav   (sox), or any audio player"
