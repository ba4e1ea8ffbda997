#!/usr/bin/env bash
# Whole-run benchmark of the full-load 640-port permutation (study perm640):
# wall time, simulated frames per wall second and peak memory, with
# --log-level frames (every frame recorded) and summary.
# Usage: scripts/bench_perm640.sh [SIM_TIME, default 1ms]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >/dev/null
time_arg="${1:-1ms}"
out="$(mktemp -d)"
echo "| log level | simulated | wall (s) | frames delivered | frames / wall s | peak RSS (MiB) | mean port Gb/s |"
echo "|---|---|---|---|---|---|---|"
for level in frames summary; do
  db="$out/perm640-$level.db"
  /usr/bin/time -f "%e %M" -o "$out/time" build/fabricsim --study perm640 --time "$time_arg" \
      --log-level "$level" --db "$db" --quiet > "$out/summary-$level.txt"
  read -r wall rss_kb < "$out/time"
  delivered=$(grep -oP '\d+(?= delivered)' "$out/summary-$level.txt" | head -1)
  mean=$(grep -oP 'mean \K[0-9.]+' "$out/summary-$level.txt" | head -1)
  rate=$(awk -v n="$delivered" -v w="$wall" 'BEGIN { printf "%.0f", n / w }')
  echo "| $level | $time_arg | $wall | $delivered | $rate | $((rss_kb / 1024)) | $mean |"
done
echo
echo "databases and summaries in $out"
