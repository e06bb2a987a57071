/*
 * jit/jit.c - PTX -> cubin through the CUDA driver's JIT, with the driver
 * loaded at run time (see include/ptx/jit.h).
 *
 * cuda.h (from the toolkit, at build time) gives the types, constants and
 * prototypes; libcuda.so.1 is dlopen'ed, so nothing links against it.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "ptx/jit.h"
#include "util/alloc.h"
#include "util/diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmake/deps.cmake defines PTX_HAVE_CUDA_H to 1 or 0; a direct compile
   finds out for itself. */
#ifndef PTX_HAVE_CUDA_H
#ifdef __has_include
#if __has_include(<cuda.h>)
#define PTX_HAVE_CUDA_H 1
#endif
#endif
#endif
#ifndef PTX_HAVE_CUDA_H
#define PTX_HAVE_CUDA_H 0
#endif

/* CUjit_target encoding (cuda.h): sm_90a = 0x10000 + 90, sm_100f =
   0x20000 + 100. */
#define PTX_TARGET_ACCEL_BASE 0x10000
#define PTX_TARGET_FAMILY_BASE 0x20000

int ptx_jit_parse_arch(const char *arch)
{
    if (!arch)
        return -1;
    const char *p;
    if (!strncmp(arch, "sm_", 3))
        p = arch + 3;
    else if (!strncmp(arch, "compute_", 8))
        p = arch + 8;
    else
        return -1;
    int v = 0, nd = 0;
    while (*p >= '0' && *p <= '9' && nd < 4) {
        v = v * 10 + (*p++ - '0');
        nd++;
    }
    if (nd < 2 || v < 10)
        return -1;
    if (*p == 'a' && !p[1])
        return PTX_TARGET_ACCEL_BASE + v;
    if (*p == 'f' && !p[1])
        return PTX_TARGET_FAMILY_BASE + v;
    return *p ? -1 : v;
}

static void put(char *dst, size_t n, const char *fmt, ...)
{
    if (!dst || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, n, fmt, ap);
    va_end(ap);
}

#if !PTX_HAVE_CUDA_H
/* Built without the toolkit's cuda.h: the JIT is never available. */
struct ptx_jit {
    int unused;
};

ptx_jit *ptx_jit_open(ptx_diag *diag)
{
    size_t errlen;
    char *err = ptx_diag_msgbuf(diag, &errlen);
    put(err, errlen, "no CUDA driver: built without CUDA's cuda.h");
    return NULL;
}

void ptx_jit_info(const ptx_jit *j, int *driver_version, int *cc_major,
                  int *cc_minor, char *name, size_t namelen)
{
    (void)j;
    if (driver_version)
        *driver_version = 0;
    if (cc_major)
        *cc_major = 0;
    if (cc_minor)
        *cc_minor = 0;
    put(name, namelen, "%s", "");
}

int ptx_jit_compile(ptx_jit *j, const char *ptx, size_t n, const char *arch,
                    void **cubin, size_t *ncubin, char *log, size_t loglen)
{
    (void)j, (void)ptx, (void)n, (void)arch;
    if (cubin)
        *cubin = NULL;
    if (ncubin)
        *ncubin = 0;
    put(log, loglen, "ptx_jit_compile: built without CUDA's cuda.h\n");
    return -1;
}

void ptx_jit_close(ptx_jit *j)
{
    (void)j;
}

#else /* PTX_HAVE_CUDA_H */

#include <cuda.h>
#include <dlfcn.h>

_Static_assert(CU_COMPUTE_ACCELERATED_TARGET_BASE == PTX_TARGET_ACCEL_BASE &&
                   CU_COMPUTE_FAMILY_TARGET_BASE == PTX_TARGET_FAMILY_BASE,
               "CUjit_target encoding changed");

/* cuda.h maps many API names to versioned symbols by macros
   (cuLinkCreate -> cuLinkCreate_v2, ...).  STR(x) expands x first, so the
   string is the symbol that a program linked against libcuda would use,
   and __typeof__(x) is that symbol's prototype. */
