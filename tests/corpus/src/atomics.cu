// Atomics on global and shared memory: int, unsigned, 64-bit, float, double.
__global__ void atomics_global(int *gi, unsigned *gu, unsigned long long *g64,
                               float *gf, double *gd, long long *gs64)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    atomicAdd(gi, 1);
    atomicSub(gi + 1, t);
    atomicMin(gi + 2, -t);
    atomicMax(gi + 3, t);
    atomicAnd(gu, 0xfffffff0u);
    atomicOr(gu + 1, 1u << (t & 31));
    atomicXor(gu + 2, (unsigned)t);
    atomicInc(gu + 3, 100u);
    atomicDec(gu + 4, 100u);
    atomicExch(gu + 5, (unsigned)t);
    atomicAdd(g64, 1ull);
    atomicMin(g64 + 1, (unsigned long long)t);
    atomicMax(gs64, (long long)-t);
    atomicAdd(gf, 0.5f);
    atomicAdd(gd, 1.0e-3);
    atomicExch(gf + 1, 2.5f);
    // CAS loop: float multiply.
    unsigned *addr = (unsigned *)(gf + 2);
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, __float_as_uint(__uint_as_float(assumed) * 1.01f));
    } while (assumed != old);
    unsigned long long o64 = atomicCAS(g64 + 2, 0ull, 42ull);
    if (o64 == 7) gi[4] = 1;
    // Scoped atomics.
    atomicAdd_block(gi + 5, 1);
    atomicAdd_system(gi + 6, 1);
}

__global__ void atomics_shared(const int *in, int *out, float *fout)
{
    __shared__ int hist[64];
    __shared__ float fsum;
    __shared__ unsigned long long s64;
    if (threadIdx.x < 64) hist[threadIdx.x] = 0;
    if (threadIdx.x == 0) { fsum = 0.0f; s64 = 0; }
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    atomicAdd(&hist[v & 63], 1);
    atomicMax(&hist[(v >> 6) & 63], v);
    atomicAdd(&fsum, (float)v);
    atomicAdd(&s64, (unsigned long long)v);
    atomicCAS((int *)&hist[0], 0, -1);
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&out[threadIdx.x], hist[threadIdx.x]);
    if (threadIdx.x == 0) { atomicAdd(fout, fsum); atomicAdd((unsigned long long *)(out + 64), s64); }
}
