# dslgen: seed 20240601, program 169 (tools/dslgen/run.py --show 20240601:169)
# class: crashed
# generated code raised NameError: name 'r2' is not defined
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), raw_params=[('u32', 'n')], arch='sm_90a')
def k169(X, W, Y, Z, *, N=1048576):
    tid = reg.from_(ptx.special.tid.x(), u32)
    n = ptx.param(u32, 'n')

    def iteration():
        i = n + 63 + n
    ptx.kloop(tid, unroll=1, body=iteration, loop_label='kl_1')
KERNEL = k169
ARGS = {}
