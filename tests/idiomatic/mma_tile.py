"""One warp computes a 16x8 f32 tile of C = A B (bf16 in, K = 64) with the
Ampere tensor cores: each k-step stages A's 16x16 and B's 16x8 slices in
shared memory with cp.async, waits for them, loads the fragments with
ldmatrix and accumulates with mma.sync."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, u32

K = 64


@kernel(in_specs=(Tile(16, K, bf16), Tile(K, 8, bf16)), out_specs=(Tile(16, 8, f32),),
        grid=(1, 1, 1), block=(32, 1, 1), arch="sm_80")
def mma_tile(A, B, C):
    pa, pb, pc = ptx.global_ptrs(A, B, C)
    sa = smem.alloc(bf16, (16, 16), name="sa")
    sb = smem.alloc(bf16, (16, 8), name="sb")
    lane = reg.from_(ptx.special.laneid(), u32)
    # each lane copies 16 bytes of A (rows of 32 bytes) and 8 of B
    a_off = reg.scalar(u32)
    ptx.mul(u32, a_off, lane, 16, mode="lo")
    b_off = reg.scalar(u32)
    ptx.mul(u32, b_off, lane, 8, mode="lo")
    a_src = reg.scalar(b64)
    ptx.mul(u32, a_src, lane, 16, mode="wide")
    a_src += pa
    b_src = reg.scalar(b64)
    ptx.mul(u32, b_src, lane, 8, mode="wide")
    b_src += pb
    a_dst = reg.from_("sa", u32)
    a_dst += a_off
    b_dst = reg.from_("sb", u32)
    b_dst += b_off
    acc = reg.array(f32, 4)
    for i in range(4):
        ptx.mov(f32, acc[i], "0f00000000")
    fa = reg.array(b32, 4)
    fb = reg.array(b32, 2)
    k = reg.scalar(u32, init=0)
    more = reg.scalar(pred)
    with ptx.loop("k_loop", pred=more):
        ptx.cp.async_.cg(ptx.addr(a_dst), ptx.addr(a_src), 16)
        ptx.cp.async_.ca(ptx.addr(b_dst), ptx.addr(b_src), 8)
        ptx.cp.async_.commit_group()
        ptx.cp.async_.wait_group(0)
        ptx.bar.sync(0)
        ptx.ldmatrix(dst=fa, src=ptx.addr(a_dst), layout="m8n8.x4")
        ptx.ldmatrix(dst=fb, src=ptx.addr(b_dst), layout="m8n8.x2", trans=True)
        ptx.mma.sync(shape=(16, 8, 16), dtype_d=f32, dtype_a=bf16, dtype_b=bf16,
                     dtype_c=f32, d=acc, a=fa, b=fb, c=acc)
        ptx.bar.sync(0)
        a_src += 32
        b_src += 256
        k += 16
        ptx.setp("lt", u32, more, k, K)
    c_dst = reg.scalar(b64)
    ptx.mul(u32, c_dst, lane, 16, mode="wide")
    c_dst += pc
    for i in range(4):
        ptx.st(f32, ptx.addr(c_dst, 4 * i), acc[i])
    ptx.ret()


KERNEL = mma_tile
ARGS = {}
