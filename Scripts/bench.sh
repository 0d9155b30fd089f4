#!/usr/bin/env bash
# Measures ToneShaper's speed on this machine (the figures behind the Speed article, Sources/ToneShaperManual/ToneShaper.docc/Speed.md).
# Nothing here is a pass/fail test: the machine may be shared and noisy, so ratios are
# measured side by side in one run and medians are reported.
#
#   bash Scripts/bench.sh            # everything (about 5 minutes)
#   bash Scripts/bench.sh engine     # only the engine kernel benchmark
#   bash Scripts/bench.sh render     # only toneshaper render vs sox
#   bash Scripts/bench.sh jack       # only the JACK measurements (callback, CPU vs csound, start-up, memory, scaling)
#   bash Scripts/bench.sh voices     # only instrument mode: ns per sample per voice, and 16/64 held voices in JACK
#   bash Scripts/bench.sh plugin     # only the LV2 plugin: run() against two peer tone generators (lv2bench),
#                                    # against the node's engine, and with 64 voices held
#   bash Scripts/bench.sh plugin-peers  # only the LV2 plugin against the peers (lv2bench; seconds, once built)
#   bash Scripts/bench.sh clap       # only the CLAP and VST3 plugins: process() against the LV2 plugin's run()
#                                    # and the node's engine, and 64 voices with per-note expressions at 64 frames
#   bash Scripts/bench.sh web        # only the web editor's latency (WebSocket message to sound)
#   bash Scripts/bench.sh midi-latency  # only a MIDI controller's latency (mapped to the wave: a new plan) at 256 frames
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
say() { printf '\n==> %s\n' "$*"; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }
now() { date +%s.%N; }

bash Scripts/setup.sh >/dev/null
need=()
command -v bc >/dev/null || need+=(bc)
if ! command -v csound >/dev/null && [[ $what == all || $what == jack ]]; then need+=(csound); fi
# The peers of the plugin comparison (x42's Test Signal Generator, LSP's Oscillator Mono),
# lilv's lv2bench that times them, and lilv's headers for the sound check built here.
if [[ $what == all || $what == plugin || $what == plugin-peers ]]; then
    for package in x42-plugins lsp-plugins-lv2 lilv-utils liblilv-dev pkg-config; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || need+=("$package")
    done
