# dslgen: seed 20240601, program 9 (tools/dslgen/run.py --show 20240601:9)
# class: unfaithful
# module: first difference at token 72 (token differs): input line 23: '.f32' vs printed line 23: '.u32'
#       input : ... %r7 ; .reg .f32 %f1 ; ...
#       output: ... %r7 ; .reg .u32 %r8 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k9(X, W, B, Y, *, N=65536):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    i = tid + 1024
    pos = reg.scalar(u32, init=32768)
    base = pos << 1
    off2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(off2, ptx.addr(py, 32))
    for s in range(2):
        t2 = reg.scalar(f32)
        ptx.inst.st.global_.u32(ptx.addr(px, 128), i)
        i3 = reg.scalar(u32)
        ptx.inst.ld.global_.u32(i3, ptx.addr(px))
        cnt = base.max(7 + 16 * s) + (8192 + 1024 * s)
KERNEL = k9
ARGS = {}
