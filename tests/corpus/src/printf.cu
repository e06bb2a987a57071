// printf -> extern vprintf with a local argument buffer.
#include <cstdio>
__global__ void hello(const int *data, double scale)
{
    int t = threadIdx.x;
    printf("hello from block %d thread %d\n", blockIdx.x, t);
    if (t == 0)
        printf("data[0]=%d scale=%f ptr=%p str=%s char=%c\n", data[0], scale, data, "tab\there", 'x');
    printf("%lld %llu %x %e %g %%\n", (long long)t - 5, 123456789012ull, 0xdeadbeefu, scale * t, 1.0f / (t + 1));
}
