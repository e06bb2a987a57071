# dslgen: seed 20240601, program 348 (tools/dslgen/run.py --show 20240601:348)
# class: unfaithful
# module: first difference at token 88 (token differs): input line 27: '.u32' vs printed line 27: '.b64'
#       input : ... %rd8 ; .reg .u32 %r5 ; ...
#       output: ... %rd8 ; .reg .b64 %rd9 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), arch='sm_100a')
def k348(X, W, Y, *, N=1048576):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    off = (tid << 8) + bid
    py3 = py + off
    py4 = py3 + 8192
    ofs = reg.scalar(u64)
    py7 = py4 + ofs
    i2 = reg.scalar(u32)
    scale2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(scale2, ptx.addr(py7))
    for w in range(4):
        s2 = reg.scalar(f32)
        packed = pw + 128 * (w + 1)
        row2 = (i2 | i2 | 128) + w * 16
KERNEL = k348
ARGS = {}
