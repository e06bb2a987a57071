// Ampere asynchronous copies: cp.async via cuda::memcpy_async / pipeline primitives.
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void pipeline_prims(const float4 *in, float4 *out)
{
    __shared__ alignas(16) float4 stage[2][128];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&stage[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    __pipeline_memcpy_async(&stage[1][t], &in[128 + t], sizeof(float4), 8);
    __pipeline_commit();
    __pipeline_wait_prior(1);
    float4 a = stage[0][t];
    __pipeline_wait_prior(0);
    float4 b = stage[1][t];
    out[t] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__global__ void cg_memcpy_async(const int *in, int *out, int n)
{
    __shared__ int buf[256];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(int) * 256);
    cg::wait(block);
    out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x] + n;
}

__global__ void cuda_pipeline(const double *in, double *out)
{
    __shared__ alignas(8) double buf[2][64];
    auto pipe = cuda::make_pipeline();
    for (int s = 0; s < 2; ++s) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[s][threadIdx.x], &in[s * 64 + threadIdx.x], sizeof(double), pipe);
        pipe.producer_commit();
    }
    double acc = 0;
    for (int s = 0; s < 2; ++s) {
        pipe.consumer_wait();
        acc += buf[s][threadIdx.x];
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}
