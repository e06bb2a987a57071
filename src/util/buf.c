/* buf.c - growable output buffer: the public functions, which report
   running out of memory, and util/buf.h's, which unwind. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx.h"
#include "util/alloc.h"

/* Room for `extra` more bytes: 0, or -1 (b unchanged) where there is no
   memory for it. */
static int grow(ptx_buf *b, size_t extra)
{
    if (b->cap - b->n >= extra)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->n < extra)
        cap *= 2;
    char *p = ptx_realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static int put(ptx_buf *b, const char *s, size_t n)
{
    if (!n)
        return 0; /* b->p and s may be NULL: memcpy(NULL, NULL, 0) is UB */
    if (grow(b, n))
        return -1;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

/* Formats straight into the buffer; only text longer than the room left
   (at least 256 bytes) is formatted a second time.  -1 only where memory
   ran out: a format vsnprintf cannot convert appends nothing, as before
   there was an out-of-memory result. */
static int vprint(ptx_buf *b, const char *fmt, va_list ap)
{
    if (grow(b, 256))
        return -1;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap), r = 0;
    if (n >= 0 && (size_t)n >= b->cap - b->n) {
        if (grow(b, (size_t)n + 1))
            r = -1;
        else
            vsnprintf(b->p + b->n, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    if (n >= 0 && r == 0)
        b->n += (size_t)n;
    return r;
}

int ptx_buf_put(ptx_buf *b, const char *s, size_t n)
{
    return put(b, s, n);
}

int ptx_buf_puts(ptx_buf *b, const char *s)
{
    return put(b, s, strlen(s));
}

int ptx_buf_putc(ptx_buf *b, char c)
{
    return put(b, &c, 1);
}

int ptx_buf_printf(ptx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vprint(b, fmt, ap);
    va_end(ap);
    return r;
}

void ptx_buf_free(ptx_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* util/buf.h's */

void ptx_buf_reserve(ptx_buf *b, size_t extra)
{
    if (grow(b, extra))
        ptx_oom();
}

void ptx_buf_put_slow(ptx_buf *b, const char *s, size_t n)
{
    if (put(b, s, n))
        ptx_oom();
}

void ptx_buf_xprintf(ptx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vprint(b, fmt, ap);
    va_end(ap);
    if (r)
        ptx_oom();
}
