// Bindless textures and surfaces.
__global__ void tex_sample(cudaTextureObject_t t1, cudaTextureObject_t t2,
                           cudaTextureObject_t t3, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
    float a = tex1D<float>(t1, u);
    float4 b = tex2D<float4>(t2, u, v);
    float c = tex1Dfetch<float>(t1, x);
    float d = tex2DLod<float>(t3, u, v, 1.5f);
    float e = tex3D<float>(t3, u, v, 0.25f);
    float4 g = tex2Dgather<float4>(t2, u, v, 1);
    out[y * w + x] = a + b.x + b.y + b.z + b.w + c + d + e + g.y;
}

__global__ void surf_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    uchar4 p = surf2Dread<uchar4>(src, x * 4, y, cudaBoundaryModeClamp);
    p.x = 255 - p.x;
    surf2Dwrite(p, dst, x * 4, y);
    float f = surf1Dread<float>(src, x * 4, cudaBoundaryModeZero);
    surf1Dwrite(f * 2.0f, dst, x * 4, cudaBoundaryModeTrap);
}
