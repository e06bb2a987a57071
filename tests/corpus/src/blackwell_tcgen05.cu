// Blackwell (sm_100a): tensor memory (tcgen05) alloc / mma / commit / ld / dealloc.
// corpus-archs: sm_100a
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

__global__ void tcgen05_gemm(const uint64_t *descs, uint32_t idesc, float *out)
{
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
    __shared__ uint32_t tmem_base;
    __shared__ uint64_t bar;
    const unsigned warp = threadIdx.x / 32;
    if (warp == 0) {
        ptx::tcgen05_alloc(ptx::cta_group_1, &tmem_base, 32u);
        ptx::tcgen05_relinquish_alloc_permit(ptx::cta_group_1);
    }
    if (threadIdx.x == 32) {
        ptx::mbarrier_init(&bar, 1);
    }
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    ptx::tcgen05_fence_after_thread_sync();
    const uint32_t tmem = tmem_base;
    if (threadIdx.x == 0) {
        ptx::tcgen05_mma(ptx::kind_f16, ptx::cta_group_1, tmem, descs[0], descs[1], idesc, false);
        ptx::tcgen05_mma(ptx::kind_tf32, ptx::cta_group_1, tmem, descs[2], descs[3], idesc, true);
        // Same thing written as inline asm with an explicit predicate scope.
        asm volatile("{\n\t.reg .pred acc;\n\tsetp.ne.b32 acc, %4, 0;\n\t"
                     "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, acc;\n\t}"
                     :: "r"(tmem), "l"(descs[0]), "l"(descs[1]), "r"(idesc), "r"(1));
        ptx::tcgen05_commit(ptx::cta_group_1, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) {
    }
    ptx::tcgen05_fence_after_thread_sync();
    uint32_t r[2];
    ptx::tcgen05_ld_32x32b(r, tmem + ((warp * 32u) << 16));
    ptx::tcgen05_wait_ld();
    out[threadIdx.x * 2 + 0] = __uint_as_float(r[0]);
    out[threadIdx.x * 2 + 1] = __uint_as_float(r[1]);
    uint32_t s[2] = { r[1], r[0] };
    ptx::tcgen05_st_32x32b(tmem + ((warp * 32u) << 16), s);
    ptx::tcgen05_wait_st();
    ptx::tcgen05_fence_before_thread_sync();
    __syncthreads();
    if (warp == 0)
        ptx::tcgen05_dealloc(ptx::cta_group_1, tmem, 32u);
#endif
}
