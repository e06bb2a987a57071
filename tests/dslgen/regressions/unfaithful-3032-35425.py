# dslgen: seed 3032, program 35425 (tools/dslgen/run.py --show 3032:35425)
# class: unfaithful
# module: first difference at token 1604 (inconsistent renaming: '%r40' was mapped to '%r40'): input line 329: '%r40' vs printed line 329: '%r41'
#       input : ... %f14 ; mul.lo.s32 %r40 , %r40 ...
#       output: ... %f14 ; mul.lo.s32 %r41 , %r41 ...
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b32, b64, bf16, f32, pred, s32, s64, u32, u64


@kernel(
    in_specs=(Tile("N", f32),),
    out_specs=(Tile("N", f32),),
    grid=lambda N: (N // 512, 1, 1),
    block=(512, 1, 1),
    arch="sm_90a",
)
def k35425(X, Y, *, N=65536):
    px, py = ptx.global_ptrs(X, Y)
    tid = reg.from_(ptx.special.tid.x(), u32)
    bid = reg.from_(ptx.special.ctaid.x(), u32)
    a = reg.scalar(f32, init=-1.0)
    tid += tid
    ptx.inst.ld.global_.u32(tid, ptx.addr(py))
    ptx.inst.ld.global_.f32(a, ptx.addr(py))
    sidx = reg.scalar(s32, init=512)
    tile = reg.scalar(u32, init=0)
    ok = reg.scalar(pred)
    with ptx.loop("tile_loop_1", pred=~ok):
        base = (bid ^ sidx).max(tid)
        tile += 4
        ptx.inst.setp.ge.u32(ok, tile, tid)
    sidx += 16
    ptx.inst.ld.global_.u32(tid, ptx.addr(px, 32))
    tid <<= 2
    n = reg.scalar(u32, init=16)
    idx = tid | ptx.special.tid.x() | sidx
    tid >>= 6
    t = reg.scalar(f32)
    ptx.inst.ld.global_.f32(t, ptx.addr(px, 4))
    tile *= 2
    def fetch(i, lane_id):
        tile2 = i * 256
        j = sidx.max(127) ^ 255
        i += 63
        ptx.inst.ld.global_.f32(a, ptx.addr(py, 4096))
        for j2 in range(3):
            s = reg.scalar(f32)
            k = lane_id << 1
    fetch(bid, bid)
    fetch(tid, idx)
    fetch(bid, sidx)
    col = tid - n
    px += col
    k2 = reg.scalar(u32, init=64)
    i2 = n >> 8
    j3 = (sidx | 128) * i2
    ptx.inst.ld.global_.f32(t, ptx.addr(py, 32))
    ptx.inst.ld.global_.u32(tid, ptx.addr(py))
    rem = reg.scalar(s32, init=4)
    i2 >>= 1
    ptx.inst.ld.global_.f32(a, ptx.addr(py, 8))
    ptx.inst.st.global_.f32(ptx.addr(py, 4096), a)
    idx2 = idx & 2
    s2 = reg.scalar(f32)
    ptx.inst.ld.global_.f32(s2, ptx.addr(px))
    ptx.inst.st.global_.f32(ptx.addr(py), t)
    col &= tid
    hit = reg.scalar(pred)
    k3 = (k2 * 256).max(255) - idx
    ptx.inst.st.global_.f32(ptx.addr(py), a, pred=hit)
    n ^= 31
    col2 = ((tile | 65535) + 0xff) * 512
    def emit_row(dst, val):
        a2 = reg.scalar(f32)
        ptx.ld(f32, a2, ptx.addr(dst))
        dst -= k3
        ptx.bar.sync(0)
        off = reg.scalar(u32)
        ptx.inst.ld.global_.u32(off, ptx.addr(px), pred=hit)
        ptx.inst.st.global_.u32(ptx.addr(py, 4), k3)
        return off
    cnt = emit_row(py, a)
    row = emit_row(py, t)
    bar = smem.mbarrier(4)
    with ptx.if_(tid == 0):
        for i3 in range(4):
            ptx.mbarrier.init(bar[i3], 1)
    ptx.fence.mbarrier_init()
    ptx.bar.sync(0)
    ph = reg.scalar(u32, init=0)
    ptx.mbarrier.wait(bar[1], 0)
    j4 = reg.scalar(s32, init=16)
    scale = reg.scalar(f32)
    ptx.inst.ld.global_.f32(scale, ptx.addr(py))
    ph ^= 1
    n2 = reg.scalar(u32, init=15)
    k3 += ph
    sidx += ph
    for w in range(8):
        s3 = reg.scalar(f32)
        ptx.inst.st.global_.f32(ptx.addr(py, 512), scale, pred=~hit)
        cnt *= 7
    j3 ^= 15
    px += i2
    for i4 in range(2):
        x = reg.scalar(f32)
        for i5 in range(2):
            m = reg.scalar(f32)
            for u in range(4):
                y = reg.scalar(f32)
                ptx.inst.ld.global_.u32(cnt, ptx.addr(py, 1024), pred=hit)
            k3 <<= 16
            n2 <<= 16
            ph ^= 31
            k4 = n2 * j3
        off2 = n + 31
        cnt <<= 3
        a3 = reg.scalar(f32)
        ptx.inst.ld.global_.f32(a3, ptx.addr(py))
        def iteration():
            off3 = reg.scalar(u32, init=0)
            first = reg.scalar(pred)
            with ptx.loop(f"k_loop_2_{i4}", pred=~first):
                sidx2 = sidx | bid
                off3 += 1
                ptx.inst.setp.ge.u32(first, off3, col)
        ptx.kloop(tile, unroll=8, body=iteration, loop_label=f"kl_3_{i4}")
    bar_mem = smem.mbarrier(8)
    full = ptx.mbarrier.array(bar_mem, 0, 4)
    empty = ptx.mbarrier.array(bar_mem, 32, 4)
    with ptx.if_(tid == 0):
        full.init_all(1)
        empty.init_all(1)
    ptx.fence.proxy_async_shared_cta()
    ptx.bar.sync(0)
    ring = ptx.pipeline(4)
    it = reg.scalar(u32, init=0)
    more = reg.scalar(pred)
    with ptx.loop("mainloop_4", pred=more):
        stage, phase = ring.advance()
        full.at(stage).wait(phase)
        ptx.inst.ld.global_.u32(n, ptx.addr(py, 4096), pred=hit)
        k3 >>= 6
        ptx.inst.st.global_.u32(ptx.addr(py), n, pred=~hit)
        n3 = reg.scalar(u32, init=4)
        n += 128
        empty.at(stage).arrive()
        it += 1
        ptx.setp("lt", u32, more, it, 64)
    k2 >>= 3
    idx <<= 2
    b = reg.scalar(f32)
    ptx.inst.ld.global_.f32(b, ptx.addr(px))
    i6 = k2 - 1023
    k5 = k2 | 15 | ph
    off4 = reg.scalar(u32)
    ptx.inst.ld.global_.u32(off4, ptx.addr(px, 4), pred=hit)
    sidx &= 31
    k6 = reg.from_(ptx.special.tid.x(), u32)
    d = reg.from_(ptx.special.laneid(), s32)
    idx3 = reg.scalar(u32, init=512)
    row2 = i2 - i2
    ptx.inst.st.global_.f32(ptx.addr(py, 16), a)
    def load_scaled(r, base_ptr):
        col3 = r * 256
        t2 = reg.scalar(f32)
        ptx.ld(f32, t2, ptx.addr(base_ptr))
        k7 = reg.scalar(u32, init=65535)
        ptx.inst.ld.global_.f32(a, ptx.addr(px))
        r |= 64
        sidx3 = j3 & 512
        ptx.inst.st.global_.u32(ptx.addr(py), idx)
        m2 = reg.scalar(f32, init=1.0)
        cnt2 = reg.scalar(u32)
        ptx.inst.ld.global_.u32(cnt2, ptx.addr(px, 32))
    load_scaled(k5, py)
    load_scaled(n, py)
    ptx.ret()


KERNEL = k35425
ARGS = {}
