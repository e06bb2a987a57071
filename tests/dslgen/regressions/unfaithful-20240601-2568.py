# dslgen: seed 20240601, program 2568 (tools/dslgen/run.py --show 20240601:2568)
# class: unfaithful
# module: first difference at token 40 (token differs): input line 15: '.s32' vs printed line 15: '.u64'
#       input : ... %rd1 ; .reg .s32 %r0 ; ...
#       output: ... %rd1 ; .reg .u64 %rd2 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k2568(X, W, B, Y, *, N=4096):
    ofs = reg.scalar(u64, init=4096)
    for s2 in range(4):
        t2 = reg.scalar(f32)
        ofs2 = reg.scalar(u64)
        ptx.inst.add.s64(ofs2, ofs, 1 + 64 * s2)
        rem = reg.scalar(s32, init=64 * (s2 + 1))
KERNEL = k2568
ARGS = {}
