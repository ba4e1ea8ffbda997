#!/usr/bin/env bash
# Whole-run benchmark of the full-load 640-port permutation (study perm640):
# wall time, simulated frames per wall second, delivered payload per wall
# second, link messages per wall second, events per delivered frame and peak
# memory, with --record frames (every frame recorded) and summary, on
# each number of threads in THREADS (default "1 2").
# Usage: [THREADS="1 2"] scripts/bench_perm640.sh [SIM_TIME, default 1ms] [fabricsim options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
time_arg="${1:-1ms}"
shift || true
out="$(mktemp -d)"
echo "| log level | threads | simulated | wall (s) | frames delivered | frames / wall s | payload Gb / wall s | link messages / wall s | events / frame | peak RSS (MiB) | mean port Gb/s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for level in frames summary; do
  for threads in ${THREADS:-1 2}; do
    db="$out/perm640-$level-$threads.db"
    summary="$out/summary-$level-$threads.txt"
    /usr/bin/time -f "%e %M" -o "$out/time" build/fabricsim --study perm640 --time "$time_arg" \
        --record "$level" --set "sim.threads=$threads" --db "$db" --quiet "$@" > "$summary"
    read -r wall rss_kb < "$out/time"
    delivered=$(grep -oP '\d+(?= delivered)' "$summary" | head -1)
    messages=$(grep -oP 'link messages .*: \K\d+' "$summary" | head -1)
    per_frame=$(grep -oP 'model events served: \d+, \K[0-9.]+' "$summary" | head -1)
    mean=$(grep -oP 'mean \K[0-9.]+' "$summary" | head -1)
    # 1522 B frames: 1500 B of payload each.
    awk -v n="$delivered" -v w="$wall" -v m="$messages" -v l="$level" -v t="$threads" -v s="$time_arg" \
        -v e="$per_frame" -v r="$((rss_kb / 1024))" -v g="$mean" \
        'BEGIN { printf "| %s | %s | %s | %s | %d | %.0f | %.1f | %.0f | %s | %s | %s |\n", l, t, s, w, n, n / w, n * 1500 * 8 / w / 1e9, m / w, e, r, g }'
  done
done
echo
echo "databases and summaries in $out"