fi
if ((${#need[@]})); then
    say "installing ${need[*]} (arithmetic, csound for the CPU comparison, the LV2 peers and lv2bench for the plugin's)"
    as_root=(); [[ $(id -u) -eq 0 ]] || as_root=(sudo)
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
bin=$(swift build -c release --show-bin-path)
[[ $what == plugin-peers ]] || swift build -c release --static-swift-stdlib --product ToneShaperBench >/dev/null
toneshaper="$bin/toneshaper"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ $what == all || $what == engine ]]; then
    say "engine kernel (ToneShaperBench): every kernel level this CPU runs, side by side"
    "$bin/ToneShaperBench"

    say "first change to a Fourier wave: time for the controller to accept it (fresh process each, median of 5)"
    # on-demand: the tables built by that change on the control thread (what a process that
    # never called prepareInBackground does); prepared: built in the background from start-up
    # (what a live node does), the change 300 ms later; immediately: the change at start-up.
    for mode in on-demand prepared immediately; do
        : > "$work/first.times"; : > "$work/ordinary.times"
        for _ in 1 2 3 4 5; do
            read -r first ordinary < <("$bin/ToneShaperBench" first-fourier-change "$mode")
            echo "$first" >> "$work/first.times"; echo "$ordinary" >> "$work/ordinary.times"
        done
        printf '%-12s first Fourier change %8.3f ms   (an ordinary change: %.3f ms)\n' "$mode" \
            "$(median < "$work/first.times")" "$(median < "$work/ordinary.times")"
    done
fi

if [[ $what == all || $what == render ]]; then
    say "render the 600 s 30->440 Hz sine sweep to 32-bit float WAV, against sox (7 runs each, alternating)"
    cat > "$work/sweep600.toneshaper" <<'DOC'
{"points": [[0, 30], [600, 440]], "duration": 600, "minFrequency": 30, "maxFrequency": 440,
 "componentType": "Sine", "scaleType": "None", "echoOffsetTimeSeconds": 0, "echoVolume": 0, "fidelity": 500}
DOC
    : > "$work/ts.times"; : > "$work/sync.times"; : > "$work/sox.times"
    # Each run writes a new file, after the last one's data is on disk: otherwise the file
    # system's freeing or writing back of the last run's 115 MB would be charged to
    # whichever program came next. `--sync` also waits for its own file to reach the disk,
    # which sox does not: shown apart.
    for i in 1 2 3 4 5 6 7; do
        rm -f "$work/ts.wav" "$work/sox.wav"; sync
        t0=$(now); "$toneshaper" render "$work/sweep600.toneshaper" --output "$work/ts.wav" >/dev/null; t1=$(now)
        rm -f "$work/ts.wav"; sync
        t2=$(now); "$toneshaper" render "$work/sweep600.toneshaper" --output "$work/ts.wav" --sync >/dev/null; t3=$(now)
        sox -n -r 48000 -b 32 -e floating-point "$work/sox.wav" synth 600 sine 30-440; t4=$(now)
        echo "$t1 - $t0" | bc -l >> "$work/ts.times"; echo "$t3 - $t2" | bc -l >> "$work/sync.times"
        echo "$t4 - $t3" | bc -l >> "$work/sox.times"
    done
    ts=$(median < "$work/ts.times"); sy=$(median < "$work/sync.times"); sx=$(median < "$work/sox.times")
    printf 'toneshaper render: %.3f s   sox synth: %.3f s   sox / toneshaper = %.2f\n' "$ts" "$sx" "$(echo "$sx / $ts" | bc -l)"
    printf 'toneshaper render --sync (waits for the disk): %.3f s   sox / that = %.2f\n' "$sy" "$(echo "$sx / $sy" | bc -l)"
fi

if [[ $what == all || $what == voices ]]; then
    say "instrument mode: kernel cost per voice (ToneShaperBench voices)"
    "$bin/ToneShaperBench" voices
fi

if [[ $what == all || $what == plugin || $what == plugin-peers ]]; then
    # The plugin (Embedded Swift, Scripts/build-lv2.sh), rebuilt when missing or older than
    # the sources; run() timed by the project's C host (Tests/LV2Host/lv2host.c, --bench-runs:
    # clock_gettime around each call, the worker synchronous between calls). The node's side:
    # ToneShaperBench plugin-compare, EngineController(shape:).makeRenderer() + renderPeriod,
    # timed the same way. Both: 1 s untimed, then 20 s of blocks; the median of the calls'
    # ns per sample. TONESHAPER_KERNEL=baseline|v3|v4 forces a kernel level in both;
    # BENCH_PLUGIN_SO=PATH times another build of the plugin (its bundle's .ttl next to it).
    so=${BENCH_PLUGIN_SO:-.build/lv2/toneshaper.lv2/toneshaper.so}
    if [[ -z ${BENCH_PLUGIN_SO:-} ]] && [[ ! -f $so || -n $(find Sources Scripts/build-lv2.sh -newer "$so" -name '*.swift' -o -newer "$so" -name '*.c' -o -newer "$so" -name '*.h' -o -newer "$so" -name '*.ttl' -o -newer "$so" -name 'build-lv2.sh' | head -1) ]]; then
        bash Scripts/build-lv2.sh >/dev/null
    fi
    host=.build/lv2-host/lv2host
    if [[ ! -x $host || Tests/LV2Host/lv2host.c -nt $host ]]; then
        mkdir -p "$(dirname "$host")"
        cc -std=c11 -Wall -Wextra -Werror -O1 -g -o "$host" Tests/LV2Host/lv2host.c -ldl -lm -lpthread
    fi
    echo "plugin: $so"

    rounds=${BENCH_PEER_ROUNDS:-11}
    say "LV2 plugin against two peer tone generators: lilv's lv2bench -n 4800000, ns per output sample ($rounds rounds, alternating)"
    # lv2bench (lilv-utils) instantiates a plugin at 48 kHz with urid:map and urid:unmap
    # only (so ToneShaper has no worker: it plays its default document, built at
    # instantiation), every control at its default, and times the calls of run() over
    # -n frames with one clock read around them all. The peers are the lightest tone
    # generators Debian packages: x42's Test Signal Generator (mode 0: a 1 kHz sine) and
    # LSP's Oscillator Mono (a 440 Hz sine); ToneShaper plays its default drone, no note
    # needed. lv2soundcheck (Tests/LV2Host) runs each for a second as lv2bench does and
    # must hear it, or the comparison would time silence. LV2_PATH holds the plugin's
    # bundle and Debian's LV2 folder alone, so no other install of ToneShaper is timed.
    # Per round, each plugin at each block size, in an order that turns each round, so no
    # plugin always follows the same one; the median over the rounds is reported, the
    # ratio ToneShaper / peer of those medians, and a line fitted through the two block
    # sizes: ns per sample = per-sample cost + per-call cost / block.
    export LV2_PATH
    LV2_PATH="$(cd "$(dirname "$so")/.." && pwd):/usr/lib/lv2"
    soundcheck=.build/lv2-host/lv2soundcheck
    if [[ ! -x $soundcheck || Tests/LV2Host/lv2soundcheck.c -nt $soundcheck ]]; then
        # shellcheck disable=SC2046
        cc -std=c11 -Wall -Wextra -Werror -O1 -o "$soundcheck" Tests/LV2Host/lv2soundcheck.c $(pkg-config --cflags --libs lilv-0) -lm
    fi
    peer_names=(toneshaper x42-testsignal lsp-oscillator)
    peer_uris=(urn:toneshaper:instrument http://gareus.org/oss/lv2/testsignal http://lsp-plug.in/plugins/lv2/oscillator_mono)
    for i in 0 1 2; do
        peak=$("$soundcheck" "${peer_uris[$i]}" 64 2>"$work/soundcheck.err" | awk '$1 == "peak:" {print $2}') || {
            cat "$work/soundcheck.err"; exit 1; }
        if ! awk -v p="$peak" 'BEGIN {exit !(p > 0.01 && p <= 1)}'; then
            echo "${peer_names[$i]} (${peer_uris[$i]}) does not play under lv2bench's conditions (peak $peak)"; exit 1
        fi
        printf '%-15s %s (peak under lv2bench'"'"'s conditions: %s)\n' "${peer_names[$i]}" "${peer_uris[$i]}" "$peak"
    done
    bench_frames=4800000
    for block in 64 256; do for i in 0 1 2; do : > "$work/peer.$block.$i"; done; done
    printf '%6s %6s %12s %15s %15s\n' round block toneshaper x42-testsignal lsp-oscillator
    for round in $(seq "$rounds"); do
        for block in 64 256; do
            for k in 0 1 2; do
                i=$(((round + k) % 3))
                seconds=$(lv2bench -b "$block" -n "$bench_frames" "${peer_uris[$i]}" 2>"$work/lv2bench.err" | awk 'NF == 2 {print $1}')
                [[ -n $seconds ]] || { echo "lv2bench gave no time for ${peer_uris[$i]}"; cat "$work/lv2bench.err"; exit 1; }
                # lv2bench runs the whole blocks that fit in -n frames.
                awk -v s="$seconds" -v n=$((bench_frames / block * block)) 'BEGIN {printf "%.4f\n", s * 1e9 / n}' >> "$work/peer.$block.$i"
            done
            printf '%6d %6d %12.3f %15.3f %15.3f\n' "$round" "$block" \
                "$(tail -1 "$work/peer.$block.0")" "$(tail -1 "$work/peer.$block.1")" "$(tail -1 "$work/peer.$block.2")"
        done
    done
    echo "medians, ns per output sample (ratio: ToneShaper / the peer):"
    printf '%6s %12s %15s %15s %12s %12s\n' block toneshaper x42-testsignal lsp-oscillator ts/x42 ts/lsp
    declare -A peer_median
    for block in 64 256; do
        for i in 0 1 2; do peer_median[$block.$i]=$(median < "$work/peer.$block.$i"); done
        printf '%6d %12.3f %15.3f %15.3f %12.2f %12.2f\n' "$block" "${peer_median[$block.0]}" "${peer_median[$block.1]}" "${peer_median[$block.2]}" \
            "$(awk -v a="${peer_median[$block.0]}" -v b="${peer_median[$block.1]}" 'BEGIN {print a / b}')" \
            "$(awk -v a="${peer_median[$block.0]}" -v b="${peer_median[$block.2]}" 'BEGIN {print a / b}')"
    done
    echo "fitted through 64 and 256 frames (ns per sample = per-sample + per-call / block):"
    for i in 0 1 2; do
        awk -v name="${peer_names[$i]}" -v t64="${peer_median[64.$i]}" -v t256="${peer_median[256.$i]}" 'BEGIN {
            call = (t64 - t256) / (1 / 64 - 1 / 256); sample = t256 - call / 256
            printf "%-15s %8.3f ns per sample %+10.1f ns per call\n", name, sample, call }'
    done
    awk -v t64="${peer_median[64.0]}" -v t256="${peer_median[256.0]}" -v x64="${peer_median[64.1]}" -v x256="${peer_median[256.1]}" \
        -v l64="${peer_median[64.2]}" -v l256="${peer_median[256.2]}" 'BEGIN {
        faster = x64 < l64 ? x64 : l64
        printf "goal: at 64 frames at most 0.8 of the faster peer: %.2f (%s); at 256 frames at most 0.5 of both: %.2f and %.2f (%s)\n",
            t64 / faster, t64 <= 0.8 * faster ? "met" : "not met", t256 / x256, t256 / l256,
            (t256 <= 0.5 * x256 && t256 <= 0.5 * l256) ? "met" : "not met" }'

    say "the same, with the harness's own per-block cost taken out (lv2soundcheck FRAMES: lv2bench's loop, its two URIDs mapped once)"
    # lv2bench maps atom:Sequence and atom:Chunk again before every block, by a linear
    # search of every URI mapped so far (strcmp each): a cost per call that grows with the
    # URIs the plugin mapped (ToneShaper maps about 30), charged to the plugin. Hosts keep
    # their URIDs; this loop does too and is otherwise lv2bench's.
    for block in 64 256; do for i in 0 1 2; do : > "$work/kept.$block.$i"; done; done
    for round in $(seq "$rounds"); do
        for block in 64 256; do
            for k in 0 1 2; do
                i=$(((round + k) % 3))
                "$soundcheck" "${peer_uris[$i]}" "$block" "$bench_frames" 2>/dev/null | awk '$1 == "ns_per_sample:" {print $2}' >> "$work/kept.$block.$i"
            done
        done
    done
    printf '%6s %12s %15s %15s %12s %12s\n' block toneshaper x42-testsignal lsp-oscillator ts/x42 ts/lsp
    declare -A kept_median
    for block in 64 256; do
        for i in 0 1 2; do kept_median[$block.$i]=$(median < "$work/kept.$block.$i"); done
        printf '%6d %12.3f %15.3f %15.3f %12.2f %12.2f\n' "$block" "${kept_median[$block.0]}" "${kept_median[$block.1]}" "${kept_median[$block.2]}" \
            "$(awk -v a="${kept_median[$block.0]}" -v b="${kept_median[$block.1]}" 'BEGIN {print a / b}')" \
            "$(awk -v a="${kept_median[$block.0]}" -v b="${kept_median[$block.2]}" 'BEGIN {print a / b}')"
    done
    for i in 0 1 2; do
        awk -v name="${peer_names[$i]}" -v t64="${kept_median[64.$i]}" -v t256="${kept_median[256.$i]}" 'BEGIN {
            call = (t64 - t256) / (1 / 64 - 1 / 256); sample = t256 - call / 256
            printf "%-15s %8.3f ns per sample %+10.1f ns per call\n", name, sample, call }'
    done
    [[ $what == plugin-peers ]] && exit 0

    say "LV2 plugin: ns per output sample of run() against the node's engine (same document and block; 5 runs each, alternating)"
    field() { awk -v k="$1:" '$1 == k {print $2}'; }
    plugin_run() {  # document block [host arguments...] -> the host's report
        local document=$1 block=$2; shift 2
        "$host" --so "$so" --uri urn:toneshaper:instrument --block "$block" --load-file "$PWD/$document@0" \
            --bench-runs $((20 * 48000 / block)) "$@" 2>"$work/host.err" || { cat "$work/host.err"; exit 1; }
    }
    "$bin/ToneShaperBench" plugin-compare Sessions/siren.toneshaper 64 | field kernel_level | sed 's/^/kernel level (the node; the plugin chooses by the same rule): /'
    printf '%-26s %6s %10s %10s %8s\n' document block node_ns plugin_ns plugin/node
    for document in Sessions/siren.toneshaper Sessions/drone.toneshaper; do
        for block in 256 64; do
            : > "$work/node.ns"; : > "$work/plugin.ns"
            for _ in 1 2 3 4 5; do
                "$bin/ToneShaperBench" plugin-compare "$document" "$block" | field run_ns_per_sample_median >> "$work/node.ns"
                plugin_run "$document" "$block" | field run_ns_per_sample_median >> "$work/plugin.ns"
            done
            node_ns=$(median < "$work/node.ns"); plugin_ns=$(median < "$work/plugin.ns")
            printf '%-26s %6d %10.3f %10.3f %8.2f\n' "$(basename "$document")" "$block" "$node_ns" "$plugin_ns" \
                "$(awk -v a="$plugin_ns" -v b="$node_ns" 'BEGIN {print a / b}')"
        done
    done

    say "LV2 plugin: run() with 64 voices held at 64 frames, 48 kHz (20 s of calls after 1 s, one a period; 3 rounds, the node's renderer alongside)"
    cat > "$work/voices64.toneshaper" <<'DOC'
{"points": [[0, 220], [1, 330], [2, 220]], "duration": 2, "minFrequency": 110, "maxFrequency": 440,
 "componentType": "Sine", "scaleType": "Sine", "echoOffsetTimeSeconds": 0.5, "echoVolume": 0.5, "amplitude": 0.1,
 "instrument": true, "voices": 64}
