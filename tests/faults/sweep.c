/*
 * sweep.c - out of memory at every allocation, as SQLite tests it.
 *
 *     fault_sweep [--only ENTRY] FILE.ptx...
 *
 * For each file and each entry point below, the call is made again and
 * again with its nth allocation failing (ptx_fault_after, a -DPTX_FAULTS
 * build), n = 1, 2, ... until a call makes fewer than n allocations.
 * Every call must either fail cleanly, with PTX_OUT_OF_MEMORY and a
 * buffer as it was, or succeed with exactly the result of a call without
 * failures (a failure some paths absorb: a parse in pieces falls back to
 * the serial parse).  Run under AddressSanitizer, which also finds any
 * block that unwinding leaks.  Prints per entry point the failures
 * injected, and "0 wrong" where every call behaved.  The entry point
 * "measure" (ptx_tree_measure: ptxas on both files of every call) runs
 * only where --only names it: a test of its own, on two small files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/codegen.h"
#include "ptx/diff.h"
#include "ptx/ptx.h"
#include "emit/emit.h"
#include "front/parser_state.h"
#include "util/alloc.h"

/* One entry point: run it on the file (text, a its parse), its text into out; 0, or -1 with
   *oom set where it failed for memory. */
typedef struct sweep {
    const char *path, *text;
    size_t size;
    const ptx_module *a, *b;   /* b: the next file's, to diff against */
    const ptx_tree_diff *tree; /* the tree diff of the two (measure) */
} sweep;

typedef int (*entry)(const sweep *s, ptx_buf *out, int *oom);

static int is_oom(const ptx_diag *d)
{
    return strcmp(d->msg, PTX_OUT_OF_MEMORY) == 0;
}

/* the printed module stands for a parse's result */
static int parsed(ptx_module *m, const ptx_diag *d, ptx_buf *out, int *oom)
{
    if (!m) {
        *oom = is_oom(d);
        return -1;
    }
    int r = ptx_emit_exact(m, out);
    ptx_module_free(m);
    *oom = r != 0;
    return r;
}

static int parse(const sweep *s, ptx_buf *out, int *oom)
{
    ptx_diag d;
    return parsed(ptx_parse_buffer(s->path, s->text, s->size, &d), &d, out, oom);
}

static int parse_threads(const sweep *s, ptx_buf *out, int *oom)
{
    ptx_diag d;
    return parsed(ptx_parse_split(s->path, s->text, s->size, 2, 1, NULL, &d), &d, out, oom);
}

static int printed(int r, int *oom)
{
    *oom = r != 0;
    return r;
}

static int exact(const sweep *s, ptx_buf *out, int *oom)
{
    return printed(ptx_emit_exact(s->a, out), oom);
}

static int canonical(const sweep *s, ptx_buf *out, int *oom)
{
    return printed(ptx_emit_canonical(s->a, out), oom);
}

/* a group per item on two threads: ptx_print_each_thread's unwinding */
typedef struct split_call {
    const ptx_module *m;
    ptx_buf *out;
} split_call;

static void split_run(void *ud)
{
    split_call *c = ud;
    ptx_emit_split(c->m, 1, 2, 1, c->out);
}

static int split(const sweep *s, ptx_buf *out, int *oom)
{
    split_call c = { s->a, out };
    return printed(ptx_protect_buf(out, split_run, &c), oom);
}

static int nodebug(const sweep *s, ptx_buf *out, int *oom)
{
    return printed(ptx_emit_nodebug(s->a, out), oom);
}

static int codegen_with(const sweep *s, uint32_t sugar, ptx_buf *out, int *oom)
{
    ptx_codegen_options o = { .srcname = "k.ptx", .jobs = 1, .sugar = sugar };
    ptx_diag d;
    int r = ptx_codegen(s->a, &o, out, &d);
    *oom = r && is_oom(&d);
    return r;
}

static int codegen(const sweep *s, ptx_buf *out, int *oom)
{
    return codegen_with(s, 0, out, oom);
}

