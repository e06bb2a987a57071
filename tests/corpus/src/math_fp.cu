// Floating point: float/double/half/bf16 arithmetic, rounding modes, special functions.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void fp_math(const float *x, const double *y, float *fo, double *dout)
{
    int t = threadIdx.x;
    float a = x[t];
    double b = y[t];
    fo[t * 8 + 0] = __fadd_rz(a, 1.5f) + __fmul_ru(a, 3.0f) + __fdiv_rd(a, 7.0f);
    fo[t * 8 + 1] = sqrtf(a) + rsqrtf(a) + __frcp_rn(a) + __fsqrt_rd(a);
    fo[t * 8 + 2] = __sinf(a) + __cosf(a) + __expf(a) + __logf(a) + __powf(a, 0.3f);
    fo[t * 8 + 3] = fminf(a, -0.0f) + fmaxf(a, INFINITY) + copysignf(a, -1.0f) + fabsf(a);
    fo[t * 8 + 4] = __saturatef(a) + truncf(a) + rintf(a) + floorf(a) + ceilf(a);
    fo[t * 8 + 5] = (float)__float2int_rn(a) + (float)__float2uint_rz(a) + __int_as_float(0x7fc00000);
    fo[t * 8 + 6] = fmaf(a, 1e-30f, 3.4028235e38f) + __fmaf_rn(a, a, -a) + __fsub_rn(a, 0x1p-126f);
    fo[t * 8 + 7] = isnan(a) ? 1.0f : (isinf(a) ? 2.0f : 0.0f);
    dout[t * 4 + 0] = __dadd_rn(b, 1e-300) + __dmul_rz(b, 2.0) + __ddiv_ru(b, 3.0) + sqrt(b);
    dout[t * 4 + 1] = fma(b, 1.0000000000000002, -4.9e-324) + __drcp_rn(b) + (double)__double2float_rn(b);
    dout[t * 4 + 2] = __longlong_as_double(0x7ff0000000000000ll) + (double)__double2ll_rd(b) + __hiloint2double(1, 2);
    dout[t * 4 + 3] = fmin(b, 0.1) + fmax(b, -0.1) + trunc(b) + rint(b);
}

__global__ void half_math(const __half2 *h, const __nv_bfloat162 *bf, __half2 *ho, __nv_bfloat162 *bo, float *fo)
{
    int t = threadIdx.x;
    __half2 a = h[t];
    __half2 r = __hfma2(a, a, __float2half2_rn(0.5f));
    r = __hmax2(r, __hneg2(a));
    r = h2sqrt(__habs2(r));
    ho[t] = __hadd2_sat(r, __halves2half2(__ushort_as_half(0x3c00), __float2half(-2.0f)));
    __nv_bfloat162 b = bf[t];
    bo[t] = __hfma2(b, b, __float2bfloat162_rn(1.0f));
    __half x = __low2half(a);
    fo[t] = __half2float(x) + __bfloat162float(__high2bfloat16(b)) + (float)__hlt(x, __float2half(1.0f));
}
