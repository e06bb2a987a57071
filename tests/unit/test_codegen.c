/*
 * test_codegen.c - pyptx-codegen pieces: attribute mangling, Python string
 * literals, generated snippets (each checked by tracing it with pyptx
 * 0.1.1: the whole module of K1 passes tests/pyptx/harness.py), the IR
 * (renaming by identity, splicing a node in place of a run) and errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "codegen/build.h"
#include "codegen/pystr.h"
#include "ptx/codegen.h"
#include "ptx/ptx.h"
#include "util/buf.h"

static const char K1[] =
    ".version 8.5\n.target sm_90a\n.address_size 64\n\n"
    ".visible .entry k(\n"
    "\t.param .u64 .ptr .global .align 16 k_p,\n"
    "\t.param .align 64 .b8 tma[128]\n)\n{\n"
    "\t.reg .b32 %r<5>;\n\t.reg .pred %p<3>;\n\t.reg .b64 %rd<3>;\n"
    "\t.shared .align 4 .f32 tile[64];\n"
    "\tmov.u32 %r1, %smid;\n"
    "\tsetp.lt.u32 %p1|%p2, %r1, 0x1F;\n"
    "\t{\n\t.reg .b32 %t;\n\tadd.s32 %t, %r1, -8;\n\t}\n"
    "\t.loc 1 2 3\n"
    "\t.reg .b32 %a, %b;\n"
    "\tmov.b32 %a, %b;\n"
    "\t@!%p1 bra.uni $L_end;\n"
    "\tcp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
    " [%r2], [tma, {%r3, %r4}], [%r1];\n"
    "\tld.shared.v2.f32 {%r1, %r2}, [tile+4];\n"
    "\tst.global.u32 [%rd1+-8], %r2;\n"
    "$L_end:\n\tret;\n}\n";

/* Lines of the generated file for K1, verified with pyptx 0.1.1. */
static const char *const K1_LINES[] = {
    "        (\"u64.ptr.global.palign16\", \"k_p\"),\n",
    "        (\"b8.align64.array128\", \"tma\"),\n",
    "    r = reg.array(b32, 5, name=\"%r\")\n",
    "    p = reg.array(pred, 3, name=\"%p\")\n",
    "    ptx.var(\"shared\", f32, \"tile\", size=64, align=4)\n",
    "    ptx.inst.mov.u32(r[1], ptx.sreg(\"%smid\"))\n",
    "    ptx.inst.setp.lt.u32(p[1] | p[2], r[1], \"0x1F\")\n",
    "    with ptx.scope():\n        t = reg.scalar(b32, name=\"%t\")\n"
    "        ptx.inst.add.s32(t, r[1], -8)\n",
    "    _raw(\"\\t.loc 1 2 3\")  # .loc: ",
    "    _raw(\"\\t.reg .b32 %a, %b;\")  # several registers in one declaration\n"
    "    a = Reg(\"%a\", b32)\n    b = Reg(\"%b\", b32)\n",
    "    ptx.inst.bra.uni(\"$L_end\", pred=~p[1])\n",
    "    ptx.inst.cp.async_.bulk.tensor._2d.shared__cluster.global_."
    "mbarrier__complete_tx__bytes(ptx.addr(r[2]), "
    "ptx._make_tma_address(\"tma\", (r[3], r[4])), ptx.addr(r[1]))\n",
    "    ptx.inst.ld.shared.v2.f32([r[1], r[2]], ptx.addr(\"tile\", 4))\n",
    "    ptx.inst.st.global_.u32(ptx.addr(rd[1], \"+-8\"), r[2])\n",
    "    ptx.label(\"$L_end\")\n    ptx.inst.ret()\n",
    "KERNELS = {\n    \"k\": k,\n}\n",
    "UNSUPPORTED = {}\n",
    "from pyptx.types import b32, b64, f32, pred\n",
};

static ptx_module *parse(const char *s)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("t.ptx", s, strlen(s), &d);
    assert_non_null(m);
    return m;
}

