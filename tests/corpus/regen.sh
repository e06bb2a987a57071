#!/usr/bin/env bash
# Regenerate the nvcc-produced PTX corpus in tests/corpus/nvcc/ from tests/corpus/src/*.cu.
#
#   ./regen.sh            regenerate every file (2 nvcc jobs at a time)
#   ./regen.sh --check    only run ptxas over the existing nvcc/*.ptx and hand/*.ptx
#   ./regen.sh --all      regenerate, then check
#
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), PTXAS (default next to nvcc),
# JOBS (default 2), STAGE (default /tmp/ptx-corpus-stage).
#
# Output names: <src>_<arch>.ptx (-O3), <src>_<arch>_lineinfo.ptx (-O3 -lineinfo),
# <src>_<arch>_G.ptx (-G, carries DWARF .section blocks).
# Archs: sm_80 sm_90a sm_100a, unless a source restricts them with a line
#   // corpus-archs: sm_90a sm_100a
#
# Determinism: nvcc writes absolute source paths into .file directives and (under -G)
# into DWARF byte strings (DW_AT_name / DW_AT_comp_dir), so sources are copied to the
# fixed directory $STAGE and compiled there with relative names; the output then does
# not depend on where the repository is checked out.  No timestamps are embedded.
set -euo pipefail
shopt -s nullglob

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
PTXAS=${PTXAS:-$(dirname "$NVCC")/ptxas}
JOBS=${JOBS:-2}
STAGE=${STAGE:-/tmp/ptx-corpus-stage}
ARCHS_DEFAULT="sm_80 sm_90a sm_100a"

mode=regen
case "${1:-}" in
    "") ;;
    --check) mode=check ;;
    --all) mode=all ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "usage: $0 [--check|--all]" >&2; exit 2 ;;
esac

regen() {
    rm -rf "$STAGE"
    mkdir -p "$STAGE/src"
    cp "$HERE"/src/*.cu "$STAGE/src/"
    mkdir -p "$HERE/nvcc" "$STAGE/out"
    local jobs="$STAGE/jobs.txt"
    : > "$jobs"
    for cu in "$HERE"/src/*.cu; do
        local base archs
        base=$(basename "$cu" .cu)
        archs=$(sed -n 's|^// corpus-archs:[[:space:]]*||p' "$cu" | head -n1)
        [ -n "$archs" ] || archs=$ARCHS_DEFAULT
        for arch in $archs; do
            echo "$base $arch plain"    >> "$jobs"
            echo "$base $arch lineinfo" >> "$jobs"
            echo "$base $arch G"        >> "$jobs"
        done
    done
    export NVCC STAGE HERE
    # shellcheck disable=SC2016
    xargs -P "$JOBS" -L 1 bash -c '
        base=$0 arch=$1 variant=$2
        case $variant in
            plain)    flags="-O3";            out=${base}_${arch}.ptx ;;
            lineinfo) flags="-O3 -lineinfo";  out=${base}_${arch}_lineinfo.ptx ;;
            G)        flags="-G";             out=${base}_${arch}_G.ptx ;;
        esac
        cd "$STAGE/src"
        if "$NVCC" -ptx -arch="$arch" $flags "$base.cu" -o "$STAGE/out/$out" 2> "$STAGE/$out.log"; then
            echo "ok    $out"
        else
            echo "FAIL  $out"; sed "s/^/      /" "$STAGE/$out.log"; exit 255
        fi
    ' < "$jobs"
    # Install the new files.  nvcc -G sometimes emits a group of 1-byte placeholder
    # globals (libcu++ CPO objects) in a run-dependent order; when a new file differs
    # from the committed one only in line order, keep the committed one so that
    # regenerating gives no spurious diffs.
    local f old kept=0
    for f in "$STAGE"/out/*.ptx; do
        old="$HERE/nvcc/$(basename "$f")"
        if [ -f "$old" ] && ! cmp -s "$f" "$old" &&
           cmp -s <(LC_ALL=C sort "$f") <(LC_ALL=C sort "$old"); then
            kept=$((kept + 1))
            continue
        fi
        cp "$f" "$old"
    done
    for f in "$HERE"/nvcc/*.ptx; do
        [ -f "$STAGE/out/$(basename "$f")" ] || { echo "removing stale nvcc/$(basename "$f")"; rm -f "$f"; }
    done
    [ "$kept" -eq 0 ] || echo "kept $kept committed file(s) that differed only in line order"
    local n size
    n=$(ls "$HERE"/nvcc/*.ptx | wc -l)
    size=$(du -cb "$HERE"/nvcc/*.ptx | tail -n1 | cut -f1)
    echo "generated $n files, $size bytes"
}

# Arch for a hand-written file: first '.target sm_XX[a|f]' in it (default sm_90a).
# A file may also carry a line "// ptxas-options: ..." with extra flags (e.g. -c).
hand_arch() {
    local t
    t=$(grep -o -m1 -E '^[[:space:]]*\.target[[:space:]]+sm_[0-9]+[af]?' "$1" | grep -o -E 'sm_[0-9]+[af]?' || true)
    echo "${t:-sm_90a}"
}

check() {
    local fail=0 pass=0 skipped=0 f arch log
    for f in "$HERE"/nvcc/*.ptx; do
        arch=$(basename "$f" .ptx | grep -o -E '_sm_[0-9]+a?(_|$)' | tr -d '_' | sed 's/^sm/sm_/' | tail -n1)
        if log=$("$PTXAS" -arch="$arch" "$f" -o /dev/null 2>&1); then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL  nvcc/$(basename "$f") ($arch)"; echo "$log" | sed 's/^/      /'
        fi
    done
    # Hand-written files: those listed as syntax-only in hand/README.md are skipped.
    local syntax_only
    syntax_only=$( { sed -n 's/^- `\([^`]*\.ptx\)`.*/\1/p' "$HERE/hand/README.md" 2>/dev/null || true; } | sort -u)
    for f in "$HERE"/hand/*.ptx; do
        if grep -qx "$(basename "$f")" <<< "$syntax_only"; then
            skipped=$((skipped + 1)); continue
        fi
        arch=$(hand_arch "$f")
        # Optional extra ptxas flags: a line "// ptxas-options: -c" in the file.
        local opts
        opts=$(sed -n 's|^// ptxas-options:[[:space:]]*||p' "$f" | head -n1)
        # shellcheck disable=SC2086
        if log=$("$PTXAS" -arch="$arch" $opts "$f" -o /dev/null 2>&1); then
            pass=$((pass + 1))
        else
            fail=$((fail + 1)); echo "FAIL  hand/$(basename "$f") ($arch)"; echo "$log" | sed 's/^/      /'
        fi
    done
    echo "ptxas: $pass passed, $fail failed, $skipped syntax-only skipped"
    [ "$fail" -eq 0 ]
}

case $mode in
    regen) regen ;;
    check) check ;;
    all) regen; check ;;
esac
