// Inline PTX with nested scopes, scoped .reg declarations, predicates, labels.
__device__ __forceinline__ unsigned clamp_add(unsigned a, unsigned b, unsigned lim)
{
    unsigned r;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 ".reg .u32 t<2>;\n\t"
                 "add.u32 t0, %1, %2;\n\t"
                 "setp.gt.u32 p, t0, %3;\n\t"
                 "selp.u32 %0, %3, t0, p;\n\t"
                 "}"
                 : "=r"(r) : "r"(a), "r"(b), "r"(lim));
    return r;
}

__device__ __forceinline__ int nested_scopes(int x)
{
    int r;
    asm("{\n"
        "  .reg .s32 a;\n"
        "  mov.s32 a, %1;\n"
        "  {\n"
        "    .reg .s32 a;            // shadows outer a\n"
        "    .reg .pred q, z;\n"
        "    mul.lo.s32 a, %1, 3;\n"
        "    setp.lt.s32 q|z, a, 100;\n"
        "    @q add.s32 %0, a, 1;\n"
        "    @!q sub.s32 %0, a, 1;\n"
        "  }\n"
        "  add.s32 %0, %0, a;\n"
        "}\n"
        : "=r"(r) : "r"(x));
    return r;
}

__device__ __forceinline__ unsigned long long loop_asm(unsigned n)
{
    unsigned long long acc;
    asm volatile("{\n\t"
                 ".reg .pred done;\n\t"
                 ".reg .u32 i;\n\t"
                 "mov.u64 %0, 0;\n\t"
                 "mov.u32 i, 0;\n"
                 "LOOP_%=:\n\t"
                 "setp.ge.u32 done, i, %1;\n\t"
                 "@done bra.uni END_%=;\n\t"
                 "cvt.u64.u32 %0, i;\n\t"
                 "add.u32 i, i, 1;\n\t"
                 "bra.uni LOOP_%=;\n"
                 "END_%=:\n\t"
                 "}"
                 : "=l"(acc) : "r"(n));
    return acc;
}

__global__ void asm_kernel(unsigned *u, int *s, unsigned long long *w, float *f)
{
    int t = threadIdx.x;
    u[t] = clamp_add(u[t], (unsigned)t, 1000u);
    s[t] = nested_scopes(s[t]);
    w[t] = loop_asm((unsigned)t);
    float x = f[t], y;
    asm("{ .reg .f32 tmp; mul.rn.f32 tmp, %1, 0f40490FDB; fma.rn.f32 %0, tmp, %1, 0f3F800000; }" : "=f"(y) : "f"(x));
    unsigned lane, smid, clk;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
    unsigned long long gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    unsigned v4[4];
    asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4+16];"
                 : "=r"(v4[0]), "=r"(v4[1]), "=r"(v4[2]), "=r"(v4[3]) : "l"(u));
    asm volatile("st.global.cg.v2.f32 [%0], {%1, %2};" :: "l"(f + 64), "f"(y), "f"(x) : "memory");
    asm volatile("prefetch.global.L2 [%0];" :: "l"(s + 128));
    asm volatile("membar.gl;" ::: "memory");
    f[t] = y + (float)(lane + smid + clk + v4[0] + v4[3]) + (float)gt;
}
