/*
 * ptx/jitverify.h - does a rewritten PTX text JIT to the same machine code?
 *
 * Compiles the original text and each rewritten text with the CUDA driver
 * (ptx/jit.h) and compares the cubins' code-bearing sections (ptx/cubin.h).
 */
#ifndef PTX_JITVERIFY_H
#define PTX_JITVERIFY_H

#include "ptx/jit.h"
#include "ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptx_jit_verdict {
    PTX_JIT_IDENTICAL, /* every text gives the original's code sections */
    PTX_JIT_DIFFERENT, /* some text gives other code, or is rejected alone */
    PTX_JIT_REJECTED,  /* the driver rejects the original and every text,
                          with the same error */
    PTX_JIT_ERROR      /* the driver could not be asked (not the PTX's fault) */
} ptx_jit_verdict;

typedef struct ptx_jit_text {
    const char *label; /* "re-emitted", "canonical", "codegen", ... */
    const char *p;
    size_t n;
} ptx_jit_text;

/* `arch` as for ptx_jit_compile (NULL: the device's own target).
   `names_may_differ`: kernels are paired by order and symbol names ignored
   (for texts whose labels, parameters or kernels were renamed).  Appends a
   human-readable account of anything but IDENTICAL to `report` (including
   the driver's error log for rejected texts), each line prefixed by `name`. */
ptx_jit_verdict ptx_jit_verify(ptx_jit *j, const char *arch, const char *name,
                               const char *orig, size_t norig,
                               const ptx_jit_text *texts, int ntexts,
                               int names_may_differ, ptx_buf *report);

#ifdef __cplusplus
}
#endif
#endif
