/* parse.c - read input, run the parser, turn failures into diagnostics. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "front/parser_state.h"
#include "front/piece.h"
#include "util/alloc.h"
#include "util/diag.h"
#include "util/threads.h"

#define TOO_BIG "input of 2 GiB or more is not supported"

void ptx_module_free(ptx_module *m)
{
    if (!m)
        return;
    ptx_arena_free(m->arena);
    free(m->toks);
    free((char *)m->src);
    free((char *)m->filename);
    free(m);
}

/* How parse_owned parses: where the text starts (a module, or a piece of
   one: ptx_parse_piece), with opcodes split into their parts or not
   (whole_opcodes), with fused tokens (yylex.h) or without (unfused: only
   ptx_parse_unfused), on up to `jobs` threads in pieces of at least
   min_piece bytes; *split (if non-NULL) says whether two pieces or more
   were parsed on their own. */
typedef struct parse_how {
    ptx_start start;
    int whole_opcodes, unfused;
    unsigned jobs;
    size_t min_piece;
    int *split;
} parse_how;

/* Parses m->src, on this thread, into m's tokens and tree; fuse: whether
   yylex may give fused tokens.  0, or -1 where the text does not parse (P
   says why), or -2 where memory ran out. */
static int parse_serial(ptx_module *m, const parse_how *h, int fuse, ptx_parser *P)
{
    ptx_start start = h->start;
    *P = (ptx_parser){
        .m = m, .start = start, .whole_opcodes = h->whole_opcodes, .fuse = fuse,
        .depth = start >= PTX_START_BODY, /* the body's or initializer's '{' */
        .init_base = start == PTX_START_INIT ? 0 : PTX_NO_INIT,
        .lex_in_table = start == PTX_START_INIT,
        .lx = { (const unsigned char *)m->src, (const unsigned char *)m->src,
                (const unsigned char *)m->src + m->size, NULL },
        /* a token per ~4 bytes is typical of PTX; grow_tokens doubles if not */
        .cap = (uint32_t)(m->size / 4 + 64),
    };
    free(m->toks);
    m->toks = P->toks = ptx_malloc((size_t)P->cap * sizeof *m->toks);
    if (!m->toks)
        return -2;
    return ptx_yyparse(P) != 0 || P->err ? -1 : 0;
}

/* parse_owned's work, under ptx_protect: m is freed by its caller if
   memory runs out, so everything allocated hangs from m. */
typedef struct parse_call {
    ptx_module *m;
    const parse_how *h;
    int r;              /* parse_serial's, or 0 where pieces did it */
    ptx_parser P;
} parse_call;

static void parse_module(void *ud)
{
    parse_call *c = ud;
    ptx_module *m = c->m;
    const parse_how *h = c->h;
    m->arena = ptx_arena_new();
    unsigned pieces = h->jobs > 1 && h->start == PTX_START_MODULE
                      ? ptx_parse_pieces(m, h->jobs, h->min_piece) : 0;
    if (h->split)
        *h->split = pieces >= 2;
    if (pieces)
        return;
    c->r = parse_serial(m, h, !h->unfused, &c->P);
    if (c->r == -1 && c->P.fused) {  /* the parse without fused tokens reports */
        ptx_arena_free(m->arena);
        m->arena = NULL;
        m->items = NULL;
        m->arena = ptx_arena_new();
        c->r = parse_serial(m, h, 0, &c->P);
    }
}

/* Takes ownership of buf (size bytes plus a NUL at buf[size]).  A piece
   is parsed serially. */
