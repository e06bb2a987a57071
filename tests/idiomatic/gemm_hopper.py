"""A warp-specialized Hopper GEMM, C = A B^T (A: M x K, B: N x K, both
bf16 and K-major; C: M x N f32).  A CTA of two warpgroups computes a
128x128 tile of C:

* warpgroup 0 is the producer: it gives registers back (setmaxnreg.dec)
  and one thread streams 128x64 tiles of A and B into a four-stage ring
  of 128B-swizzled shared tiles with TMA, each stage guarded by a `full`
  mbarrier (arrive.expect_tx + complete_tx) and an `empty` one;
* warpgroup 1 is the consumer: it takes registers (setmaxnreg.inc),
  waits on `full`, issues wgmma m64n128k16 twice per 16-wide k-step (the
  two 64-row halves of the tile) with descriptors pyptx derives from the
  wgmma_tile layouts, and releases the stage on `empty`.

The ring needs 128 KB of shared memory, so pyptx lays it out in dynamic
shared memory."""
from pyptx import Layout, Tile, kernel, ptx, reg, smem
from pyptx.types import b64, bf16, f32, u32

BM, BN, BK = 128, 128, 64
STAGES = 4
STAGE_BYTES = (BM + BN) * BK * 2
ZERO = "0f00000000"


@kernel(in_specs=(Tile("M", "K", bf16, Layout.TMA_128B, tma_box=(BM, BK), tma_rank=3),
                  Tile("N", "K", bf16, Layout.TMA_128B, tma_box=(BN, BK), tma_rank=3)),
        out_specs=(Tile("M", "N", f32),),
        grid=lambda M, N, K: (N // BN, M // BM, 1), block=(256, 1, 1), arch="sm_90a")
def gemm_hopper(A, B, C, *, M=1024, N=1024, K=1024):
    KT = K // BK
    sA = [smem.wgmma_tile(bf16, (BM, BK), major="K") for _ in range(STAGES)]
    sB = [smem.wgmma_tile(bf16, (BN, BK), major="K") for _ in range(STAGES)]
    full = smem.mbarrier(STAGES)
    empty = smem.mbarrier(STAGES)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bn = reg.from_(ptx.special.ctaid.x(), u32)
    bm = reg.from_(ptx.special.ctaid.y(), u32)
    m0 = bm * BM
    n0 = bn * BN

    with ptx.if_(tid == 0):
        for s in range(STAGES):
            ptx.mbarrier.init(full[s], 1)
            ptx.mbarrier.init(empty[s], 128)
        ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)

    wg = tid >> 7
    with ptx.if_(wg == 1):
        # consumer warpgroup
        ptx.setmaxnreg_inc(232)
        acc = [reg.wgmma_frag(m=64, n=BN, dtype=f32) for _ in range(2)]
        for half in acc:
            for r in half:
                ptx.mov(f32, r, ZERO)
        accumulate = reg.scalar(u32, init=1) != 0
        phase = reg.scalar(u32, init=0)
        for kt in ptx.range_(0, KT, STAGES):
            for s in range(STAGES):
                ptx.mbarrier.wait(full[s], phase)
                ptx.wgmma.fence()
                for kk in range(BK // 16):
                    for h in range(2):
                        ptx.wgmma.mma_async(shape=(64, BN, 16), dtype_d=f32, dtype_a=bf16,
                                            dtype_b=bf16, d=acc[h], a=sA[s], b=sB[s],
                                            scale_d=accumulate,
                                            a_k_offset=h * 64 * BK * 2 + kk * 32,
                                            b_k_offset=kk * 32)
                ptx.wgmma.commit_group()
                ptx.wgmma.wait_group(0)
                ptx.mbarrier.arrive(empty[s])
            phase ^= 1

        # epilogue: thread t of the warpgroup holds rows 16 (t / 32) + (t % 32) / 4
        # (+ 8) and columns 8 j + 2 (t % 4) (+ 1) of each 64-row half
        t = tid & 127
        row = reg.scalar(u32)
        ptx.mad(u32, row, t >> 5, 16, (t & 31) >> 2)
        row += m0
        col = reg.scalar(u32)
        ptx.mad(u32, col, t & 3, 2, n0)
        idx = reg.scalar(u32)
        ptx.mad(u32, idx, row, N, col)
        (pc,) = ptx.global_ptrs(C)
        off = reg.scalar(b64)
        ptx.mul(u32, off, idx, 4, mode="wide")
        pc += off
        for h in range(2):
            for j in range(BN // 8):
                base = h * 64 * N * 4 + j * 32
                ptx.st(f32, ptx.addr(pc, base), acc[h][4 * j])
                ptx.st(f32, ptx.addr(pc, base + 4), acc[h][4 * j + 1])
                ptx.st(f32, ptx.addr(pc, base + 8 * N * 4), acc[h][4 * j + 2])
                ptx.st(f32, ptx.addr(pc, base + 8 * N * 4 + 4), acc[h][4 * j + 3])
    with ptx.else_():
        # producer warpgroup: one thread drives the TMA engine
        ptx.setmaxnreg_dec(40)
        with ptx.if_(tid == 0):
            tma_a = A.tma_desc()
            tma_b = B.tma_desc()
            k = reg.scalar(u32, init=0)
            phase = reg.scalar(u32, init=0)
            for kt in ptx.range_(0, KT, STAGES):
                free = phase ^ 1
                for s in range(STAGES):
                    ptx.mbarrier.wait(empty[s], free)
                    ptx.mbarrier.arrive_expect_tx(full[s], STAGE_BYTES)
                    ptx.tma.load_3d(sA[s], tma_a, row=m0, col=k, mbar=full[s])
                    ptx.tma.load_3d(sB[s], tma_b, row=n0, col=k, mbar=full[s])
                    k += BK
                phase ^= 1
    ptx.ret()


KERNEL = gemm_hopper
ARGS = {"M": 1024, "N": 1024, "K": 1024}
