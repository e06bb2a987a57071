/*
 * test_diff.c - the alignment core (against a dynamic-programming LCS) and
 * the ptx_diff API on small modules written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "diff/internal.h"
#include "ptx/diff.h"
#include "util/buf.h"

/* Length of the longest common subsequence, the slow and sure way. */
static size_t lcs(const uint32_t *a, size_t n, const uint32_t *b, size_t m)
{
    size_t *row = calloc((m + 1) * 2, sizeof *row);
    size_t *prev = row, *cur = row + m + 1;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++)
            cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1
                   : prev[j] > cur[j - 1] ? prev[j] : cur[j - 1];
        size_t *t = prev;
        prev = cur, cur = t;
    }
    size_t r = prev[m];
    free(row);
    return r;
}

/* The kept elements of both sides must be the same sequence. */
static void assert_valid(const uint32_t *a, size_t n, const uint32_t *b,
                         size_t m, const uint8_t *del, const uint8_t *ins)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < n && del[i])
            i++;
        while (j < m && ins[j])
            j++;
        if (i == n || j == m)
            break;
        assert_int_equal(a[i], b[j]);
        i++, j++;
    }
    assert_true(i == n && j == m);
}

static size_t check_seq(const uint32_t *a, size_t n, const uint32_t *b,
                        size_t m)
{
    uint8_t *del = calloc(n + 1, 1), *ins = calloc(m + 1, 1);
    size_t e = ptx_diff_seq(a, n, b, m, del, ins);
    assert_valid(a, n, b, m, del, ins);
    size_t nd = 0;
    for (size_t i = 0; i < n; i++)
        nd += del[i];
    for (size_t j = 0; j < m; j++)
        nd += ins[j];
    assert_int_equal(e, nd);
    free(del), free(ins);
    return e;
}

static void seq_is_minimal(void **state)
{
    (void)state;
    srand(12345);
    uint32_t a[80], b[80];
    for (int round = 0; round < 3000; round++) {
        size_t n = (size_t)rand() % 80, m = (size_t)rand() % 80;
        uint32_t alpha = 1 + (uint32_t)rand() % 6;
        for (size_t i = 0; i < n; i++)
            a[i] = (uint32_t)rand() % alpha;
        for (size_t j = 0; j < m; j++)    /* often a copy of a, edited */
            b[j] = j < n && rand() % 4 ? a[j] : (uint32_t)rand() % alpha;
        size_t e = check_seq(a, n, b, m);
        assert_int_equal(e, n + m - 2 * lcs(a, n, b, m));
    }
}

/* Large and completely different: the cost limit must keep it fast and
   the script valid. */
static void seq_large_different(void **state)
{
    (void)state;
    size_t n = 200000;
    uint32_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    srand(7);
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)rand() % 5000, b[i] = (uint32_t)rand() % 5000;
    check_seq(a, n, b, n);
    for (size_t i = 0; i < n; i++)     /* mostly equal: exactly minimal */
        b[i] = i % 1000 == 0 ? a[i] + 7000 : a[i];
    assert_int_equal(check_seq(a, n, b, n), 2 * (n / 1000));
    free(a), free(b);
}

/* ---- the API */

static ptx_module *parse(const char *name, const char *text)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer(name, text, strlen(text), &d);
    if (!m)
        ptx_diag_print(stderr, &d);
    assert_non_null(m);
    return m;
}

/* Runs a diff of two texts; returns the unified report (caller frees) and
   the result through *out_d (caller frees). */
static char *run(const char *ta, const char *tb, unsigned flags,
                 ptx_diff **out_d, ptx_module **ma, ptx_module **mb)
{
    *ma = parse("a.ptx", ta);
    *mb = parse("b.ptx", tb);
    ptx_diff_options o = { .flags = flags, .context = 3 };
    ptx_diag err;
    *out_d = ptx_diff_run(*ma, *mb, &o, &err);
    assert_non_null(*out_d);
    ptx_buf out = { 0 };
    ptx_diff_print_unified(*out_d, &out);
    ptx_buf_putc(&out, 0);
    return out.p;
}

static int same(const char *ta, const char *tb, unsigned flags)
{
    ptx_diff *d;
    ptx_module *ma, *mb;
    free(run(ta, tb, flags, &d, &ma, &mb));
    int r = ptx_diff_same(d);
    ptx_diff_free(d);
    ptx_module_free(ma);
    ptx_module_free(mb);
    return r;
}

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n"

static const char kern_a[] = HEAD
    ".visible .entry k(.param .u64 p)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n"
    "\t@%p1 bra $L__BB0_2;\n\tadd.s32 %r2, %r1, 1;\n"
    "$L__BB0_2:\n\tret;\n}\n";

