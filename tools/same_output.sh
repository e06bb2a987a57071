#!/usr/bin/env bash
# same_output.sh - do two builds write the same Python?  For a change that
# must not change the output (a speed-up of the code generator or a pass).
#
#   tools/same_output.sh OLD_BUILD NEW_BUILD PATH...
#
# Runs both builds' pyptx-codegen, plain and --sugar, on every .ptx file
# under PATH and compares the output (and any error) byte for byte.  Prints
# each file that differs and a count; exit 0 only when none differs.
set -uo pipefail
old=$1 new=$2
shift 2
n=0 bad=0
while IFS= read -r -d '' f; do
    for mode in "" --sugar; do
        n=$((n + 1))
        if ! cmp -s <("$old/pyptx-codegen" $mode "$f" 2>&1) <("$new/pyptx-codegen" $mode "$f" 2>&1); then
            bad=$((bad + 1))
            echo "differs: ${mode:-plain} $f"
        fi
    done
done < <(find "$@" -name '*.ptx' -print0 | sort -z)
echo "$n outputs, $bad differ"
[ "$bad" -eq 0 ]
