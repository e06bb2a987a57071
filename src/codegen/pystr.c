/*
 * pystr.c - Python string literals (DESIGN.md 9): double quotes, C-style
 * escapes, UTF-8 copied through, invalid bytes as \udcNN (the generated
 * file writes with surrogateescape, so they come back byte for byte).
 */
#include <stdint.h>
#include <string.h>
#include "codegen/pystr.h"

static const char hex[] = "0123456789abcdef";

/* Length of a valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t len;
    unsigned c = p[0];
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if (len == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0)))
        return 0;
    if (len == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90)))
        return 0;
    return len;
}

/* Whether any byte of v needs an escape: below 0x20, 0x7f and above,
   '\\' or '"'.  (x - 0x01..) & ~x & 0x80.. is nonzero where a byte of x
   is zero; the high bits of v are the bytes >= 0x80.) */
static inline int needs_escape8(uint64_t v)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t lt20 = (v - ones * 0x20) & ~v;
    uint64_t bs = v ^ (ones * '\\'), dq = v ^ (ones * '"'), del = v ^ (ones * 0x7f);
    uint64_t z = ((bs - ones) & ~bs) | ((dq - ones) & ~dq) | ((del - ones) & ~del);
    return ((lt20 | z | v) & high) != 0;
}


void py_escape(ptx_buf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        /* most text needs no escape: skip it eight bytes at a time (a
           false alarm only falls through to the byte test) */
        while (i + 8 <= n) {
            uint64_t v;
            memcpy(&v, p + i, 8);
            if (needs_escape8(v))
                break;
            i += 8;
        }
        if (i >= n)
            break;
        unsigned c = p[i];
        if (py_plain(c))
            continue;
        if (i > run)
            ptx_buf_put(out, s + run, i - run);
        run = i + 1;
        char e[8];
        size_t en = 2;
        e[0] = '\\';
        switch (c) {
        case '\\': e[1] = '\\'; break;
        case '"': e[1] = '"'; break;
        case '\n': e[1] = 'n'; break;
        case '\t': e[1] = 't'; break;
        case '\r': e[1] = 'r'; break;
        default:
            if (c >= 0x80) {
                size_t l = utf8_len(p + i, n - i);
                if (l) {
                    ptx_buf_put(out, s + i, l);
                    i += l - 1;
                    run = i + 1;
                    continue;
                }
                memcpy(e + 1, "udc", 3);
                e[4] = hex[c >> 4];
                e[5] = hex[c & 15];
                en = 6;
            } else {
                e[1] = 'x';
                e[2] = hex[c >> 4];
                e[3] = hex[c & 15];
                en = 4;
            }
        }
        ptx_buf_put(out, e, en);
    }
    if (n > run)
        ptx_buf_put(out, s + run, n - run);
}

void py_str(ptx_buf *out, const char *s, size_t n)
{
    ptx_buf_putc(out, '"');
    py_escape(out, s, n);
    ptx_buf_putc(out, '"');
}