#define STR_(x) #x
#define STR(x) STR_(x)

#define PTX_CU_FUNCS(X)                                                       \
    X(cuInit)                                                                 \
    X(cuDriverGetVersion)                                                     \
    X(cuGetErrorString)                                                       \
    X(cuGetErrorName)                                                         \
    X(cuDeviceGetCount)                                                       \
    X(cuDeviceGet)                                                            \
    X(cuDeviceGetName)                                                        \
    X(cuDeviceGetAttribute)                                                   \
    X(cuDevicePrimaryCtxRetain)                                               \
    X(cuDevicePrimaryCtxRelease)                                              \
    X(cuCtxSetCurrent)                                                        \
    X(cuLinkCreate)                                                           \
    X(cuLinkAddData)                                                          \
    X(cuLinkComplete)                                                         \
    X(cuLinkDestroy)

struct ptx_jit {
    void *lib;
    CUdevice dev;
    CUcontext ctx;
    int have_ctx;
    int driver_version;
    int cc_major, cc_minor;
    char name[256];
#define X(f) __typeof__(f) *p_##f;
    PTX_CU_FUNCS(X)
#undef X
};

/* "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" */
static void cu_err(const ptx_jit *j, CUresult r, char *dst, size_t n)
{
    const char *nm = NULL, *s = NULL;
    if (j->p_cuGetErrorName && j->p_cuGetErrorName(r, &nm) != CUDA_SUCCESS)
        nm = NULL;
    if (j->p_cuGetErrorString && j->p_cuGetErrorString(r, &s) != CUDA_SUCCESS)
        s = NULL;
    if (nm && s)
        put(dst, n, "%s (%s)", nm, s);
    else
        put(dst, n, "CUDA error %d", (int)r);
}

/* dlopens the driver and finds every entry point: 0, or -1 with err set
   (j->lib closed again). */
static int load_driver(ptx_jit *j, const char *path, char *err, size_t errlen)
{
    dlerror();
    j->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!j->lib) {
        const char *d = dlerror();
        put(err, errlen, "no CUDA driver: %s not found (%s)", path,
            d ? d : "dlopen failed");
        return -1;
    }
#define X(f)                                                                  \
    {                                                                         \
        void *sym = dlsym(j->lib, STR(f));                                    \
        if (!sym) {                                                           \
            put(err, errlen, "no CUDA driver: %s lacks %s (driver too old?)", \
                path, STR(f));                                                \
            dlclose(j->lib);                                                  \
            return -1;                                                        \
        }                                                                     \
        memcpy(&j->p_##f, &sym, sizeof sym);                                  \
    }
    PTX_CU_FUNCS(X)
#undef X
    return 0;
}

/* Initializes the driver and makes device 0's primary context current:
   CUDA_SUCCESS, or the error and in *what the call that failed. */
static CUresult init_device(ptx_jit *j, const char **what)
{
    CUresult r = j->p_cuInit(0);
    *what = "cuInit";
    if (r == CUDA_SUCCESS) {
        *what = "cuDriverGetVersion";
        r = j->p_cuDriverGetVersion(&j->driver_version);
    }
    if (r == CUDA_SUCCESS) {
        int count = 0;
        *what = "cuDeviceGetCount";
        r = j->p_cuDeviceGetCount(&count);
        if (r == CUDA_SUCCESS && count < 1)
            r = CUDA_ERROR_NO_DEVICE;
    }
    if (r == CUDA_SUCCESS) {
        *what = "cuDeviceGet";
        r = j->p_cuDeviceGet(&j->dev, 0);
    }
    if (r == CUDA_SUCCESS) {
        *what = "cuDeviceGetAttribute";
        r = j->p_cuDeviceGetAttribute(
            &j->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, j->dev);
        if (r == CUDA_SUCCESS)
            r = j->p_cuDeviceGetAttribute(
                &j->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                j->dev);
    }
    if (r == CUDA_SUCCESS) {
        *what = "cuDeviceGetName";
        r = j->p_cuDeviceGetName(j->name, (int)sizeof j->name - 1, j->dev);
    }
    if (r == CUDA_SUCCESS) {
        *what = "cuDevicePrimaryCtxRetain";
        r = j->p_cuDevicePrimaryCtxRetain(&j->ctx, j->dev);
        j->have_ctx = r == CUDA_SUCCESS;
    }
    if (r == CUDA_SUCCESS) {
        *what = "cuCtxSetCurrent";
        r = j->p_cuCtxSetCurrent(j->ctx);
    }
    return r;
}

