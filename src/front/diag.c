/* diag.c - offsets become line, column, source line and caret only here,
   when an error is reported, so the lexer never counts lines. */
#include <string.h>
#include "ptx/ptx.h"

void ptx_diag_at(const ptx_module *m, size_t offset, const char *msg,
                 ptx_diag *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->file, sizeof d->file, "%s", m->filename);
    snprintf(d->msg, sizeof d->msg, "%s", msg);
    if (offset > m->size)
        offset = m->size;
    d->offset = offset;
    const char *s = m->src, *line = s;
    uint32_t lineno = 1;
    for (const char *p = s; p < s + offset; p++)
        if (*p == '\n') {
            lineno++;
            line = p + 1;
        }
    d->line = lineno;
    d->col = (uint32_t)(s + offset - line) + 1;
    /* The line shown ends at the first CR or LF after the offset, not after
       the line start: a lone CR before the offset (it is whitespace, not a
       line break) made end < from below, and the size_t length wrapped
       into a read past the buffer. */
    const char *end = s + offset;
    while (end < s + m->size && *end != '\n' && *end != '\r')
        end++;
    /* show a window of the line that contains the caret */
    size_t width = sizeof d->line_text - 1;
    const char *from = line;
    if ((size_t)(s + offset - line) >= width - 20)
        from = s + offset - (width - 40);
    size_t n = (size_t)(end - from);
    if (n > width)
        n = width;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)from[i];
        /* keep the terminal safe from control bytes and binary garbage */
        d->line_text[i] = (c == '\t' || (c >= 0x20 && c < 0x7f)) ? (char)c : '?';
    }
    d->line_text[n] = 0;
    d->caret = (uint32_t)(s + offset - from);
}

void ptx_diag_print(FILE *f, const ptx_diag *d)
{
    if (d->line == 0) {   /* no place in a source; or none at all */
        fprintf(f, "%s%serror: %s\n", d->file, d->file[0] ? ": " : "", d->msg);
        return;
    }
    fprintf(f, "%s:%u:%u: error: %s\n", d->file, d->line, d->col, d->msg);
    fprintf(f, "%s\n", d->line_text);
    for (uint32_t i = 0; i < d->caret && d->line_text[i]; i++)
        fputc(d->line_text[i] == '\t' ? '\t' : ' ', f);
    fputs("^\n", f);
}
