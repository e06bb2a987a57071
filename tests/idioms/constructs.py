#!/usr/bin/env python3
"""The sugar passes' recognizers against the pyptx 0.1.1 constructs they
recover.

    constructs.py CODEGEN

pyptx is the oracle.  Each case below is a small kernel that uses one
construct whose expansion is fixed (ptx.mbarrier.wait, smem.alloc,
ptx.range_, ptx.kloop, ptx.pipeline(...).advance(), the wgmma and
tcgen05 descriptor helpers, ptx.tma, operators, ...).  It is traced under
a recorder that notes, for every instruction, the pyptx function that
emitted it (the innermost frame of the library: `try_wait` for the
instruction ptx.mbarrier.wait's loop spins on, `range_` for the loop's
compare, `inst` for ptx.inst).  `CODEGEN --sugar` decompiles the traced
module; the result is traced again under the same recorder.  A case
passes when

  - the two recordings agree instruction by instruction (so every
    instruction comes back from the construct that made it, not from
    ptx.inst: a recognizer that prints the plain form fails here),
  - the two modules are the same text, byte for byte, and
  - the decompiled kernel spells the construct (each `expect` string).

The last line is `N passed, N failed` (one per case)."""
import os
import subprocess
import sys
import tempfile

import oracle
import pyptx._trace as TR
from pyptx import kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, u32

RECORD = []
_emit = TR.TraceContext.emit
_init = TR.TraceContext.__init__
LIB = os.path.dirname(TR.__file__)


def recording_init(self, *args, **kwargs):
    """A kernel whose allocations outgrow static shared memory is traced
    twice: only the last trace counts."""
    del RECORD[:]
    _init(self, *args, **kwargs)


def recording_emit(self, stmt):
    """Records each instruction with the library function that emitted it."""
    if type(stmt).__name__ == "Instruction":
        f = sys._getframe(1)
        while f and f.f_code.co_filename.startswith(LIB) and \
                f.f_code.co_name in ("emit", "_emit", "__call__"):
            f = f.f_back
        who = f.f_code.co_name if f and f.f_code.co_filename.startswith(LIB) else "inst"
        RECORD.append((who, stmt.opcode, stmt.modifiers))
    _emit(self, stmt)


TR.TraceContext.emit = recording_emit
TR.TraceContext.__init__ = recording_init
CASES = []


def case(*expect, arch="sm_90a", version=None):
    """Registers a kernel function as a case; `expect`: strings the
    decompiled kernel must contain."""
    def add(fn):
        kw = {"arch": arch}
        if version:
            kw["version"] = version
        CASES.append((kernel(**kw)(fn), fn.__name__, expect))
        return fn
    return add


@case("smem.alloc(", "smem.mbarrier(", "ptx.mbarrier.wait(", "ptx.mbarrier.init(",
      "ptx.mbarrier.arrive_expect_tx(", "ptx.mbarrier.arrive(", "ptx.fence.proxy_async_shared_cta()")
def barriers():
    buf = smem.alloc(bf16, (64, 64))
    bar = smem.mbarrier(2)
    tid = reg.from_(ptx.special.tid.x(), u32)
    with ptx.if_(tid == 0):
        ptx.mbarrier.init(bar[0], 1)
        ptx.mbarrier.init(bar[1], 32)
        ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)
    phase = reg.scalar(b32, init=0)
    ptx.mbarrier.arrive_expect_tx(bar[0], 8192)
    ptx.mbarrier.wait(bar[0], phase)
    state = ptx.mbarrier.arrive(bar[1])
    ptx.mbarrier.wait(bar[1], phase)
    phase ^= 1
    ptx.ld(b64, state, ptx.addr(buf.name))
    ptx.ret()


@case("_dyn_smem(", "ptx.mbarrier.wait(", "ptx.cp.async_.bulk.tensor_2d(")
def dynamic():
    big = smem.alloc(bf16, (256, 128))       # over 48 KiB: dynamic shared memory
    bar = smem.mbarrier(1)
    desc = reg.scalar(b64, init=0)
    col = reg.scalar(u32, init=128)
    ptx.mbarrier.init(bar[0], 1)
    ptx.mbarrier.arrive_expect_tx(bar[0], 65536)
    ptx.cp.async_.bulk.tensor_2d(dst=big, src=desc, coord=(0, col), mbar=bar[0])
    ptx.mbarrier.wait(bar[0], 0)
    ptx.ret()


@case("ptx.tma.load_3d(", "row=r0, col=r0", "ptx.tma.store_3d(")
def tma3d():
    tile = smem.alloc(bf16, (64, 64))
    bar = smem.mbarrier(1)
    desc = reg.scalar(b64, init=0)
    col = reg.scalar(u32, init=128)
    ptx.tma.load_3d(tile, desc, row=col, col=col, mbar=bar[0])
    ptx.tma.store_3d(desc, tile, coords=(0, col, 1))
    ptx.ret()


@case(".at(", "ptx.pipeline(4, cursor=", ").advance()")
def ring():
    bars = ptx.mbarrier.array(smem.mbarrier(4), 0, 4)
    state = ptx.pipeline(4)
    for _ in ptx.range_(0, 16):
        stage, phase = state.advance()
        bars.at(stage).wait(phase)
        bars.at(stage).arrive()
    ptx.ret()


