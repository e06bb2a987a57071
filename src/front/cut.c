/*
 * cut.c - where a module's text may be cut: between top-level items, and
 * for a piece parsed on its own (front/piece.h) also after a statement
 * of a function's body or a value of a module variable's list.
 *
 * Between items: right after a '}' that stands at the start of a line, or
 * a ';' that ends one, and is followed, after blank space and // comments,
 * by a directive that starts an item: the end of a function or section,
 * or of a declaration (a module variable's data, which can make most of a
 * library module), in the output of every compiler.  The scan knows
 * nothing of comments and strings, so a cut may fall inside one; whoever
 * cuts must check that the pieces lex as the whole does (parse_jobs.c:
 * the tokens meet; emit/pieces.c: every piece lexes, so none ends inside
 * a comment or string).  A cut in a list of values is made only where
 * the line before it holds no comment or string.
 */
#define _GNU_SOURCE   /* memrchr */
#include <string.h>
#include "ptx/ptx.h"
#include "front/piece.h"

/* The directives that start a top-level item and never stand in a
   function's body, with their lengths.  Every one begins with '.', which
   item_start looks at first: the scan asks after every line that ends
   with ';', every instruction of a function. */
#define ITEM(s) { s, sizeof s - 1 }
static const struct { const char *name; size_t n; } item_starts[] = {
    ITEM(".visible"), ITEM(".entry"), ITEM(".func"), ITEM(".weak"), ITEM(".extern"),
    ITEM(".section"), ITEM(".file"), ITEM(".global"), ITEM(".common"), ITEM(".alias"),
    ITEM(".version"), ITEM(".target"), ITEM(".address_size"),
};
#undef ITEM

static int item_start(const char *p, size_t left)
{
    if (*p != '.')
        return 0;
    for (size_t i = 0; i < sizeof item_starts / sizeof *item_starts; i++) {
        size_t n = item_starts[i].n;
        if (n < left && !memcmp(p, item_starts[i].name, n) &&
            (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == '\r'))
            return 1;
    }
    return 0;
}

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* After blank space and // comments from j, a directive that starts an
   item. */
static int item_follows(const char *src, size_t size, size_t j)
{
    for (;;) {
        while (j < size && blank(src[j]))
            j++;
        if (j + 1 >= size || src[j] != '/' || src[j + 1] != '/')
            break;
        const char *nl = memchr(src + j, '\n', size - j);
        j = nl ? (size_t)(nl - src) : size;
    }
    return j < size && item_start(src + j, size - j);
}

/* Whether the line [b, e) holds a token that runs to the line's end,
   blank space included (lexer.re: `#...` and `@@DWARF...`).  Where "#"
   or "@@" is inside a string or comment instead, the line only loses a
   cut. */
static int line_token_to_end(const char *src, size_t b, size_t e)
{
    return memchr(src + b, '#', e - b) || memmem(src + b, e - b, "@@", 2);
}

/* Where the line [b, e) may end an item: after a '}' that begins it, or
   after a ';' that ends it (blank space aside); 0 where it may not.  A
   cut before blank space after the ';' would end a token that runs to
   the line's end early, and the pieces would not lex as the whole does:
   such a line is looked at only where it has that space, which few do. */
static size_t item_end(const char *src, size_t b, size_t e)
{
    if (src[b] == '}' && (b == 0 || src[b - 1] == '\n'))
        return b + 1;
    size_t end = e;
    while (e > b && (src[e - 1] == ' ' || src[e - 1] == '\t' || src[e - 1] == '\r'))
        e--;
    if (e == b || src[e - 1] != ';')
        return 0;
    return e == end || !line_token_to_end(src, b, e) ? e : 0;
}

/* The end of the line that starts at b. */
static size_t line_end(const char *src, size_t size, size_t b)
{
    const char *nl = memchr(src + b, '\n', size - b);
    return nl ? (size_t)(nl - src) : size;
}

size_t ptx_cut_after(const char *src, size_t size, size_t at)
{
    for (size_t b = at; b < size;) {
        size_t e = line_end(src, size, b);
        size_t cut = item_end(src, b, e);
        if (cut >= at && cut && item_follows(src, size, cut))
            return cut;
        b = e + 1;
    }
    return size;
}

size_t ptx_cut_after_brace(const char *src, size_t size, size_t at)
{
    for (const char *p = src + at, *e = src + size; p < e &&
         (p = memchr(p, '}', (size_t)(e - p))); p++) {
        size_t cut = (size_t)(p - src) + 1;
        if ((p == src || p[-1] == '\n') && item_follows(src, size, cut))
            return cut;
    }
    return size;
}

/* What the line [b, e) does to the brace depth, a // comment aside. */
static int line_braces(const char *src, size_t b, size_t e)
{
    int d = 0;
    for (size_t i = b; i < e; i++) {
        if (src[i] == '{')
            d++;
        else if (src[i] == '}')
            d--;
        else if (src[i] == '/' && i + 1 < e && src[i + 1] == '/')
            break;
    }
    return d;
}

