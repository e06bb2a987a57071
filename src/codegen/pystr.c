/*
 * pystr.c - Python string literals (DESIGN.md 9): double quotes, C-style
 * escapes, UTF-8 copied through, invalid bytes as \udcNN (the generated
 * file writes with surrogateescape, so they come back byte for byte).
 */
#include <stdint.h>
#include <string.h>
#include "codegen/pystr.h"
#include "util/buf.h"

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

/* A byte that is not plain and has no letter escape, written at w: a
   UTF-8 sequence copied through, or \xNN / \udcNN.  Returns the bytes
   consumed (*w advanced past what was written). */
static size_t escape_other(char **w, const unsigned char *p, size_t left)
{
    unsigned c = p[0];
    char *e = *w;
    size_t used = 1;
    if (c >= 0x80 && (used = utf8_len(p, left))) {
        memcpy(e, p, used);
        e += used;
    } else if (c >= 0x80) {
        memcpy(e, "\\udc", 4);
        e[4] = hex[c >> 4];
        e[5] = hex[c & 15];
        e += 6;
        used = 1;
    } else {
        memcpy(e, "\\x", 2);
        e[2] = hex[c >> 4];
        e[3] = hex[c & 15];
        e += 4;
    }
    *w = e;
    return used;
}

/* Copies the plain bytes of p[i..end) to *w, sixteen at a time where
   there are sixteen, and returns the index of the first byte that is not
   plain (byte_class is not 0), or end.  The block holding that byte is
   copied whole; only its plain prefix counts (the room has 16 bytes of
   slack).  The vector test has byte_class's classes: a signed byte below
   0x20 is a control byte or one of 0x80 and above. */
static size_t copy_plain(char **w, const unsigned char *p, size_t i,
                         size_t end)
{
    typedef signed char v16 __attribute__((vector_size(16)));
    char *o = *w;
    for (; i + 16 <= end; i += 16, o += 16) {
        v16 v, m;
        uint64_t x[2];
        memcpy(&v, p + i, 16);
        memcpy(o, &v, 16);
        m = (v < 0x20) | (v == 0x7f) | (v == '"') | (v == '\\');
        memcpy(x, &m, 16);
        if (!(x[0] | x[1]))
            continue;
        uint64_t y = x[0] ? x[0] : x[1];
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        size_t at = (size_t)__builtin_ctzll(y) / 8 + (x[0] ? 0 : 8);
#else
        size_t at = (size_t)__builtin_clzll(y) / 8 + (x[0] ? 0 : 8);
#endif
        *w = o + at;
        return i + at;
    }
    while (i < end && byte_class[p[i]] == 0)
        *o++ = (char)p[i++];
    *w = o;
    return i;
}

/* Input bytes escaped per reservation of the output buffer. */
#define ESCAPE_CHUNK 4096

/* s[0..n) escaped; with `lines`, every '\n' but a last one also ends the
   literal and opens the next: `\n"` lines `"`.  Written in place: the
   room for a chunk is its worst case, every byte as \udcNN or a line. */
static void escape(ptx_buf *out, const char *s, size_t n, const char *lines)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t nl = lines ? strlen(lines) : 0, per = nl + 4 > 6 ? nl + 4 : 6;
    char sep[16];   /* "lines" between quotes, for one 16-byte copy */
    if (lines && nl + 2 <= sizeof sep) {
        sep[0] = '"';
        memcpy(sep + 1, lines, nl);
        sep[nl + 1] = '"';
    }
    for (size_t i = 0; i < n;) {
        size_t end = n - i < ESCAPE_CHUNK ? n : i + ESCAPE_CHUNK;
        char *w = ptx_buf_room(out, (end - i) * per + 16);
        while ((i = copy_plain(&w, p, i, end)) < end) {
            unsigned char letter = byte_class[p[i]];
            if (letter == 1) {
                i += escape_other(&w, p + i, n - i);
                continue;
            }
            *w++ = '\\';
            *w++ = (char)letter;
            if (p[i++] == '\n' && lines && i < n) {
                if (nl + 2 <= sizeof sep) {
                    memcpy(w, sep, sizeof sep);
                    w += nl + 2;
                } else {
                    *w++ = '"';
                    memcpy(w, lines, nl);
                    w += nl;
                    *w++ = '"';
                }
            }
        }
        out->n = (size_t)(w - out->p);
    }
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
