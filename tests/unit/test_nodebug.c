/* test_nodebug.c - the debug-data rule (front/debug.c) and the text without
   debug data (ptx_emit_nodebug, pyptx-codegen --no-debug), and that
   pyptx-diff --ignore-debug ignores exactly what the text drops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ptx/ptx.h"
#include "ptx/diff.h"
#include "front/debug.h"
#include "util/buf.h"

/* A .file at module level, a .loc between instructions (one with
   Triton's comment, one after code on its line), $L__tmp0 that only the
   .debug_ section names, $L__tmp1 before code on its line, $L__BB0_1 that
   a branch names, a label and a .loc in a nested block, a CRLF line. */
static const char input[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\t.file\t1 \"k.cu\"\n"
    "\n"
    ".visible .entry k()\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.loc\t1 3 0                          // k.py:3:0\n"
    "$L__tmp0:\n"
    "\tmov.u32 %r1, 0;\n"
    "\t.loc 1 4 2\n"
    "$L__BB0_1:\n"
    "$L__tmp1: add.s32 %r1, %r1, 1;\n"
    "\tadd.s32 %r2, %r1, 2; .loc 1 5 2\n"
    "\t{\n"
    "$L__tmp2:\n"
    "\t\t.loc 1 6 2\r\n"
    "\t\tadd.s32 %r3, %r2, 3;\n"
    "\t}\n"
    "\t// a comment line goes\n"
    "\t/* a block comment stays,\n"
    "\t   // with what it holds */\n"
    "\tbra.uni $L__BB0_1; // a comment after code stays\n"
    "}\n"
    "\t.section\t.debug_info\n"
    "\t{\n"
    ".b64 $L__tmp0\n"
    "\t}\n"
    "\t.section .nv_keep { .b8 1 }\n";

static const char expected[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k()\n"
    "{\n"
    "\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, 0;\n"
    "$L__BB0_1:\n"
    "add.s32 %r1, %r1, 1;\n"
    "\tadd.s32 %r2, %r1, 2;\n"
    "\t{\n"
    "\t\tadd.s32 %r3, %r2, 3;\n"
    "\t}\n"
    "\t/* a block comment stays,\n"
    "\t   // with what it holds */\n"
    "\tbra.uni $L__BB0_1; // a comment after code stays\n"
    "}\n"
    "\t.section .nv_keep { .b8 1 }\n";

static ptx_module *parse(const char *text)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("t.ptx", text, strlen(text), &d);
    if (!m)
        print_error("unexpected parse error: %u:%u: %s\n", d.line, d.col, d.msg);
    assert_non_null(m);
    return m;
}

static char *nodebug(const char *text)
{
    ptx_module *m = parse(text);
    ptx_buf b = { 0 };
    ptx_emit_nodebug(m, &b);
    ptx_buf_putc(&b, 0);
    ptx_module_free(m);
    return b.p;
}

static const ptx_stmt *entry(const ptx_module *m)
{
    for (const ptx_stmt *s = m->items; s; s = s->next)
        if (s->kind == PTX_S_FUNC && s->u.func.body)
            return s;
    fail();
    return NULL;
}

static void debug_statements(void **state)
{
    ptx_module *m = parse(input);
    int debug = 0, other = 0;
    for (const ptx_stmt *s = m->items; s; s = s->next)
        ptx_debug_stmt(m, s) ? debug++ : other++;
    assert_int_equal(debug, 2);     /* .file, .section .debug_info */
    assert_int_equal(other, 5);     /* .version .target .address_size .entry .section */
    int locs = 0;
    for (const ptx_stmt *s = entry(m)->u.func.body->stmts; s; s = s->next)
        locs += s->kind == PTX_S_LOC && ptx_debug_stmt(m, s);
    assert_int_equal(locs, 3);      /* the nested block's is inside the block */
    ptx_module_free(m);
}

static void debug_labels(void **state)
{
    ptx_module *m = parse(input);
    ptx_buf b = { 0 };
    size_t n = ptx_debug_labels(m, entry(m)->u.func.body, &b);
    assert_int_equal(n, 3);
    const ptx_stmt **v = (const ptx_stmt **)b.p;
    static const char *names[] = { "$L__tmp0", "$L__tmp1", "$L__tmp2" };
    for (size_t i = 0; i < n; i++) {
        ptx_str s = ptx_tok_str(m, v[i]->u.label.name);
        assert_int_equal(s.n, strlen(names[i]));
        assert_memory_equal(s.p, names[i], s.n);
    }
    ptx_buf_free(&b);
    ptx_module_free(m);
}

static void text_without_debug(void **state)
{
    char *t = nodebug(input);
    assert_string_equal(t, expected);
    free(t);
}

/* pyptx-diff --ignore-debug sees no difference between the two texts,
   and without the option it does. */
static void diff_ignores_what_is_dropped(void **state)
{
    ptx_module *a = parse(input), *b = parse(expected);
    ptx_diag err;
    for (int ignore = 0; ignore <= 1; ignore++) {
        ptx_diff_options o = { .context = 3, .jobs = 1 };
        o.flags = ignore ? PTX_DIFF_IGNORE_DEBUG : 0;
        ptx_diff *d = ptx_diff_run(a, b, &o, &err);
        assert_non_null(d);
        assert_int_equal(ptx_diff_same(d), ignore);
        ptx_diff_free(d);
    }
    ptx_module_free(a);
    ptx_module_free(b);
}

/* Nothing to drop: the same bytes; comment lines, and the blank lines
   before the first line of code and after the last, go; a label only a
   label names goes. */
static void edges(void **state)
{
    static const char plain[] = ".version 8.0\n.target sm_90\n";
    char *t = nodebug(plain);
    assert_string_equal(t, plain);
    free(t);
    t = nodebug("//\n// banner\n//\n\n.version 8.0\n\n// c\n.target sm_90\n\n\n// end\n\n");
    assert_string_equal(t, ".version 8.0\n\n.target sm_90\n");
    free(t);
    t = nodebug(".version 8.0\n.target sm_90\n.entry k()\n{\nA:\nB: ret;\n}\n\t.file 1 \"x\"");
    assert_string_equal(t, ".version 8.0\n.target sm_90\n.entry k()\n{\nret;\n}\n");
    free(t);
    t = nodebug("");
    assert_string_equal(t, "");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(debug_statements),
        cmocka_unit_test(debug_labels),
        cmocka_unit_test(text_without_debug),
        cmocka_unit_test(diff_ignores_what_is_dropped),
        cmocka_unit_test(edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
