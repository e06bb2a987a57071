#!/usr/bin/env bash
# seed.sh - make a fuzzing seed corpus in DIR (at fuzz time; nothing here is
# committed): the .ptx files of tests/corpus, of the shared corpus beside the
# checkout (../shared/corpus, or $PTX_SHARED_CORPUS), of tests/bad and the
# fuzz regressions, each at most MAXLEN bytes (default 65536: libFuzzer
# would truncate longer ones to -max_len, which mostly makes them not parse).
#
#   tests/fuzz/seed.sh DIR [MAXLEN]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: seed.sh DIR [MAXLEN]}
max=${2:-65536}
shared=${PTX_SHARED_CORPUS:-$root/../shared/corpus}
mkdir -p "$dir"
n=0
for src in "$root/tests/corpus" "$shared" "$root/tests/bad" "$root/tests/fuzz/regressions"; do
    [ -d "$src" ] || continue
    while IFS= read -r -d '' f; do
        # name by content so that duplicates collapse, as libFuzzer does
        sum=$(sha1sum < "$f" | cut -c1-40)
        cp "$f" "$dir/$sum"
        n=$((n + 1))
    done < <(find "$src" -type f \( -name '*.ptx' -o -path '*/regressions/*' \) -size -$((max + 1))c -print0)
done
echo "seed.sh: $n seed files in $dir"
