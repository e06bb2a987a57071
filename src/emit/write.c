/* write.c - print a module straight to a FILE*. */
#include "ptx/ptx.h"

int ptx_write(const ptx_module *m, int canonical, FILE *f)
{
    ptx_buf b = { 0 };
    int ok = (canonical ? ptx_emit_canonical(m, &b) : ptx_emit_exact(m, &b)) == 0
             && fwrite(b.p, 1, b.n, f) == b.n;
    ptx_buf_free(&b);
    return ok ? 0 : -1;
}
