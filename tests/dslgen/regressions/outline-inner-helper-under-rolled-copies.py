# dslgen: seed 60, program 18326 (tools/dslgen/run.py --show 60:18326)
# class: crashed
# generated code raised SyntaxError: no binding for nonlocal 'rd9' found (<generated>, line 25)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k18326(X, W, B, Y, *, N=4096):
    px, pw, pb, py = ptx.global_ptrs(X, W, B, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    for w in range(3):
        gaddr = reg.scalar(u64)
        for u in range(4):
            with ptx.if_(tid >> 8 <= 1):
                ptx.ld(u32, tid, ptx.addr(px, 256 + u * 512))
                gaddr *= 63
                pos = reg.scalar(u32)
                boff = reg.scalar(u64)
                ptx.mul(u32, boff, pos, 128, mode='wide')
KERNEL = k18326
ARGS = {}
