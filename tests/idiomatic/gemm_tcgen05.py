"""A Blackwell GEMM tile with tcgen05, C = A B^T (A: M x K, B: N x K,
bf16 and K-major; C: M x N f32).  A CTA of four warps computes a 128x64
tile whose accumulator lives in tensor memory:

* warp 0 allocates 64 TMEM columns (tcgen05.alloc writes the address to
  shared memory) and later frees them;
* thread 0 is the TMA producer: a three-stage ring of 64B-swizzled A and
  B tiles, `full` barriers completed by the copies' transaction bytes,
  `empty` barriers released by the MMAs;
* thread 32 issues tcgen05.mma (kind::f16, M=128, N=64, K=16) from
  shared-memory descriptors, commits each stage back to its `empty`
  barrier and, at the end, to `done`;
* all four warps wait on `done` and read their 32 TMEM lanes with
  tcgen05.ld 32x32b, one row of C per thread."""
from pyptx import Layout, Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, u32

BM, BN, BK = 128, 64, 32
STAGES = 3
STAGE_BYTES = (BM + BN) * BK * 2
SBO = 8 * BK * 2               # 8 rows of 64 bytes between core matrices


@kernel(in_specs=(Tile("M", "K", bf16, Layout.TMA_64B, tma_box=(BM, BK)),
                  Tile("N", "K", bf16, Layout.TMA_64B, tma_box=(BN, BK))),
        out_specs=(Tile("M", "N", f32),),
        grid=lambda M, N, K: (N // BN, M // BM, 1), block=(128, 1, 1), arch="sm_100a")
def gemm_tcgen05(A, B, C, *, M=1024, N=1024, K=1024):
    KT = K // BK
    sA = [smem.alloc(bf16, (BM, BK), swizzle="64B", align=1024) for _ in range(STAGES)]
    sB = [smem.alloc(bf16, (BN, BK), swizzle="64B", align=1024) for _ in range(STAGES)]
    tmem_slot = smem.alloc(u32, 1, align=16)
    full = ptx.mbarrier.array(smem.mbarrier(STAGES), 0, STAGES)
    empty = ptx.mbarrier.array(smem.mbarrier(STAGES), 0, STAGES)
    done = ptx.mbarrier.array(smem.mbarrier(1), 0, 1)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bn = reg.from_(ptx.special.ctaid.x(), u32)
    bm = reg.from_(ptx.special.ctaid.y(), u32)
    warp = tid >> 5
    lane = tid & 31
    m0 = bm * BM
    n0 = bn * BN

    with ptx.if_(tid == 0):
        full.init_all(1)
        empty.init_all(1)
        done[0].init(1)
        ptx.fence.proxy_async_shared_cta()
    with ptx.if_(warp == 0):
        ptx.tcgen05.alloc(tmem_slot, BN)
        ptx.tcgen05.relinquish_alloc_permit()
    ptx.tcgen05.fence_before_thread_sync()
    ptx.bar.sync(0)
    ptx.tcgen05.fence_after_thread_sync()
    tmem = smem.load(b32, tmem_slot)

    # TMA producer
    with ptx.if_(tid == 0):
        tma_a = A.tma_desc()
        tma_b = B.tma_desc()
        k = reg.scalar(u32, init=0)
        phase = reg.scalar(u32, init=0)
        for kt in ptx.range_(0, KT, STAGES):
            free = phase ^ 1
            for s in range(STAGES):
                empty[s].wait(free)
                full[s].arrive_expect_tx(STAGE_BYTES)
                ptx.cp.async_.bulk.tensor_2d(dst=sA[s], src=tma_a, coord=(k, m0), mbar=full[s])
                ptx.cp.async_.bulk.tensor_2d(dst=sB[s], src=tma_b, coord=(k, n0), mbar=full[s])
                k += BK
            phase ^= 1

    # MMA issuer
    with ptx.if_(tid == 32):
        idesc = reg.scalar(u32, init=ptx.tcgen05.make_instr_desc_f16bf16_f32(
            m=BM, n=BN, ab_dtype="bf16", a_major="K", b_major="K"))
        a_desc = [[ptx.tcgen05.descriptor(sA[s], byte_offset=32 * kk, stride_bytes=SBO,
                                          swizzle="64B") for kk in range(BK // 16)]
                  for s in range(STAGES)]
        b_desc = [[ptx.tcgen05.descriptor(sB[s], byte_offset=32 * kk, stride_bytes=SBO,
                                          swizzle="64B") for kk in range(BK // 16)]
                  for s in range(STAGES)]
        accumulate = reg.scalar(u32, init=0)
        phase = reg.scalar(u32, init=0)
        for kt in ptx.range_(0, KT, STAGES):
            for s in range(STAGES):
                full[s].wait(phase)
                ptx.tcgen05.fence_after_thread_sync()
                for kk in range(BK // 16):
                    ptx.tcgen05.mma(tmem, a_desc[s][kk], b_desc[s][kk], idesc, kind="f16",
                                    scale_d=accumulate)
                    ptx.mov(u32, accumulate, 1)
                ptx.tcgen05.commit(empty[s])
            phase ^= 1
        ptx.tcgen05.commit(done[0])

    # epilogue: warp w reads TMEM lanes 32 w .. 32 w + 31 = rows of C
    done[0].wait(0)
    ptx.tcgen05.fence_after_thread_sync()
    acc = reg.array(f32, BN)
    taddr = tmem + ((warp << 5) << 16)
    ptx.tcgen05.ld(acc, taddr, shape="32x32b", count=BN)
    ptx.tcgen05.wait_ld()
    row = m0 + tid
    idx = reg.scalar(u32)
    ptx.mad(u32, idx, row, N, n0)
    (pc,) = ptx.global_ptrs(C)
    off = reg.scalar(b64)
    ptx.mul(u32, off, idx, 4, mode="wide")
    pc += off
    for j in range(BN // 4):
        ptx.inst.st.global_.v4.f32(ptx.addr(pc, 16 * j), [acc[4 * j + i] for i in range(4)])

    ptx.tcgen05.fence_before_thread_sync()
    ptx.bar.sync(0)
    with ptx.if_(warp == 0):
        ptx.tcgen05.fence_after_thread_sync()
        ptx.tcgen05.dealloc(tmem, BN)
    ptx.ret()


KERNEL = gemm_tcgen05
ARGS = {"M": 1024, "N": 1024, "K": 1024}
