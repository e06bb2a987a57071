# dslgen: seed 20240601, program 1026 (tools/dslgen/run.py --show 20240601:1026)
# class: unfaithful
# module: first difference at token 83 (token differs): input line 25: '.u64' vs printed line 25: '.b32'
#       input : ... %r6 ; .reg .u64 %rd4 ; ...
#       output: ... %r6 ; .reg .b32 %r7 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), raw_params=[('u32', 'n')], arch='sm_90a')
def k1026(X, W, Y, Z, *, N=1048576):
    px, pw, py, pz = ptx.global_ptrs(X, W, Y, Z)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    lane = reg.scalar(u32, init=8192)
    i2 = lane >> lane
    for kk in range(2):
        a5 = reg.scalar(f32)
        rb = reg.array(b32, 16)
        lane3 = bid + i2
        flags = rb[6] * rb[0] * (1024 + 256 * kk)
        addr = reg.scalar(u64)
        ptx.inst.mul.wide.u32(addr, rb[3], 16)
        py3 = py + addr
KERNEL = k1026
ARGS = {}
