// Device function pointer tables (indirect calls -> .callprototype) and virtual functions.
typedef float (*binop_t)(float, float);

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_max(float a, float b) { return fmaxf(a, b); }
__device__ __noinline__ float op_sub(float a, float b) { return a - b; }

__device__ binop_t op_table[4] = { op_add, op_mul, op_max, op_sub };

typedef void (*vecop_t)(float4 *, const float4 *, int);
__device__ __noinline__ void v_scale(float4 *o, const float4 *i, int n) { for (int k = 0; k < n; ++k) { o[k].x = i[k].x * 2.f; } }
__device__ __noinline__ void v_copy(float4 *o, const float4 *i, int n) { for (int k = 0; k < n; ++k) o[k] = i[k]; }
__device__ vecop_t vec_ops[] = { v_scale, v_copy };

__global__ void apply_ops(const float *a, const float *b, float *out, const int *sel)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    binop_t f = op_table[sel[t] & 3];
    out[t] = f(a[t], b[t]);
}

__global__ void apply_vec(float4 *o, const float4 *i, int which, int n)
{
    vec_ops[which & 1](o, i, n);
}

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual ~Shape() {}
};
struct Square : Shape {
    float s;
    __device__ Square(float s_) : s(s_) {}
    __device__ float area() const override { return s * s; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
};

__global__ void virtual_calls(const float *in, float *out)
{
    int t = threadIdx.x;
    Square sq(in[t]);
    Circle ci(in[t] + 1.0f);
    const Shape *s = (t & 1) ? (const Shape *)&sq : (const Shape *)&ci;
    out[t] = s->area();
}
