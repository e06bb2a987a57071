"""repeat: registers a loop allocates that the code after it reads roll
back up into a Python list (out = [] before the loop, out.append(t) in
it), read as out[c], a later loop's out[i], or the whole list where an
instruction takes them as a vector; reg.scalar names each pass's register
from pyptx's counter, so the list holds the same registers."""
from pyptx import Tile, kernel, ptx, reg
from pyptx.types import b64, f32, u32

@kernel(in_specs=(Tile(1024, f32),), out_specs=(Tile(1024, f32),), grid=(1, 1, 1), block=(128, 1, 1), arch="sm_90a")
def repeat_register_lists(X, Y):
    px, py = ptx.global_ptrs(X, Y)
    v = [reg.scalar(f32) for _ in range(4)]
    for i in range(4):
        ptx.ld(f32, v[i], ptx.addr(px, 4 * i))
    out = []
    for i in range(4):
        t = reg.scalar(f32)
        ptx.mul(f32, t, v[i], v[i])
        out.append(t)
    ptx.inst.st.global_.v4.f32(ptx.addr(py), out)
    g = [reg.scalar(f32) for _ in range(4)]
    for i in range(4):
        ptx.add(f32, g[i], g[i], out[i])
    ptx.add(f32, g[0], g[2], out[2])
    ptx.ret()

KERNEL = repeat_register_lists
ARGS = {}
