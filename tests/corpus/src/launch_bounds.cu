// Performance attributes: __launch_bounds__ (maxntid, minnctapersm, maxclusterrank),
// __maxnreg__, __cluster_dims__ (reqnctapercluster / explicitcluster), cluster DSMEM.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __launch_bounds__(256, 2) bounded(const float *in, float *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = in[t] * 3.0f;
}

__global__ void __launch_bounds__(1024) bounded_max_only(int *p) { p[threadIdx.x] += 1; }

__global__ void __maxnreg__(40) reg_limited(const double *in, double *out)
{
    int t = threadIdx.x;
    out[t] = in[t] * in[t + 1] + in[t + 2];
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define CLUSTER2 __cluster_dims__(2, 1, 1)
#define CLUSTER122 __cluster_dims__(1, 2, 2)
#define LB3 __launch_bounds__(128, 1, 4)
#else
#define CLUSTER2
#define CLUSTER122
#define LB3 __launch_bounds__(128, 1)
#endif

__global__ void CLUSTER2 __launch_bounds__(128) cluster_kernel(int *out)
{
    __shared__ int smem[128];
    smem[threadIdx.x] = threadIdx.x + blockIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    cluster.sync();
    unsigned other = cluster.block_rank() ^ 1;
    int *remote = cluster.map_shared_rank(smem, other);
    int v = remote[threadIdx.x];
    cluster.sync();
    out[blockIdx.x * 128 + threadIdx.x] = v + (int)cluster.num_blocks();
#else
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = smem[127 - threadIdx.x];
#endif
}

__global__ void LB3 cluster_rank_bounded(float *out) { out[threadIdx.x] = 1.0f; }

__global__ void CLUSTER122 cluster_3d(float *out)
{
    out[threadIdx.x] = 2.0f;
}
