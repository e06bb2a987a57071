/*
 * jobs_check - what several threads make of a module must be what one
 * makes: the parse (the same tokens, the same tree, the same diagnostic),
 * the printed PTX and the generated Python.  So must the parse a token at
 * a time (ptx_parse_unfused) what the parse with fused tokens makes, on
 * one thread (src/front/yylex.h), and the tokens of the parse the tokens
 * that ptx_lex gives a token at a time.
 *
 *   jobs_check [--corrupt N] PATH...
 *
 * Every .ptx file under PATH is parsed serially and in pieces of at least
 * one byte (so that small files are cut too, at every function's end) with
 * 2, 3, 8 and 64 threads.  Where the serial parse succeeds, the pieces'
 * module must have the serial module's tokens, re-emit the input, and give
 * the same canonical text; both texts printed on as many threads
 * (ptx_emit_split, groups of items of at least one byte) must be the
 * one-thread printer's, and so must the Python that ptx_codegen writes on
 * as many threads, plain and with every sugar pass; where it fails, the same
 * diagnostic (message, line, column, source line).  pyptx-diff's report
 * (unified and JSON) on as many threads, cutting at every function, must be
 * one thread's: each file against the file before it, and each variant
 * below that parses against its original (on 2 threads), under one set of
 * flags per thread count (per variant, in turn).  And the round trip one
 * piece at a time (ptx_pieces_roundtrip, a piece at every function's end),
 * checks and printed texts, must give the whole module's texts, and pass
 * only where the whole module does; and so must the plain Python
 * translated a piece at a time (ptx_codegen_pieces), and with every sugar
 * pass where it goes through.  --corrupt N adds N
 * corrupted variants in all, spread over the files: truncated, a byte
 * deleted, or text inserted that a splitter could trip on (braces, a
 * comment or string opened, a directive), at seeded random offsets.
 * Prints one line: files, variants, how many parsed in pieces, errors, and
 * how many differ (each difference is named first).  Exit 0 when none
 * differ and some files were cut (a test that never cuts tests nothing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/internal.h"
#include "emit/emit.h"
#include "front/parser_state.h"
#include "ptx/codegen.h"
#include "cli/common/walk.h"
#include "util/buf.h"
#include "util/paths.h"

static const unsigned thread_counts[] = { 2, 3, 8, 64 };
/* the diff's flags with each thread count */
static const unsigned diff_flags[] = {
    0, PTX_DIFF_IGNORE_DEBUG, PTX_DIFF_IGNORE_LABELS | PTX_DIFF_IGNORE_REGS,
    PTX_DIFF_IGNORE_NAMES | PTX_DIFF_IGNORE_DEBUG
};

typedef struct tally {
    size_t inputs, cut, errors, differ;
    size_t pieces, whole;   /* files whose round trip passed in pieces, or
                               had to take the whole module */
    size_t translated;      /* files whose plain Python came in pieces */
    size_t sugared;         /* and their Python with every sugar pass */
} tally;

static int same_diag(const ptx_diag *a, const ptx_diag *b)
{
    return a->line == b->line && a->col == b->col && a->offset == b->offset &&
           !strcmp(a->file, b->file) && !strcmp(a->msg, b->msg) &&
           !strcmp(a->line_text, b->line_text) && a->caret == b->caret;
}

static int same_text(const ptx_module *a, const ptx_module *b,
                     int (*emit)(const ptx_module *, ptx_buf *))
{
    ptx_buf x = { 0 }, y = { 0 };
    emit(a, &x);
    emit(b, &y);
    int same = x.n == y.n && (!x.n || !memcmp(x.p, y.p, x.n));
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    return same;
}

/* a's text printed by one thread against b's printed in groups of items
   (of at least one byte of source) on `jobs` threads, both after some text
   already in the buffer. */
static int same_split(const ptx_module *a, const ptx_module *b, int canonical,
                      unsigned jobs)
{
    ptx_buf x = { 0 }, y = { 0 };
    for (int pre = 0; pre < 2; pre++) {
        x.n = y.n = 0;
        if (pre) {
            ptx_buf_puts(&x, "// before\n");
            ptx_buf_puts(&y, "// before\n");
        }
        (canonical ? ptx_emit_canonical : ptx_emit_exact)(a, &x);
        ptx_emit_split(b, canonical, jobs, 1, &y);
        if (x.n != y.n || (x.n && memcmp(x.p, y.p, x.n)))
            break;
        if (pre) {
            ptx_buf_free(&x);
            ptx_buf_free(&y);
            return 1;
        }
    }
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    return 0;
}