ptx_jit *ptx_jit_open(ptx_diag *diag)
{
    size_t errlen;
    char *err = ptx_diag_msgbuf(diag, &errlen);
    put(err, errlen, "%s", "");
    const char *path = getenv("PTX_LIBCUDA");
    if (!path || !*path)
        path = "libcuda.so.1";
    ptx_jit *j = ptx_calloc(1, sizeof *j);
    if (!j) {
        put(err, errlen, PTX_OUT_OF_MEMORY);
        return NULL;
    }
    if (load_driver(j, path, err, errlen) != 0) {
        free(j);
        return NULL;
    }
    const char *what;
    CUresult r = init_device(j, &what);
    if (r != CUDA_SUCCESS) {
        char m[256];
        cu_err(j, r, m, sizeof m);
        put(err, errlen, "no CUDA device: %s: %s", what, m);
        ptx_jit_close(j);
        return NULL;
    }
    return j;
}

void ptx_jit_info(const ptx_jit *j, int *driver_version, int *cc_major,
                  int *cc_minor, char *name, size_t namelen)
{
    if (driver_version)
        *driver_version = j ? j->driver_version : 0;
    if (cc_major)
        *cc_major = j ? j->cc_major : 0;
    if (cc_minor)
        *cc_minor = j ? j->cc_minor : 0;
    put(name, namelen, "%s", j ? j->name : "");
}

void ptx_jit_close(ptx_jit *j)
{
    if (!j)
        return;
    if (j->have_ctx && j->p_cuDevicePrimaryCtxRelease)
        j->p_cuDevicePrimaryCtxRelease(j->dev);
    /* libcuda is not meant to be unloaded while the process lives on
       (it keeps threads and atexit handlers); leave it mapped. */
    free(j);
}

/* Append s to log (keeping it NUL-terminated). */
static void log_add(char *log, size_t loglen, const char *s)
{
    if (!log || !loglen || !s || !*s)
        return;
    size_t used = strnlen(log, loglen - 1);
    size_t k = strlen(s);
    if (k > loglen - 1 - used)
        k = loglen - 1 - used;
    memcpy(log + used, s, k);
    log[used + k] = '\0';
}

#define JIT_LOG_SIZE (1u << 16)

/* The JIT's options: its two logs, verbose, and the target if any. */
static unsigned jit_options(CUjit_option *opt, void **val, char *elog,
                            char *ilog, int target)
{
    unsigned no = 0;
    opt[no] = CU_JIT_ERROR_LOG_BUFFER;
    val[no++] = elog;
    opt[no] = CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES;
    val[no++] = (void *)(uintptr_t)(JIT_LOG_SIZE - 1);
    opt[no] = CU_JIT_INFO_LOG_BUFFER;
    val[no++] = ilog;
    opt[no] = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES;
    val[no++] = (void *)(uintptr_t)(JIT_LOG_SIZE - 1);
    opt[no] = CU_JIT_LOG_VERBOSE;
    val[no++] = (void *)(uintptr_t)1;
    if (target >= 0) {
        opt[no] = CU_JIT_TARGET;
        val[no++] = (void *)(uintptr_t)(unsigned)target;
    }
    return no;
}

/* Links text[0..n] (NUL included) into a cubin, a malloc'ed copy in
   *cubin: 0; 1 if the JIT rejects the input; -1 if the driver or memory
   fails.  *what is the call that failed (NULL: out of memory), *r its
   result, *st the link state to destroy. */
