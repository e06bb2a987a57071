# dslgen: seed 60, program 12499 (tools/dslgen/run.py --show 60:12499)
# class: unfaithful
# module: first difference at token 156 (token differs): input line 36: 'max.u32' vs printed line 36: 'or.b32'
#       input : ... , 2 ; max.u32 %r11 , ...
#       output: ... , 2 ; or.b32 %r12 , ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32), Tile('N', f32)), out_specs=(Tile('N', f32),), grid=lambda N: (N // 256, 1, 1), block=(256, 1, 1), arch='sm_100a')
def k12499(X, W, Y, *, N=1048576):
    sbuf = smem.alloc(u32, (8, 64))
    n = ptx.special.tid.x() >> 2
    mask = reg.scalar(b32)
    idx = sbuf[n, 54]
    h = mask + 128
    word = mask - idx
    delta = reg.scalar(s32)
    bits = h << 2
    base = n.max(bits)
    sidx = (delta | 65535) - bits
    ptx.inst.rem.u32(word, sidx, base)
KERNEL = k12499
ARGS = {}