/* kern_a renumbered, with other formatting and a larger %r count */
static const char kern_regs[] = HEAD "// renumbered\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b32 %r<9>; .reg .pred %p<5>;\n"
    "mov.u32 %r7, %tid.x; setp.eq.u32 %p4, %r7, 0;\n"
    "@%p4 bra $L__BB0_2; add.s32 %r3, %r7, 1;\n"
    "$L__BB0_2: ret;\n}\n";

/* kern_a with its label renamed */
static const char kern_labels[] = HEAD
    ".visible .entry k(.param .u64 p)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n"
    "\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n"
    "\t@%p1 bra DONE;\n\tadd.s32 %r2, %r1, 1;\n"
    "DONE:\n\tret;\n}\n";

static void options(void **state)
{
    (void)state;
    assert_true(same(kern_a, kern_a, 0));
    assert_false(same(kern_a, kern_regs, 0));
    assert_true(same(kern_a, kern_regs, PTX_DIFF_IGNORE_REGS));
    assert_false(same(kern_a, kern_regs, PTX_DIFF_IGNORE_LABELS));
    assert_false(same(kern_a, kern_labels, 0));
    assert_true(same(kern_a, kern_labels, PTX_DIFF_IGNORE_LABELS));
    assert_false(same(kern_a, kern_labels, PTX_DIFF_IGNORE_REGS));
    assert_true(same(kern_labels, kern_regs, PTX_DIFF_IGNORE_NAMES));
    /* a swapped pair of registers is not a renaming of the same code */
    char *swapped = strdup(kern_a);
    char *p = strstr(swapped, "add.s32 %r2, %r1");
    memcpy(p, "add.s32 %r1, %r2", 16);
    assert_false(same(kern_a, swapped, PTX_DIFF_IGNORE_REGS));
    free(swapped);
}

static const char debug_a[] = HEAD
    ".visible .entry k()\n{\n"
    "\t.loc 1 3 0\n$L__func_begin0:\n\t.loc 1 4 2\n\tbra $L__BB0_1;\n"
    "$L__BB0_1:\n$L__tmp0:\n\tret;\n$L__func_end0:\n}\n"
    "\t.file 1 \"k.cu\"\n"
    "\t.section .debug_info\n\t{\n\t.b64 $L__func_begin0\n"
    "\t.b64 $L__func_end0\n\t}\n";

static const char debug_b[] = HEAD
    ".visible .entry k()\n{\n\tbra $L__BB0_1;\n$L__BB0_1:\n\tret;\n}\n";

static void debug(void **state)
{
    (void)state;
    assert_false(same(debug_a, debug_b, 0));
    assert_true(same(debug_a, debug_b, PTX_DIFF_IGNORE_DEBUG));
    /* the label a branch uses is not debug data */
    static const char nolabel[] = HEAD
        ".visible .entry k()\n{\n\tbra $L__BB0_1;\n\tret;\n}\n";
    assert_false(same(debug_a, nolabel, PTX_DIFF_IGNORE_DEBUG));
}

static void report(void **state)
{
    (void)state;
    static const char b[] = HEAD
        ".visible .entry k(.param .u64 p)\n{\n"
        "\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p1, %r1, 0;\n"
        "\t@%p1 bra $L__BB0_2;\n\tadd.s32 %r2, %r1, 1;\n"
        "$L__BB0_2:\n\tadd.s32 %r3, %r1, 2;\n\tret;\n}\n"
        ".visible .entry extra()\n{\n\tret;\n}\n";
    ptx_diff *d;
    ptx_module *ma, *mb;
    char *text = run(kern_a, b, 0, &d, &ma, &mb);
    assert_string_equal(text,
        "--- a.ptx\n+++ b.ptx\n"
        "@@ -10,5 +10,6 @@ k ($L__BB0_2)\n"
        " \t@%p1 bra\t$L__BB0_2;\n"
        " \tadd.s32\t%r2, %r1, 1;\n"
        " $L__BB0_2:\n"
        "+\tadd.s32\t%r3, %r1, 2;\n"
        " \tret;\n"
        " }\n"
        "@@ -0,0 +16,4 @@ extra: function added\n"
        "+.visible .entry extra()\n+{\n+\tret;\n+}\n");
    free(text);
    assert_int_equal(ptx_diff_nunits(d), 3);
    const ptx_diff_unit *u = ptx_diff_unit_at(d, 1);
    assert_string_equal(u->name, "k");
    assert_int_equal(u->status, PTX_DIFF_CHANGED);
    assert_int_equal(u->added, 1);
    u = ptx_diff_unit_at(d, 2);
    assert_int_equal(u->status, PTX_DIFF_ADDED);
    assert_int_equal(u->added, 4);
    ptx_diff_free(d);
    ptx_module_free(ma);
    ptx_module_free(mb);
}

