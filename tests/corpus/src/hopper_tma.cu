// Hopper (sm_90a): mbarrier, TMA (cp.async.bulk.tensor), fences via cuda::ptx; wgmma via inline asm.
// corpus-archs: sm_90a sm_100a
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;

__global__ void tma_load_2d(const __grid_constant__ CUtensorMap tmap, float *out, int x0, int y0)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(128) float tile[32 * 32];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, blockDim.x);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    uint64_t state;
    if (threadIdx.x == 0) {
        const int32_t coords[2] = { x0, y0 };
        ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tmap, coords, &bar);
        state = ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                               (uint32_t)sizeof(tile));
    } else {
        state = ptx::mbarrier_arrive(&bar);
    }
    out[1024 + threadIdx.x] = (float)(state & 1);
    while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) {
    }
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
        out[i] = tile[i] * 2.0f;
    __syncthreads();
    // Store back through the async proxy.
    if (threadIdx.x == 0) {
        ptx::fence_proxy_async(ptx::space_shared);
        const int32_t coords[2] = { x0, y0 };
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tmap, coords, tile);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
    }
#endif
}

__global__ void bulk_copy(const int4 *src, int4 *dst)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ alignas(16) int4 buf[256];
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_proxy_async(ptx::space_shared);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, src, (uint32_t)sizeof(buf), &bar);
        (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar,
                                             (uint32_t)sizeof(buf));
    }
    __syncthreads();
    while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u)) {
    }
    dst[threadIdx.x] = buf[threadIdx.x];
#endif
}

// wgmma m64n8k16 f32 += f16*f16 with both operands from shared-memory descriptors.
__global__ void wgmma_tile(const uint64_t *descs, float *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    uint64_t da = descs[0], db = descs[1];
    int scale_d = descs[2] != 0;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "setp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n"
                 "}\n"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "l"(da), "l"(db), "r"(scale_d));
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(0) : "memory");
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    unsigned elected;
    asm volatile("{\n\t.reg .pred e;\n\telect.sync _|e, 0xffffffff;\n\tselp.u32 %0, 1, 0, e;\n\t}" : "=r"(elected));
    out[threadIdx.x * 4 + 0] = d0 + elected;
    out[threadIdx.x * 4 + 1] = d1;
    out[threadIdx.x * 4 + 2] = d2;
    out[threadIdx.x * 4 + 3] = d3;
#endif
}
