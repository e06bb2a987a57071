# dslgen: seed 2040, program 1309 (tools/dslgen/run.py --show 2040:1309)
# class: crashed
# generated code raised AttributeError: 'NoneType' object has no attribute 'name'
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    raw_params=[("u32", "n")],
    arch="sm_90a",
)
def k1309(X, Y, *, N=1048576):
    py, = ptx.global_ptrs(Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    n = ptx.param(u32, "n")
    buf = [reg.scalar(f32) for _ in range(4)]
    desc = py + 4 + 64 + 255
    t = reg.scalar(f32)
    ptx.inst.ld.global_.f32(t, ptx.addr(py))
    w = (desc << bid) * desc
    flags = reg.scalar(b32, init=8192)
    vals = [reg.scalar(f32) for _ in range(2)]
    ptx.inst.ld.global_.u32(n, ptx.addr(py, 4))
    ofs = reg.scalar(u64, init=4)
    py2 = py + flags
    for kk in range(4):
        y = reg.scalar(f32)
        if kk > 0:
            s = reg.scalar(f32, init=1.0)
            lane = (bid << bid) - 31 >> 8
        else:
            off = n + 255
            py2 += bid
        off2 = n << bid << 16 >> 16
        cnt = reg.scalar(u32, init=0)
        done = reg.scalar(pred)
        with ptx.loop(f"loop_1_{kk}", pred=done):
            bits = flags >> 2
            cnt += 4
            ptx.inst.setp.lt.u32(done, cnt, flags)
    acc = reg.scalar(f32)
    ptx.inst.ld.global_.f32(acc, ptx.addr(py2))
    cnt2 = ptx.special.tid.x() + 32768
    cnt2 += 2
    pos = tid ^ n
    for w2 in range(2):
        s2 = reg.scalar(f32)
        if w2 == 0:
            w3 = py + bid
            b = reg.scalar(f32)
            ptx.inst.ld.global_.f32(b, ptx.addr(py2, w2 * 128))
            ptx.inst.sub.f32(vals[w2], vals[w2], s2)
        for w4 in range(4):
            s3 = reg.scalar(f32)
            parts = []
            for j in range(2):
                v = reg.scalar(f32)
                if j < 1:
                    ptx.inst.st.global_.f32(ptx.addr(py2), v)
                row = (n << 5) * (255 + 64 * w2)
                parts.append(v)
            py3 = py + (bid - flags)
            ptx.inst.ld.global_.u32(pos, ptx.addr(py))
            ptx.inst.add.f32(parts[1], parts[1], t)
            s4 = reg.scalar(f32)
            ptx.inst.ld.global_.f32(s4, ptx.addr(py2, 256 + w4 * 128))
        py -= n
        ptx.inst.st.global_.f32(ptx.addr(py2, 4), t)
        s5 = reg.scalar(f32, init=0.0)
        v2 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(v2, ptx.addr(py, 16 + w2 * 512))
        py4 = py2 + (pos - cnt2)
        py += 64
        ptx.inst.st.global_.f32(ptx.addr(py4, w2 * 16), s2)
        cnt3 = cnt2 | tid
        ptx.inst.ld.global_.u32(pos, ptx.addr(py))
        col = tid << n
        desc2 = py + 31 + cnt3
    pos2 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(pos2, ptx.addr(py2, 64))
    ptx.inst.ld.global_.v4.f32(buf, ptx.addr(py))
    ptx.inst.st.global_.u32(ptx.addr(py), cnt2)
    j2 = reg.from_(ptx.special.ctaid.x(), s32)
    pos >>= 5
    py5 = py + 4
    with ptx.if_(j2 | cnt2 != 64):
        with ptx.if_(pos2 > 255):
            ptx.inst.mul.f32(vals[1], vals[1], t)
            ptx.inst.st.global_.f32(ptx.addr(py5), t)
    sidx = (j2 & pos ^ 65535) << pos
    desc3 = py + flags + 127
    m = reg.scalar(f32)
    ptx.inst.ld.global_.f32(m, ptx.addr(py, 1024))
    addr = reg.scalar(u64)
    ptx.inst.mul.wide.u32(addr, bid, 8)
    py6 = py5 + addr
    g = [reg.scalar(f32) for _ in range(4)]
    gaddr = reg.scalar(u64)
    ptx.inst.mul.wide.u32(gaddr, cnt2, 8)
    py7 = py + gaddr
    lane2 = reg.scalar(u32, init=128)
    pos3 = reg.from_(ptx.special.laneid(), u32)
    a = reg.scalar(f32)
    ptx.inst.ld.global_.f32(a, ptx.addr(py2, 16))
    n |= flags
    pos2 += lane2
    with ptx.if_(bid >= 32768):
        n2 = bid + 127
        frag = [reg.scalar(f32) for _ in range(8)]
        py += 128
        gaddr2 = reg.scalar(u64)
        ptx.inst.mul.wide.u32(gaddr2, pos, 8)
        py8 = py + gaddr2
    with ptx.else_():
        ptx.inst.mul.f32(g[2], g[2], a)
        off3 = reg.from_(ptx.special.tid.y(), u32)
        bits2 = reg.scalar(b32, init=512)
        gaddr &= ofs
        py6 += 16
    res = []
    for i in range(8):
        y2 = reg.scalar(f32)
        if i == 0:
            delta = sidx * (128 * (i + 1))
            w5 = w + pos2
            ptx.inst.st.global_.f32(ptx.addr(py), acc)
        else:
            ptx.inst.st.global_.f32(ptx.addr(py5), y2)
            cnt2 += (1024 + 128 * i)
            n3 = reg.from_(ptx.special.ntid.x(), u32)
        out = []
        for j3 in range(2):
            x = reg.scalar(f32)
            ok = reg.scalar(pred)
            ptx.inst.st.global_.f32(ptx.addr(py6), m, pred=~ok)
            out.append(x)
        addr2 = reg.scalar(u64)
        ptx.inst.mul.wide.u32(addr2, lane2, 16)
        py9 = py7 + addr2
        for j4 in range(8):
            acc2 = reg.scalar(f32)
            if j4 % 2 == 0:
                delta2 = reg.from_(ptx.special.nctaid.x(), s32)
            else:
                ptx.inst.ld.global_.f32(y2, ptx.addr(py5))
            out2 = []
            for s6 in range(3):
                y3 = reg.scalar(f32)
                if s6 < 2:
                    off4 = reg.scalar(u32, init=(4 + 256 * i))
                idx = pos & 255
                out2.append(y3)
            ofs2 = reg.scalar(u64)
            ptx.inst.mul.wide.u32(ofs2, bid, 8)
            py10 = py + ofs2
        res.append(y2)
    ptx.ret()


KERNEL = k1309
ARGS = {}