/* The report of a against b on `jobs` threads, cutting at every function. */
static char *report_on(const ptx_module *a, const ptx_module *b,
                       unsigned flags, unsigned jobs, ptx_diff_status *mod)
{
    ptx_diff_options o = { .flags = flags, .context = 3, .jobs = jobs };
    char err[256];
    ptx_diff *d = pd_diff_split(a, b, &o, 1, err, sizeof err);
    assert_non_null(d);
    *mod = ptx_diff_unit_at(d, 0)->status;
    ptx_buf out = { 0 };
    ptx_diff_print_unified(d, &out);
    ptx_buf_putc(&out, 0);
    ptx_diff_free(d);
    return out.p;
}

/* Functions are built on threads and joined in order: where two functions
   have a label of one name that debug data refers to, the first one's
   placeholder is the one the module's line gets, on any number of threads.
   b lacks f, so its line names g's label and differs from a's. */
static void threads(void **state)
{
    (void)state;
    static const char fg[] = HEAD
        ".func f()\n{\n$L_a:\n\tret;\n}\n"
        ".func g()\n{\n$L_a:\n\texit;\n}\n"
        ".section .debug_info\n{\n.b64 $L_a\n}\n";
    static const char g[] = HEAD
        ".func g()\n{\n$L_a:\n\texit;\n}\n"
        ".section .debug_info\n{\n.b64 $L_a\n}\n";
    ptx_module *a = parse("a.ptx", fg), *b = parse("b.ptx", g);
    ptx_diff_status one, many;
    char *serial = report_on(a, b, PTX_DIFF_IGNORE_LABELS, 1, &one);
    for (unsigned jobs = 2; jobs <= 6; jobs++) {
        char *text = report_on(a, b, PTX_DIFF_IGNORE_LABELS, jobs, &many);
        assert_string_equal(text, serial);
        assert_int_equal(many, PTX_DIFF_CHANGED);
        free(text);
    }
    assert_int_equal(one, PTX_DIFF_CHANGED);
    free(serial);
    ptx_module_free(a);
    ptx_module_free(b);
}

static void pairing(void **state)
{
    (void)state;
    static const char fg[] = HEAD
        ".func f()\n{\n\tret;\n}\n.func g()\n{\n\texit;\n}\n";
    static const char gf[] = HEAD
        ".func g()\n{\n\texit;\n}\n.func f()\n{\n\tret;\n}\n";
    assert_true(same(fg, gf, 0));                    /* by name */
    assert_false(same(fg, gf, PTX_DIFF_IGNORE_NAMES)); /* by position */
    ptx_module *a = parse("a.ptx", fg);
    ptx_diff_options o = { .context = 3 };
    const char *names[] = { "nope" };
    o.functions = names, o.nfunctions = 1;
    ptx_diag err;
    assert_null(ptx_diff_run(a, a, &o, &err));
    assert_non_null(strstr(err.msg, "nope"));
    assert_int_equal(err.line, 0);   /* a message with no place in a source */
    ptx_module_free(a);
}

/* ---- trees */

/* A module of one kernel "k" whose body adds `n` to a register `reps`
   times: variants that differ in their statements. */
static ptx_module *variant(const char *name, int n, int reps)
{
    char text[4096];
    int at = snprintf(text, sizeof text, ".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n.reg .b32 %%r<4>;\n");
    for (int i = 0; i < reps; i++)
        at += snprintf(text + at, sizeof text - (size_t)at, "add.s32 %%r1, %%r1, %d;\n", n + i);
    snprintf(text + at, sizeof text - (size_t)at, "ret;\n}\n");
    return parse(name, text);
}

static size_t count_status(const ptx_tree_diff *t, ptx_diff_status st, ptx_tree_how how)
{
    size_t n = 0;
    for (size_t i = 0; i < ptx_tree_nkernels(t); i++) {
        const ptx_tree_kernel *k = ptx_tree_kernel_at(t, i);
        n += !k->module && k->status == st && k->how == how;
    }
    return n;
}

/* Variants of one name pair with their identical counterparts, in any
   order of files; metadata that agrees decides over statements. */