DOC
    # 64 note-ons (C2 upwards) once the document is in, held to the end.
    notes=(); for i in $(seq 0 63); do notes+=(--note "1024:$((36 + i)):100"); done
    # As an audio thread runs: SCHED_FIFO (as jackd -R gives its clients) when the system
    # allows it, otherwise any neighbour's time slice lands in the max; and one call per
    # period (paced), not back to back, which would use up the real-time budget.
    rt=(); if chrt -f 70 true 2>/dev/null; then rt=(chrt -f 70); echo "scheduling: SCHED_FIFO 70"; else echo "scheduling: normal (chrt -f refused)"; fi
    printf '%6s %-7s %10s %10s %10s %10s %12s %10s\n' round side ns/sample ns/voice p99.9_us max_us p99.9_%period max_%period
    for round in 1 2 3; do
        for side in plugin node; do
            if [[ $side == plugin ]]; then
                "${rt[@]}" "$host" --so "$so" --uri urn:toneshaper:instrument --block 64 --load-file "$work/voices64.toneshaper@0" \
                    --bench-runs 15000 --bench-paced --set instrument=1@0 --set voices=64@0 "${notes[@]}" > "$work/report" 2>"$work/host.err" || {
                    cat "$work/host.err"; exit 1; }
            else
                "${rt[@]}" "$bin/ToneShaperBench" plugin-compare "$work/voices64.toneshaper" 64 64 --paced > "$work/report"
            fi
            ns=$(field run_ns_per_sample_median < "$work/report"); p999=$(field run_p999_us < "$work/report"); mx=$(field run_max_us < "$work/report")
            printf '%6d %-7s %10.1f %10.2f %10.1f %10.1f %12.2f %10.2f\n' "$round" "$side" "$ns" "$(awk -v a="$ns" 'BEGIN {print a / 64}')" \
                "$p999" "$mx" "$(awk -v a="$p999" 'BEGIN {print a / 13.3333}')" "$(awk -v a="$mx" 'BEGIN {print a / 13.3333}')"
        done
    done
