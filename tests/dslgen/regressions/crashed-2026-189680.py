# dslgen: seed 2026, program 189680 (tools/dslgen/run.py --show 2026:189680)
# class: crashed
# generated code raised SyntaxError: invalid syntax (<generated>, line 8)
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32), Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 128, 1, 1),
    block=(128, 1, 1),
    arch="sm_90a",
)
def k189680(X, W, Y, *, N=1048576):
    px, pw, py = ptx.global_ptrs(X, W, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    sh = smem.alloc(f32, (16, 64), name="sh")
    buf = [reg.scalar(f32) for _ in range(4)]
    m = reg.scalar(f32, init=0.0)
    tid <<= 3
    word = reg.scalar(b32)
    ptx.inst.and_.b32(word, bid, tid)
    sh[bid, bid] = m
    ofs = reg.scalar(u64)
    ptx.inst.mul.wide.u32(ofs, word, 16)
    py2 = py + ofs
    base = tid + 2
    def iteration():
        out = []
        for i in range(2):
            scale = reg.scalar(f32)
            n = reg.scalar(u32)
            ptx.ld(u32, n, ptx.addr(pw))
            h = word.max(4)
            base2 = base - 1023
            out.append(scale)
    ptx.kloop(base, unroll=8, body=iteration, loop_label="kl_1")
    rem = reg.scalar(s32)
    ptx.inst.div.u32(rem, tid, 63)
    idx = reg.scalar(u32)
    ptx.inst.ld.global_.u32(idx, ptx.addr(py2, 512))
    py3 = py + 15
    ptx.st(u32, ptx.addr(py3, 4096), bid)
    for w in range(8):
        y = reg.scalar(f32)
        py4 = py2 + (rem << 6)
        m2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(m2, ptx.addr(px))
        ptx.inst.ld.shared.f32(m, ptx.addr(sh))
        col = reg.scalar(u32)
        ptx.and_(b32, col, word, base)
        py5 = py2 + (idx & word)
        word -= 4 * (w + 1)
        off = col + 256 * (w + 1)
        col -= col
        ptx.inst.ld.global_.f32(m2, ptx.addr(px))
    tid ^= tid
    ptx.inst.min.u32(rem, bid, base)
    desc = reg.scalar(b64, init=8192)
    py3 -= desc
    sh[idx, idx] = m
    ok = reg.scalar(pred)
    with ptx.if_(~ok):
        ptx.inst.shr.u32(idx, word, 8, pred=ok)
        ptx.inst.st.shared.f32(ptx.addr(sh, 512), m)
        ptx.inst.mul.f32(buf[0], buf[0], m)
    row = reg.scalar(u32)
    ptx.inst.sub.s32(row, idx, word)
    for s in range(2):
        x = reg.scalar(f32)
        row2 = row + 127
        sh[bid, 54] = x
        ptx.inst.ld.global_.u32(idx, ptx.addr(py))
        pos = reg.scalar(u32)
        ptx.add(u32, pos, base, bid)
        j = reg.scalar(s32)
        ptx.inst.rem.u32(j, bid, 255)
        tile = reg.scalar(u32)
        ptx.selp(u32, tile, rem, idx, ok)
        py6 = py2 + pos
        s2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(s2, ptx.addr(py6))
    step = reg.from_(ptx.special.nctaid.x(), s32)
    x2 = reg.scalar(f32, init=1.0)
    n2 = reg.from_(ptx.special.ctaid.x(), u32)
    ptx.inst.mul.f32(buf[1], buf[1], x2)
    ptx.inst.mul.lo.u32(word, rem, step)
    sh[tid, 39] = x2
    sh[idx, n2] = x2
    py3 += ofs
    v = sh[row, 31]
    i2 = reg.scalar(u32)
    ptx.ld(u32, i2, ptx.addr(px, 4))
    off2 = (ptx.special.tid.x() & 512) >> 2
    ptx.inst.st.global_.f32(ptx.addr(py3), m)
    pw2 = pw + (off2 & off2)
    idx2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(idx2, ptx.addr(pw))
    n3 = reg.scalar(u32)
    ptx.add(u32, n3, idx2, idx)
    b = reg.scalar(f32, init=0.125)
    row3 = reg.scalar(u32)
    ptx.ld(u32, row3, ptx.addr(px, 32))
    ptx.inst.min.u32(step, row, 255)
    acc = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc, ptx.addr(py), pred=ok)
    ptx.inst.st.shared.f32(ptx.addr(sh), v)
    cnt = (n3 >> bid) - 1
    ptx.inst.ld.shared.f32(v, ptx.addr(sh, 8))
    ptx.bar.sync(0)
    key = reg.scalar(b32)
    ptx.inst.rem.u32(key, cnt, 15)
    i2 -= 32768
    ptx.inst.st.shared.f32(ptx.addr(sh, 4096), m)
    ofs2 = reg.scalar(u64)
    ptx.inst.mul.wide.u32(ofs2, off2, 16)
    pw3 = pw + ofs2
    for u in range(8):
        a = reg.scalar(f32)
        parts = []
        for i3 in range(2):
            x3 = reg.scalar(f32)
            v2 = reg.scalar(f32)
            ptx.inst.ld.global_.f32(v2, ptx.addr(py2, 4), pred=ok)
            done = reg.scalar(pred)
            ptx.setp("ne", u32, done, row3, 8192 * (u + 1))
            v3 = sh[row3, 28]
            ptx.inst.st.global_.f32(ptx.addr(pw2), x3, pred=~ok)
            vals = [reg.scalar(f32) for _ in range(4)]
            parts.append(x3)
    ptx.st(f32, ptx.addr(pw3), b)
    ptx.ret()


KERNEL = k189680
ARGS = {}
