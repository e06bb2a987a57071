/*
 * sweep.c - out of memory at every allocation, as SQLite tests it.
 *
 *     fault_sweep FILE.ptx...
 *
 * For each file and each entry point below, the call is made again and
 * again with its nth allocation failing (ptx_fault_after, a -DPTX_FAULTS
 * build), n = 1, 2, ... until a call makes fewer than n allocations.
 * Every call must either fail cleanly, with PTX_OUT_OF_MEMORY and a
 * buffer as it was, or succeed with exactly the result of a call without
 * failures (a failure some paths absorb: a parse in pieces falls back to
 * the serial parse).  Run under AddressSanitizer, which also finds any
 * block that unwinding leaks.  Prints per entry point the failures
 * injected, and "0 wrong" where every call behaved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/codegen.h"
#include "ptx/ptx.h"
#include "emit/emit.h"
#include "front/parser_state.h"
#include "util/alloc.h"

/* One entry point: run it on the file (text, and a its parse), its text into out; 0, or -1 with
   *oom set where it failed for memory. */
typedef struct sweep {
    const char *path, *text;
    size_t size;
    const ptx_module *a;
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

static const struct { const char *name; entry fn; } entries[] = {
    { "parse", parse },       { "parse_threads", parse_threads },
    { "exact", exact },       { "canonical", canonical },
    { "print_threads", split }, { "nodebug", nodebug },
    { "codegen", codegen },   { "sugar", sugar },
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
    if (argc < 2) {
        fprintf(stderr, "usage: fault_sweep FILE.ptx...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        sweep s = { argv[i], NULL, 0, NULL };
        ptx_diag d;
        char *text = read_file(argv[i], &s.size);
        s.text = text;
        ptx_module *a = text ? ptx_parse_buffer(argv[i], text, s.size, &d) : NULL;
        if (!a) {
            fprintf(stderr, "%s: does not parse\n", argv[i]);
            return 2;
        }
        s.a = a;
        for (unsigned e = 0; e < NENTRIES; e++)
            sweep_entry(&s, e);
        ptx_module_free(a);
        free(text);
    }
    long total = 0, bad = 0;
    for (unsigned e = 0; e < NENTRIES; e++) {
        printf("%-15s %6ld allocations failed, %ld wrong\n", entries[e].name, swept[e], wrong[e]);
        total += swept[e], bad += wrong[e];
    }
    printf("%d files, %ld failures injected, %ld wrong\n", argc - 1, total, bad);
    return bad != 0;
}
