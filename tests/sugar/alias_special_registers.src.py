"""alias: an element of a register array that holds a special register is
named where its mov writes it (ctaid := r[1]), not on a line of its own;
a scalar register is simply renamed."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b32, f32, s32, u32


@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(8, 1, 1),
        block=(128, 1, 1), arch="sm_90a")
def alias_special_registers(X, Y):
    r = reg.array(b32, 6)
    ptx.inst.mov.u32(r[1], ptx.special.ctaid.x())
    ptx.inst.mov.u32(r[2], ptx.special.ntid.x())
    ptx.inst.mov.u32(r[3], ptx.special.tid.x())
    ptx.inst.mad.lo.s32(r[4], r[1], r[2], r[3])
    ptx.inst.add.s32(r[5], r[4], r[3])
    lane = reg.scalar(u32)
    ptx.inst.mov.u32(lane, ptx.special.laneid())
    ptx.inst.add.s32(r[5], r[5], lane)
    ptx.ret()


KERNEL = alias_special_registers
ARGS = {}
