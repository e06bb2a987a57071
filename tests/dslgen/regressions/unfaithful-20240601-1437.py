# dslgen: seed 20240601, program 1437 (tools/dslgen/run.py --show 20240601:1437)
# class: unfaithful
# module: first difference at token 72 (token differs): input line 23: '.b64' vs printed line 23: '.s32'
#       input : ... %r4 ; .reg .b64 %rd4 ; ...
#       output: ... %r4 ; .reg .s32 %r5 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch='sm_90a')
def k1437(X, W, Y, Z, *, N=4096):
    px, pw, py, pz = ptx.global_ptrs(X, W, Y, Z)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    delta = reg.from_(ptx.special.laneid(), s32)
    tile2 = bid << 6
    for u in range(3):
        s4 = reg.scalar(f32)
        if u > 0:
            pw2 = pw + (delta + u * 64)
            base4 = tile2 ^ bid
        pos = reg.from_(ptx.special.ctaid.x(), u32)
KERNEL = k1437
ARGS = {}