static void tree_variants(void **state)
{
    (void)state;
    ptx_tree_file a[3] = { { "a0", variant("a0", 10, 4), NULL, NULL },
                           { "a1", variant("a1", 20, 6), NULL, NULL },
                           { "a2", variant("a2", 30, 8), NULL, NULL } };
    ptx_tree_file b[3] = { { "b0", variant("b0", 30, 8), NULL, NULL },
                           { "b1", variant("b1", 10, 4), NULL, NULL },
                           { "b2", variant("b2", 20, 6), NULL, NULL } };
    ptx_diag err;
    ptx_diff_options o = { .context = 3 };
    ptx_tree_diff *t = ptx_diff_trees(a, 3, b, 3, &o, &err);
    assert_non_null(t);
    assert_true(ptx_tree_same(t));
    assert_int_equal(count_status(t, PTX_DIFF_SAME, PTX_TREE_BY_SIMILARITY), 3);
    ptx_tree_free(t);
    /* keys that pair a0 with b0 and so on, whatever the statements say */
    const char *keys[3] = { "num_warps=4;constants={\"B\": 1}", "num_warps=4;constants={\"B\": 2}",
                            "num_warps=4;constants={\"B\": 3}" };
    const char *bkeys[3] = { "num_warps=8;constants={\"B\": 1}", "num_warps=8;constants={\"B\": 2}",
                             "num_warps=8;constants={\"B\": 3}" };
    for (int i = 0; i < 3; i++)
        a[i].meta = keys[i], b[i].meta = bkeys[i];
    t = ptx_diff_trees(a, 3, b, 3, &o, &err);
    assert_int_equal(count_status(t, PTX_DIFF_CHANGED, PTX_TREE_BY_META), 3);
    for (size_t i = 0; i < ptx_tree_nkernels(t); i++)
        if (!ptx_tree_kernel_at(t, i)->module)
            assert_int_equal(ptx_tree_kernel_at(t, i)->fa, ptx_tree_kernel_at(t, i)->fb);
    ptx_tree_free(t);
    /* a kernel with nothing in common pairs with none */
    a[0].meta = b[0].meta = a[1].meta = b[1].meta = a[2].meta = b[2].meta = NULL;
    ptx_module_free((ptx_module *)b[0].m);
    b[0].m = variant("b0", 1000, 40);
    t = ptx_diff_trees(a, 3, b, 3, &o, &err);
    assert_int_equal(count_status(t, PTX_DIFF_SAME, PTX_TREE_BY_SIMILARITY), 2);
    assert_int_equal(count_status(t, PTX_DIFF_ADDED, PTX_TREE_UNPAIRED), 1);
    assert_int_equal(count_status(t, PTX_DIFF_REMOVED, PTX_TREE_UNPAIRED), 1);
    ptx_tree_free(t);
    for (int i = 0; i < 3; i++) {
        ptx_module_free((ptx_module *)a[i].m);
        ptx_module_free((ptx_module *)b[i].m);
    }
}

/* The tuning key of Triton's metadata, and what is not one. */
static void tree_meta(void **state)
{
    (void)state;
    char key[256];
    const char *json = "{\"hash\": \"x\", \"num_warps\": 4, \"num_ctas\": 1, \"num_stages\": 3,"
                       " \"cluster_dims\": [1, 1, 1], \"name\": \"k\", \"constants\": "
                       "{\"BLOCK\": 128, \"S\": \"a,b\"}}";
    assert_int_equal(ptx_tree_meta_json(json, strlen(json), key, sizeof key), 0);
    assert_string_equal(key, "num_warps=4;num_stages=3;num_ctas=1;cluster_dims=[1, 1, 1];"
                             "constants={\"BLOCK\": 128, \"S\": \"a,b\"}");
    assert_int_equal(ptx_tree_meta_json("{\"hash\": 1}", 11, key, sizeof key), -1);
    assert_int_equal(ptx_tree_meta_json(json, strlen(json), key, 10), -1);
    assert_int_equal(ptx_tree_meta_json("{\"num_warps\": [1, ", 18, key, sizeof key), -1);
}

/* Figures: spills from a log; a cubin that is not one is -1. */
static void tree_resources(void **state)
{
    (void)state;
    ptx_res r;
    const char *log = "ptxas info    : Function properties for kk\n"
                      "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                      "ptxas info    : Function properties for k\n"
                      "    24 bytes stack frame, 20 bytes spill stores, 16 bytes spill loads\n";
    assert_int_equal(ptx_res_from(log, "junk", 4, "k", &r), -1);
    assert_int_equal(r.v[PTX_RES_SPILL_STORES], 20);
    assert_int_equal(r.v[PTX_RES_SPILL_LOADS], 16);
    assert_int_equal(r.v[PTX_RES_REGS], -1);
    assert_string_equal(ptx_res_name(PTX_RES_INSTS), "insts");
    assert_null(ptx_res_name(PTX_RES_N));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seq_is_minimal),
        cmocka_unit_test(seq_large_different),
        cmocka_unit_test(options),
        cmocka_unit_test(debug),
        cmocka_unit_test(report),
        cmocka_unit_test(pairing),
        cmocka_unit_test(threads),
        cmocka_unit_test(tree_variants),
        cmocka_unit_test(tree_meta),
        cmocka_unit_test(tree_resources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
