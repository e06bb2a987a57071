// Recursive __device__ functions (need a call stack: .local depot, call.uni).
__device__ __noinline__ unsigned long long fib(int n)
{
    if (n < 2) return (unsigned long long)n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ int ackermann(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

struct Node { int value; int left, right; };

__device__ __noinline__ int tree_sum(const Node *nodes, int idx, int depth)
{
    if (idx < 0 || depth > 32) return 0;
    int buf[4];                     // forces a local stack frame
    buf[depth & 3] = nodes[idx].value;
    return buf[depth & 3] + tree_sum(nodes, nodes[idx].left, depth + 1)
                          + tree_sum(nodes, nodes[idx].right, depth + 1);
}

__global__ void recurse(const Node *nodes, unsigned long long *f, int *a, int *s)
{
    int t = threadIdx.x;
    f[t] = fib(t & 15);
    a[t] = ackermann(2, t & 3);
    s[t] = tree_sum(nodes, 0, 0);
}
