#!/usr/bin/env bash
# run.sh - build a libFuzzer harness with clang and fuzz it for a fixed time.
#
#   tests/fuzz/run.sh WORKDIR SECONDS [FUZZER]      (FUZZER: fuzz_front)
#
# 1. tests/fuzz/build.sh WORKDIR (fails when clang is missing: a fuzz test
#    must never pass without fuzzing);
# 2. runs every regression input (tests/fuzz/regressions/*, tests/bad/*.ptx)
#    through the harness once;
# 3. makes a seed corpus in a temporary directory (tests/fuzz/seed.sh) and
#    fuzzes for SECONDS with the PTX dictionary.
# Any crash, leak, sanitizer report, timeout (>10 s per input) or property
# violation fails the run; libFuzzer writes the input to WORKDIR/artifacts/
# (add it to tests/fuzz/regressions/ once fixed).  FUZZ_ARGS adds options.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${1:?usage: run.sh WORKDIR SECONDS [FUZZER]}
secs=${2:?usage: run.sh WORKDIR SECONDS [FUZZER]}
name=${3:-fuzz_front}

"$here/build.sh" "$work" "$name"
work=$(cd "$work" && pwd)
exe="$work/$name"
[ -x "$exe" ] || { echo "fuzz/run.sh: error: $exe was not built" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptx-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$work/artifacts" "$tmp/corpus" "$tmp/seed"

# regression inputs, each run once
regs=()
while IFS= read -r -d '' f; do regs+=("$f"); done < <(
    find "$here/regressions" "$root/tests/bad" -type f \
         ! -name '*.expect' ! -name '*.sh' ! -name '*.py' ! -name '*.cmake' \
         ! -name '*.md' -print0 2>/dev/null | sort -z)
if [ ${#regs[@]} -gt 0 ]; then
    echo "fuzz/run.sh: $name on ${#regs[@]} regression inputs"
    (cd "$tmp" && "$exe" -timeout=10 -rss_limit_mb=4096 "${regs[@]}" > "$tmp/regress.log" 2>&1) || {
        tail -40 "$tmp/regress.log"; echo "fuzz/run.sh: FAIL: a regression input fails" >&2; exit 1; }
fi

"$here/seed.sh" "$tmp/seed" 65536
echo "fuzz/run.sh: fuzzing $name for $secs s"
set +e
(cd "$tmp" && "$exe" -max_total_time="$secs" -max_len=65536 -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -dict="$here/ptx.dict" \
    -artifact_prefix="$work/artifacts/" ${FUZZ_ARGS:-} "$tmp/corpus" "$tmp/seed") \
    > "$tmp/fuzz.log" 2>&1
rc=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^stat::(number_of_executed_units|peak_rss_mb)|^Done' "$tmp/fuzz.log" || true
if [ $rc -ne 0 ]; then
    tail -60 "$tmp/fuzz.log"
    echo "fuzz/run.sh: FAIL: $name exit status $rc; the input is in $work/artifacts/" >&2
    exit 1
fi
echo "fuzz/run.sh: $name: no failures in $secs s"
