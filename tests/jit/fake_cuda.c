/*
 * fake_cuda.c - a stand-in for libcuda.so.1, loaded through PTX_LIBCUDA, so
 * that the JIT plumbing (src/jit, tools/jit_check) is tested on machines
 * without a GPU.  It exports the same versioned symbols as the real driver
 * (cuda.h's macros rename the definitions below, e.g. cuLinkCreate ->
 * cuLinkCreate_v2).
 *
 * Behaviour:
 *   FAKE_CUDA_MODE=nodevice   cuInit fails with CUDA_ERROR_NO_DEVICE.
 *   PTX containing FAKE_REJECT is rejected (CUDA_ERROR_INVALID_PTX) with a
 *   line in the error log.
 *   PTX containing "// FAKE_CUBIN: <path>" "compiles" to that file's bytes;
 *   any other PTX "compiles" to "FAKE" + its own bytes.
 *   The info log says which target was asked for.
 */
#include <cuda.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAKE_API __attribute__((visibility("default")))

struct CUctx_st {
    int dummy;
};
static struct CUctx_st the_ctx;

struct CUlinkState_st {
    char *elog, *ilog;
    size_t nelog, nilog;
    int target; /* -1: from context */
    unsigned char *out;
    size_t nout;
};

FAKE_API CUresult cuInit(unsigned int flags)
{
    const char *m = getenv("FAKE_CUDA_MODE");
    (void)flags;
    return m && !strcmp(m, "nodevice") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

FAKE_API CUresult cuDriverGetVersion(int *v)
{
    *v = 13000;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuGetErrorString(CUresult e, const char **s)
{
    *s = e == CUDA_ERROR_NO_DEVICE      ? "no CUDA-capable device is detected"
         : e == CUDA_ERROR_INVALID_PTX  ? "a PTX JIT compilation failed"
         : e == CUDA_SUCCESS            ? "no error"
                                        : "fake error";
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuGetErrorName(CUresult e, const char **s)
{
    *s = e == CUDA_ERROR_NO_DEVICE      ? "CUDA_ERROR_NO_DEVICE"
         : e == CUDA_ERROR_INVALID_PTX  ? "CUDA_ERROR_INVALID_PTX"
         : e == CUDA_SUCCESS            ? "CUDA_SUCCESS"
                                        : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceGetCount(int *n)
{
    *n = 1;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    if (ordinal != 0)
        return CUDA_ERROR_INVALID_DEVICE;
    *d = 0;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    snprintf(name, (size_t)len, "Fake GPU");
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a,
                                       CUdevice d)
{
    (void)d;
    if (a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
        *v = 9;
    else if (a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
        *v = 0;
    else
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    (void)d;
    *c = &the_ctx;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease(CUdevice d)
{
    (void)d;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuCtxSetCurrent(CUcontext c)
{
    return c == &the_ctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

FAKE_API CUresult cuLinkCreate(unsigned int n, CUjit_option *opt, void **val,
                               CUlinkState *out)
{
    struct CUlinkState_st *s = calloc(1, sizeof *s);
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    s->target = -1;
    for (unsigned i = 0; i < n; i++) {
        uintptr_t v = (uintptr_t)val[i];
        switch (opt[i]) {
        case CU_JIT_ERROR_LOG_BUFFER: s->elog = val[i]; break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: s->nelog = v; break;
        case CU_JIT_INFO_LOG_BUFFER: s->ilog = val[i]; break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES: s->nilog = v; break;
        case CU_JIT_TARGET: s->target = (int)v; break;
        default: break;
        }
    }
    *out = s;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuLinkAddData(CUlinkState s, CUjitInputType type, void *data,
                                size_t size, const char *name, unsigned int n,
                                CUjit_option *opt, void **val)
{
    (void)name, (void)n, (void)opt, (void)val;
    if (type != CU_JIT_INPUT_PTX || !size || ((char *)data)[size - 1] != '\0')
        return CUDA_ERROR_INVALID_VALUE;
    const char *text = data;
    if (s->ilog && s->nilog)
        snprintf(s->ilog, s->nilog, "fake JIT: target %d", s->target);
    if (strstr(text, "FAKE_REJECT")) {
        if (s->elog && s->nelog)
            snprintf(s->elog, s->nelog,
                     "ptxas application ptx input, line 1; error   : fake "
                     "rejection");
        return CUDA_ERROR_INVALID_PTX;
    }
    const char *m = strstr(text, "// FAKE_CUBIN: ");
    if (m) {
        char path[4096];
        size_t k = 0;
        for (m += 15; *m && *m != '\n' && *m != '\r' && k + 1 < sizeof path;)
            path[k++] = *m++;
        path[k] = '\0';
        FILE *f = fopen(path, "rb");
        if (!f)
            return CUDA_ERROR_FILE_NOT_FOUND;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fseek(f, 0, SEEK_SET);
        s->out = malloc(len > 0 ? (size_t)len : 1);
        s->nout = s->out ? fread(s->out, 1, (size_t)(len > 0 ? len : 0), f) : 0;
        fclose(f);
        return s->out ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
    }
    s->out = malloc(size + 4);
    if (!s->out)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memcpy(s->out, "FAKE", 4);
    memcpy(s->out + 4, data, size);
    s->nout = size + 4;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuLinkComplete(CUlinkState s, void **cubin, size_t *n)
{
    if (!s->out)
        return CUDA_ERROR_INVALID_VALUE;
    *cubin = s->out;
    *n = s->nout;
    return CUDA_SUCCESS;
}

FAKE_API CUresult cuLinkDestroy(CUlinkState s)
{
    free(s->out);
    free(s);
    return CUDA_SUCCESS;
}