fi

if [[ $what == all || $what == clap ]]; then
    # Both plugins (Embedded Swift) rebuilt when missing; process() and run() timed by the
    # project's C hosts (Tests/CLAPHost/claphost.c and Tests/LV2Host/lv2host.c, --bench-runs:
    # clock_gettime around each call after one second of blocks), the node's engine by
    # ToneShaperBench plugin-compare; the same document and block, rounds alternating.
    [[ -f .build/clap/toneshaper.clap ]] || bash Scripts/build-clap.sh >/dev/null
    [[ -f .build/lv2/toneshaper.lv2/toneshaper.so ]] || bash Scripts/build-lv2.sh >/dev/null
    [[ -f .build/vst3/toneshaper.vst3/Contents/x86_64-linux/toneshaper.so ]] || bash Scripts/build-vst3.sh >/dev/null
    mkdir -p .build/clap-host .build/lv2-host .build/vst3-host
    cc -std=gnu11 -Wall -Wextra -Werror -O1 -g -o .build/clap-host/claphost Tests/CLAPHost/claphost.c -ldl -lm -lpthread -lX11
    cc -std=c11 -Wall -Wextra -Werror -O1 -g -o .build/lv2-host/lv2host Tests/LV2Host/lv2host.c -ldl -lm -lpthread
    cc -Wall -Wextra -Werror -O1 -g -o .build/vst3-host/vst3host Tests/VST3Host/vst3host.c -ldl -lm -lX11
    clap=.build/clap/toneshaper.clap; so=.build/lv2/toneshaper.lv2/toneshaper.so; vst3=.build/vst3/toneshaper.vst3
    field() { awk -v k="$1:" '$1 == k {print $2}'; }
    # The VST3 plugin's state is the whole document, so a .toneshaper file is a state it loads;
    # kRealtime, as a DAW plays (offline, the plugin waits for its work thread at a block's end).
    say "CLAP and VST3 plugins: ns per output sample of process() against LV2 run() and the node's engine (same document and block; 5 rounds, medians)"
    printf '%-26s %6s %9s %9s %9s %9s %10s %10s %10s\n' document block node_ns lv2_ns clap_ns vst3_ns clap/node vst3/node vst3/lv2
    for document in Sessions/siren.toneshaper Sessions/drone.toneshaper; do
        for block in 256 64; do
            runs=$((20 * 48000 / block))
            : > "$work/node.ns"; : > "$work/lv2.ns"; : > "$work/clap.ns"; : > "$work/vst3.ns"
            for _ in 1 2 3 4 5; do
                "$bin/ToneShaperBench" plugin-compare "$document" "$block" | field run_ns_per_sample_median >> "$work/node.ns"
                .build/lv2-host/lv2host --so "$so" --uri urn:toneshaper:instrument --block "$block" --load-file "$PWD/$document@0" \
                    --bench-runs "$runs" 2>/dev/null | field run_ns_per_sample_median >> "$work/lv2.ns"
                .build/clap-host/claphost --clap "$clap" --block "$block" --preset-file "$document" --bench-runs "$runs" 2>/dev/null \
                    | field process_ns_per_sample_median >> "$work/clap.ns"
                .build/vst3-host/vst3host --vst3 "$vst3" --block "$block" --load-state "$document" --bench-runs "$runs" --realtime 2>/dev/null \
                    | field process_ns_per_sample_median >> "$work/vst3.ns"
            done
            node_ns=$(median < "$work/node.ns"); lv2_ns=$(median < "$work/lv2.ns"); clap_ns=$(median < "$work/clap.ns"); vst3_ns=$(median < "$work/vst3.ns")
            printf '%-26s %6d %9.3f %9.3f %9.3f %9.3f %10.2f %10.2f %10.2f\n' "$(basename "$document")" "$block" "$node_ns" "$lv2_ns" "$clap_ns" "$vst3_ns" \
                "$(awk -v a="$clap_ns" -v b="$node_ns" 'BEGIN {print a / b}')" "$(awk -v a="$vst3_ns" -v b="$node_ns" 'BEGIN {print a / b}')" \
                "$(awk -v a="$vst3_ns" -v b="$lv2_ns" 'BEGIN {print a / b}')"
        done
    done

    say "CLAP plugin: 64 voices held at 64 frames, 48 kHz, with and without a tuning expression per voice every block (20 s paced, 3 rounds)"
    cat > "$work/voices64.toneshaper" <<'DOC'
{"points": [[0, 220], [1, 330], [2, 220]], "duration": 2, "minFrequency": 110, "maxFrequency": 440,
 "componentType": "Sine", "scaleType": "Sine", "echoOffsetTimeSeconds": 0.5, "echoVolume": 0.5, "amplitude": 0.1,
 "instrument": true, "voices": 64}
