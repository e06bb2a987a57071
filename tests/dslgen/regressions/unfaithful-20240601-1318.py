# dslgen: seed 20240601, program 1318 (tools/dslgen/run.py --show 20240601:1318)
# class: unfaithful
# module: first difference at token 51 (token differs): input line 17: '.pred' vs printed line 17: '.u32'
#       input : ... %r4 ; .reg .pred %p < ...
#       output: ... %r4 ; .reg .u32 %r5 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 128, 1, 1), block=(128, 1, 1), arch='sm_90a')
def k1318(X, W, B, Y, *, N=65536):
    tile = smem.alloc(u32, (32, 33))
    rem = reg.scalar(s32)
    r = reg.array(u32, 4)
    base = reg.scalar(u32, init=7)
    pos = r[0] & rem
    lane = pos * 4096
    hit = reg.scalar(pred)
    tile[r[0], lane] = base
    with ptx.if_(~hit):
        pass
KERNEL = k1318
ARGS = {}
