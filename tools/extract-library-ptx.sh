#!/usr/bin/env bash
# extract-library-ptx.sh - the library-scale PTX corpus: every PTX module
# embedded in NVIDIA's CUDA libraries (cuBLASLt, cuDNN, cuRAND, NCCL, ...),
# extracted with `cuobjdump -xptx all`.  Run it where the libraries are (the
# device machine); the files are large and are never committed.
#
#   tools/extract-library-ptx.sh OUTDIR [LIB.so ...]
#
# Without LIB arguments it looks for the libraries under the Python
# site-packages (nvidia-* wheels) and /usr/local/cuda.  Prints one line per
# module (bytes, name), largest first.
set -euo pipefail
out=${1:?usage: extract-library-ptx.sh OUTDIR [LIB.so ...]}
shift
mkdir -p "$out"
libs=("$@")
if [ ${#libs[@]} -eq 0 ]; then
    while IFS= read -r f; do libs+=("$f"); done < <(
        { python3 -c 'import site; print("\n".join(site.getsitepackages()))' 2>/dev/null
          echo /usr/local/cuda/lib64; } |
        while IFS= read -r d; do
            [ -d "$d" ] && find -L "$d" -maxdepth 5 \( -name 'libcublasLt.so*' \
                -o -name 'libcudnn*.so*' -o -name 'libcurand.so*' -o -name 'libnccl.so*' \) \
                -type f -exec realpath {} + 2>/dev/null
        done | sort -u)   # one entry per library, not per symlink
fi
for lib in "${libs[@]}"; do
    base=$(basename "$lib"); base=${base%%.so*}
    dir="$out/$base"
    mkdir -p "$dir"
    (cd "$dir" && cuobjdump -xptx all "$lib" >/dev/null 2>&1) || true
    rmdir "$dir" 2>/dev/null || true
done
find "$out" -name '*.ptx' -printf '%s %P\n' | sort -rn