static char *gen(const char *src, const ptx_codegen_options *o, int *rc)
{
    ptx_module *m = parse(src);
    ptx_buf b = { 0 };
    ptx_diag d;
    *rc = ptx_codegen(m, o, &b, &d);
    ptx_buf_putc(&b, 0);
    ptx_module_free(m);
    return b.p;
}

static void test_mangle(void **state)
{
    static const struct { const char *in, *out; } ok[] = {
        { "global", "global_" }, { "and", "and_" }, { "shared::cta", "shared__cta" },
        { "2d", "_2d" }, { "32x32b", "_32x32b" }, { "mbarrier::complete_tx::bytes",
          "mbarrier__complete_tx__bytes" }, { "u32", "u32" },
    };
    char buf[64];
    for (unsigned i = 0; i < sizeof ok / sizeof *ok; i++) {
        size_t n = cg_mangle(ok[i].in, strlen(ok[i].in), buf, sizeof buf);
        assert_int_equal(n, strlen(ok[i].out));
        assert_string_equal(buf, ok[i].out);
    }
    static const char *const bad[] = { "a__b", "x_", "_2x", "a-b", "$x", "a:b" };
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(cg_mangle(bad[i], strlen(bad[i]), buf, sizeof buf), 0);
}

/* The length-grouped word tables against lists written out here: Python
   3's keyword.kwlist, and cg_types (whose index cg_type_index returns). */
static void test_word_tables(void **state)
{
    (void)state;
    static const char *const kw[] = {
        "False", "None", "True", "and", "as", "assert", "async", "await",
        "break", "class", "continue", "def", "del", "elif", "else", "except",
        "finally", "for", "from", "global", "if", "import", "in", "is",
        "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
        "while", "with", "yield",
    };
    for (unsigned i = 0; i < sizeof kw / sizeof *kw; i++) {
        assert_true(cg_py_keyword(kw[i], strlen(kw[i])));
        assert_true(cg_py_reserved(kw[i], strlen(kw[i])));
        assert_false(cg_py_keyword(kw[i], strlen(kw[i]) - 1));
    }
    static const char *const not_kw[] = { "match", "glob", "u32", "x", "", "continues" };
    for (unsigned i = 0; i < sizeof not_kw / sizeof *not_kw; i++)
        assert_false(cg_py_keyword(not_kw[i], strlen(not_kw[i])));
    for (unsigned i = 0; i < cg_ntypes; i++)
        assert_int_equal(cg_type_index(cg_types[i], strlen(cg_types[i])), (int)i);
    assert_int_equal(cg_type_index("b12", 3), -1);
    assert_int_equal(cg_type_index("f16x", 4), -1);
    static const char *const reserved[] = { "sys", "_entry_text", "UNSUPPORTED",
                                            "module_ptx", "f16x2", "RegArray" };
    for (unsigned i = 0; i < sizeof reserved / sizeof *reserved; i++)
        assert_true(cg_py_reserved(reserved[i], strlen(reserved[i])));
    assert_false(cg_py_reserved("r1", 2));
    assert_false(cg_py_reserved("Regs", 4));
}

static void test_pystr(void **state)
{
    ptx_buf b = { 0 };
    py_str(&b, "a\t\"\\\n\x01\xc3\xa9\xff", 9);
    ptx_buf_putc(&b, 0);
    assert_string_equal(b.p, "\"a\\t\\\"\\\\\\n\\x01\xc3\xa9\\udcff\"");
    /* one literal per line; no empty literal after a final newline; a long
       plain run (the 8-byte skip) and an escape right after it */
    b.n = 0;
    py_lines(&b, "a\n\tb\"\nc", 7, "\n  ");
    py_lines(&b, "x\n0123456789abcdef\x7f\n", 20, "|");
    py_escape_cstr(&b, "n\\m");
    ptx_buf_putc(&b, 0);
    assert_string_equal(b.p, "\"a\\n\"\n  \"\\tb\\\"\\n\"\n  \"c\""
                             "\"x\\n\"|\"0123456789abcdef\\x7f\\n\""
                             "n\\\\m");
    ptx_buf_free(&b);
}

/* One byte that is not plain, at every offset of a plain 48-byte text
   (the 16-byte test and its tail), is escaped there and nowhere else; a
   byte that is plain is copied. */
