# dslgen: seed 2, program 4 (tools/dslgen/run.py --show 2:4)
# class: crashed
# generated code raised SyntaxError: no binding for nonlocal 'rd5' found (<generated>, line 25)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), raw_params=[('u32', 'n')], arch='sm_90a')
def k4(X, W, B, Y, *, N=1048576):
    px, pw, pb, py = ptx.global_ptrs(X, W, B, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    p = reg.scalar(pred)
    a2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a2, ptx.addr(py, 4096), pred=p)
    k = reg.scalar(u32)
    idx = reg.from_(tid, u32)

    def body():
        px2 = px + (k | 1023)
    ptx.kloop(idx, unroll=1, body=body, loop_label='kl_3')
KERNEL = k4
ARGS = {}