static ptx_module *parse_owned(const char *name, char *buf, size_t size,
                               const parse_how *h, ptx_diag *diag)
{
    ptx_module *m = ptx_calloc(1, sizeof *m);
    char *fname = ptx_strdup(name);
    if (!m || !fname) {
        free(m);
        free(fname);
        free(buf);
        ptx_diag_none(diag, name, PTX_OUT_OF_MEMORY);
        return NULL;
    }
    m->filename = fname;
    m->src = buf;
    m->size = size;
    parse_call c = { .m = m, .h = h };
    if (ptx_protect(parse_module, &c) != 0)
        c.r = -2;
    if (c.r == -2) {
        ptx_diag_none(diag, name, PTX_OUT_OF_MEMORY);
        ptx_module_free(m);
        return NULL;
    }
    if (c.r) {
        if (diag)
            ptx_diag_at(m, c.P.err_offset, c.P.err ? c.P.err : "syntax error", diag);
        ptx_module_free(m);
        return NULL;
    }
    return m;
}

/* The module's own copy of data, NUL-terminated (copied on up to `jobs`
   threads); NULL where it cannot be (diag says why). */
static char *copy_input(const char *name, const char *data, size_t size,
                        unsigned jobs, ptx_diag *diag)
{
    if (size > PTX_MAX_INPUT) {
        ptx_diag_none(diag, name, TOO_BIG);
        return NULL;
    }
    char *buf = ptx_malloc(size + 1);
    if (!buf) {
        ptx_diag_none(diag, name, PTX_OUT_OF_MEMORY);
        return NULL;
    }
    if (size) /* data may be NULL for an empty buffer */
        ptx_copy_threads(buf, data, size, jobs);
    buf[size] = 0;
    return buf;
}

_Static_assert(PTX_START_TOP == PTX_AT_ITEMS + 1 && PTX_START_BODY == PTX_AT_BODY + 1 &&
               PTX_START_INIT == PTX_AT_INIT + 1, "a piece's start is where it is, plus one");

/* Where a piece's items end: in a function's body with an open function
   or a body from its start that no '}' closes, in an initializer with a
   variable without ';' (open, or an initializer's rest still open); a
   piece without items (comments, blank space) ends where it starts. */
static ptx_piece_at piece_end(const ptx_stmt *s, ptx_piece_at at)
{
    if (!s)
        return at;
    while (s->next)
        s = s->next;
    switch (s->kind) {
    case PTX_S_FUNC:
        return s->u.func.body && s->u.func.body->rbrace == PTX_NOTOK ? PTX_AT_BODY
                                                                     : PTX_AT_ITEMS;
    case PTX_S_BLOCK:
        return s->u.block.rbrace == PTX_NOTOK ? PTX_AT_BODY : PTX_AT_ITEMS;
    case PTX_S_VAR:
        return s->u.var.semi == PTX_NOTOK ? PTX_AT_INIT : PTX_AT_ITEMS;
    default:
        return PTX_AT_ITEMS;
    }
}

ptx_module *ptx_parse_piece(const char *name, const char *data, size_t size,
                            ptx_piece_at at, int whole_opcodes, ptx_piece_at *end,
                            ptx_diag *diag)
{
    ptx_diag d;
    char *buf = copy_input(name, data, size, 1, &d);
    parse_how h = { .start = (ptx_start)(at + 1), .whole_opcodes = whole_opcodes, .jobs = 1 };
    ptx_module *m = buf ? parse_owned(name, buf, size, &h, &d) : NULL;
    if (!m && !strcmp(d.msg, PTX_OUT_OF_MEMORY))
        ptx_oom();
    if (!m && diag)
        *diag = d;
    *end = m ? piece_end(m->items, at) : at;
    return m;
}

ptx_module *ptx_parse_buffer(const char *name, const char *data, size_t size,
                             ptx_diag *diag)
{
    return ptx_parse_buffer_jobs(name, data, size, 1, diag);
}

ptx_module *ptx_parse_buffer_jobs(const char *name, const char *data, size_t size,
                                  unsigned jobs, ptx_diag *diag)
{
    return ptx_parse_split(name, data, size, jobs, PTX_MIN_PART, NULL, diag);
}

ptx_module *ptx_parse_split(const char *name, const char *data, size_t size,
                            unsigned jobs, size_t min_piece, int *split,
                            ptx_diag *diag)
{
    if (split)
        *split = 0;
    char *buf = copy_input(name, data, size, jobs, diag);
    parse_how h = { .jobs = jobs, .min_piece = min_piece, .split = split };
    return buf ? parse_owned(name, buf, size, &h, diag) : NULL;
}

