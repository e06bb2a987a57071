# dslgen: seed 20240601, program 1797 (tools/dslgen/run.py --show 20240601:1797)
# class: unfaithful
# module: first difference at token 60 (token differs): input line 20: '.u64' vs printed line 20: '.u32'
#       input : ... %r3 ; .reg .u64 %rd2 ; ...
#       output: ... %r3 ; .reg .u32 %r4 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k1797(X, W, Y, Z, *, N=4096):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    col = reg.scalar(u32)
    s2 = reg.scalar(f32)
    ptx.ld(f32, s2, ptx.addr(px))
    for i2 in range(4):
        x = reg.scalar(f32)
        i3 = col + 8192 * (i2 + 1) + tid
        ofs = reg.scalar(u64)
KERNEL = k1797
ARGS = {}
