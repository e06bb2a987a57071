/* write.c - print a module straight to a FILE*. */
#include "ptx/ptx.h"

int ptx_write(const ptx_module *m, int canonical, FILE *f)
{
    ptx_buf b = { 0 };
    if (canonical)
        ptx_emit_canonical(m, &b);
    else
        ptx_emit_exact(m, &b);
    int ok = fwrite(b.p, 1, b.n, f) == b.n;
    ptx_buf_free(&b);
    return ok ? 0 : -1;
}
