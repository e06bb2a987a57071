/* diag.h - the error of an API function that has no place in a source
   (no tree to point into: an input that cannot be read, a compiler that
   cannot be run, an option that cannot be honoured): a ptx_diag with only
   its message, line 0, which ptx_diag_print prints as "error: message". */
#ifndef PTX_UTIL_DIAG_H
#define PTX_UTIL_DIAG_H

#include <stdio.h>
#include <string.h>
#include "ptx/ptx.h"

/* d emptied, and its message buffer and that buffer's size in *cap (NULL
   and 0 where d is NULL: the caller asked for no message). */
static inline char *ptx_diag_msgbuf(ptx_diag *d, size_t *cap)
{
    if (!d) {
        *cap = 0;
        return NULL;
    }
    memset(d, 0, sizeof *d);
    *cap = sizeof d->msg;
    return d->msg;
}

/* d (where given) says msg about `file` (NULL: none), line 0. */
static inline void ptx_diag_none(ptx_diag *d, const char *file, const char *msg)
{
    size_t n;
    char *m = ptx_diag_msgbuf(d, &n);
    if (!m)
        return;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    snprintf(m, n, "%s", msg);
}

#endif
