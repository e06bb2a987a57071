# dslgen: seed 2027, program 179533, minimized (tools/dslgen/minimize.py)
# class: unfaithful (before the fix): a rolled copy read out[0] again where the loop gave out[4]
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32),), out_specs=(Tile('N', f32),), grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch='sm_90a')
def k179533(X, Y, *, N=65536):
    s = reg.scalar(f32, init=1.0)
    acc = reg.scalar(f32)
    h = reg.scalar(b32)
    res = []
    for j in range(8):
        acc3 = reg.scalar(f32)
        pos3 = ptx.special.tid.x().max(h)
        res.append(acc3)
    s2 = reg.scalar(f32)

    def combine(bias):
        for kk2 in range(4):
            ptx.inst.sub.f32(res[kk2], res[kk2], acc)
    combine(s2)
    combine(s)
KERNEL = k179533
ARGS = {}
