# dslgen: seed 20240601, program 1142 (tools/dslgen/run.py --show 20240601:1142)
# class: crashed
# generated code raised SyntaxError: too many statically nested blocks (<generated>, line 58)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k1142(X, W, B, Y, *, N=65536):
    for u in range(8):
        for s3 in range(8):
            last = reg.scalar(pred)
            with ptx.loop('tile_loop_1', pred=last):
                pass
KERNEL = k1142
ARGS = {}
