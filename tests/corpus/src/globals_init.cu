// Module-scope data: __constant__ with initializers, __device__ globals with
// pointer initializers (-> generic()), extern __shared__, static __shared__.
struct Params { int n; float scale; double bias; short tag[3]; };

__constant__ float c_coeffs[8] = { 1.0f, 0.5f, 0.25f, 0.125f, -1.0f, 3.5e10f, 1e-20f, 0.0f };
__constant__ int c_lut[4][3] = { { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 }, { -1, -2, -3 } };
__constant__ Params c_params = { 16, 2.5f, -0.75, { 7, 8, 9 } };
__constant__ double c_dbl[3] = { 3.141592653589793, 2.718281828459045, 1.0e300 };
__constant__ unsigned long long c_mask = 0xfedcba9876543210ull;

__device__ int g_counter = 42;
__device__ float g_table[16] = { 0.0f, 1.0f, 2.0f, 3.0f };
__device__ int *g_ptr = &g_counter;
__device__ float *g_ptrs[3] = { &g_table[0], &g_table[4], g_table + 8 };
__device__ const char g_msg[] = "corpus\n";
__device__ const char *g_msgp = g_msg + 2;
__device__ char g_bytes[5] = { 'a', 'b', 0x7f, -1, 0 };
__device__ unsigned short g_half_bits[2] = { 0x3c00, 0xc000 };
__device__ Params g_params = { 1, 1.0f, 1.0, { 1, 2, 3 } };
__device__ int g_uninit[128];
static __device__ long long g_static = -9000000000ll;

extern __shared__ float dyn_smem[];

__global__ void use_globals(float *out, int n)
{
    __shared__ int s_counts[16];
    float *buf = dyn_smem;
    int t = threadIdx.x;
    if (t < 16) s_counts[t] = c_lut[t & 3][t % 3];
    buf[t] = c_coeffs[t & 7] * c_params.scale + (float)c_dbl[t % 3];
    __syncthreads();
    float v = buf[(t + 1) % blockDim.x] + s_counts[t & 15] + *g_ptr + g_ptrs[t % 3][1];
    v += g_msgp[0] + g_bytes[t % 5] + g_half_bits[t & 1] + g_params.tag[2] + (float)g_static;
    if ((c_mask >> (t & 63)) & 1) v += g_uninit[t & 127];
    out[t] = v;
    if (t == 0) atomicAdd(&g_counter, n);
}

// Second extern shared array of a different type aliases the same storage.
extern __shared__ double dyn_smem_d[];
__global__ void use_dyn_double(double *out)
{
    dyn_smem_d[threadIdx.x] = threadIdx.x * 0.5;
    __syncthreads();
    out[threadIdx.x] = dyn_smem_d[blockDim.x - 1 - threadIdx.x];
}