@case("ptx.range_(0, 64, 8)", "ptx.range_(", "ptx.kloop(", "def body")
def loops():
    tid = reg.from_(ptx.special.tid.x(), u32)
    acc = reg.scalar(u32, init=0)
    for k in ptx.range_(0, 64, 8):
        acc += k
        for j in ptx.range_(tid, 4):
            acc += j
    n = tid >> 2

    def body():
        nonlocal acc
        acc += 5

    ptx.kloop(n, unroll=4, body=body)
    ptx.ret()


@case("smem.alloc(f32, (16, 33)", "] = ", " = smem_", "smem.store(f32, ")
def tile2d():
    t = smem.alloc(f32, (16, 33))
    tid = reg.from_(ptx.special.tid.x(), u32)
    row = tid >> 5
    v = reg.scalar(f32, init=1.0)
    t[row, tid] = v
    w = t[tid, row]
    smem.store(f32, ptx.addr(t.name), w)
    ptx.ret()


@case(" & 31", " >> 5", "smem.apply_swizzle(", ") << 3")
def operators():
    tid = reg.from_(ptx.special.tid.x(), u32)
    lane = tid & 31
    warp = tid >> 5
    off = (lane & 3) << 3
    addr = lane + warp
    phys = smem.apply_swizzle(off + addr, "128B")
    smem.store(u32, ptx.addr(phys), lane)
    ptx.ret()


@case("ptx.wgmma.mma_async(", "ptx.wgmma.make_descriptor(", "addr_byte_offset=32")
def wgmma():
    sa = smem.wgmma_tile(bf16, (64, 16), major="K")
    sb = smem.wgmma_tile(bf16, (16, 64), major="MN")
    acc = reg.wgmma_frag(m=64, n=64, dtype=f32)
    p = reg.scalar(u32, init=1) != 0
    ptx.wgmma.fence()
    for kk in range(2):
        ptx.wgmma.mma_async(shape=(64, 64, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16,
                            d=acc, a=sa, b=sb, scale_d=p, a_k_offset=32 * kk)
    ptx.wgmma.commit_group()
    ptx.wgmma.wait_group(0)
    ptx.ret()


@case("ptx.tcgen05.alloc(", "ptx.tcgen05.descriptor(", "ptx.tcgen05.mma(", "ptx.tcgen05.commit(",
      "ptx.tcgen05.ld(", "ptx.tcgen05.wait_ld()", "ptx.tcgen05.dealloc(",
      "ptx.tcgen05.fence_after_thread_sync()", "smem.load(b32, ", arch="sm_100a",
      version=(8, 8))
def tcgen05():
    sa = smem.alloc(bf16, (128, 64))
    slot = smem.alloc(b32, 1)
    bar = smem.mbarrier(1)
    ptx.tcgen05.alloc(slot, 64)
    ptx.tcgen05.fence_after_thread_sync()
    tmem = smem.load(b32, ptx.addr(slot.name))
    da = ptx.tcgen05.descriptor(sa, stride_bytes=1024)
    db = ptx.tcgen05.descriptor(sa, byte_offset=32, stride_bytes=1024, swizzle="64B")
    idesc = reg.scalar(u32, init=0x8100490)
    acc = reg.scalar(u32, init=0)
    ptx.tcgen05.mma(tmem, da, db, idesc, scale_d=acc)
    ptx.tcgen05.commit(bar[0])
    out = reg.array(b32, 32)
    ptx.tcgen05.ld(out, tmem, shape="32x32b", count=32)
    ptx.tcgen05.wait_ld()
    ptx.tcgen05.dealloc(tmem, 64)
    ptx.ret()


def trace(k):
    del RECORD[:]
    return k.ptx(), list(RECORD)


def check(codegen, k, name, expect, work):
    module, want = trace(k)
    src = os.path.join(work, name + ".ptx")
    gen = os.path.join(work, name + ".py")
    with open(src, "w") as f:
        f.write(module)
    out = subprocess.run([codegen, "--sugar", src], capture_output=True)
    if out.returncode:
        return "codegen failed: " + out.stderr.decode(errors="replace").strip()
    with open(gen, "wb") as f:
        f.write(out.stdout)
    try:
        g = oracle.load_generated(gen, name)
        _, got = trace(g.kernels[name])
        text = g.module()
    except Exception as e:  # the decompiled kernel does not trace
        return "does not trace: %s" % str(e).splitlines()[0]
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            return "instruction %d: pyptx %s, decompiled %s" % (i, w, g)
    if len(want) != len(got):
        return "%d instructions, decompiled %d" % (len(want), len(got))
    if text != module:
        return "the decompiled module traces to different text"
    missing = [e for e in expect if e not in out.stdout.decode()]
    return "not recovered: " + ", ".join(missing) if missing else None


def main():
    codegen = sys.argv[1]
    work = tempfile.mkdtemp(prefix="constructs-")
    passed = failed = 0
    for k, name, expect in CASES:
        err = check(codegen, k, name, expect, work)
        print("%-10s %s" % (name, "ok" if not err else "FAIL: " + err))
        passed += not err
        failed += bool(err)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