static void test_pystr_positions(void **state)
{
    static const struct { unsigned char c; const char *esc; } cases[] = {
        { 0x00, "\\x00" }, { 0x1f, "\\x1f" }, { '\t', "\\t" },
        { '\n', "\\n" }, { '\r', "\\r" }, { '"', "\\\"" },
        { '\\', "\\\\" }, { 0x7f, "\\x7f" }, { 0x80, "\\udc80" },
        { 0xff, "\\udcff" }, { ' ', " " }, { '~', "~" }, { '!', "!" },
    };
    char in[48], want[80];
    ptx_buf b = { 0 };
    for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (size_t at = 0; at < sizeof in; at++) {
            for (size_t i = 0; i < sizeof in; i++)
                in[i] = (char)('a' + i % 26);
            in[at] = (char)cases[c].c;
            snprintf(want, sizeof want, "%.*s%s%.*s", (int)at, in,
                     cases[c].esc, (int)(sizeof in - at - 1), in + at + 1);
            b.n = 0;
            py_escape(&b, in, sizeof in);
            ptx_buf_putc(&b, 0);
            assert_string_equal(b.p, want);
        }
    }
    /* a UTF-8 sequence across the escaper's 4096-byte chunks, and a
       separator longer than its 16-byte copy */
    static char big[4200], bigwant[4300];
    memset(big, 'a', sizeof big);
    memcpy(big + 4095, "\xc3\xa9", 2);
    big[4100] = '\n';
    b.n = 0;
    py_lines(&b, big, 4102, "\n                  # ");
    ptx_buf_putc(&b, 0);
    memset(bigwant, 'a', sizeof bigwant);
    bigwant[0] = '"';
    strcpy(bigwant + 4096, "\xc3\xa9" "aaa\\n\"\n                  # \"a\"");
    assert_string_equal(b.p, bigwant);
    ptx_buf_free(&b);
}

/* Every one of want[0..n) appears in py. */
static void expect_lines(const char *py, const char *const *want, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (!strstr(py, want[i]))
            fail_msg("missing in output:\n%s\n--- output:\n%s", want[i], py);
}

/* Plain codegen of src succeeds, and its output has the lines of want. */
static void expect_codegen(const char *src, const char *const *want, unsigned n)
{
    ptx_codegen_options o = { 0 };
    int rc;
    char *py = gen(src, &o, &rc);
    assert_int_equal(rc, 0);
    expect_lines(py, want, n);
    free(py);
}

/* Blank lines and comments between statements (short gaps, tested in one
   16-byte load, and a long one): each kept on a line of its own. */
static const char K2[] =
    ".version 8.5\n.target sm_90a\n.address_size 64\n"
    ".visible .entry k2()\n{\n\t.reg .b32 %r<4>;\n"
    "\tmov.u32 %r1, 1;\n\n\tmov.u32 %r2, 2; // c\n\tmov.u32 %r3, 3;\n"
    " \t\n\t// x\n\tret;\n\n"
    "                                \tret;\n}\n";

static void test_gaps(void **state)
{
    static const char *const want[] = {
        "    ptx.inst.mov.u32(r[1], 1)\n    _raw(\"\")\n"
        "    ptx.inst.mov.u32(r[2], 2)\n"
        "    _raw(\"\\t// c\")  # trailing comment of the line above, on a line of its own\n"
        "    ptx.inst.mov.u32(r[3], 3)\n    _raw(\"\")\n    _raw(\"\\t// x\")\n"
        "    ptx.inst.ret()\n    _raw(\"\")\n    ptx.inst.ret()\n",
    };
    ptx_codegen_options o = { 0 };
    int rc;
    char *py = gen(K2, &o, &rc);
    assert_int_equal(rc, 0);
    expect_lines(py, want, 1);
    free(py);
}

/* ptx.inst paths of opcode words: common parts take a shortcut in
   cg_mangle (names.c mangle_common) that must spell them as its full
   checks do, and leave every other part to them.  Expected paths by
   DESIGN.md 4.5. */
