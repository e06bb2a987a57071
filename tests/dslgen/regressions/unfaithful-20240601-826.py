# dslgen: seed 20240601, program 826 (tools/dslgen/run.py --show 20240601:826)
# class: unfaithful
# module: first difference at token 68 (token differs): input line 22: '.b32' vs printed line 22: '.s32'
#       input : ... %r5 ; .reg .b32 %r6 ; ...
#       output: ... %r5 ; .reg .s32 %r6 ; ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_90a')
def k826(X, W, B, Y, *, N=1048576):
    px, pb, py = ptx.global_ptrs(X, B, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    i = tid.max(tid)
    lane = i.max(4)
    sidx = reg.scalar(s32)
    for w in range(2):
        s = reg.scalar(f32)
        d = sidx * (8192 * (w + 1)) << tid
        flags = reg.scalar(b32)
        ptx.inst.or_.b32(flags, d, 15)
        py -= lane
        off = tid >> 5
KERNEL = k826
ARGS = {}
