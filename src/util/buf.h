/* buf.h - the library's own writes to a ptx_buf: inline, and unwinding
   (util/alloc.h) where memory runs out.
 *
 * The printers append a few bytes at a time, millions of times: where the
 * buffer has room, put and putc are a copy and an add.  Inside the library
 * (and its programs) ptx_buf_put, _putc, _puts and _printf name these
 * versions; the public functions of the same names (ptx.h) return -1
 * instead of unwinding, for callers outside every ptx_protect.
 */
#ifndef PTX_UTIL_BUF_H
#define PTX_UTIL_BUF_H

#include "ptx/ptx.h"

/* Room for at least `extra` more bytes at b->p + b->n (for writers that
   fill it themselves and then add to b->n: ptx_buf_room). */
void ptx_buf_reserve(ptx_buf *b, size_t extra);
/* The growing path of put and putc. */
void ptx_buf_put_slow(ptx_buf *b, const char *s, size_t n);
void ptx_buf_xprintf(ptx_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void ptx_buf_put_inline(ptx_buf *b, const char *s, size_t n)
{
    if (n && b->cap - b->n >= n) {
        __builtin_memcpy(b->p + b->n, s, n);
        b->n += n;
    } else {
        ptx_buf_put_slow(b, s, n);
    }
}

static inline void ptx_buf_putc_inline(ptx_buf *b, char c)
{
    if (b->n < b->cap)
        b->p[b->n++] = c;
    else
        ptx_buf_put_slow(b, &c, 1);
}

/* (a literal's length is then a constant) */
static inline void ptx_buf_puts_inline(ptx_buf *b, const char *s)
{
    ptx_buf_put_inline(b, s, __builtin_strlen(s));
}

/* Where the next n bytes go: a printer writes them through the pointer
   and then sets b->n past what it wrote. */
static inline char *ptx_buf_room(ptx_buf *b, size_t n)
{
    if (b->cap - b->n < n)
        ptx_buf_reserve(b, n);
    return b->p + b->n;
}

#define ptx_buf_put(b, s, n) ptx_buf_put_inline((b), (s), (n))
#define ptx_buf_putc(b, c) ptx_buf_putc_inline((b), (c))
#define ptx_buf_puts(b, s) ptx_buf_puts_inline((b), (s))
#define ptx_buf_printf(...) ptx_buf_xprintf(__VA_ARGS__)

#endif