static void test_opcode_paths(void **state)
{
    (void)state;
    static const struct { const char *word, *call; } cases[] = {
        { "mma_async.sync.aligned.m64n256k16.f32", "ptx.inst.mma_async.sync.aligned.m64n256k16.f32(" },
        { "ld.global.L2::128B.v4.u32", "ptx.inst.ld.global_.L2__128B.v4.u32(" },
        { "op.if.2d.in", "ptx.inst.op.if_._2d.in_(" },
        { "op.a::_b", "ptx.inst.op.a___b(" },           /* general way */
        { "op.x_::y", "_raw(\"\\top.x_::y %r1;\")" },  /* "x___y" reads back as x::_y */
        { "op.wait_", "_raw(\"\\top.wait_ %r1;\")" },  /* trailing '_' */
        { "op.a__b", "_raw(\"\\top.a__b %r1;\")" },    /* "__" reads back as "::" */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[512];
        snprintf(src, sizeof src, ".version 8.5\n.target sm_90a\n.address_size 64\n"
                 ".visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n\t%s %%r1;\n}\n",
                 cases[i].word);
        ptx_codegen_options o = { 0 };
        int rc;
        char *py = gen(src, &o, &rc);
        assert_int_equal(rc, 0);
        if (!strstr(py, cases[i].call))
            fail_msg("%s: no %s in\n%s", cases[i].word, cases[i].call, py);
        free(py);
    }
}

static void test_kernel_snippets(void **state)
{
    ptx_codegen_options o = { 0 };
    int rc;
    char *py = gen(K1, &o, &rc);
    assert_int_equal(rc, 0);
    expect_lines(py, K1_LINES, sizeof K1_LINES / sizeof *K1_LINES);
    /* everything outside the entry is carried verbatim, the module
       header as one literal */
    assert_non_null(strstr(py, "    (\".version 8.5\\n.target sm_90a\\n.address_size 64\\n\\n\"\n"));
    free(py);
}

/* Name resolution (DESIGN.md 4.3) through the builder's caches: the
   innermost binding wins, an array whose index is out of range hides the
   outer one of the same base, equal depths take the shortest base, a
   leading zero is no index, and leaving a scope restores the outer
   bindings. */
static void test_resolution(void **state)
{
    static const char src[] =
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        "\t.reg .b32 %r<20>;\n\t.reg .b32 %q1<4>;\n\t.reg .b32 %q<16>;\n"
        "\tmov.b32 %r12, %r05;\n"
        "\tmov.b32 %q13, %q17;\n"
        "\tmov.b32 %q11, %q7;\n"
        "\t{\n\t.reg .b32 %r<2>;\n\t.reg .b32 %r3;\n\t.reg .b32 %q1<4>;\n"
        "\tmov.b32 %r1, %r5;\n"
        "\tmov.b32 %r3, %r0;\n"
        "\tmov.b32 %q11, %q3;\n"
        "\t}\n"
        "\tmov.b32 %r3, %r5;\n"
        "\tmov.b32 %q11, %q1;\n"
        "\tret;\n}\n";
    static const char *const want[] = {
        "    ptx.inst.mov.b32(r[12], \"%r05\")\n",  /* leading zero */
        "    ptx.inst.mov.b32(q[13], \"%q17\")\n",  /* %q before %q1; 17 fits neither */
        "    ptx.inst.mov.b32(q[11], q[7])\n",
        "        ptx.inst.mov.b32(r_2[1], \"%r5\")\n",  /* inner %r<2> hides the outer */
        "        ptx.inst.mov.b32(r3, r_2[0])\n",       /* inner scalar %r3 */
        "        ptx.inst.mov.b32(q1_2[1], q[3])\n",    /* deeper %q1 beats %q */
        "    ptx.inst.mov.b32(r[3], r[5])\n",          /* outer bindings again */
        "    ptx.inst.mov.b32(q[11], q[1])\n",
    };
    expect_codegen(src, want, sizeof want / sizeof *want);
}

/* Element names where no array base ends in a digit (symtab.c
   trailing_index): the index is the decimal digits that end the name. */
