# dslgen: seed 20240601, program 1550 (tools/dslgen/run.py --show 20240601:1550)
# class: unfaithful
# module: first difference at token 56 (token differs): input line 19: '.u32' vs printed line 19: '.b32'
#       input : ... %r8 ; .reg .u32 %r9 ; ...
#       output: ... %r8 ; .reg .b32 %r9 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32),), out_specs=(Tile('N', f32),), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), arch='sm_90a')
def k1550(X, Y, *, N=4096):
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    h = reg.scalar(b32)
    mask = (h >> 2) + bid
    for w in range(4):
        key = mask & 7
        pos = mask if w == 0 else mask + w * 512
        ptx.inst.xor.b32(key, key, 32768)
        col3 = tid | 1
KERNEL = k1550
ARGS = {}