static void codegen(const ptx_module *m, uint32_t sugar, unsigned jobs, ptx_buf *out)
{
    ptx_codegen_options o = { .sugar = sugar, .jobs = jobs };
    ptx_diag d;
    if (ptx_codegen(m, &o, out, &d) != 0)
        ptx_buf_printf(out, "codegen error: %s\n", d.msg);
}

/* a's Python from one thread against b's from `jobs`. */
static int same_python(const ptx_module *a, const ptx_module *b, uint32_t sugar,
                       unsigned jobs)
{
    ptx_buf x = { 0 }, y = { 0 };
    codegen(a, sugar, 1, &x);
    codegen(b, sugar, jobs, &y);
    int same = x.n == y.n && (!x.n || !memcmp(x.p, y.p, x.n));
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    return same;
}

/* The unified and JSON reports of a against b on `jobs` threads, cut at
   every function. */
static void diff_report(const ptx_module *a, const ptx_module *b,
                        unsigned flags, unsigned jobs, ptx_buf *out)
{
    ptx_diff_options o = { .flags = flags, .context = 3, .jobs = jobs };
    char err[256];
    ptx_diff *d = pd_diff_split(a, b, &o, 1, err, sizeof err);
    if (!d) {
        ptx_buf_printf(out, "error: %s\n", err);
        return;
    }
    ptx_diff_print_unified(d, out);
    ptx_diff_print_json(d, out);
    ptx_buf_printf(out, "same %d\n", ptx_diff_same(d));
    ptx_diff_free(d);
}

static int same_diff(const ptx_module *base, const ptx_module *m,
                     unsigned flags, unsigned jobs)
{
    ptx_buf x = { 0 }, y = { 0 };
    diff_report(base, m, flags, 1, &x);
    diff_report(base, m, flags, jobs, &y);
    int same = x.n == y.n && (!x.n || !memcmp(x.p, y.p, x.n));
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    return same;
}

/* The whole module's canonical check: its canonical text parses, with its
   tokens, and prints itself. */
static int canonical_ok(const ptx_module *a, ptx_buf *c1)
{
    ptx_buf c2 = { 0 };
    ptx_diag d;
    ptx_emit_canonical(a, c1);
    ptx_module *m = ptx_parse_buffer("c", c1->p ? c1->p : "", c1->n, &d);
    size_t x, y;
    int ok = m && ptx_same_module_tokens(a, m, &x, &y) == 1;
    if (ok)
        ptx_emit_canonical(m, &c2);
    ok = ok && c2.n == c1->n && (!c2.n || !memcmp(c2.p, c1->p, c2.n));
    ptx_buf_free(&c2);
    ptx_module_free(m);
    return ok;
}

/* Python with every sugar pass translated a piece at a time (a piece at
   every item's end): where it goes through, the whole module's; it may
   give up (a piece that does not parse, or a name a later piece brings
   that the whole module would have answered otherwise: sugar/pieces.c),
   and then appends nothing. */
static int sugar_same(const char *name, const char *data, size_t n, const ptx_module *a,
                      unsigned jobs, tally *t)
{
    ptx_buf x = { 0 }, y = { 0 };
    ptx_codegen_options o = { .sugar = (uint32_t)((1ull << ptx_codegen_npasses()) - 1),
                              .jobs = jobs };
    int ok = ptx_codegen_pieces(name, data, n, 1, &o, &y);
    if (ok && a)
        codegen(a, o.sugar, 1, &x);
    t->sugared += ok;
    int same = ok ? a && x.n == y.n && (!x.n || !memcmp(x.p, y.p, x.n)) : y.n == 0;
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    return same;
}

/* Plain Python translated a piece at a time (a piece at every function's
   end) against the whole module a's (NULL: it does not parse): it comes
   in pieces exactly where every piece parses (`parsed`, what the round
   trip in pieces found), and then is the whole module's; elsewhere
   nothing is appended. */
static const char *codegen_difference(const char *name, const char *data,
                                      size_t n, const ptx_module *a, int parsed,
                                      int full, unsigned jobs, tally *t)
{
    ptx_buf x = { 0 }, y = { 0 };
    ptx_codegen_options o = { .jobs = jobs };
    int ok = ptx_codegen_pieces(name, data, n, 1, &o, &y);
    if (a)
        codegen(a, 0, 1, &x);
    t->translated += full && ok;
    int same = ok == parsed && (ok ? a && x.n == y.n && (!x.n || !memcmp(x.p, y.p, x.n))
                                   : y.n == 0);   /* nothing appended */
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    if (!same)
        return "plain codegen in pieces";
    return full && !sugar_same(name, data, n, a, jobs, t) ? "sugar codegen in pieces" : NULL;
}

