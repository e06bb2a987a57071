# dslgen: seed 3032, program 15712, minimized (tools/dslgen/minimize.py)
# class: crashed
# generated code raised UnboundLocalError: cannot access local variable 'r79' where it is not associated with a value
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32),), out_specs=(Tile('N', f32),), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), arch='sm_90a')
def k15712(X, Y, *, N=1048576):
    py, = ptx.global_ptrs(Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    x = reg.scalar(f32)
    idx = tid + tid

    def accumulate(w, k=128):
        g = [reg.scalar(f32) for _ in range(8)]
        col = reg.scalar(u32)
        ptx.inst.mov.b32(col, idx)
        return col
    idx2 = accumulate(x)
    row = accumulate(x)
    for w2 in range(2):
        pos3 = reg.scalar(u32)
        ptx.ld(u32, pos3, ptx.addr(py))
        row += 31
KERNEL = k15712
ARGS = {}