DOC
    notes=(); for i in $(seq 0 63); do notes+=(--note "1024:$((36 + i)):100"); done
    rt=(); if chrt -f 70 true 2>/dev/null; then rt=(chrt -f 70); echo "scheduling: SCHED_FIFO 70"; else echo "scheduling: normal (chrt -f refused)"; fi
    printf '%6s %-16s %10s %10s %10s %12s %10s\n' round side ns/sample p99.9_us max_us p99.9_%period max_%period
    for round in 1 2 3; do
        for side in clap clap-expressions; do
            mpe=(); [[ $side == clap-expressions ]] && mpe=(--mpe 64)
            "${rt[@]}" .build/clap-host/claphost --clap "$clap" --block 64 --preset-file "$work/voices64.toneshaper" --bench-runs 15000 \
                --bench-paced "${notes[@]}" "${mpe[@]}" > "$work/report" 2>/dev/null
            ns=$(field process_ns_per_sample_median < "$work/report")
            p999=$(awk '$1 == "process_ns_p99_9:" {print $2 / 1000}' "$work/report"); mx=$(awk '$1 == "process_ns_max:" {print $2 / 1000}' "$work/report")
            printf '%6d %-16s %10.1f %10.1f %10.1f %12.2f %10.2f\n' "$round" "$side" "$ns" "$p999" "$mx" \
                "$(awk -v a="$p999" 'BEGIN {print a / 13.3333}')" "$(awk -v a="$mx" 'BEGIN {print a / 13.3333}')"
        done
    done
