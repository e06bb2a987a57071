/*
 * cut.c - where a module's text may be cut between top-level items.
 *
 * Right after a '}' that stands at the start of a line and is followed,
 * after blank space and // comments, by a directive that starts an item:
 * the end of a function or section in the output of every compiler.  The
 * scan knows nothing of comments and strings, so a cut may fall inside
 * one; whoever cuts must check that the pieces lex as the whole does
 * (parse_jobs.c: the tokens meet; emit/pieces.c: every piece lexes, so none
 * ends inside a comment or string).
 */
#include <string.h>
#include "ptx/ptx.h"

/* The directives that start a top-level item and never stand in a
   function's body. */
static const char *const item_starts[] = {
    ".visible", ".entry", ".func", ".weak", ".extern", ".section", ".file",
    ".global", ".common", ".alias", ".version", ".target", ".address_size",
};

static int item_start(const char *p, size_t left)
{
    for (size_t i = 0; i < sizeof item_starts / sizeof *item_starts; i++) {
        size_t n = strlen(item_starts[i]);
        if (n < left && !memcmp(p, item_starts[i], n) &&
            (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == '\r'))
            return 1;
    }
    return 0;
}

size_t ptx_cut_after(const char *src, size_t size, size_t at)
{
    while (at < size) {
        const char *b = memchr(src + at, '}', size - at);
        if (!b)
            return size;
        size_t i = (size_t)(b - src);
        at = i + 1;
        if (i == 0 || src[i - 1] != '\n')
            continue;
        size_t j = at;
        for (;;) {
            while (j < size && strchr(" \t\r\n\f\v", src[j]) && src[j])
                j++;
            if (j + 1 >= size || src[j] != '/' || src[j + 1] != '/')
                break;
            const char *nl = memchr(src + j, '\n', size - j);
            j = nl ? (size_t)(nl - src) : size;
        }
        if (j < size && item_start(src + j, size - j))
            return at;
    }
    return size;
}
