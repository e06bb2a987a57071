# Hand-kept harness fixture: the readable shape where the module is one kernel's k.ptx().
from pyptx import kernel, reg, ptx
from pyptx.types import b32, b64, u32, u64, s32, f32, pred


@kernel(arch="sm_90a", version=(8, 5), raw_params=[("u64", "param0"), ("u64", "param1"), ("u64", "param2"), ("u32", "param3")])
def vector_add():
    r = reg.array(b32, 10)
    rd = reg.array(b64, 10)
    ptx.param(u64, "param0", rd[0])
    ptx.param(u64, "param1", rd[1])
    ptx.param(u64, "param2", rd[2])
    ptx.param(u32, "param3", r[0])
    tid = r[1]
    ptx.mov(u32, tid, ptx.special.tid.x())
    ctaid = r[2]
    ptx.mov(u32, ctaid, ptx.special.ctaid.x())
    ntid = r[3]
    ptx.mov(u32, ntid, ptx.special.ntid.x())
    ptx.mad(s32, r[4], ctaid, ntid, tid)
    p = reg.array(pred, 5, name="%p")
    ptx.setp("ge", u32, p[0], r[4], r[0])
    ptx.bra("DONE", pred=p[0])
    ptx.cvt(u64, u32, rd[3], r[4])
    rd[4] = rd[3] << 2
    ptx.add(u64, rd[5], rd[0], rd[4])
    ptx.add(u64, rd[6], rd[1], rd[4])
    ptx.add(u64, rd[7], rd[2], rd[4])
    ptx.ld(f32, r[5], ptx.addr(rd[5]))
    ptx.ld(f32, r[6], ptx.addr(rd[6]))
    ptx.add(f32, r[7], r[5], r[6])
    ptx.st(f32, ptx.addr(rd[7]), r[7])
    ptx.label("DONE")
    ptx.ret()


if __name__ == "__main__":
    print(vector_add.ptx(), end="")