static int sugar(const sweep *s, ptx_buf *out, int *oom)
{
    return codegen_with(s, UINT32_MAX, out, oom);
}

/* in pieces of 1 KiB on two threads; where they fail, the whole module,
   as pyptx-codegen does */
static int pieces_with(const sweep *s, uint32_t sugar, ptx_buf *out, int *oom)
{
    ptx_codegen_options o = { .srcname = "k.ptx", .jobs = 2, .sugar = sugar };
    if (ptx_codegen_pieces(s->path, s->text, s->size, 1024, &o, out))
        return *oom = 0;
    return codegen_with(s, sugar, out, oom);
}

static int pieces(const sweep *s, ptx_buf *out, int *oom)
{
    return pieces_with(s, 0, out, oom);
}

static int sugar_pieces(const sweep *s, ptx_buf *out, int *oom)
{
    return pieces_with(s, UINT32_MAX, out, oom);
}

static int diff(const sweep *s, ptx_buf *out, int *oom)
{
    ptx_diff_options o = { .context = 3, .jobs = 2 };
    ptx_diag d;
    ptx_diff *x = ptx_diff_run(s->a, s->b, &o, &d);
    if (!x) {
        *oom = is_oom(&d);
        return -1;
    }
    /* the three reports one after another: where one fails, the buffer
       must be as that one found it; it is then put back as the call found
       it, as the other entry points leave it */
    int (*const print[])(const ptx_diff *, ptx_buf *) = {
        ptx_diff_print_unified, ptx_diff_print_stat, ptx_diff_print_json };
    size_t start = out->n;
    int r = 0;
    for (unsigned i = 0; i < 3 && !r; i++) {
        size_t before = out->n;
        if ((r = print[i](x, out)) != 0 && out->n == before)
            out->n = start;
    }
    ptx_diff_free(x);
    return printed(r, oom);
}

static int tree(const sweep *s, ptx_buf *out, int *oom)
{
    ptx_tree_file fa = { s->path, s->a, NULL, NULL }, fb = { "b.ptx", s->b, NULL, NULL };
    ptx_diff_options o = { .context = 3, .jobs = 2 };
    ptx_diag d;
    ptx_tree_diff *t = ptx_diff_trees(&fa, 1, &fb, 1, &o, &d);
    if (!t) {
        *oom = is_oom(&d);
        return -1;
    }
    int r = ptx_tree_print(t, PTX_TREE_MARKDOWN, NULL, out);
    ptx_tree_free(t);
    return printed(r, oom);
}

/* The figures of the two files' kernels, put in one piece (where that
   fails, out is as it was). */
