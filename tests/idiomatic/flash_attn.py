"""Flash-attention forward for one 64-query tile of one head (Ampere
tensor cores, bf16 in, f32 out): O = softmax(Q K^T / sqrt(D)) V with
D = 64.  Four warps own 16 queries each.  For every 64-key block the CTA
stages K and V in (128B-swizzled) shared memory with cp.async; each warp
computes its 16x64 block of scores with mma.sync, keeps the online
softmax state per row -- the running max m, the running sum l -- rescales
its output accumulator by 2^(m_old - m_new), turns the probabilities into
bf16 A fragments in registers and accumulates P V with mma.sync.  The rows
are finally divided by l."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, u32

D = 64
BQ = 64
BKV = 64
ROW_BYTES = D * 2
TILE_BYTES = BQ * ROW_BYTES
LOG2E = 1.4426950408889634
ZERO = "0f00000000"


@kernel(in_specs=(Tile("H", "S", D, bf16), Tile("H", "S", D, bf16), Tile("H", "S", D, bf16)),
        out_specs=(Tile("H", "S", D, f32),),
        grid=lambda H, S: (S // BQ, H, 1), block=(128, 1, 1), arch="sm_80")
def flash_attn(Q, K, V, O, *, H=8, S=1024):
    pq, pk, pv, po = ptx.global_ptrs(Q, K, V, O)
    sQ = smem.alloc(bf16, (BQ, D), swizzle="128B")
    sK = smem.alloc(bf16, (BKV, D), swizzle="128B")
    sV = smem.alloc(bf16, (BKV, D), swizzle="128B")
    tid = reg.from_(ptx.special.tid.x(), u32)
    qblk = reg.from_(ptx.special.ctaid.x(), u32)
    head = reg.from_(ptx.special.ctaid.y(), u32)
    lane = tid & 31
    warp = tid >> 5

    # this head's K and V, this tile's Q and O
    hoff = reg.scalar(b64)
    ptx.mul(u32, hoff, head, S * ROW_BYTES, mode="wide")
    pk += hoff
    pv += hoff
    pq += hoff
    qoff = reg.scalar(b64)
    ptx.mul(u32, qoff, qblk, TILE_BYTES, mode="wide")
    pq += qoff

    # cp.async: a 64x64 bf16 tile is 8 KB contiguous; thread t copies the
    # 16-byte chunks t, t + 128, t + 256, t + 384
    chunk = tid << 4
    gsrc = reg.scalar(b64)
    ptx.mul(u32, gsrc, tid, 16, mode="wide")
    sq_base = reg.from_(sQ.name, u32)
    sk_base = reg.from_(sK.name, u32)
    sv_base = reg.from_(sV.name, u32)
    swz = smem.apply_swizzle(chunk, "128B")
    q_dst = sq_base + swz
    k_dst = sk_base + swz
    v_dst = sv_base + swz
    q_src = pq + gsrc
    for i in range(4):
        ptx.cp.async_.cg(ptx.addr(q_dst, 2048 * i), ptx.addr(q_src, 2048 * i), 16)
    ptx.cp.async_.commit_group()

    # ldmatrix addresses.  Q (A operand): rows 16 warp + lane % 16, column
    # block lane / 16.  K (B operand, K^T col-major = K row-major): key rows
    # lane % 8, 16-byte column block lane / 8.  V (B operand via .trans):
    # key rows lane % 16, column block lane / 16.
    q_lds = reg.scalar(u32)
    ptx.mad(u32, q_lds, warp, 16 * ROW_BYTES, (lane & 15) * ROW_BYTES)
    q_lds += (lane >> 4) << 4
    k_lds = reg.scalar(u32)
    ptx.mad(u32, k_lds, lane & 7, ROW_BYTES, (lane >> 3) << 4)
    v_lds = reg.scalar(u32)
    ptx.mad(u32, v_lds, lane & 15, ROW_BYTES, (lane >> 4) << 4)
    k_frag = [sk_base + smem.apply_swizzle(k_lds + 64 * h, "128B")
              for h in range(2)]
    v_frag = [sv_base + smem.apply_swizzle(v_lds + 32 * np, "128B")
              for np in range(D // 16)]

    ptx.cp.async_.wait_group(0)
    ptx.bar.sync(0)
    qf = reg.array(b32, 4 * (D // 16))
    for kc in range(D // 16):
        q_addr = sq_base + smem.apply_swizzle(q_lds + 32 * kc, "128B")
        ptx.ldmatrix(dst=[qf[4 * kc + i] for i in range(4)], src=ptx.addr(q_addr),
                     layout="m8n8.x4")

    o = reg.array(f32, 4 * (D // 8))
    for r in o:
        ptx.mov(f32, r, ZERO)
    s = reg.array(f32, 4 * (BKV // 8))
    m = [reg.scalar(f32, init=float("-inf")) for _ in range(2)]
    l = [reg.scalar(f32, init=0.0) for _ in range(2)]
    m_blk = [reg.scalar(f32) for _ in range(2)]
    corr = [reg.scalar(f32) for _ in range(2)]
    neg_m = [reg.scalar(f32) for _ in range(2)]
    scale = reg.scalar(f32, init=LOG2E / D ** 0.5)
    kf = reg.array(b32, 4)
    vf = reg.array(b32, 4)
    pf = reg.array(b32, 4)
    kv_src = reg.scalar(b64)
    ptx.mov(b64, kv_src, gsrc)

    for kb in ptx.range_(0, S // BKV):
        # stage this block of K and V
        ptx.bar.sync(0)
        k_src = pk + kv_src
        v_src = pv + kv_src
        for i in range(4):
            ptx.cp.async_.cg(ptx.addr(k_dst, 2048 * i), ptx.addr(k_src, 2048 * i), 16)
            ptx.cp.async_.cg(ptx.addr(v_dst, 2048 * i), ptx.addr(v_src, 2048 * i), 16)
        ptx.cp.async_.commit_group()
        kv_src += TILE_BYTES
        ptx.cp.async_.wait_group(0)
        ptx.bar.sync(0)

        # scores: S = Q K^T, 16 x 64 per warp
        for r in s:
            ptx.mov(f32, r, ZERO)
        for j in range(BKV // 8):
            for h in range(2):
                ptx.ldmatrix(dst=kf, src=ptx.addr(k_frag[h], 8 * ROW_BYTES * j),
                             layout="m8n8.x4")
                for half in range(2):
                    d = [s[4 * j + i] for i in range(4)]
                    a = [qf[4 * (2 * h + half) + i] for i in range(4)]
                    ptx.mma.sync(shape=(16, 8, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16,
                                 dtype_c=f32, d=d, a=a, b=[kf[2 * half], kf[2 * half + 1]],
                                 c=d)

        # online softmax; row r of this lane's pair lives in s[4 j + 2 r + {0, 1}]
        for r in range(2):
            ptx.inst.max.f32(m_blk[r], s[2 * r], s[2 * r + 1])
            for j in range(1, BKV // 8):
                ptx.inst.max.f32(m_blk[r], m_blk[r], s[4 * j + 2 * r])
                ptx.inst.max.f32(m_blk[r], m_blk[r], s[4 * j + 2 * r + 1])
            ptx.warp.reduce_max(m_blk[r], width=4)
            ptx.mul(f32, m_blk[r], m_blk[r], scale)
            ptx.inst.max.f32(m_blk[r], m_blk[r], m[r])
            ptx.sub(f32, corr[r], m[r], m_blk[r])
            ptx.inst.ex2.approx.f32(corr[r], corr[r])
            ptx.mov(f32, m[r], m_blk[r])
            ptx.inst.neg.f32(neg_m[r], m[r])
            ptx.mul(f32, l[r], l[r], corr[r])
            for j in range(BKV // 8):
                for c in range(2):
                    p = s[4 * j + 2 * r + c]
                    ptx.inst.fma.rn.f32(p, p, scale, neg_m[r])
                    ptx.inst.ex2.approx.f32(p, p)
                    ptx.add(f32, l[r], l[r], p)
            for j in range(D // 8):
                for c in range(2):
                    ptx.mul(f32, o[4 * j + 2 * r + c], o[4 * j + 2 * r + c], corr[r])

        # O += P V: the score accumulators of n-tiles 2kc, 2kc + 1 are the
        # A fragment of k-step kc once packed to bf16 pairs
        for kc in range(BKV // 16):
            for i in range(4):
                lo = s[8 * kc + 2 * i]
                ptx.inst.cvt.rn.bf16x2.f32(pf[i], s[8 * kc + 2 * i + 1], lo)
            for np in range(D // 16):
                ptx.ldmatrix(dst=vf, src=ptx.addr(v_frag[np], 16 * ROW_BYTES * kc),
                             layout="m8n8.x4", trans=True)
                for half in range(2):
                    d = [o[4 * (2 * np + half) + i] for i in range(4)]
                    ptx.mma.sync(shape=(16, 8, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16,
                                 dtype_c=f32, d=d, a=pf, b=[vf[2 * half], vf[2 * half + 1]],
                                 c=d)

    # the four lanes of a row hold partial sums; O /= l
    for r in range(2):
        ptx.warp.reduce_sum(l[r], width=4)
        ptx.inst.rcp.approx.f32(l[r], l[r])
        for j in range(D // 8):
            for c in range(2):
                ptx.mul(f32, o[4 * j + 2 * r + c], o[4 * j + 2 * r + c], l[r])
    row = reg.scalar(u32)
    ptx.mad(u32, row, warp, 16, lane >> 2)
    ooff = reg.scalar(u32)
    ptx.mad(u32, ooff, row, D, (lane & 3) << 1)
    out = reg.scalar(b64)
    ptx.mul(u32, out, ooff, 4, mode="wide")
    po += out
    ptx.mul(u32, out, head, S * D * 4, mode="wide")
    po += out
    ptx.mul(u32, out, qblk, BQ * D * 4, mode="wide")
    po += out
    for j in range(D // 8):
        for r in range(2):
            for c in range(2):
                ptx.st(f32, ptx.addr(po, 8 * D * 4 * r + 32 * j + 4 * c), o[4 * j + 2 * r + c])
    ptx.ret()


KERNEL = flash_attn
ARGS = {"H": 8, "S": 1024}
