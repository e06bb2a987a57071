// Tiny kernels that the pyptx-diff tests (run_tests.py) compile with nvcc
// at test time: with and without -lineinfo, with the SCALE line changed,
// and with -DNO_COUNT (one kernel fewer).
#define SCALE 2.0f

__global__ void scale_add(float *out, const float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] * SCALE + y[i];
}

#ifndef NO_COUNT
__global__ void count_positive(int *count, const float *x, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
        if (x[i] > 0.0f)
            atomicAdd(count, 1);
}
#endif
