# dslgen: seed 20240601, program 12 (tools/dslgen/run.py --show 20240601:12)
# class: crashed
# generated code raised SyntaxError: no binding for nonlocal 'f0' found (<generated>, line 21)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), raw_params=[('u32', 'n')], arch='sm_90a')
def k12(X, W, Y, *, N=4096):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    pos = (tid ^ 512) << 7

    def iteration():
        x2 = reg.scalar(f32)
        ptx.ld(f32, x2, ptx.addr(py))
    ptx.kloop(pos, unroll=1, body=iteration)
KERNEL = k12
ARGS = {}
