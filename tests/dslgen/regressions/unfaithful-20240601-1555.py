# dslgen: seed 20240601, program 1555 (tools/dslgen/run.py --show 20240601:1555)
# class: unfaithful
# module: first difference at token 52 (token differs): input line 18: '.u32' vs printed line 18: '.s32'
#       input : ... %r6 ; .reg .u32 %r7 ; ...
#       output: ... %r6 ; .reg .s32 %r7 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch='sm_90a')
def k1555(X, W, Y, *, N=4096):
    tid = reg.from_(ptx.special.tid.x(), u32)
    j = reg.scalar(s32)
    for kk in range(3):
        rem = reg.scalar(s32, init=8192)
        j2 = (j + tid + tid) * (rem * (8192 + 4 * kk))
        cnt = ptx.special.tid.x() * 16
KERNEL = k1555
ARGS = {}
