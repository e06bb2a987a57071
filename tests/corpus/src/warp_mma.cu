// Warp-level primitives (shfl/vote/match/reduce) and WMMA tensor-core fragments.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void warp_prims(const int *in, int *out)
{
    int t = threadIdx.x;
    int v = in[t];
    unsigned full = 0xffffffffu;
    int a = __shfl_sync(full, v, 0);
    int b = __shfl_up_sync(full, v, 1);
    int c = __shfl_down_sync(full, v, 2, 16);
    int d = __shfl_xor_sync(full, v, 4);
    unsigned bal = __ballot_sync(full, v > 0);
    int all = __all_sync(full, v != 0), any = __any_sync(full, v == 3);
    unsigned m = __match_any_sync(full, v);
    int pred;
    unsigned ma = __match_all_sync(full, v & 7, &pred);
    unsigned r = __reduce_add_sync(full, (unsigned)v);
    int rmin = __reduce_min_sync(full, v);
    unsigned ror = __reduce_or_sync(full, (unsigned)v);
    unsigned act = __activemask();
    __syncwarp(act);
    out[t] = a + b + c + d + (int)__popc(bal) + all + any + (int)m + pred + (int)ma + (int)r + rmin + (int)ror
             + __clz(v) + __ffs(v) + (int)__brev((unsigned)v) + (int)__byte_perm(v, a, 0x5140)
             + (int)__funnelshift_l((unsigned)v, (unsigned)a, 5);
}

__global__ void wmma_16x16x16(const half *A, const half *B, const float *C, float *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(fa, A, 16);
    wmma::load_matrix_sync(fb, B, 16);
    wmma::load_matrix_sync(acc, C, 16, wmma::mem_row_major);
    wmma::mma_sync(acc, fa, fb, acc);
    for (int i = 0; i < acc.num_elements; ++i)
        acc.x[i] = acc.x[i] * 0.5f;
    wmma::store_matrix_sync(D, acc, 16, wmma::mem_col_major);
}

__global__ void wmma_int8(const signed char *A, const signed char *B, int *D)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    wmma::load_matrix_sync(fa, A, 16);
    wmma::load_matrix_sync(fb, B, 16);
    wmma::mma_sync(acc, fa, fb, acc, true);
    wmma::store_matrix_sync(D, acc, 16, wmma::mem_row_major);
}

// Raw mma.sync with ldmatrix (sm_80+), via inline asm.
__global__ void mma_sync_asm(const unsigned *a, const unsigned *b, float *d)
{
    __shared__ alignas(16) unsigned short sm[16 * 16];
    int t = threadIdx.x;
    for (int i = t; i < 256; i += 32) sm[i] = (unsigned short)a[i];
    __syncwarp();
    unsigned r0, r1, r2, r3;
    unsigned saddr = (unsigned)__cvta_generic_to_shared(&sm[(t % 16) * 16 + (t / 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(saddr));
    float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(b[t]), "r"(b[t + 32]));
    d[t * 4 + 0] = c0; d[t * 4 + 1] = c1; d[t * 4 + 2] = c2; d[t * 4 + 3] = c3;
}