/* The round trip in pieces against the whole module a's (NULL: it does
   not parse): where the pieces pass the whole must, with the same texts.
   A corpus file (`full`) is counted as passing in pieces or not. */
static const char *pieces_difference(const char *name, const char *data,
                                     size_t n, const ptx_module *a, int full,
                                     unsigned jobs, tally *t)
{
    ptx_buf c = { 0 }, x = { 0 }, y = { 0 };
    const char *why = NULL;
    int whole = a && canonical_ok(a, &c);
    ptx_pieces_opts check = { 1, jobs, PTX_PIECES_EXACT | PTX_PIECES_CANONICAL,
                              NULL, NULL, NULL },
                    exact = { 1, jobs, 0, &x, NULL, NULL },
                    canon = { 1, jobs, PTX_PIECES_PRINT_CANONICAL, &y, NULL, NULL };
    int ok = ptx_pieces_roundtrip(name, data, n, &check);
    int ex = ptx_pieces_roundtrip(name, data, n, &exact);
    int cn = ptx_pieces_roundtrip(name, data, n, &canon);
    if (full) {
        t->pieces += ok;
        t->whole += !ok;
    }
    if (ok && !whole)
        why = "round trip in pieces";
    else if (ex && (!a || x.n != n || (n && memcmp(x.p, data, n))))
        why = "exact text in pieces";
    else if (cn && (!a || !whole || y.n != c.n || (c.n && memcmp(y.p, c.p, c.n))))
        why = "canonical text in pieces";
    else
        why = codegen_difference(name, data, n, a, ex, full, jobs, t);
    ptx_buf_free(&c);
    ptx_buf_free(&x);
    ptx_buf_free(&y);
    return why;
}

/* What differs between the serial module a and the pieces' b, or NULL. */
static const char *difference(const ptx_module *a, const ptx_module *b,
                              const ptx_module *base, int full, size_t i,
                              size_t variant)
{
    unsigned jobs = thread_counts[i];
    if (a->ntoks != b->ntoks || memcmp(a->toks, b->toks, a->ntoks * sizeof *a->toks))
        return "tokens";
    ptx_buf x = { 0 };
    ptx_emit_exact(b, &x);
    int exact = x.n == b->size && (!x.n || !memcmp(x.p, b->src, x.n));
    ptx_buf_free(&x);
    if (!exact)
        return "exact text";
    if (!same_text(a, b, ptx_emit_canonical))
        return "canonical text";
    if (!same_split(a, b, 0, jobs))
        return "exact text printed on threads";
    if (!same_split(a, b, 1, jobs))
        return "canonical text printed on threads";
    if (full && !same_python(a, b, 0, jobs))
        return "plain codegen";
    if (full && !same_python(a, b, (uint32_t)((1ull << ptx_codegen_npasses()) - 1), jobs))
        return "sugar codegen";
    /* a variant: one thread count, the flags taking turns */
    unsigned flags = diff_flags[(full ? i : variant) % 4];
    if (base && (full || i == 0) && !same_diff(base, b, flags, jobs))
        return "diff report";
    return NULL;
}

/* What differs between the module a, parsed with fused tokens, and the
   same text parsed a token at a time (ptx_parse_unfused), or NULL: the
   same success, tokens, texts and Python, or the same diagnostic. */
static const char *unfused_difference(const char *name, const char *data, size_t n,
                                      const ptx_module *a, const ptx_diag *da, int full)
{
    ptx_diag du;
    ptx_module *u = ptx_parse_unfused(name, data, n, &du);
    const char *why = NULL;
    if (!a != !u)
        why = "success without fused tokens";
    else if (!a)
        why = same_diag(da, &du) ? NULL : "diagnostic without fused tokens";
    else if (a->ntoks != u->ntoks || memcmp(a->toks, u->toks, a->ntoks * sizeof *a->toks))
        why = "tokens without fused tokens";
    else if (!same_text(a, u, ptx_emit_canonical))
        why = "canonical text without fused tokens";
    else if (full && (!same_python(a, u, 0, 1) ||
                      !same_python(a, u, (uint32_t)((1ull << ptx_codegen_npasses()) - 1), 1)))
        why = "codegen without fused tokens";
    ptx_module_free(u);
    return why;
}

/* Whether m's tokens are those ptx_lex gives a token at a time: the
   parser's lexer takes tables' integers and instructions' operands
   without the scanner's DFA (grammar/lexer.re: lex_int_run,
   lex_after_word). */