fi

if [[ $what == all || $what == jack || $what == voices ]]; then
    export JACK_DEFAULT_SERVER="ts-bench-$$"
    # A real-time server (SCHED_FIFO audio threads), as a studio runs it, when the system
    # allows one; otherwise a plain one, whose callbacks the OS may preempt at any time.
    start_jack() {  # period
        for mode in "-R -P 70" "--no-realtime"; do
            # shellcheck disable=SC2086
            jackd $mode -d dummy -r 48000 -p "$1" >"$work/jackd.log" 2>&1 &
            jack_pid=$!; pids+=("$jack_pid")
            for _ in $(seq 60); do
                if jack_lsp >/dev/null 2>&1; then jack_mode=$mode; return 0; fi
                kill -0 "$jack_pid" 2>/dev/null || break
                sleep 0.05
            done
            kill "$jack_pid" 2>/dev/null || true; wait "$jack_pid" 2>/dev/null || true
        done
        echo "jackd did not start"; cat "$work/jackd.log"; exit 1
    }
    stop_jack() { kill "$jack_pid" 2>/dev/null || true; wait "$jack_pid" 2>/dev/null || true; sleep 0.3; }
    start_node() {  # name port -> node_pid, node_ready_seconds
        local t0; t0=$(now)
        "$toneshaper" run --name "$1" --osc-port "$2" --no-auto-connect >"$work/$1.out" 2>"$work/$1.err" &
        node_pid=$!; pids+=("$node_pid")
        for _ in $(seq 400); do grep -q '^OSC: ' "$work/$1.out" 2>/dev/null && break; sleep 0.005; done
        node_ready_seconds=$(echo "$(now) - $t0" | bc -l)
    }
    # On-CPU nanoseconds of every thread of a process, from the scheduler's own accounting
    # (/proc/PID/task/*/schedstat): exact, unlike tick-sampled utime/stime, which aliases
    # with periodic audio threads.
    cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%d", s}'; }
    percent() { awk -v d="$1" -v s="$2" 'BEGIN {printf "%.2f", d / (s * 1e7)}'; }
    stats() { "$toneshaper" send /stats --port "$1" --wait 2 | tr ' ' '\n' | awk -v k="$2" 'prev==k {print; exit} {prev=$0}'; }

    if [[ $what == voices || $what == all ]]; then
    say "instrument mode in JACK: 16 and 64 voices held at 64 frames, 48 kHz (20 s each); callback against the 1333 us period"
    cat > "$work/voices.toneshaper" <<'DOC'
{"points": [[0, 220], [1, 330], [2, 220]], "duration": 2, "minFrequency": 110, "maxFrequency": 440,
 "componentType": "Sine", "scaleType": "Sine", "echoOffsetTimeSeconds": 0.5, "echoVolume": 0.5, "amplitude": 0.1}
