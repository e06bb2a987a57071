"""Out-of-place transpose of an N x N f32 matrix by 32x32 tiles.  A CTA
of 32x8 threads reads its tile row by row (coalesced) into a shared tile
padded to 33 columns so the column reads hit 32 different banks, waits at
a CTA barrier, and writes the tile's columns as rows of the transposed
block.  Shared elements are addressed with 2-D indexing, tile[r, c]."""
from pyptx import Tile, kernel, ptx, reg, smem
from pyptx.types import b64, f32, u32

TILE = 32
ROWS = 8


@kernel(in_specs=(Tile("N", "N", f32),), out_specs=(Tile("N", "N", f32),),
        grid=lambda N: (N // TILE, N // TILE, 1), block=(TILE, ROWS, 1), arch="sm_90a")
def transpose(X, Y, *, N=2048):
    px, py = ptx.global_ptrs(X, Y)
    tile = smem.alloc(f32, (TILE, TILE + 1))
    tx = reg.from_(ptx.special.tid.x(), u32)
    ty = reg.from_(ptx.special.tid.y(), u32)
    bx = reg.from_(ptx.special.ctaid.x(), u32)
    by = reg.from_(ptx.special.ctaid.y(), u32)

    # read rows by*32 + ty + 8j, column bx*32 + tx
    col = reg.scalar(u32)
    ptx.mad(u32, col, bx, TILE, tx)
    row = reg.scalar(u32)
    ptx.mad(u32, row, by, TILE, ty)
    idx = reg.scalar(u32)
    ptx.mad(u32, idx, row, N, col)
    src = reg.scalar(b64)
    ptx.mul(u32, src, idx, 4, mode="wide")
    src += px
    v = reg.scalar(f32)
    for j in range(TILE // ROWS):
        ptx.ld(f32, v, ptx.addr(src, j * ROWS * N * 4))
        tile[ty + j * ROWS, tx] = v
    ptx.bar.sync(0)

    # write rows bx*32 + ty + 8j, column by*32 + tx of the transpose
    ptx.mad(u32, col, by, TILE, tx)
    ptx.mad(u32, row, bx, TILE, ty)
    ptx.mad(u32, idx, row, N, col)
    dst = reg.scalar(b64)
    ptx.mul(u32, dst, idx, 4, mode="wide")
    dst += py
    for j in range(TILE // ROWS):
        t = tile[tx, ty + j * ROWS]
        ptx.st(f32, ptx.addr(dst, j * ROWS * N * 4), t)
    ptx.ret()


KERNEL = transpose
ARGS = {"N": 2048}
