# dslgen: seed 2026, program 205056 (tools/dslgen/run.py --show 2026:205056)
# class: crashed
# generated code raised NameError: name 'null' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 128, 1, 1),
    block=(128, 1, 1),
    arch="sm_90a",
)
def k205056(X, Y, *, N=1048576):
    py, = ptx.global_ptrs(Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    b = reg.scalar(f32)
    ptx.cvt(f32, u32, b, tid, rounding="rn")
    off = ptx.special.tid.x()
    ofs = reg.scalar(u64)
    ptx.mul(u32, ofs, off, 128, mode="wide")
    for kk in range(4):
        scale = reg.scalar(f32)
        for w in range(3):
            b2 = reg.scalar(f32)
            off2 = ptx.mad(tid, 7, off)
            row = ptx.special.tid.x() * 4096
        ptx.inst.mul.f32(b, scale, b)
        ptx.and_(b32, tid, off, tid)
        inb = reg.scalar(pred)
        off -= tid
        ptx.inst.fma.rn.f32(b, scale, scale, scale)
        ptx.setp("ne", u32, inb, tid, (4096 + 128 * kk))
        ptx.shr(u32, off, off, 16)
    sA = smem.wgmma_tile(bf16, (64, 16), major="K")
    sB = smem.wgmma_tile(bf16, (16, 32), major="MN")
    acc = reg.wgmma_frag(m=64, n=32, dtype=f32)
    ptx.wgmma.fence()
    ptx.wgmma.mma_async(shape=(64, 32, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16, d=acc, a=sA, b=sB, scale_d=True, trans_b=1)
    ptx.wgmma.commit_group()
    ptx.wgmma.wait_group(0)
    y = reg.scalar(f32, init=0.125)
    pos = reg.scalar(u32)
    ptx.mad(u32, pos, tid, tid, tid)
    sidx = reg.from_(ptx.special.laneid(), s32)
    sidx += 128
    for j in range(4):
        v = reg.scalar(f32)
        m = reg.scalar(f32)
        ptx.inst.max.f32(m, v, "0f3F800000")
        for step in ptx.range_(0, 8, 1):
            ptx.inst.fma.rn.f32(acc[9], v, acc[10], acc[9])
            ptx.st(u32, ptx.addr(py), pos)
            ptx.st(f32, ptx.addr(py), y)
    ptx.mul(u32, ofs, off, 4, mode="wide")
    ptx.ret()


KERNEL = k205056
ARGS = {}
