#!/usr/bin/env bash
# bench/rtsp-viewers.sh OUT_DIR   CPU of one `camstamp stream --serve` with 1 and with 4 RTSP viewers
#
# camstamp serves the test camera (credit + logo, 1280x720 at 30 fps, the stream's default encoder)
# on a free port of 127.0.0.1. After a warm-up, N viewers (`ffmpeg -rtsp_transport tcp -c copy -f null`)
# connect; camstamp's own CPU (utime + stime of its process, from /proc/PID/stat) is sampled over
# RTSP_WINDOW seconds while they watch. The viewers' CPU is not counted: the question is whether
# camstamp's cost grows per viewer (an encode per viewer would double it), not what ffmpeg costs.
# Writes OUT_DIR/rtsp.md (a Markdown table) and OUT_DIR/rtsp.tsv (raw figures).
#
# Env: CAMSTAMP (binary), RTSP_WINDOW (seconds, default 10), RTSP_ROUNDS (default 2).
set -euo pipefail

out=${1:?usage: rtsp-viewers.sh OUT_DIR}
window=${RTSP_WINDOW:-10}
rounds=${RTSP_ROUNDS:-2}
mkdir -p "$out/rtsp"
tick=$(getconf CLK_TCK)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# run VIEWERS: one camstamp run; prints camstamp's CPU in % of one core over the window.
run() {
    local viewers=$1 port pid ticks0 ticks1 started ended i
    port=$(free_port)
    "$CAMSTAMP" stream --source test --preset credit --preset logo --size 1280x720 --fps 30 \
        --duration $(( window + 12 )) --serve "rtsp://127.0.0.1:$port/live" \
        >>"$out/rtsp/camstamp.log" 2>&1 &
    pid=$!
    sleep 3
    local clients=()
    for (( i = 0; i < viewers; i++ )); do
        ffmpeg -nostdin -v error -rtsp_transport tcp -i "rtsp://127.0.0.1:$port/live" -t $(( window + 6 )) \
            -c copy -f null - >>"$out/rtsp/viewers.log" 2>&1 &
        clients+=($!)
    done
    sleep 3   # every viewer has joined and the media is playing
    ticks0=$(cpu_ticks "$pid"); started=$(date +%s.%N)
    sleep "$window"
    ticks1=$(cpu_ticks "$pid"); ended=$(date +%s.%N)
    for client in "${clients[@]}"; do wait "$client" || true; done
    wait "$pid" || true
    python3 -c "print(f'{($ticks1 - $ticks0) / $tick / ($ended - $started) * 100:.1f}')"
}

printf 'viewers\tround\tcpu_percent\n' >"$out/rtsp.tsv"
for (( r = 1; r <= rounds; r++ )); do
    for viewers in 1 4; do
        printf '%s\t%s\t%s\n' "$viewers" "$r" "$(run "$viewers")" >>"$out/rtsp.tsv"
    done
done

python3 - "$out/rtsp.tsv" >"$out/rtsp.md" <<'EOF'
import statistics, sys
rows = [line.split("\t") for line in open(sys.argv[1]).read().split("\n")[1:] if line]
cpu = {v: [float(c) for n, _, c in rows if n == v] for v in ("1", "4")}
one, four = statistics.median(cpu["1"]), statistics.median(cpu["4"])
ratio = four / one if one else float("nan")
print("### RTSP: one encode, 1 and 4 viewers\n")
print("| viewers | camstamp CPU (% of one core, median) | runs |")
print("|---|---|---|")
for v, m in (("1", one), ("4", four)):
    print(f"| {v} | {m:.1f} | {', '.join(f'{c:.1f}' for c in cpu[v])} |")
verdict = "✅" if ratio <= 1.25 else "❌"
print(f"\n4 viewers / 1 viewer: **{ratio:.2f}** {verdict} (target ≤ 1.25: no encode per viewer; "
      "the rest is RTP packets sent four times)")
EOF
cat "$out/rtsp.md"