static void test_resolution_elements(void **state)
{
    (void)state;
    static const char src[] =
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k()\n{\n"
        "\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<2000000000>;\n"
        "\tmov.b32 %r0, %r19;\n"
        "\tmov.b32 %r05, %r20;\n"
        "\tmov.b64 %rd999999999, %rd1234567890;\n"
        "\tmov.b64 %rd0123, %rd;\n"
        "\tret;\n}\n";
    static const char *const want[] = {
        "    ptx.inst.mov.b32(r[0], r[19])\n",
        "    ptx.inst.mov.b32(\"%r05\", \"%r20\")\n",       /* leading zero; past the end */
        "    ptx.inst.mov.b64(rd[999999999], \"%rd1234567890\")\n", /* ten digits */
        "    ptx.inst.mov.b64(\"%rd0123\", \"%rd\")\n",
    };
    expect_codegen(src, want, sizeof want / sizeof *want);
}

/* Python names of registers declared again in nested blocks take the
   next free suffix: r, r_2, ..., r_12. */
static void test_name_suffixes(void **state)
{
    (void)state;
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src,
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k()\n{\n\t.reg .b32 %%r<2>;\n");
    for (int i = 0; i < 11; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "\t{\n\t.reg .b32 %%r<2>;\n");
    n += (size_t)snprintf(src + n, sizeof src - n, "\tmov.b32 %%r1, %%r0;\n");
    for (int i = 0; i < 11; i++)
        n += (size_t)snprintf(src + n, sizeof src - n, "\t}\n");
    snprintf(src + n, sizeof src - n, "\tret;\n}\n");
    static const char *const want[] = {
        "    r = reg.array(b32, 2, name=\"%r\")\n",
        "        r_2 = reg.array(b32, 2, name=\"%r\")\n",
        "ptx.inst.mov.b32(r_12[1], r_12[0])\n",
    };
    expect_codegen(src, want, sizeof want / sizeof *want);
}

static void test_unsupported(void **state)
{
    static const char src[] =
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        ".visible .entry noparams\n{\n\tret;\n}\n";
    ptx_codegen_options o = { 0 };
    int rc;
    char *py = gen(src, &o, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(py, "UNSUPPORTED = {\n    \"noparams\": \"no parameter list"));
    assert_non_null(strstr(py, "KERNELS = {}\n"));
    assert_non_null(strstr(py, "\".visible .entry noparams\\n\""));
    free(py);
}

static void test_name_option(void **state)
{
    static const char two[] =
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        ".visible .entry a()\n{\n\tret;\n}\n.visible .entry b()\n{\n\tret;\n}\n";
    ptx_codegen_options o = { .name = "x" };
    ptx_module *m = parse(two);
    ptx_buf b = { 0 };
    ptx_diag d;
    assert_int_equal(ptx_codegen(m, &o, &b, &d), -1);
    assert_non_null(strstr(d.msg, "exactly one .entry"));
    ptx_module_free(m);
    ptx_buf_free(&b);
    int rc;
    o.name = "class"; /* a Python keyword: the __name__ form */
    char *py = gen(K1, &o, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(py, "_k0.__name__ = \"class\"\n_k0 = kernel(\n"));
    assert_non_null(strstr(py, "    \"class\": _k0,\n"));
    free(py);
}

/* Sugar prints only what the file needs (DESIGN.md 1): where the module is
   its one kernel's k.ptx(), the imports it uses, the kernel and a __main__
   that prints k.ptx(), one blank line between them as pyptx's own codegen
   writes; where it carries more, _MODULE and module_ptx(),
   and no KERNELS; bytes written as bytes where the module is not ASCII. */
static void test_readable_shape(void **state)
{
    static const char exact[] =
        ".version 8.5\n.target sm_90a\n.address_size 64\n\n"
        ".visible .entry k()\n{\n\tret;\n}\n";
    static const char carried[] =
        "// caf\xc3\xa9\n.version 8.5\n.target sm_90a\n.address_size 64\n\n"
        ".visible .entry k()\n{\n\tret;\n}\n";
    const uint32_t every = (uint32_t)((1ull << ptx_codegen_npasses()) - 1);
    ptx_codegen_options o = { .sugar = every };
    int rc;
    char *py = gen(exact, &o, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(py, "from pyptx import kernel, ptx\n\n"
                            "@kernel(arch=\"sm_90a\", version=(8, 5))\ndef k():\n"
                            "    ptx.ret()\n\n"
                            "if __name__ == \"__main__\":\n    print(k.ptx(), end=\"\")\n");
    free(py);
    py = gen(carried, &o, &rc);
    assert_int_equal(rc, 0);
    assert_int_equal(strncmp(py, "import sys\nfrom pyptx import kernel, ptx\n", 41), 0);
    assert_null(strstr(py, "KERNELS"));
    assert_null(strstr(py, "UNSUPPORTED"));
    assert_null(strstr(py, "_raw"));
    assert_non_null(strstr(py, "_MODULE = (\n"));
    assert_non_null(strstr(py, "    sys.stdout.buffer.write(module_ptx().encode(\"utf-8\", "
                               "\"surrogateescape\"))\n"));
    free(py);
}

/* With sugar the head (imports) is printed after the kernels and put in
   front of them: into a buffer that already holds text, after that text,
   the same bytes as into an empty one. */
static void test_appends(void **state)
{
    static const char src[] =
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n"
        "\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 1;\n\tret;\n}\n";
    const uint32_t every = (uint32_t)((1ull << ptx_codegen_npasses()) - 1);
    for (int sugar = 0; sugar < 2; sugar++) {
        ptx_codegen_options o = { .sugar = sugar ? every : 0 };
        int rc;
        char *alone = gen(src, &o, &rc);
        assert_int_equal(rc, 0);
        ptx_module *m = parse(src);
        ptx_buf b = { 0 };
        ptx_diag d;
        ptx_buf_puts(&b, "# before\n");
        assert_int_equal(ptx_codegen(m, &o, &b, &d), 0);
        ptx_buf_putc(&b, 0);
        assert_int_equal(strncmp(b.p, "# before\n", 9), 0);
        assert_string_equal(b.p + 9, alone);
        assert_non_null(strstr(alone, "from pyptx import kernel"));
        ptx_buf_free(&b);
        ptx_module_free(m);
        free(alone);
    }
}

/* An extension node of a test's own (codegen knows no layer's kinds):
   prints the comment its payload points to. */
static void print_note(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                       ptx_buf *out)
{
    (void)m, (void)k;
    for (int i = 0; i < depth; i++)
        ptx_buf_puts(out, "    ");
    ptx_buf_puts(out, *(const char **)s->u.ext.node);
    ptx_buf_putc(out, '\n');
}
static const cg_ext note_ext = { "note", print_note, sizeof(const char *), 0 };

/* Renaming is one assignment; cg_splice puts a node in place of a run and
   hands the run back; a node prints through its kind's printer, an
   extension node through its row. */
static void test_ir_rename_and_splice(void **state)
{
    ptx_module *pm = parse(K1);
    ptx_codegen_options o = { 0 };
    cg_module *m;
    ptx_diag d;
    assert_int_equal(cg_build(pm, &o, &m, &d), 0);
    cg_kernel *k = &m->kernels[0];
    for (cg_symid i = 0; i < k->nsyms; i++) {
        if (!strcmp(k->syms[i].ptx, "%b"))
            k->syms[i].ptx = "%bee";
        if (!strcmp(k->syms[i].ptx, "$L_end"))
            k->syms[i].ptx = "done";
    }
    /* replace the first two statements (reg decls) by an extension node */
    cg_stmt *first = k->body, *last = first->next, *third = last->next;
    cg_stmt *node = cg_ext_new(m, CG_S_EXT, &note_ext, PTX_NOTOK);
    *(const char **)node->u.ext.node = "# two declarations were here";
    assert_null(cg_body(node));
    assert_ptr_equal(cg_splice(&k->body, last, node), first);
    assert_ptr_equal(k->body, node);
    assert_ptr_equal(node->next, third);
    assert_ptr_equal(first->next, last);
    assert_null(last->next);
    ptx_buf b = { 0 };
    cg_print_head(m, NULL, 0, &b);
    cg_print_kernel(m, k, &b);
    cg_print_tail(m, &b);
    ptx_buf_putc(&b, 0);
    assert_non_null(strstr(b.p, "def k():\n    # two declarations were here\n"
                                "    rd = reg.array(b64, 3, name=\"%rd\")\n"));
    assert_null(strstr(b.p, "reg.array(b32, 5"));
    assert_non_null(strstr(b.p, "_raw(\"\\t.reg .b32 %a, %bee;\")"));
    assert_non_null(strstr(b.p, "    b = Reg(\"%bee\", b32)\n"));
    assert_non_null(strstr(b.p, "ptx.inst.bra.uni(\"done\", pred=~p[1])"));
    assert_non_null(strstr(b.p, "    ptx.label(\"done\")\n"));
    ptx_buf_free(&b);
    cg_module_free(m);
    ptx_module_free(pm);
}

static void test_passes_table(void **state)
{
    assert_true(ptx_codegen_npasses() > 0);
    for (unsigned i = 0; i < ptx_codegen_npasses(); i++)
        assert_int_equal(ptx_codegen_pass_bit(ptx_codegen_pass_name(i)), 1u << i);
    assert_int_equal(ptx_codegen_pass_bit("no-such-pass"), 0);
}

/* cg_scan_uses: a name is a word outside literals and comments, not after
   a '.': literals longer than the scanner's blocks (16 or 64 bytes), with
   escaped quotes and backslashes, end where Python ends them (and at a
   line's end); a name after one is found.  Each case stands at every
   offset in a block, in both sizes of block. */
static void test_scan_uses(void **state)
{
    (void)state;
    static const char *const names[] = { "reg", "smem", "u32", "sys", "pred" };
    static const struct {
        const char *code;
        uint64_t want;
    } cases[] = {
        { "x = \"reg smem u32 sys pred, all of it in one string\" + 1\n", 0 },
        { "x = \"a long string, an escaped \\\" quote, reg\" ; smem\n", 1u << 1 },
        { "x = 'a long string with \\\\ a backslash, then' + u32\n", 1u << 2 },
        { "x = \"no end on this line, reg smem\nsys = 1\n", 1u << 3 },
        { "# reg smem u32 in a comment, long enough\npred = ptx.reg.u32\n", 1u << 4 },
        { "s = \"0123456789abcdef0123456789abcdef\\\\\"; reg\n", 1u << 0 },
        { "x = \"a string\", reg, smem\nu32 = sys + pred.reg  # and all found\n", 0x1f },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* the scanner reads 64 bytes past a block's word: room after */
        char buf[512] = { 0 };
        size_t n = strlen(cases[i].code);
        memcpy(buf, cases[i].code, n);
        assert_int_equal(cg_scan_uses(buf, n, names, 5, 0), cases[i].want);
        for (size_t at = 1024; at < 1024 + 64; at++)
            for (unsigned block = 16; block <= 64; block *= 4) {
                /* the same between blocks of spaces: the blocks stop
                   short of the end by a word's 64 bytes and one block */
                char big[4096];
                memset(big, ' ', sizeof big);
                memcpy(big + at, cases[i].code, n);
                assert_int_equal(cg_scan_uses_in(big, at + n + 256, names, 5, 0, block),
                                 cases[i].want);
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mangle),
        cmocka_unit_test(test_word_tables),
        cmocka_unit_test(test_pystr),
        cmocka_unit_test(test_pystr_positions),
        cmocka_unit_test(test_gaps),
        cmocka_unit_test(test_opcode_paths),
        cmocka_unit_test(test_kernel_snippets),
        cmocka_unit_test(test_resolution),
        cmocka_unit_test(test_resolution_elements),
        cmocka_unit_test(test_name_suffixes),
        cmocka_unit_test(test_unsupported),
        cmocka_unit_test(test_name_option),
        cmocka_unit_test(test_ir_rename_and_splice),
        cmocka_unit_test(test_passes_table),
        cmocka_unit_test(test_readable_shape),
        cmocka_unit_test(test_appends),
        cmocka_unit_test(test_scan_uses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
