# dslgen: seed 2, program 66 (tools/dslgen/run.py --show 2:66)
# class: crashed
# generated code raised UnboundLocalError: cannot access local variable 'r4' where it is not associated with a value
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32), Tile('N', f32)), grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch='sm_90a')
def k66(X, W, Y, Z, *, N=65536):
    tid = reg.from_(ptx.special.tid.x(), u32)
    base = (tid << 16) + (tid & 32) + 256
    pos = tid - 8
    row = pos >> 5
    with ptx.if_(tid < 255):
        cnt = reg.scalar(u32, init=1)
        pos2 = row + base
        for s2 in range(3):
            for u in range(4):
                if u == 3:
                    pass
                else:
                    ptx.mad(u32, pos2, tid, cnt, row)
            off = (pos2 >> 8).max(16)
            base &= off
    done = reg.scalar(pred)
KERNEL = k66
ARGS = {}
