# dslgen: seed 20240601, program 249 (tools/dslgen/run.py --show 20240601:249)
# class: unfaithful
# module: first difference at token 76 (token differs): input line 24: '.b64' vs printed line 24: '.u32'
#       input : ... %r3 ; .reg .b64 %rd6 ; ...
#       output: ... %r3 ; .reg .u32 %r4 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k249(X, W, B, Y, *, N=1048576):
    px, pw, pb, py = ptx.global_ptrs(X, W, B, Y)
    lane = reg.scalar(u32)
    for kk in range(3):
        a = reg.scalar(f32)
        lane2 = lane if kk == 0 else lane + kk * 4096
        with ptx.if_(lane + kk * 1024 > 32):
            pw2 = pw + lane2
KERNEL = k249
ARGS = {}
