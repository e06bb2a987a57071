/* buf.c - growable output buffer. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx.h"

void ptx_buf_reserve(ptx_buf *b, size_t extra)
{
    if (b->cap - b->n >= extra)
        return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->n < extra)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        fputs("fatal: out of memory\n", stderr);
        exit(1);
    }
    b->p = p;
    b->cap = cap;
}

void ptx_buf_put_slow(ptx_buf *b, const char *s, size_t n)
{
    if (!n)
        return; /* b->p and s may be NULL: memcpy(NULL, NULL, 0) is UB */
    ptx_buf_reserve(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

/* The out-of-line API functions (ptx.h defines same-named inline macros
   for everyone else). */
#undef ptx_buf_put
#undef ptx_buf_putc
#undef ptx_buf_puts

void ptx_buf_put(ptx_buf *b, const char *s, size_t n)
{
    ptx_buf_put_slow(b, s, n);
}

void ptx_buf_puts(ptx_buf *b, const char *s)
{
    ptx_buf_put_inline(b, s, strlen(s));
}

void ptx_buf_putc(ptx_buf *b, char c)
{
    ptx_buf_put_slow(b, &c, 1);
}

/* Formats straight into the buffer; only text longer than the room left
   (at least 256 bytes) is formatted a second time. */
void ptx_buf_printf(ptx_buf *b, const char *fmt, ...)
{
    va_list ap;
    ptx_buf_reserve(b, 256);
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= b->cap - b->n) {
        ptx_buf_reserve(b, (size_t)n + 1);
        va_start(ap, fmt);
        vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->n += (size_t)n;
}

void ptx_buf_free(ptx_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}
