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

/* What the escaper does with each byte: copy it (0), write it as one of
   \\ \" \n \t \r (the letter), or look closer (1: UTF-8 or \x / \udc). */
static const unsigned char byte_class[256] = {
    [0x00 ... 0x08] = 1, ['\t'] = 't', ['\n'] = 'n', [0x0b ... 0x0c] = 1,
    ['\r'] = 'r', [0x0e ... 0x1f] = 1, ['"'] = '"', ['\\'] = '\\',
    [0x7f ... 0xff] = 1,
};

/* A byte that is not plain and has no letter escape: a UTF-8 sequence
   copied through, or \xNN / \udcNN.  Returns the bytes consumed. */
static size_t escape_other(ptx_buf *out, const unsigned char *p, size_t left)
{
    unsigned c = p[0];
    char e[8];
    if (c >= 0x80) {
        size_t l = utf8_len(p, left);
        if (l) {
            ptx_buf_put(out, (const char *)p, l);
            return l;
        }
        memcpy(e, "\\udc", 4);
        e[4] = hex[c >> 4];
        e[5] = hex[c & 15];
        ptx_buf_put(out, e, 6);
    } else {
        memcpy(e, "\\x", 2);
        e[2] = hex[c >> 4];
        e[3] = hex[c & 15];
        ptx_buf_put(out, e, 4);
    }
    return 1;
}

/* Index of the first byte of p[i..n) that is not plain (byte_class is not
   0), or n.  Most text needs no escape: sixteen bytes are tested at once,
   with the same classes as byte_class (a signed byte below 0x20 is a
   control byte or one of 0x80 and above). */
static size_t plain_end(const unsigned char *p, size_t i, size_t n)
{
    typedef signed char v16 __attribute__((vector_size(16)));
    for (; i + 16 <= n; i += 16) {
        v16 v, m;
        uint64_t w[2];
        memcpy(&v, p + i, 16);
        m = (v < 0x20) | (v == 0x7f) | (v == '"') | (v == '\\');
        memcpy(w, &m, 16);
        if (!(w[0] | w[1]))
            continue;
        uint64_t x = w[0] ? w[0] : w[1];
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        size_t at = (size_t)__builtin_ctzll(x) / 8;
#else
        size_t at = (size_t)__builtin_clzll(x) / 8;
#endif
        return i + at + (w[0] ? 0 : 8);
    }
    while (i < n && byte_class[p[i]] == 0)
        i++;
    return i;
}

/* s[0..n) escaped; with `lines`, every '\n' but a last one also ends the
   literal and opens the next: `\n"` lines `"`. */
static void escape(ptx_buf *out, const char *s, size_t n, const char *lines)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, run = 0, nlines = lines ? strlen(lines) : 0;
    for (;;) {
        i = plain_end(p, i, n);
        if (i >= n)
            break;
        if (i > run)
            ptx_buf_put(out, s + run, i - run);
        unsigned char letter = byte_class[p[i]];
        if (letter > 1) {
            char e[2] = { '\\', (char)letter };
            ptx_buf_put(out, e, 2);
            if (p[i] == '\n' && lines && i + 1 < n) {
                ptx_buf_putc(out, '"');
                ptx_buf_put(out, lines, nlines);
                ptx_buf_putc(out, '"');
            }
            i++;
        } else {
            i += escape_other(out, p + i, n - i);
        }
        run = i;
    }
    if (n > run)
        ptx_buf_put(out, s + run, n - run);
}

void py_escape(ptx_buf *out, const char *s, size_t n)
{
    escape(out, s, n, NULL);
}

void py_escape_cstr(ptx_buf *out, const char *s)
{
    /* names rarely need an escape: find the end and check in one scan
       (NUL is not plain) */
    const unsigned char *e = (const unsigned char *)s;
    while (byte_class[*e] == 0)
        e++;
    if (*e)
        escape(out, s, strlen(s), NULL);
    else
        ptx_buf_put(out, s, (size_t)((const char *)e - s));
}

void py_lines(ptx_buf *out, const char *s, size_t n, const char *between)
{
    ptx_buf_putc(out, '"');
    escape(out, s, n, between);
    ptx_buf_putc(out, '"');
}

void py_str(ptx_buf *out, const char *s, size_t n)
{
    ptx_buf_putc(out, '"');
    py_escape(out, s, n);
    ptx_buf_putc(out, '"');
}

void py_str_cstr(ptx_buf *out, const char *s)
{
    ptx_buf_putc(out, '"');
    py_escape_cstr(out, s);
    ptx_buf_putc(out, '"');
}