ptx_module *ptx_parse_unfused(const char *name, const char *data, size_t size,
                              ptx_diag *diag)
{
    char *buf = copy_input(name, data, size, 1, diag);
    parse_how h = { .unfused = 1, .jobs = 1 };
    return buf ? parse_owned(name, buf, size, &h, diag) : NULL;
}

/* Reads all of f; refuses more than PTX_MAX_INPUT bytes without reading
   them all, so that a huge input fails early and within memory.  `hint`:
   the size fstat gave (0: unknown, a pipe): the buffer starts one byte
   larger, so that a file read whole takes one allocation and one read,
   and the second read sees the end. */
static char *read_all(FILE *f, size_t hint, size_t *size, const char **why)
{
    size_t cap = hint >= 1 << 16 ? hint + 1 : 1 << 16, n = 0;
    char *buf = ptx_malloc(cap + 1);
    if (!buf) {
        *why = PTX_OUT_OF_MEMORY;
        return NULL;
    }
    for (;;) {
        if (n == cap) {
            if (cap > PTX_MAX_INPUT) {
                free(buf);
                *why = TOO_BIG;
                return NULL;
            }
            cap *= 2;
            char *nb = ptx_realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                *why = PTX_OUT_OF_MEMORY;
                return NULL;
            }
            buf = nb;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        *why = strerror(errno);
        return NULL;
    }
    if (n > PTX_MAX_INPUT) {
        free(buf);
        *why = TOO_BIG;
        return NULL;
    }
    buf[n] = 0;
    *size = n;
    return buf;
}

/* A regular file of n bytes worth cutting for `jobs` threads, read on them
   (ptx_read_threads); NULL to read it with read_all, which pread has left
   at the start of f. */
static char *read_threads(FILE *f, size_t n, unsigned jobs)
{
    if (ptx_parts(n, jobs, PTX_MIN_PART) < 2)
        return NULL;
    char *buf = ptx_malloc(n + 1);
    if (buf && ptx_read_threads(fileno(f), buf, n, jobs)) {
        buf[n] = 0;
        return buf;
    }
    free(buf);
    return NULL;
}

ptx_module *ptx_parse_file(const char *path, ptx_diag *diag)
{
    return ptx_parse_file_jobs(path, 1, diag);
}

ptx_module *ptx_parse_file_jobs(const char *path, unsigned jobs, ptx_diag *diag)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        char msg[200];
        snprintf(msg, sizeof msg, "cannot open: %.150s", strerror(errno));
        ptx_diag_none(diag, path, msg);
        return NULL;
    }
    /* a regular file too big is refused before reading a byte of it */
    struct stat st;
    int regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (regular && (unsigned long long)st.st_size > PTX_MAX_INPUT) {
        char msg[200];
        snprintf(msg, sizeof msg, TOO_BIG " (%llu bytes; the limit is %zu)",
                 (unsigned long long)st.st_size, (size_t)PTX_MAX_INPUT);
        if (!is_stdin)
            fclose(f);
        ptx_diag_none(diag, is_stdin ? "<stdin>" : path, msg);
        return NULL;
    }
    const char *why = NULL;
    size_t size = 0;
    char *buf = regular ? read_threads(f, (size_t)st.st_size, jobs) : NULL;
    if (buf)
        size = (size_t)st.st_size;
    else
        buf = read_all(f, regular ? (size_t)st.st_size : 0, &size, &why);
    if (!is_stdin)
        fclose(f);
    if (!buf) {
        ptx_diag_none(diag, is_stdin ? "<stdin>" : path, why);
        return NULL;
    }
    parse_how h = { .jobs = jobs, .min_piece = PTX_MIN_PART };
    return parse_owned(is_stdin ? "<stdin>" : path, buf, size, &h, diag);
}
