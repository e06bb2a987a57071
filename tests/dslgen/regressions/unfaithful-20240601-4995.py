# dslgen: seed 20240601, program 4995 (tools/dslgen/run.py --show 20240601:4995)
# class: unfaithful
# module: first difference at token 56 (token differs): input line 19: '.b32' vs printed line 19: '.u64'
#       input : ... %rd2 ; .reg .b32 %r3 ; ...
#       output: ... %rd2 ; .reg .u64 %rd3 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k4995(X, W, B, Y, Z, *, N=1048576):
    key = reg.scalar(b32, init=63)
    h = reg.scalar(b32)
    gaddr2 = reg.scalar(u64)
    for u in range(4):
        word = key << 6
        ofs2 = gaddr2 + (4096 + 16 * u) + 4
        bits = h.max(h) + 63 + word
KERNEL = k4995
ARGS = {}
