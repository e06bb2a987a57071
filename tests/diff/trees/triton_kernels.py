"""The project's own Triton kernels, for the tree-diff test material.

Each family is one @triton.jit function and the constexpr configurations an
autotuner would try; every configuration is a separate compilation with the
same kernel name, as in a real Triton cache.  make_triton_trees.py compiles
them all under two num_warps/num_stages policies.
"""
import triton
import triton.language as tl


@triton.jit
def vec_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def silu_mul(g_ptr, u_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    g = tl.load(g_ptr + offs, mask=m).to(tl.float32)
    u = tl.load(u_ptr + offs, mask=m).to(tl.float32)
    y = g * tl.sigmoid(g) * u
    tl.store(out_ptr + offs, y.to(tl.float16), mask=m)


@triton.jit
def row_softmax(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def layer_norm(x_ptr, w_ptr, b_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=m)
    b = tl.load(b_ptr + cols, mask=m)
    tl.store(out_ptr + row * stride + cols, d * rstd * w + b, mask=m)


@triton.jit
def rms_norm(x_ptr, w_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=m)
        tl.store(out_ptr + row * stride + cols, (x * rstd * w).to(tl.float16), mask=m)


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
           GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group) % size_m
    pid_n = (pid % group) // size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        ka = tl.load(a, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        kb = tl.load(b, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(ka, kb, acc)
        a += BLOCK_K * sak
        b += BLOCK_K * sbk
    c = c_ptr + rm[:, None] * scm + rn[None, :] * scn
    tl.store(c, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def row_sum(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def transpose(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=m)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=m)


@triton.jit
def prefix_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.cumsum(tl.load(x_ptr + offs, mask=m, other=0.0), axis=0), mask=m)


@triton.jit
def quant_int8(x_ptr, q_ptr, s_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    scale = tl.max(tl.abs(x), axis=0) / 127.0 + 1e-12
    q = tl.extra.cuda.libdevice.rint(x / scale)
    tl.store(q_ptr + row * stride + cols, q.to(tl.int8), mask=m)
    tl.store(s_ptr + row, scale)


@triton.jit
def dropout(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    keep = tl.rand(seed, offs) > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=m)


F32, F16, I32 = "*fp32", "*fp16", "i32"

# name -> (function, signature without constexprs, [constexpr configs])
FAMILIES = {
    "vec_add": (vec_add, {"x_ptr": F32, "y_ptr": F32, "out_ptr": F32, "n": I32},
                [{"BLOCK": b} for b in (64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384)]),
    "silu_mul": (silu_mul, {"g_ptr": F16, "u_ptr": F16, "out_ptr": F16, "n": I32},
                 [{"BLOCK": b} for b in (256, 512, 1024, 2048, 4096, 8192)]),
    "row_softmax": (row_softmax, {"x_ptr": F32, "out_ptr": F32, "stride": I32, "n_cols": I32},
                    [{"BLOCK": b} for b in (128, 256, 512, 1024, 2048, 4096, 8192, 16384)]),
    "layer_norm": (layer_norm, {"x_ptr": F16, "w_ptr": F32, "b_ptr": F32, "out_ptr": F32,
                                "stride": I32, "n_cols": I32, "eps": "fp32"},
                   [{"BLOCK": b} for b in (256, 512, 1024, 2048, 4096, 8192, 16384)]),
    "rms_norm": (rms_norm, {"x_ptr": F16, "w_ptr": F32, "out_ptr": F16, "stride": I32,
                            "n_cols": I32, "eps": "fp32"},
                 [{"BLOCK": b} for b in (128, 256, 512, 1024, 2048, 4096, 8192)]),
    "matmul": (matmul, {"a_ptr": F16, "b_ptr": F16, "c_ptr": F16, "M": I32, "N": I32, "K": I32,
                        "sam": I32, "sak": I32, "sbk": I32, "sbn": I32, "scm": I32, "scn": I32},
               [{"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k, "GROUP_M": 8}
                for m, n, k in ((64, 64, 32), (64, 128, 32), (128, 64, 32), (128, 128, 32),
                                (128, 128, 64), (64, 256, 32), (128, 256, 64), (256, 64, 32),
                                (64, 64, 64), (32, 64, 32), (64, 32, 32), (32, 32, 32),
                                (128, 32, 32), (32, 128, 64), (256, 128, 32), (16, 64, 64),
                                (64, 16, 64), (16, 16, 16), (128, 16, 32), (16, 128, 32),
                                (256, 32, 32), (32, 256, 32), (64, 64, 16), (128, 64, 64),
                                (64, 128, 64), (256, 128, 64), (32, 32, 64), (16, 32, 32),
                                (32, 16, 32))]),
    "row_sum": (row_sum, {"x_ptr": F32, "out_ptr": F32, "stride": I32, "n_cols": I32},
                [{"BLOCK": b} for b in (128, 256, 512, 1024, 2048, 4096, 8192)]),
    "transpose": (transpose, {"x_ptr": F32, "out_ptr": F32, "M": I32, "N": I32},
                  [{"BLOCK_M": m, "BLOCK_N": n} for m, n in ((16, 16), (32, 32), (64, 64),
                                                             (32, 64), (64, 32), (128, 32),
                                                             (32, 128), (128, 128))]),
    "prefix_sum": (prefix_sum, {"x_ptr": F32, "out_ptr": F32, "n": I32},
                   [{"BLOCK": b} for b in (64, 128, 256, 512, 1024, 2048, 4096)]),
    "quant_int8": (quant_int8, {"x_ptr": F16, "q_ptr": "*i8", "s_ptr": F32, "stride": I32,
                                "n_cols": I32},
                   [{"BLOCK": b} for b in (128, 256, 512, 1024, 2048, 4096, 8192)]),
    "dropout": (dropout, {"x_ptr": F32, "out_ptr": F32, "n": I32, "p": "fp32", "seed": I32},
                [{"BLOCK": b} for b in (128, 256, 512, 1024, 2048, 4096, 8192)]),
}
