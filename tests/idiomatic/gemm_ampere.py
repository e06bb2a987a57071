"""An Ampere GEMM tile, C = A B (bf16 in, f32 out): a CTA of four warps
computes a 64x64 block of C.  K is walked in 32-wide tiles through a
three-stage cp.async ring in shared memory (commit_group / wait_group
keep two tiles in flight); each warp loads its 16x16 A fragments with
ldmatrix and its B fragments with ldmatrix.trans, and accumulates with
mma.sync m16n8k16.  Shared tiles are XOR-swizzled (64-byte rows for A,
128-byte rows for B) so ldmatrix is free of bank conflicts."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, u32

BM, BN, BK = 64, 64, 32
STAGES = 3
STAGE_BYTES = BM * BK * 2          # = BK * BN * 2: one A or one B tile
ZERO = "0f00000000"


@kernel(in_specs=(Tile("M", "K", bf16), Tile("K", "N", bf16)),
        out_specs=(Tile("M", "N", f32),),
        grid=lambda M, N, K: (N // BN, M // BM, 1), block=(128, 1, 1), arch="sm_80")
def gemm_ampere(A, B, C, *, M=512, N=512, K=512):
    KT = K // BK
    pa, pb, pc = ptx.global_ptrs(A, B, C)
    sA = smem.alloc(bf16, (STAGES, BM, BK), swizzle="64B")
    sB = smem.alloc(bf16, (STAGES, BK, BN), swizzle="128B")
    tid = reg.from_(ptx.special.tid.x(), u32)
    bn = reg.from_(ptx.special.ctaid.x(), u32)
    bm = reg.from_(ptx.special.ctaid.y(), u32)
    lane = tid & 31
    warp = tid >> 5
    sa_base = reg.from_(sA.name, u32)
    sb_base = reg.from_(sB.name, u32)

    # cp.async sources and destinations: each thread moves two 16-byte
    # chunks of A (rows tid/4 and tid/4 + 32) and two of B (rows tid/8 and
    # tid/8 + 16) per k-tile.
    a_row = reg.scalar(u32)
    ptx.mad(u32, a_row, bm, BM, tid >> 2)
    a_col = (tid & 3) << 3
    a_idx = reg.scalar(u32)
    ptx.mad(u32, a_idx, a_row, K, a_col)
    a_src = reg.scalar(b64)
    ptx.mul(u32, a_src, a_idx, 2, mode="wide")
    a_src += pa
    b_row = tid >> 3
    b_col = reg.scalar(u32)
    ptx.mad(u32, b_col, bn, BN, (tid & 7) << 3)
    b_idx = reg.scalar(u32)
    ptx.mad(u32, b_idx, b_row, N, b_col)
    b_src = reg.scalar(b64)
    ptx.mul(u32, b_src, b_idx, 2, mode="wide")
    b_src += pb
    a_dst = sa_base + smem.apply_swizzle(tid << 4, "64B")
    b_dst = sb_base + smem.apply_swizzle(tid << 4, "128B")

    # ldmatrix row addresses, one per 16-wide k-step (A) and per pair of
    # 8-wide n-tiles (B), swizzled the same way as the copies.
    a_lds = reg.scalar(u32)
    ptx.mad(u32, a_lds, warp, 16 * BK * 2, (lane & 15) * (BK * 2))
    a_lds += (lane >> 4) << 4
    b_lds = reg.scalar(u32)
    ptx.mad(u32, b_lds, lane & 15, BN * 2, (lane >> 4) << 4)
    a_frag = []
    b_frag = []
    for kk in range(BK // 16):
        a_frag.append(sa_base + smem.apply_swizzle(a_lds + kk * 32, "64B"))
        for np in range(BN // 16):
            b_off = b_lds + (kk * 16 * BN * 2 + np * 32)
            b_frag.append(sb_base + smem.apply_swizzle(b_off, "128B"))

    acc = reg.array(f32, 4 * (BN // 8))
    for i in range(4 * (BN // 8)):
        ptx.mov(f32, acc[i], ZERO)
    fa = reg.array(b32, 4)
    fb = reg.array(b32, 4 * (BN // 16))
    w_off = reg.scalar(u32, init=0)
    r_off = reg.scalar(u32, init=0)

    def issue_loads(pred=None):
        nonlocal a_src, b_src, w_off
        da = a_dst + w_off
        db = b_dst + w_off
        ptx.cp.async_.cg(ptx.addr(da), ptx.addr(a_src), 16, pred=pred)
        ptx.cp.async_.cg(ptx.addr(da, 32 * BK * 2), ptx.addr(a_src, 32 * K * 2), 16, pred=pred)
        ptx.cp.async_.cg(ptx.addr(db), ptx.addr(b_src), 16, pred=pred)
        ptx.cp.async_.cg(ptx.addr(db, 16 * BN * 2), ptx.addr(b_src, 16 * N * 2), 16, pred=pred)
        ptx.cp.async_.commit_group()
        a_src += BK * 2
        b_src += BK * N * 2
        w_off += STAGE_BYTES
        ptx.mov(u32, w_off, 0, pred=w_off == STAGES * STAGE_BYTES)

    for _ in range(STAGES - 1):
        issue_loads()

    for kt in ptx.range_(0, KT):
        ptx.cp.async_.wait_group(STAGES - 2)
        ptx.bar.sync(0)
        # refill the slot every warp finished reading last iteration
        issue_loads(pred=kt < KT - (STAGES - 1))
        for kk in range(BK // 16):
            ptx.ldmatrix(dst=fa, src=ptx.addr(a_frag[kk] + r_off), layout="m8n8.x4")
            for np in range(BN // 16):
                ptx.ldmatrix(dst=[fb[4 * np + i] for i in range(4)],
                             src=ptx.addr(b_frag[kk * (BN // 16) + np] + r_off),
                             layout="m8n8.x4", trans=True)
            for nt in range(BN // 8):
                d = [acc[4 * nt + i] for i in range(4)]
                b = [fb[2 * nt], fb[2 * nt + 1]]
                ptx.mma.sync(shape=(16, 8, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16,
                             dtype_c=f32, d=d, a=fa, b=b, c=d)
        r_off += STAGE_BYTES
        ptx.mov(u32, r_off, 0, pred=r_off == STAGES * STAGE_BYTES)
    ptx.cp.async_.wait_all()

    # epilogue: lane (g, t) = (lane / 4, lane % 4) holds rows g and g + 8,
    # columns 2t and 2t + 1 of each 8-wide n-tile
    c_row = reg.scalar(u32)
    ptx.mad(u32, c_row, bm, BM, lane >> 2)
    ptx.mad(u32, c_row, warp, 16, c_row)
    c_col = reg.scalar(u32)
    ptx.mad(u32, c_col, bn, BN, (lane & 3) << 1)
    c_idx = reg.scalar(u32)
    ptx.mad(u32, c_idx, c_row, N, c_col)
    c_dst = reg.scalar(b64)
    ptx.mul(u32, c_dst, c_idx, 4, mode="wide")
    c_dst += pc
    for nt in range(BN // 8):
        ptx.st(f32, ptx.addr(c_dst, nt * 32), acc[4 * nt])
        ptx.st(f32, ptx.addr(c_dst, nt * 32 + 4), acc[4 * nt + 1])
        ptx.st(f32, ptx.addr(c_dst, 8 * N * 4 + nt * 32), acc[4 * nt + 2])
        ptx.st(f32, ptx.addr(c_dst, 8 * N * 4 + nt * 32 + 4), acc[4 * nt + 3])
    ptx.ret()


KERNEL = gemm_ampere
ARGS = {"M": 512, "N": 512, "K": 512}
