// CUB block/warp collectives (header-only, from the CUDA toolkit).
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>

template <int BLOCK>
__global__ void block_reduce_kernel(const int *in, int *out)
{
    using BR = cub::BlockReduce<int, BLOCK>;
    __shared__ typename BR::TempStorage tmp;
    int v = in[blockIdx.x * BLOCK + threadIdx.x];
    int s = BR(tmp).Sum(v);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}
template __global__ void block_reduce_kernel<128>(const int *, int *);

__global__ void block_scan_kernel(const float *in, float *out)
{
    using BS = cub::BlockScan<float, 128, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename BS::TempStorage tmp;
    float items[2];
    items[0] = in[2 * (blockIdx.x * 128 + threadIdx.x)];
    items[1] = in[2 * (blockIdx.x * 128 + threadIdx.x) + 1];
    BS(tmp).ExclusiveSum(items, items);
    out[2 * (blockIdx.x * 128 + threadIdx.x)] = items[0];
    out[2 * (blockIdx.x * 128 + threadIdx.x) + 1] = items[1];
}

__global__ void warp_reduce_kernel(const double *in, double *out)
{
    using WR = cub::WarpReduce<double>;
    __shared__ typename WR::TempStorage tmp[4];
    int warp = threadIdx.x / 32;
    double v = in[blockIdx.x * 128 + threadIdx.x];
    double m = WR(tmp[warp]).Reduce(v, cuda::maximum<>{});
    if (threadIdx.x % 32 == 0)
        out[blockIdx.x * 4 + warp] = m;
}
