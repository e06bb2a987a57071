# dslgen: seed 20240601, program 1252 (tools/dslgen/run.py --show 20240601:1252)
# class: unfaithful
# module: first difference at token 60 (token differs): input line 20: '.u64' vs printed line 20: '.b64'
#       input : ... %rd7 ; .reg .u64 %rd8 ; ...
#       output: ... %rd7 ; .reg .b64 %rd8 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch='sm_90a')
def k1252(X, W, Y, *, N=65536):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    w2 = pw + 127
    base4 = reg.scalar(u32)
    for u3 in range(4):
        packed3 = w2 + base4 + (1024 + 16 * u3)
KERNEL = k1252
ARGS = {}
