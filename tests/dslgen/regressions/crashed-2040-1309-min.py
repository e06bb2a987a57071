# dslgen: seed 2040, program 1309 (tools/dslgen/run.py --show 2040:1309)
# class: crashed
# generated code raised AttributeError: 'NoneType' object has no attribute 'name'
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64

@kernel(in_specs=(Tile('N', f32),), out_specs=(Tile('N', f32),), grid=lambda N: (N // 512, 1, 1), block=(512, 1, 1), raw_params=[('u32', 'n')], arch='sm_90a')
def k1309(X, Y, *, N=1048576):
    py, = ptx.global_ptrs(Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    n = ptx.param(u32, 'n')
    acc = reg.scalar(f32)
    pos = tid ^ n
    py5 = py + 4
    m = reg.scalar(f32)
    addr = reg.scalar(u64)
    py6 = py5 + addr
    gaddr = reg.scalar(u64)
    py7 = py + gaddr
    for i in range(8):
        y2 = reg.scalar(f32)
        if i == 0:
            ptx.inst.st.global_.f32(ptx.addr(py), acc)
        else:
            pass
        for j3 in range(2):
            ok = reg.scalar(pred)
            ptx.inst.st.global_.f32(ptx.addr(py6), m, pred=~ok)
        for j4 in range(8):
            acc2 = reg.scalar(f32)
            if j4 % 2 == 0:
                delta2 = reg.from_(ptx.special.nctaid.x(), s32)
            else:
                ptx.inst.ld.global_.f32(y2, ptx.addr(py5))
            for s6 in range(3):
                y3 = reg.scalar(f32)
                if s6 < 2:
                    off4 = reg.scalar(u32, init=4 + 256 * i)
                idx = pos & 255
            ofs2 = reg.scalar(u64)
            py10 = py + ofs2
KERNEL = k1309
ARGS = {}
