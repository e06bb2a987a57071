#!/usr/bin/env python3
"""Compile the project's Triton kernels (triton_kernels.py) into two Triton
cache trees, one per num_warps/num_stages policy, and pack them.

    python make_triton_trees.py OUT.tar.xz      (needs triton; no GPU)

Side a compiles every configuration with num_warps=4, num_stages=2; side b
with num_warps=8, num_stages=4.  Each side is what TRITON_CACHE_DIR holds
after the compilations: one directory per compilation, named by Triton's
hash, with NAME.ptx and NAME.json (the other artifacts are dropped; the
JSON gets back the "constants" field that Triton 2 wrote, see
record_constants).  The
128x256x64 matmul spills with 4 warps (its accumulator alone needs 256
registers a thread) and not with 8: the README's example.
"""
import json
import os
import shutil
import sys
import tarfile
import tempfile

SIDES = {"a": {"num_warps": 4, "num_stages": 2}, "b": {"num_warps": 8, "num_stages": 4}}
TARGET = ("cuda", 90, 32)


def compile_side(root, opts):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import triton_kernels as tk
    os.environ["TRITON_CACHE_DIR"] = root
    target = GPUTarget(*TARGET)
    n = 0
    for name, (fn, sig, configs) in tk.FAMILIES.items():
        for consts in configs:
            full = dict(sig)
            full.update({c: "constexpr" for c in consts})
            src = ASTSource(fn=fn, signature=full, constexprs=dict(consts))
            before = set(os.listdir(root))
            triton.compile(src, target=target, options=dict(opts))
            for d in set(os.listdir(root)) - before:
                record_constants(os.path.join(root, d, name + ".json"), consts)
            n += 1
    return n


def record_constants(path, consts):
    """Triton 3 no longer writes the constexprs into NAME.json (2.x did, as
    "constants"); an autotuner's variants differ only there, so the field
    is put back, as the compiler's own record of the configuration."""
    with open(path) as f:
        meta = json.load(f)
    meta["constants"] = consts
    with open(path, "w") as f:
        json.dump(meta, f)


def keep_ptx_json(root):
    for d in os.listdir(root):
        for f in os.listdir(os.path.join(root, d)):
            if not (f.endswith(".ptx") or f.endswith(".json")) or f.startswith("__grp__"):
                os.unlink(os.path.join(root, d, f))


def plain(ti):
    """No owner or time in the archive: the same kernels pack the same."""
    ti.uid = ti.gid = ti.mtime = 0
    ti.uname = ti.gname = ""
    return ti


def main():
    out = sys.argv[1]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        for side, opts in SIDES.items():
            root = os.path.join(tmp, "triton", side)
            os.makedirs(root)
            # each side in a process of its own: Triton keeps compiled
            # kernels in memory by key, and the cache directory is read once
            pid = os.fork()
            if pid == 0:
                n = compile_side(root, opts)
                print("%s: %d kernels" % (side, n), file=sys.stderr)
                os._exit(0)
            _, st = os.waitpid(pid, 0)
            if st:
                sys.exit("compiling side %s failed" % side)
            keep_ptx_json(root)
        with tarfile.open(out, "w:xz") as t:
            t.add(os.path.join(tmp, "triton"), arcname="triton", filter=plain)


if __name__ == "__main__":
    main()
