# dslgen: seed 20240601, program 555 (tools/dslgen/run.py --show 20240601:555)
# class: unfaithful
# module: first difference at token 136 (token differs): input line 39: '.b32' vs printed line 39: '.u32'
#       input : ... %r16 ; .reg .b32 %r17 ; ...
#       output: ... %r16 ; .reg .u32 %r17 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k555(X, W, B, Y, Z, *, N=65536):
    px, pw, py, pz = ptx.global_ptrs(X, W, Y, Z)
    sidx = reg.scalar(s32)
    t = reg.scalar(f32)
    v = reg.scalar(f32)
    idx = reg.scalar(u32)
    scale = reg.scalar(f32)
    cnt = idx * sidx << 6
    i = cnt - 255
    n = reg.scalar(u32)
    idx2 = reg.scalar(u32)
    x = reg.scalar(f32)
    ptx.inst.cvt.rn.f32.u32(x, idx2)
    for j in range(2):
        x2 = reg.scalar(f32)
        ptx.warp.reduce_sum(i, width=16)
        ptx.ld(u32, cnt, ptx.addr(py))
        ptx.inst.mul.f32(scale, v, scale)
        cnt3 = n + (1024 + 4 * j) >> 3
        ptx.warp.reduce_min(x)
        ptx.inst.fma.rn.f32(scale, x, t, x2)
KERNEL = k555
ARGS = {}
