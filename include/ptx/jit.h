/*
 * ptx/jit.h - compile PTX to a cubin with the CUDA driver's JIT
 * (Driver API cuLinkCreate / cuLinkAddData(CU_JIT_INPUT_PTX) /
 * cuLinkComplete).
 *
 *     ptx_diag err;
 *     char log[8192];
 *     ptx_jit *j = ptx_jit_open(&err);
 *     if (!j) { ptx_diag_print(stderr, &err); return 77; }   // skip: no GPU
 *     void *cubin; size_t n;
 *     int r = ptx_jit_compile(j, text, len, NULL, &cubin, &n, log, sizeof log);
 *     ...  free(cubin);
 *     ptx_jit_close(j);
 *
 * The driver is opened at run time with dlopen("libcuda.so.1") (or the path
 * in the environment variable PTX_LIBCUDA, which tests use to simulate a
 * machine without a driver); nothing links against libcuda or the CUDA
 * runtime, so every program builds and runs on machines without a GPU.  The
 * entry points are looked up by the exact (versioned) names that the
 * toolkit's cuda.h maps them to, e.g. cuLinkCreate -> "cuLinkCreate_v2".
 * Device 0's primary context is used (cuDevicePrimaryCtxRetain), so no
 * versioned cuCtxCreate is needed.  Not thread-safe: use one ptx_jit per
 * thread, or lock.

 */
#ifndef PTX_JIT_H
#define PTX_JIT_H

#include <stddef.h>
#include "ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ptx_jit ptx_jit;

/* Load the driver, initialise it and make device 0's primary context
   current.  On failure returns NULL and puts a one-line message in *err
   (line 0; err may be NULL),
   beginning with
       "no CUDA driver: "   libcuda.so.1 could not be loaded, or lacks an
                            entry point we need
       "no CUDA device: "   cuInit / cuDeviceGet / context creation failed
                            (e.g. CUDA_ERROR_NO_DEVICE)
   Both mean "skip" to a test. */
ptx_jit *ptx_jit_open(ptx_diag *err);

/* What was opened: the driver version as cuDriverGetVersion reports it
   (e.g. 13000 for 13.0), device 0's compute capability and name.  Any
   pointer may be NULL. */
void ptx_jit_info(const ptx_jit *j, int *driver_version, int *cc_major,
                  int *cc_minor, char *name, size_t namelen);

/* Compile n bytes of PTX text (need not be NUL-terminated).  `arch` is NULL
   (the target is the current device, CU_JIT_TARGET_FROM_CUCONTEXT) or a
   target name "sm_90", "sm_90a", "sm_100f", "compute_80", ... given to the
   JIT as CU_JIT_TARGET.  On success returns 0 and sets *cubin to a
   malloc'ed copy of the linked cubin (caller frees) and *ncubin to its
   size.  Returns 1 when the driver rejected the PTX, -1 on any other error
   (bad arch name, out of memory, the linker could not be created).  In all
   cases `log` (if non-NULL, loglen > 0) receives the NUL-terminated
   driver's error log, then its info log, then, on failure, a final line
   naming the failing call and CUDA error, e.g.
       "cuLinkAddData: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)" */
int ptx_jit_compile(ptx_jit *j, const char *ptx, size_t n, const char *arch,
                    void **cubin, size_t *ncubin, char *log, size_t loglen);

/* Parse a target name ("sm_90a" ...) into the CUjit_target value, or -1. */
int ptx_jit_parse_arch(const char *arch);

/* Release the context and unload the driver.  NULL is fine. */
void ptx_jit_close(ptx_jit *j);

#ifdef __cplusplus
}
#endif

#endif /* PTX_JIT_H */
