# dslgen: seed 20240601, program 818 (tools/dslgen/run.py --show 20240601:818)
# class: unfaithful
# module: first difference at token 40 (token differs): input line 15: '.s32' vs printed line 15: '.u32'
#       input : ... %r1 ; .reg .s32 %r2 ; ...
#       output: ... %r1 ; .reg .u32 %r2 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), arch='sm_90a')
def k818(X, W, B, Y, Z, *, N=4096):
    tid = reg.from_(ptx.special.tid.x(), u32)
    for w in range(4):
        with ptx.if_(tid + 64 * (w + 1) <= 255):
            sidx = reg.scalar(s32)
            ptx.inst.mul.hi.u32(sidx, tid, tid)
KERNEL = k818
ARGS = {}
