// Cooperative groups: grid group, thread block tiles, tile reductions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ float block_sum(cg::thread_block block, float v, float *scratch)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float w = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0)
        scratch[warp.meta_group_rank()] = w;
    block.sync();
    float r = 0.0f;
    if (warp.meta_group_rank() == 0) {
        r = (warp.thread_rank() < warp.meta_group_size()) ? scratch[warp.thread_rank()] : 0.0f;
        r = cg::reduce(warp, r, cg::plus<float>());
    }
    return r;
}

// Two-phase reduction using grid.sync() (requires cooperative launch).
__global__ void grid_reduce(const float *in, float *partial, float *out, int n)
{
    __shared__ float scratch[32];
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    float acc = 0.0f;
    for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
        acc += in[i];
    float s = block_sum(block, acc, scratch);
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = s;
    grid.sync();
    if (grid.thread_rank() == 0) {
        float t = 0.0f;
        for (unsigned b = 0; b < gridDim.x; ++b)
            t += partial[b];
        *out = t;
    }
}

// Small tiles, shuffles inside tiles, coalesced groups, and integer max reduce.
__global__ void tile_ops(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(block);
    cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
    int v = in[block.thread_rank()];
    int m = cg::reduce(quad, v, cg::greater<int>());
    int up = half.shfl_down(v, 1);
    int any = half.any(v > 100);
    unsigned ballot = half.ballot(v & 1);
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        int x = cg::reduce(active, v, cg::bit_xor<int>());
        out[1024 + block.thread_rank()] = x + (int)active.size();
    }
    out[block.thread_rank()] = m + up + any + (int)__popc(ballot);
}
