# dslgen: seed 20240601, program 503 (tools/dslgen/run.py --show 20240601:503)
# class: unfaithful
# module: first difference at token 68 (token differs): input line 22: '.b64' vs printed line 22: '.b32'
#       input : ... %r4 ; .reg .b64 %rd7 ; ...
#       output: ... %r4 ; .reg .b32 %r5 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32),), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k503(X, Y, *, N=4096):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    px2 = px + 1023
    i = reg.from_(tid, u32)
    px3 = px + (i + 255)
    ofs2 = reg.scalar(u64)
    px4 = px3 + ofs2
    bits = reg.scalar(b32, init=32)
    for u2 in range(8):
        px6 = px2 + (bits + 256 * (u2 + 1))
KERNEL = k503
ARGS = {}
