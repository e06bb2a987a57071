/* json.c - JSON string escaping. */
#include <string.h>
#include "util/buf.h"
#include "util/json.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3
             : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (!k || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return k;
}

void json_string_n(ptx_buf *b, const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    ptx_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            ptx_buf_putc(b, '\\');
            ptx_buf_putc(b, (char)c);
        } else if (c == '\n') {
            ptx_buf_puts(b, "\\n");
        } else if (c == '\t') {
            ptx_buf_puts(b, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            ptx_buf_printf(b, "\\u%04x", c);
        } else if (c >= 0x80) {
            size_t k = utf8_len(s + i, n - i);
            if (k) {
                ptx_buf_put(b, (const char *)s + i, k);
                i += k - 1;
            } else {
                ptx_buf_puts(b, "\\ufffd");
            }
        } else {
            ptx_buf_putc(b, (char)c);
        }
    }
    ptx_buf_putc(b, '"');
}

void json_string(ptx_buf *b, const char *s)
{
    json_string_n(b, s, strlen(s));
}