/* Whether the lines from b close a block before they open one: b is then
   inside a block within a body (asm's `{ ... }`, a call's), where a piece
   must not end.  Compilers keep such blocks short; LOOK lines tell. */
enum { LOOK = 32 };
static int closes_ahead(const char *src, size_t size, size_t b)
{
    int d = 0;
    for (int n = 0; n < LOOK && b < size; n++) {
        size_t e = line_end(src, size, b);
        d += line_braces(src, b, e);
        if (d)
            return d < 0;
        b = e + 1;
    }
    return 0;
}

/* Whether the line [b, e), blank space aside, is one of a function's
   header that its body's '{' follows: its parameter list's ')' or a
   directive without ';' (.maxntid 128), .loc lines aside; -1 where it is
   blank. */
static int header_line(const char *src, size_t b, size_t e)
{
    while (b < e && blank(src[b]))
        b++;
    while (e > b && blank(src[e - 1]))
        e--;
    if (e == b)
        return -1;
    if (src[e - 1] == ')')
        return 1;
    return src[b] == '.' && src[e - 1] != ';' &&
           !(e - b > 4 && !memcmp(src + b, ".loc", 4) && blank(src[b + 4]));
}

/* The bytes a flat list of values has not between its '{' and a cut. */
static const char off_list[] = "{}/\"\n;";

/* The offset after the last byte of [from, at) that a list has not, or
   `from`: memrchr for each, each over what is left after the one before
   (a byte at a time, the scans of a table's pieces cost a tenth of its
   parse). */
static size_t after_off_list(const char *src, size_t from, size_t at)
{
    for (const char *c = off_list; *c; c++) {
        const char *p = memrchr(src + from, *c, at - from);
        if (p)
            from = (size_t)(p - src) + 1;
    }
    return from;
}

/* Whether the line before a list's '{' at `lb` declares a variable: from
   the line's start (found within LINE bytes), a directive, no comment or
   string, and the '=' before the '{'. */
enum { LINE = 4096 };
static int var_head(const char *src, size_t lb)
{
    size_t q = lb;
    while (q > 0 && (src[q - 1] == ' ' || src[q - 1] == '\t'))
        q--;
    if (q == 0 || src[q - 1] != '=')
        return 0;
    size_t b = q, stop = q > LINE ? q - LINE : 0;
    while (b > stop && src[b - 1] != '\n')
        b--;
    if (b > 0 && src[b - 1] != '\n')
        return 0;
    while (b < q && (src[b] == ' ' || src[b] == '\t'))
        b++;
    return src[b] == '.' && !memchr(src + b, '/', q - b) && !memchr(src + b, '"', q - b);
}

/* Where `at` falls in a module variable's flat list of values (cuRAND's
   tables run to 460 KB on one line), the place after the list's first
   ',' at or after `at`; else 0.  Back from `at` the scan meets the list's
   '{' after a variable's head, or the start of the piece, `from`, right
   after a ',' (where a cut like this one began it): it reads no further
   back than that, so the scans of a line's pieces read it once. */
static size_t list_cut(const char *src, size_t size, size_t from, size_t at)
{
    size_t i = after_off_list(src, from, at);
    if (i > from ? src[i - 1] != '{' || !var_head(src, i - 1)
                 : i == 0 || src[i - 1] != ',')
        return 0;
    for (i = at; i < size && !strchr(off_list, src[i]); i++)
        if (src[i] == ',')
            return i + 1;
    return 0;
}

/* The depth of blocks is followed from `at`, taken to be a body's level
   (0): a line that starts an item goes back to the items' (-1), and a '{'
   alone after a function's header is its body's (0); a '}' that closes a
   block opened before `at` is taken to leave a block within a body.  A cut
   is made at a body's level where no block closes ahead.  A guess, which
   the grammar checks (front/piece.h). */
size_t ptx_cut_stmt_after(const char *src, size_t size, size_t from, size_t at)
{
    size_t list = at < size ? list_cut(src, size, from, at) : 0;
    if (list)
        return list;
    int depth = 0, header = 0;
    for (size_t b = at; b < size;) {
        size_t e = line_end(src, size, b);
        size_t cut = item_end(src, b, e);
        if (cut >= at && cut && item_follows(src, size, cut))
            return cut;
        int d = line_braces(src, b, e);
        if (item_start(src + b, size - b) || (header && d == 1 && e - b <= 2))
            depth = d - 1;
        else if (depth >= 0 && depth + d < 0)
            depth = 0;
        else
            depth += d;
        if (cut >= at && cut && !depth && !closes_ahead(src, size, e + 1))
            return cut;
        int h = header_line(src, b, e);
        if (h >= 0)  /* blank lines keep what the line before said */
            header = h;
        b = e + 1;
    }
    return size;
}