DOC
    printf '%8s %10s %10s %12s %10s %8s\n' voices p99.9_us max_us p99.9_%period max_%period xruns
    for n in 16 64; do
        start_jack 64
        "$toneshaper" run "$work/voices.toneshaper" --name voices --osc-port 9125 --no-auto-connect --instrument --voices "$n" \
            >"$work/voices.out" 2>"$work/voices.err" &
        node_pid=$!; pids+=("$node_pid")
        for _ in $(seq 400); do grep -q '^OSC: ' "$work/voices.out" 2>/dev/null && break; sleep 0.005; done
        # jack_midiseq holds n notes (C2 upwards) from 2 s into its 100 s loop (by then it is
        # connected: a note sent before would be lost) to near its end.
        seq_args=(); for i in $(seq 0 $((n - 1))); do seq_args+=(96000 $((36 + i)) 4600000); done
        jack_midiseq seq 4800000 "${seq_args[@]}" >/dev/null 2>&1 &
        seq_pid=$!; pids+=("$seq_pid")
        for _ in $(seq 100); do jack_connect seq:out voices:midi_in 2>/dev/null && break; sleep 0.05; done
        sleep 3
        x0=$(stats 9125 xruns)
        # The figures count from the node's start (/stats has no reset), so its first
        # periods, before the notes, are in them too: the max may be one of those.
        sleep 20
        p999=$(stats 9125 p999); mx=$(stats 9125 max); x1=$(stats 9125 xruns)
        printf '%8d %10.1f %10.1f %12.1f %10.1f %8d\n' "$n" "$p999" "$mx" "$(echo "$p999 / 13.333" | bc -l)" "$(echo "$mx / 13.333" | bc -l)" $((${x1%.*} - ${x0%.*}))
        kill "$seq_pid" "$node_pid" 2>/dev/null || true; wait "$seq_pid" "$node_pid" 2>/dev/null || true
        stop_jack
    done
    fi
    [[ $what == voices ]] && exit 0

    say "callback time at 64 frames, 48 kHz, over 60 s; start-up; memory"
    start_jack 64
    echo "jackd $jack_mode -d dummy -r 48000 -p 64"
    start_node bench 9123
    printf 'start-up to ports registered and OSC bound: %.0f ms\n' "$(echo "$node_ready_seconds * 1000" | bc -l)"
    cat > "$work/sweep.csd" <<'CSD'
<CsoundSynthesizer>
<CsOptions>
-d -m0 -+rtaudio=jack -+jack_client=csoundbench -odac -b 64 -B 256
</CsOptions>
<CsInstruments>
sr = 48000
ksmps = 1
nchnls = 1
0dbfs = 1
instr 1
  kf linseg 30, 60, 440
  a1 poscil 0.25, kf
  out a1
