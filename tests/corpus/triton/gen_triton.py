#!/usr/bin/env python3
"""Regenerate tests/corpus/triton/*.ptx with Triton on a machine with a GPU.

    python3 gen_triton.py OUTDIR

Compiles a few typical Triton kernels (elementwise, reduction, softmax,
matmul with block pointers, flash-attention-like loop) for the GPU present
and writes each kernel's PTX as OUTDIR/<name>_<arch>.ptx.  Triton embeds no
timestamps; the PTX depends on the Triton version (recorded in docs/testing.md).
"""
import os
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit
def softmax_kernel(out, inp, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(inp + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out + row * stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rm[:, None] * sam + (k + rk)[None, :] * sak)
        y = tl.load(b + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16))


@triton.jit
def attn_fwd(q, k, v, o, L, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    start = tl.program_id(0) * BM
    offs_m = start + tl.arange(0, BM)
    offs_d = tl.arange(0, D)
    qb = tl.load(q + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.full((BM,), -float("inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for s in range(0, L, BN):
        offs_n = s + tl.arange(0, BN)
        kb = tl.load(k + offs_n[None, :] * D + offs_d[:, None])
        qk = tl.dot(qb, kb)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        vb = tl.load(v + offs_n[:, None] * D + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vb)
        m_i = m_new
    tl.store(o + offs_m[:, None] * D + offs_d[None, :], (acc / l_i[:, None]).to(tl.float16))


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    cc = torch.cuda.get_device_capability()
    arch = f"sm_{cc[0]}{cc[1]}"
    dev = "cuda"
    n = 4096
    x = torch.randn(n, device=dev)
    y = torch.randn(n, device=dev)
    runs = {}
    runs["add"] = add_kernel[(n // 1024,)](x, y, torch.empty_like(x), n, BLOCK=1024)
    s = torch.randn(128, 781, device=dev)
    runs["softmax"] = softmax_kernel[(128,)](torch.empty_like(s), s, s.stride(0), 781, BLOCK=1024)
    a = torch.randn(512, 512, device=dev, dtype=torch.float16)
    b = torch.randn(512, 512, device=dev, dtype=torch.float16)
    c = torch.empty(512, 512, device=dev, dtype=torch.float16)
    runs["matmul"] = matmul_kernel[(4, 4)](a, b, c, 512, 512, 512, a.stride(0), a.stride(1),
                                           b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                           BM=128, BN=128, BK=64)
    q = torch.randn(1024, 64, device=dev, dtype=torch.float16)
    runs["attn"] = attn_fwd[(1024 // 128,)](q, q, q, torch.empty_like(q), 1024, D=64, BM=128, BN=64)
    for name, k in runs.items():
        path = os.path.join(outdir, f"{name}_{arch}.ptx")
        with open(path, "w") as f:
            f.write(k.asm["ptx"])
        print(path, len(k.asm["ptx"]))
    print("triton", triton.__version__)


if __name__ == "__main__":
    main(sys.argv[1])
