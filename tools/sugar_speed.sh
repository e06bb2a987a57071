#!/usr/bin/env bash
# sugar_speed.sh - --sugar against plain codegen, file by file, in one run.
#
#   tools/sugar_speed.sh [BUILD_DIR] FILE.ptx...
#
# For each file (largest last is the easy way to read the growth):
# bench_frontend parses and translates it plain, then with every sugar pass,
# each for --seconds 1 (at least one pass), ROUNDS times (default 5),
# interleaved, so that a slow spell of a shared machine hits both; the line
# gives the median throughput of each and the ratio of the medians,
# sugar's share of plain's speed (the target: >= 0.5), with the lowest and
# highest ratio of one round beside it.
set -euo pipefail
build=build
if [ $# -gt 0 ] && [ -d "$1" ]; then build=$1; shift; fi
rounds=${ROUNDS:-5}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-48s %7s %10s %10s %6s %12s\n' file MB plain_MB/s sugar_MB/s ratio round_range
for f in "$@"; do
    p=() s=() r=()
    for ((i = 0; i < rounds; i++)); do
        a=$("$build/bench_frontend" --mode codegen --seconds 1 "$f" | sed 's/.*mbps=//')
        b=$("$build/bench_frontend" --mode sugar --seconds 1 "$f" | sed 's/.*mbps=//')
        p+=("$a") s+=("$b") r+=("$(awk -v a="$b" -v b="$a" 'BEGIN { print a / b }')")
    done
    pm=$(printf '%s\n' "${p[@]}" | median)
    sm=$(printf '%s\n' "${s[@]}" | median)
    lo=$(printf '%s\n' "${r[@]}" | sort -g | awk 'NR == 1')
    hi=$(printf '%s\n' "${r[@]}" | sort -g | tail -1)
    mb=$(awk -v n="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", n / 1e6 }')
    printf '%-48s %7s %10.1f %10.1f %6.2f %5.2f-%-5.2f\n' "$(basename "$f")" "$mb" "$pm" "$sm" \
        "$(awk -v a="$sm" -v b="$pm" 'BEGIN { print a / b }')" "$lo" "$hi"
done