static int link_ptx(ptx_jit *j, char *text, size_t n, CUjit_option *opt,
                    void **val, unsigned no, void **cubin, size_t *ncubin,
                    const char **what, CUresult *r, CUlinkState *st)
{
    int rc = -1;
    *what = "cuCtxSetCurrent";
    *r = j->p_cuCtxSetCurrent(j->ctx);
    if (*r == CUDA_SUCCESS) {
        *what = "cuLinkCreate";
        *r = j->p_cuLinkCreate(no, opt, val, st);
    }
    if (*r == CUDA_SUCCESS) {
        rc = 1; /* from here on, a failure is the JIT rejecting the input */
        *what = "cuLinkAddData";
        *r = j->p_cuLinkAddData(*st, CU_JIT_INPUT_PTX, text, n + 1, "input.ptx",
                                0, NULL, NULL);
    }
    void *out = NULL;
    size_t nout = 0;
    if (*r == CUDA_SUCCESS) {
        *what = "cuLinkComplete";
        *r = j->p_cuLinkComplete(*st, &out, &nout);
    }
    if (*r != CUDA_SUCCESS)
        return rc;
    void *copy = ptx_malloc(nout ? nout : 1);
    if (!copy) {
        *what = NULL;
        return -1;
    }
    memcpy(copy, out, nout);
    *cubin = copy;
    *ncubin = nout;
    return 0;
}

/* The JIT's error and info logs into log, each ending in a newline, then
   for a failure the call and the driver's error. */
static void report(const ptx_jit *j, char *log, size_t loglen, char *elog,
                   char *ilog, int rc, const char *what, CUresult r)
{
    elog[JIT_LOG_SIZE - 1] = ilog[JIT_LOG_SIZE - 1] = '\0';
    log_add(log, loglen, elog);
    if (elog[0] && elog[strlen(elog) - 1] != '\n')
        log_add(log, loglen, "\n");
    log_add(log, loglen, ilog);
    if (ilog[0] && ilog[strlen(ilog) - 1] != '\n')
        log_add(log, loglen, "\n");
    if (rc != 0) {
        char m[300], line[400];
        if (what) {
            cu_err(j, r, m, sizeof m);
            snprintf(line, sizeof line, "%s: %s\n", what, m);
        } else {
            snprintf(line, sizeof line, "ptx_jit_compile: out of memory\n");
        }
        log_add(log, loglen, line);
    }
}

int ptx_jit_compile(ptx_jit *j, const char *ptx, size_t n, const char *arch,
                    void **cubin, size_t *ncubin, char *log, size_t loglen)
{
    if (log && loglen)
        log[0] = '\0';
    if (cubin)
        *cubin = NULL;
    if (ncubin)
        *ncubin = 0;
    if (!j || !ptx || !cubin || !ncubin) {
        log_add(log, loglen, "ptx_jit_compile: bad arguments\n");
        return -1;
    }
    int target = arch ? ptx_jit_parse_arch(arch) : -1;
    if (arch && target < 0) {
        log_add(log, loglen, "ptx_jit_compile: unknown target '");
        log_add(log, loglen, arch);
        log_add(log, loglen, "' (want e.g. sm_90a)\n");
        return -1;
    }
    char *text = ptx_malloc(n + 1);
    char *elog = ptx_calloc(1, JIT_LOG_SIZE), *ilog = ptx_calloc(1, JIT_LOG_SIZE);
    if (!text || !elog || !ilog) {
        free(text);
        free(elog);
        free(ilog);
        log_add(log, loglen, "ptx_jit_compile: out of memory\n");
        return -1;
    }
    memcpy(text, ptx, n);
    text[n] = '\0';
    CUjit_option opt[8];
    void *val[8];
    unsigned no = jit_options(opt, val, elog, ilog, target);
    const char *what;
    CUresult r;
    CUlinkState st = NULL;
    int rc = link_ptx(j, text, n, opt, val, no, cubin, ncubin, &what, &r, &st);
    report(j, log, loglen, elog, ilog, rc, what, r);
    if (st)
        j->p_cuLinkDestroy(st);
    free(text);
    free(elog);
    free(ilog);
    return rc;
}

#endif /* PTX_HAVE_CUDA_H */