static int measure(const sweep *s, ptx_buf *out, int *oom)
{
    ptx_measure_options mo = { .jobs = 2 };
    ptx_diag d;
    ptx_res *res = ptx_tree_measure(s->tree, &mo, &d);
    if (!res) {
        *oom = is_oom(&d);
        return -1;
    }
    char text[4096];
    size_t n = 0, nk = ptx_tree_nkernels(s->tree);
    for (size_t k = 0; k < 2 * nk && n < sizeof text - 200; k++) {
        for (unsigned i = 0; i < PTX_RES_N; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%lld ", res[k].v[i]);
        n += (size_t)snprintf(text + n, sizeof text - n, "%s\n",
                              res[k].error ? res[k].error : "-");
    }
    ptx_res_free(res, nk);
    return printed(ptx_buf_put(out, text, n), oom);
}

static const struct { const char *name; entry fn; int asked; } entries[] = {
    { "parse", parse, 0 },       { "parse_threads", parse_threads, 0 },
    { "exact", exact, 0 },       { "canonical", canonical, 0 },
    { "print_threads", split, 0 }, { "nodebug", nodebug, 0 },
    { "codegen", codegen, 0 },   { "sugar", sugar, 0 },
    { "codegen_pieces", pieces, 0 }, { "sugar_pieces", sugar_pieces, 0 },
    { "diff", diff, 0 },         { "tree_diff", tree, 0 },
    { "measure", measure, 1 },   /* only when --only names it (asked) */
};
enum { NENTRIES = sizeof entries / sizeof *entries };

static long swept[NENTRIES], wrong[NENTRIES];

/* Entry e over every n; the reference is its result without failures. */
static void sweep_entry(const sweep *s, unsigned e)
{
    /* a buffer that already holds text, as every call below gets */
    ptx_buf ref = { 0 };
    ptx_buf_put(&ref, "x", 1);
    int oom = 0;
    ptx_fault_after(0);
    int rr = entries[e].fn(s, &ref, &oom);
    for (long n = 1;; n++) {
        ptx_buf out = { 0 };
        ptx_buf_put(&out, "x", 1);
        ptx_fault_after(n);
        int r = entries[e].fn(s, &out, &oom);
        long made = ptx_fault_count();
        ptx_fault_after(0);
        int ok = r == 0 ? rr == 0 && out.n == ref.n && !memcmp(out.p, ref.p, ref.n)
                        : (oom ? out.n == 1 : rr != 0);
        if (!ok && wrong[e]++ < 5)
            fprintf(stderr, "%s: %s: allocation %ld failing: %s\n", s->path, entries[e].name,
                    n, r == 0 ? "another result" : oom ? "buffer changed" : "another error");
        ptx_buf_free(&out);
        if (made < n)   /* no allocation failed: every one has been tried */
            break;
        swept[e]++;
    }
    ptx_buf_free(&ref);
}

static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    ptx_buf b = { 0 };
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        ptx_buf_put(&b, chunk, k);
    fclose(f);
    *n = b.n;
    return b.p ? b.p : calloc(1, 1);
}

int main(int argc, char **argv)
{
    const char *only = NULL;   /* one entry point, to debug it */
    int first = 1;
    if (argc > 2 && !strcmp(argv[1], "--only"))
        only = argv[2], first = 3;
    if (argc <= first) {
        fprintf(stderr, "usage: fault_sweep [--only ENTRY] FILE.ptx...\n");
        return 2;
    }
    for (int i = first; i < argc; i++) {
        sweep s = { argv[i], NULL, 0, NULL, NULL, NULL };
        ptx_diag d;
        char *text = read_file(argv[i], &s.size);
        s.text = text;
        ptx_module *a = text ? ptx_parse_buffer(argv[i], text, s.size, &d) : NULL;
        const char *other = argv[i + 1 < argc ? i + 1 : first];
        ptx_module *b = ptx_parse_file(other, &d);
        if (!a || !b) {
            fprintf(stderr, "%s: does not parse\n", a ? other : argv[i]);
            return 2;
        }
        s.a = a, s.b = b;
        ptx_tree_file fa = { argv[i], a, NULL, NULL }, fb = { other, b, NULL, NULL };
        ptx_diff_options o = { .context = 3, .jobs = 2 };
        ptx_tree_diff *t = ptx_diff_trees(&fa, 1, &fb, 1, &o, &d);
        if (!t) {
            fprintf(stderr, "%s: no tree diff: %s\n", argv[i], d.msg);
            return 2;
        }
        s.tree = t;
        for (unsigned e = 0; e < NENTRIES; e++)
            if (only ? !strcmp(only, entries[e].name) : !entries[e].asked)
                sweep_entry(&s, e);
        ptx_tree_free(t);
        ptx_module_free(a);
        ptx_module_free(b);
        free(text);
    }
    long total = 0, bad = 0;
    for (unsigned e = 0; e < NENTRIES; e++) {
        if (only ? strcmp(only, entries[e].name) : entries[e].asked)
            continue;
        printf("%-15s %6ld allocations failed, %ld wrong\n", entries[e].name, swept[e], wrong[e]);
        total += swept[e], bad += wrong[e];
    }
    printf("%d files, %ld failures injected, %ld wrong\n", argc - first, total, bad);
    return bad != 0;
}
