#!/usr/bin/env bash
# sugar_speed.sh - --sugar against plain codegen, file by file, in one run.
#
#   tools/sugar_speed.sh [BUILD_DIR...] FILE.ptx...
#
# For each file and each build (default: build): plain and --sugar, two
# ways, ROUNDS times (default 5), interleaved, so that a slow spell of a
# shared machine hits every build and mode alike (and each build goes first
# in every other round: the second of two back-to-back runs can be slower):
#   in process: bench_frontend --mode codegen|sugar --seconds 1 (parse and
#               codegen, repeated for at least a second);
#   CLI:        the wall time of one `pyptx-codegen [--sugar] FILE`.
# One line per file and build: the median MB/s of plain and --sugar in
# process, their ratio (sugar's share of plain's speed; the target: >= 0.5)
# with the lowest and highest ratio of one round, and the ratio of the CLI
# medians.
set -euo pipefail
builds=()
while [ $# -gt 0 ] && [ -d "$1" ]; do builds+=("$1"); shift; done
[ ${#builds[@]} -gt 0 ] || builds=(build)
rounds=${ROUNDS:-5}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
cli_mbps() {   # build file [--sugar]: MB/s of one run, by its wall time
    local t0 t1
    t0=$(date +%s.%N)
    "$1/pyptx-codegen" ${3:-} "$2" > /dev/null
    t1=$(date +%s.%N)
    awk -v n="$(stat -c %s "$2")" -v a="$t0" -v b="$t1" 'BEGIN { print n / 1e6 / (b - a) }'
}
printf '%-48s %-12s %6s %10s %10s %6s %12s %6s\n' file build MB plain_MB/s sugar_MB/s ratio round_range cli
for f in "$@"; do
    declare -A p=() s=() r=() cp=() cs=()
    for ((i = 0; i < rounds; i++)); do
        order=("${builds[@]}")
        if ((i % 2)); then   # every other round in reverse
            order=(); for ((j = ${#builds[@]} - 1; j >= 0; j--)); do order+=("${builds[j]}"); done
        fi
        for b in "${order[@]}"; do
            x=$("$b/bench_frontend" --mode codegen --seconds 1 "$f" | sed 's/.*mbps=//')
            y=$("$b/bench_frontend" --mode sugar --seconds 1 "$f" | sed 's/.*mbps=//')
            p[$b]+="$x " s[$b]+="$y " r[$b]+="$(ratio "$y" "$x") "
            cp[$b]+="$(cli_mbps "$b" "$f") " cs[$b]+="$(cli_mbps "$b" "$f" --sugar) "
        done
    done
    mb=$(awk -v n="$(stat -c %s "$f")" 'BEGIN { printf "%.1f", n / 1e6 }')
    for b in "${builds[@]}"; do
        pm=$(printf '%s\n' ${p[$b]} | median)
        sm=$(printf '%s\n' ${s[$b]} | median)
        lo=$(printf '%s\n' ${r[$b]} | sort -g | head -1)
        hi=$(printf '%s\n' ${r[$b]} | sort -g | tail -1)
        cr=$(ratio "$(printf '%s\n' ${cs[$b]} | median)" "$(printf '%s\n' ${cp[$b]} | median)")
        printf '%-48s %-12s %6s %10.1f %10.1f %6.2f %5.2f-%-5.2f  %6.2f\n' "$(basename "$f")" \
            "$(basename "$b")" "$mb" "$pm" "$sm" "$(ratio "$sm" "$pm")" "$lo" "$hi" "$cr"
    done
    unset p s r cp cs
done
