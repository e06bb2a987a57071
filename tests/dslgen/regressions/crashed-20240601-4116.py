# dslgen: seed 20240601, program 4116 (tools/dslgen/run.py --show 20240601:4116)
# class: crashed
# generated code raised UnboundLocalError: cannot access local variable 'r7' where it is not associated with a value
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), arch='sm_90a')
def k4116(X, W, Y, Z, *, N=65536):
    tid = reg.from_(ptx.special.tid.x(), u32)

    def combine(lane_id):
        cnt = lane_id * 8
        return cnt
    k = combine(tid)
    lane = combine(k)
    col = (k << k) + 256
    delta = reg.scalar(s32, init=2)
    idx2 = (lane - col) * delta
    lane2 = (tid + 64) * 15 + 64

    def body():
        nonlocal idx2
        with ptx.if_(lane2 ^ 512 < 63):
            idx2 >>= 7
    ptx.kloop(lane2, unroll=1, body=body, loop_label='kl_3')
KERNEL = k4116
ARGS = {}
