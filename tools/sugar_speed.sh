#!/usr/bin/env bash
# sugar_speed.sh - --sugar against plain codegen, file by file, in one run.
#
#   tools/sugar_speed.sh [BUILD_DIR] FILE.ptx...
#
# For each file (largest last is the easy way to read the growth):
# bench_frontend parses and translates it plain, then with every sugar pass,
# each for --seconds 2 (at least one pass), and the line gives both
# throughputs and sugar's share of plain's speed (the target: >= 0.5).
set -euo pipefail
build=build
if [ $# -gt 0 ] && [ -d "$1" ]; then build=$1; shift; fi
printf '%-60s %10s %12s %12s %7s\n' file MB plain_MB/s sugar_MB/s ratio
for f in "$@"; do
    plain=$("$build/bench_frontend" --mode codegen --seconds 2 "$f" | sed 's/.*mbps=//')
    sugar=$("$build/bench_frontend" --mode sugar --seconds 2 "$f" | sed 's/.*mbps=//')
    mb=$(awk -v n="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", n / 1e6 }')
    printf '%-60s %10s %12s %12s %7.2f\n' "$(basename "$f")" "$mb" "$plain" "$sugar" \
        "$(awk -v a="$sugar" -v b="$plain" 'BEGIN { print a / b }')"
done