static int lexed_as_ptx_lex(const ptx_module *m)
{
    const unsigned char *src = (const unsigned char *)m->src;
    ptx_lexer lx = { src, src, src + m->size, NULL };
    for (uint32_t i = 0; i < m->ntoks; i++) {
        uint32_t start, len;
        int k = ptx_lex(&lx, &start, &len);
        if (k != (int)m->toks[i].kind || start != m->toks[i].start || len != m->toks[i].len)
            return 0;
    }
    return 1;
}

/* base: the module to diff against, or NULL. */
static void check(const char *name, const char *data, size_t n,
                  const ptx_module *base, int full, tally *t)
{
    ptx_diag ds;
    ptx_module *a = ptx_parse_buffer(name, data, n, &ds);
    t->inputs++;
    t->errors += !a;
    const char *unfused = unfused_difference(name, data, n, a, &ds, full);
    if (!unfused && a && !lexed_as_ptx_lex(a))
        unfused = "tokens against ptx_lex's";
    if (unfused) {
        t->differ++;
        printf("%s (%zu bytes): %s differs\n", name, n, unfused);
    }
    for (size_t i = 0; i < sizeof thread_counts / sizeof *thread_counts; i++) {
        ptx_diag dp;
        int split = 0;
        ptx_module *b = ptx_parse_split(name, data, n, thread_counts[i], 1, &split, &dp);
        const char *why = !a != !b ? "success" : a ? difference(a, b, base, full, i, t->inputs)
                                               : same_diag(&ds, &dp) ? NULL : "diagnostic";
        if (!why && (full || i == 0))
            why = pieces_difference(name, data, n, a, full, thread_counts[i], t);
        t->cut += split;
        if (why) {
            t->differ++;
            printf("%s (%zu bytes, %u threads): %s differs\n", name, n, thread_counts[i], why);
        }
        ptx_module_free(b);
    }
    ptx_module_free(a);
}

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Variant v of data into out (n + 32 bytes of room): its length. */
static size_t corrupt(const char *data, size_t n, uint64_t *rng, char *out)
{
    static const char *const inserts[] = { " ; ", "}\n", "{", "/*", "\"", "\n}\n.entry k()\n{\n" };
    size_t at = n ? next(rng) % n : 0;
    unsigned kind = (unsigned)(next(rng) % (2 + sizeof inserts / sizeof *inserts));
    if (kind == 0) {           /* truncated */
        memcpy(out, data, at);
        return at;
    }
    if (kind == 1) {           /* a byte deleted */
        memcpy(out, data, at);
        memcpy(out + at, data + at + (at < n), n - at - (at < n));
        return n - (at < n);
    }
    const char *s = inserts[kind - 2];
    size_t k = strlen(s);
    memcpy(out, data, at);
    memcpy(out + at, s, k);
    memcpy(out + at + k, data + at, n - at);
    return n + k;
}

int main(int argc, char **argv)
{
    size_t variants = 0;
    path_list files = { 0 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corrupt") && i + 1 < argc)
            variants = (size_t)atol(argv[++i]);
        else if (paths_add(&files, argv[i]) != 0)
            return 2;
    }
    paths_sort(&files);
    tally t = { 0 };
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    ptx_module *prev = NULL;     /* the file before, for the diff */
    for (size_t f = 0; f < files.n; f++) {
        size_t n;
        char *data = paths_read(files.v[f], &n);
        if (!data) {
            printf("%s: cannot read\n", files.v[f]);
            return 2;
        }
        ptx_diag d;
        ptx_module *m = ptx_parse_buffer(files.v[f], data, n, &d);
        check(files.v[f], data, n, prev, 1, &t);
        /* the variants, spread evenly over the files */
        size_t want = variants * (f + 1) / files.n - variants * f / files.n;
        char *buf = malloc(n + 64);
        for (size_t v = 0; v < want; v++) {
            size_t k = corrupt(data, n, &rng, buf);
            check(files.v[f], buf, k, m, 0, &t);
        }
        free(buf);
        free(data);
        ptx_module_free(prev);
        prev = m;
    }
    ptx_module_free(prev);
    printf("%zu round trips in pieces, %zu of whole modules, %zu translations in pieces "
           "(%zu with sugar)\n", t.pieces, t.whole, t.translated, t.sugared);
    printf("%zu files, %zu variants: %zu parses in pieces, %zu errors, %zu differ\n",
           files.n, t.inputs - files.n, t.cut, t.errors, t.differ);
    paths_free(&files);
    return t.differ || !t.cut || !t.pieces || !t.translated || !t.sugared;
}