endin
</CsInstruments>
<CsScore>
i1 0 3600
</CsScore>
</CsoundSynthesizer>
CSD
    x0=$(stats 9123 xruns)
    sleep 60
    "$toneshaper" send /stats --port 9123 --wait 2 | tee "$work/stats.txt"
    x1=$(stats 9123 xruns)
    # VmRSS also counts the JACK server's shared-memory segment, mapped by every client
    # (about 100 MB with jackd2's defaults); the node's own memory is the rest.
    rss=$(awk '/VmRSS/ {print $2}' "/proc/$node_pid/status")
    own=$(awk '/RssAnon|RssFile/ {s += $2} END {print s}' "/proc/$node_pid/status")
    echo "xruns during the minute: $((${x1%.*} - ${x0%.*})); node resident memory: $((own / 1024)) MB of its own ($((rss / 1024)) MB with JACK's shared segment)"
    kill "$node_pid" 2>/dev/null || true; wait "$node_pid" 2>/dev/null || true

    say "whole-process CPU against csound and jack_metro (same server, each alone in turn, 3 rounds of 20 s)"
    # Each client is measured alone: with several in one graph, the one that wakes the
    # server pays for the hand-over, so the graph's order would decide the ratio.
    # jack_metro does almost no DSP: its CPU is the floor every JACK client pays.
    measure() {  # command... -> on-CPU percent over 20 s
        "$@" >"$work/client.log" 2>&1 & local pid=$!; pids+=("$pid")
        sleep 3
        local a; a=$(cpu_ns "$pid"); sleep 20; local b; b=$(cpu_ns "$pid")
        kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
        percent $((b - a)) 20
    }
    : > "$work/cpu.node"; : > "$work/cpu.csound"; : > "$work/cpu.metro"
    for round in 1 2 3; do
        measure "$toneshaper" run --name cpubench --no-auto-connect --osc-port 0 >> "$work/cpu.node"; echo >> "$work/cpu.node"
        measure csound "$work/sweep.csd" >> "$work/cpu.csound"; echo >> "$work/cpu.csound"
        measure jack_metro -b 120 -n metro >> "$work/cpu.metro"; echo >> "$work/cpu.metro"
        echo "round $round: toneshaper $(tail -1 "$work/cpu.node")%, csound $(tail -1 "$work/cpu.csound")%, jack_metro $(tail -1 "$work/cpu.metro")%"
    done
    node_cpu=$(median < "$work/cpu.node"); csound_cpu=$(median < "$work/cpu.csound"); metro_cpu=$(median < "$work/cpu.metro")
    printf 'median CPU (one core = 100%%): toneshaper %s%%, csound %s%%, jack_metro (floor) %s%%; toneshaper / csound = %s; above the floor: %s\n' \
        "$node_cpu" "$csound_cpu" "$metro_cpu" "$(awk -v a="$node_cpu" -v b="$csound_cpu" 'BEGIN {printf "%.2f", a / b}')" \
        "$(awk -v a="$node_cpu" -v b="$csound_cpu" -v m="$metro_cpu" 'BEGIN {printf "%.2f", (a - m) / (b - m)}')"
    stop_jack

    say "callback cost against the JACK period (one node, 10 s each)"
    printf '%8s %10s %10s %10s %12s\n' frames p50_us p99_us max_us ns_per_frame
    for p in 16 32 64 128 256 512 1024 2048 4096; do
        start_jack "$p"; start_node scale 9124; sleep 10
        p50=$(stats 9124 p50); p99=$(stats 9124 p99); mx=$(stats 9124 max)
        printf '%8d %10.1f %10.1f %10.1f %12.1f\n' "$p" "$p50" "$p99" "$mx" "$(echo "$p50 * 1000 / $p" | bc -l)"
        kill "$node_pid"; wait "$node_pid" 2>/dev/null || true; stop_jack
    done

    say "several nodes on one server (64 frames, 20 s)"
    printf '%8s %14s %10s %12s\n' nodes total_cpu_% xruns worst_max_us
    for n in 1 4 16; do
        start_jack 64; nodes=()
        for i in $(seq "$n"); do start_node "multi$i" $((9200 + i)); nodes+=("$node_pid"); done
        sleep 1
        t0=0; for p in "${nodes[@]}"; do t0=$((t0 + $(cpu_ns "$p"))); done
        sleep 20
        t1=0; worst=0; xr=0
        for i in $(seq "$n"); do
            p=${nodes[$((i - 1))]}; t1=$((t1 + $(cpu_ns "$p")))
            m=$(stats $((9200 + i)) max); worst=$(echo "if ($m > $worst) $m else $worst" | bc -l)
            x=$(stats $((9200 + i)) xruns); xr=$((xr > ${x%.*} ? xr : ${x%.*}))
        done
        printf '%8d %14s %10d %12.1f\n' "$n" "$(percent $((t1 - t0)) 20)" "$xr" "$worst"
        for p in "${nodes[@]}"; do kill "$p" 2>/dev/null || true; done
        wait "${nodes[@]}" 2>/dev/null || true
        stop_jack
    done
fi

if [[ $what == all || $what == web ]]; then
    say "web editor: WebSocket message to the first sample that reflects it (real server and node, private jackd)"
    # The measurement lives with the tests (it needs their private JACK server and a hook
    # in the process callback); it prints its figures, and checks only the medians.
    swift test --filter WebLatency 2>&1 | grep -E '^(web latency|  )' || {
        echo "the web latency measurement failed; run: swift test --filter WebLatency"; exit 1; }
fi

if [[ $what == all || $what == midi-latency ]]; then
    say "MIDI controller mapped to the wave (a new plan, built by the control side) to the first period playing it, at 256 frames"
    # In the tests too (a private JACK server, a MIDI client of the test's own, and the
    # process callback's probe): from the controller event's frame to the first frame of
    # the first period that plays the new plan, on the audio's timeline. Printed, with the
    # goal (one period plus 5 ms); the test asserts only that every change is heard.
    swift test --filter 'Latency/midiControllerToNewPlan' 2>&1 | grep -E '^(midi latency|  )' || {
        echo "the MIDI latency measurement failed; run: swift test --filter Latency/midiControllerToNewPlan"; exit 1; }
fi
