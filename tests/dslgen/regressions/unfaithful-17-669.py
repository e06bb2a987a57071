# dslgen: seed 17, program 669 (tools/dslgen/run.py --show 17:669)
# class: unfaithful
# outline looped three if_ blocks whose bodies held calls of a helper it had made first; the calls kept the first copy's offset 0 where the copies had 0, 64, 128
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 256, 1, 1),
    block=(256, 1, 1),
    arch="sm_90a",
)
def k669(X, Y, *, N=1048576):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    a = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a, ptx.addr(py))
    row = reg.scalar(u32, init=255)
    ptx.inst.st.global_.f32(ptx.addr(py), a)
    ptx.inst.st.global_.f32(ptx.addr(px, 32), a)
    cnt = reg.scalar(u32, init=1024)
    v = reg.scalar(f32)
    ptx.inst.ld.global_.f32(v, ptx.addr(py, 16))
    ptx.inst.st.global_.f32(ptx.addr(py, 128), v)
    mask = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(mask, row, 16, 31, -1)
    ptx.inst.mul.hi.u32(mask, cnt, mask)
    scale = reg.scalar(f32)
    ptx.inst.ld.global_.f32(scale, ptx.addr(px, 1024))
    ptx.inst.ld.global_.f32(scale, ptx.addr(py))
    for j in range(2):
        acc = reg.scalar(f32)
        idx = reg.scalar(u32)
        ptx.inst.ld.global_.u32(idx, ptx.addr(px, j * 128))
        ptx.inst.st.global_.u32(ptx.addr(px, 16), row)
        ptx.inst.st.global_.u32(ptx.addr(px, 16), tid)
        g = [reg.scalar(f32) for _ in range(4)]
        scale2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(scale2, ptx.addr(px))
    g2 = [reg.scalar(f32) for _ in range(2)]
    ptx.inst.ld.global_.f32(scale, ptx.addr(px))
    ptx.inst.ld.global_.f32(v, ptx.addr(px))
    i = reg.scalar(u32)
    ptx.inst.ld.global_.u32(i, ptx.addr(px, 128))
    flags = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(flags, mask, 8, 31, -1)
    ptx.inst.sub.f32(g2[1], g2[1], v)
    pos = reg.scalar(u32)
    ptx.inst.ld.global_.u32(pos, ptx.addr(py))
    bars = smem.mbarrier(1)
    sT = smem.alloc(bf16, (64, 64))
    with ptx.if_(tid == 0):
        ptx.mbarrier.init(bars[0], 1)
    ptx.fence.mbarrier_init()
    ptx.bar.sync(0)
    with ptx.if_(tid == 0):
        ptx.mbarrier.arrive_expect_tx(bars[0], 8192)
        ptx.cp.async_.bulk.tensor_2d(dst=sT[0], src=X.tma_desc(), coord=(0, row), mbar=bars[0])
    ptx.mbarrier.wait(bars[0], 0)
    ptx.inst.ld.global_.f32(scale, ptx.addr(px, 32))
    cnt2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(cnt2, ptx.addr(py))
    cnt3 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(cnt3, ptx.addr(py))
    ptx.fence.proxy_async_shared_cta()
    ptx.cp.async_.bulk.tensor_2d.store(dst=Y.tma_desc(), src=sT, coord=(0, row))
    ptx.cp.async_.bulk.commit_group()
    ptx.cp.async_.bulk.wait_group(0)
    scale3 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(scale3, ptx.addr(px, 64))
    ptx.inst.ld.global_.f32(v, ptx.addr(px, 512))
    pos2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(pos2, ptx.addr(px, 4096))
    ptx.inst.st.global_.f32(ptx.addr(py), a)
    ptx.inst.sub.f32(g2[0], g2[0], scale3)
    ptx.inst.st.global_.f32(ptx.addr(px, 4096), scale3)
    ptx.inst.st.global_.u32(ptx.addr(px, 128), cnt)
    word = reg.scalar(b32)
    ptx.inst.shfl.sync.bfly.b32(word, cnt2, 1, 31, -1)
    ptx.inst.ld.global_.f32(scale3, ptx.addr(px, 512))
    lane = reg.scalar(u32)
    ptx.inst.xor.b32(lane, mask, row)
    ptx.inst.not_.b32(row, cnt)
    res = []
    for s in range(4):
        m = reg.scalar(f32)
        ptx.inst.sub.f32(g2[0], g2[0], scale3)
        res.append(m)
    ptx.inst.ld.global_.u32(pos, ptx.addr(py, 256))
    ptx.inst.st.global_.f32(ptx.addr(py), a)
    ptx.inst.ld.global_.f32(a, ptx.addr(py))
    parts = []
    for s2 in range(2):
        y = reg.scalar(f32)
        res2 = []
        for u in range(4):
            a2 = reg.scalar(f32)
            for k in ptx.range_(0, 2, 1):
                off = reg.scalar(u32, init=u * 16)
                rem = reg.scalar(s32)
                ptx.inst.mul.lo.u32(rem, i, cnt2)
            res2.append(a2)
        parts.append(y)
    sA = smem.wgmma_tile(bf16, (64, 16), major="K")
    sB = smem.wgmma_tile(bf16, (16, 64), major="MN")
    acc2 = reg.wgmma_frag(m=64, n=64, dtype=f32)
    ptx.wgmma.fence()
    ptx.wgmma.mma_async(shape=(64, 64, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16, d=acc2, a=sA, b=sB, scale_d=True, trans_b=1)
    ptx.wgmma.commit_group()
    ptx.wgmma.wait_group(0)
    for kk in range(4):
        v2 = reg.scalar(f32)
        buf = [reg.scalar(f32) for _ in range(8)]
        ptx.inst.st.global_.f32(ptx.addr(py, 4 + kk * 512), scale3)
        ptx.inst.st.global_.f32(ptx.addr(px), scale3)
        ptx.inst.st.global_.f32(ptx.addr(px), v)
        acc3 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(acc3, ptx.addr(py))
        ptx.inst.shfl.sync.bfly.b32(mask, pos, 8, 31, -1)
        ptx.inst.sub.f32(g2[0], g2[0], acc3)
        ptx.inst.mul.f32(parts[1], parts[1], scale)
        ptx.inst.sub.f32(g2[0], g2[0], a)
        ptx.inst.add.f32(res[0], res[0], a)
    for w in range(3):
        a3 = reg.scalar(f32)
        with ptx.if_(mask >> 16 >= 4096):
            ptx.inst.st.global_.f32(ptx.addr(py, 32), a3)
            ptx.inst.ld.global_.u32(pos, ptx.addr(px))
            ptx.inst.st.global_.f32(ptx.addr(py), a)
            ptx.inst.st.global_.u32(ptx.addr(px, 1024), i)
            x = reg.scalar(f32)
            ptx.inst.ld.global_.f32(x, ptx.addr(px, w * 64))
            n = reg.scalar(u32)
            ptx.inst.ld.global_.u32(n, ptx.addr(py, 8))
            ptx.inst.sub.f32(g2[1], g2[1], scale3)
    a4 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a4, ptx.addr(py, 4))
    pos3 = reg.scalar(u32, init=31)
    for s3 in range(4):
        s4 = reg.scalar(f32)
        j2 = reg.scalar(s32)
        ptx.inst.mul.lo.u32(j2, flags, row)
        ptx.inst.ld.global_.u32(lane, ptx.addr(px))
    ptx.ret()


KERNEL = k669
ARGS = {}
