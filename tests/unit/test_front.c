/* test_front.c - lexer, parser, tree and printers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ptx/ptx.h"
#include "front/lexer.h"
#include "front/parser_state.h"
#include "util/buf.h"

/* ---- helpers */

static ptx_module *parse(const char *text)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("t.ptx", text, strlen(text), &d);
    if (!m)
        print_error("unexpected parse error: %u:%u: %s\n", d.line, d.col, d.msg);
    assert_non_null(m);
    return m;
}

static int str_eq(ptx_str s, const char *c)
{
    return s.n == strlen(c) && memcmp(s.p, c, s.n) == 0;
}

static char *exact(const ptx_module *m)
{
    ptx_buf b = { 0 };
    ptx_emit_exact(m, &b);
    ptx_buf_putc(&b, 0);
    return b.p;
}

static char *canonical(const ptx_module *m)
{
    ptx_buf b = { 0 };
    ptx_emit_canonical(m, &b);
    ptx_buf_putc(&b, 0);
    return b.p;
}

/* m's tokens are those ptx_lex gives a token at a time: the parser's
   lexer takes tables' integers and instructions' operands without the
   scanner's DFA (lex_int_run, lex_after_word). */
static void expect_lexed_as_ptx_lex(const ptx_module *m)
{
    const unsigned char *src = (const unsigned char *)m->src;
    ptx_lexer lx = { src, src, src + m->size, NULL };
    for (uint32_t i = 0; i < m->ntoks; i++) {
        uint32_t start, len;
        int k = ptx_lex(&lx, &start, &len);
        assert_int_equal(k, m->toks[i].kind);
        assert_int_equal(start, m->toks[i].start);
        assert_int_equal(len, m->toks[i].len);
    }
    assert_int_equal(m->toks[m->ntoks - 1].kind, PTX_T_EOF);
}

/* Lexes text and checks the kinds (0-terminated list). */
static void expect_kinds(const char *text, const int *kinds)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 1);
    memcpy(buf, text, n + 1);
    ptx_lexer lx = { (unsigned char *)buf, (unsigned char *)buf,
                     (unsigned char *)buf + n, NULL };
    for (int i = 0;; i++) {
        uint32_t start, len;
        int k = ptx_lex(&lx, &start, &len);
        assert_int_equal(k, kinds[i]);
        if (k == PTX_T_EOF)
            break;
    }
    free(buf);
}

static const char *lex_error(const char *text, size_t n)
{
    static char copy[256];
    memcpy(copy, text, n);
    copy[n] = 0;
    ptx_lexer lx = { (unsigned char *)copy, (unsigned char *)copy,
                     (unsigned char *)copy + n, NULL };
    uint32_t start, len;
    int k;
    while ((k = ptx_lex(&lx, &start, &len)) > 0)
        ;
    return k < 0 ? lx.err : NULL;
}

/* ---- lexer */

static void lex_instruction(void **state)
{
    static const int k[] = { PTX_T_WORD, PTX_T_WORD, ',', '[', PTX_T_WORD, '+',
                             '-', PTX_T_INT, ']', ';', PTX_T_EOF };
    expect_kinds("ld.global.u32 %r1, [%rd2+-8]; // done", k);
}

static void lex_numbers(void **state)
{
    static const int k[] = { PTX_T_INT, PTX_T_INT, PTX_T_INT, PTX_T_INT,
                             PTX_T_INT, PTX_T_FLOAT, PTX_T_FLOAT, PTX_T_FLOAT,
                             PTX_T_FLOAT, PTX_T_FLOAT, PTX_T_FLOAT, PTX_T_EOF };
    expect_kinds("12 0x1F 017 0b101 7U 0f3F800000 0D3FF0000000000000 1.5 1e-3 "
                 "2.5E+4 8.3", k);
}

static void lex_directives(void **state)
{
    static const int k[] = { PTX_T_VERSION, PTX_T_FLOAT, PTX_T_ENTRY, PTX_T_DOTNAME,
                             PTX_T_DOTNAME, PTX_T_DOTNAME, PTX_T_CALLPROTOTYPE,
                             PTX_T_SHL, PTX_T_NE, PTX_T_STRING, PTX_T_DWARF,
                             PTX_T_EOF };
    expect_kinds(".version 8.3 .entry .reg .shared::cta .entryx .callprototype"
                 " << != \"a\\\"b\" @@DWARF .byte 0x01, 0x02\n", k);
}

static void lex_opcode_word(void **state)
{
    /* a dotted opcode with :: parts and digit-first parts is one word */
    static const int k[] = { PTX_T_WORD, PTX_T_WORD, ';', PTX_T_EOF };
    expect_kinds("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " %tid.x;", k);
}

static void lex_errors(void **state)
{
    assert_string_equal(lex_error("a /* open", 9), "unterminated /* comment");
    assert_string_equal(lex_error("\"abc\n\"", 6), "unterminated string");
    assert_string_equal(lex_error("ret\0;", 5), "unexpected NUL byte");
    assert_string_equal(lex_error("ret `", 5), "unexpected character");
    /* NUL and non-ASCII bytes inside comments are trivia */
    assert_null(lex_error("ret; // a\0b \xff\n", 14));
}

/* ---- parser and tree */

static void parse_instruction(void **state)
{
    ptx_module *m = parse(".entry k()\n{\n @!%p1 ld.global.v2.u32 {%r1, _}, [%rd2+8];\n}\n");
    ptx_stmt *f = m->items;
    assert_int_equal(f->kind, PTX_S_FUNC);
    ptx_stmt *s = f->u.func.body->stmts;
    assert_int_equal(s->kind, PTX_S_INSTR);
    ptx_instr *in = &s->u.instr;
    assert_true(str_eq(in->opcode, "ld"));
    assert_int_equal(in->nmods, 3);
    assert_true(str_eq(in->mods[0], "global"));
    assert_true(str_eq(in->mods[2], "u32"));
    assert_int_not_equal(in->bang, PTX_NOTOK);
    assert_true(str_eq(ptx_tok_str(m, in->pred), "%p1"));
    ptx_expr *vec = in->operands, *addr = vec->next;
    assert_int_equal(vec->kind, PTX_E_VECTOR);
    assert_int_equal(vec->a->kind, PTX_E_NAME);
    assert_true(str_eq(ptx_tok_str(m, vec->a->next->tok), "_"));
    assert_int_equal(addr->kind, PTX_E_ADDRESS);
    assert_int_equal(addr->a->kind, PTX_E_BINARY);
    assert_true(str_eq(ptx_tok_str(m, addr->a->b->tok), "8"));
    assert_null(addr->next);
    ptx_module_free(m);
}

static void parse_declarations(void **state)
{
    ptx_module *m = parse(".global .align 4 .b8 g[2][3] = {{1,2,3},{4,5,6}};\n"
                          ".entry k() { .reg .b32 %r<5>, %x; }\n");
    ptx_var *v = &m->items->u.var;
    assert_true(str_eq(ptx_tok_str(m, v->specs->next->tok), ".align"));
    assert_true(str_eq(ptx_tok_str(m, v->specs->next->arg->tok), "4"));
    assert_non_null(v->decls->dims->next);
    assert_int_equal(v->decls->init->kind, PTX_E_VECTOR);
    ptx_stmt *r = m->items->next->u.func.body->stmts;
    ptx_declarator *d = r->u.var.decls;
    assert_true(str_eq(ptx_tok_str(m, d->count), "5"));
    assert_true(str_eq(ptx_tok_str(m, d->next->name), "%x"));
    ptx_module_free(m);
}

/* A table long enough to take several of the lexer's batches, its values
   in every spelling, spacing and kind: the parser's tokens are the
   scanner's, one for one, and every value is an element of its own with
   the ',' after it (the lexer and the parser take runs of plain integers
   a batch at a time: yylex.h). */
static const struct { const char *text; int kind; } table_values[] = {
    { "1", PTX_E_INT }, { "23", PTX_E_INT }, { "0", PTX_E_INT },
    { "456", PTX_E_INT }, { "0x1F", PTX_E_INT }, { "012", PTX_E_INT },
    { "1U", PTX_E_INT }, { "-3", PTX_E_UNARY }, { "1.5", PTX_E_FLOAT },
    { "1e3", PTX_E_FLOAT }, { "(1+2)", PTX_E_PAREN }, { "g", PTX_E_NAME },
    { "7", PTX_E_INT }, { "8", PTX_E_INT }, { "9", PTX_E_INT },
};
static const char *const table_gaps[] = { ", ", ",", " , ", ",\n", ",  ", ", /*c*/ " };

static void tables_as_lexed(void **state)
{
    enum { N = 3000 };
    ptx_buf b = { 0 };
    ptx_buf_puts(&b, ".global .b8 g;\n.global .b8 t[] = {");
    int kinds[N];
    for (int i = 0, n = 0; n < N; i++) {
        size_t v = (size_t)(i % 7 == 6 ? i / 7 : i) % (sizeof table_values / sizeof *table_values);
        if (i % 5 && table_values[v].kind != PTX_E_INT)
            v = 0;  /* mostly plain integers, in runs */
        kinds[n++] = table_values[v].kind;
        ptx_buf_puts(&b, table_values[v].text);
        if (n < N)
            ptx_buf_puts(&b, table_gaps[(i / 40) % (sizeof table_gaps / sizeof *table_gaps)]);
    }
    ptx_buf_puts(&b, "};\n.global .u32 u[2][2] = {{1, 2}, {3, 4}}, w = 5;\n");
    ptx_buf_putc(&b, 0);
    ptx_module *m = parse(b.p);
    expect_lexed_as_ptx_lex(m);
    const ptx_expr *e = m->items->next->u.var.decls->init->a;
    for (int n = 0; n < N; n++, e = e->next) {
        assert_non_null(e);
        assert_int_equal(e->kind, kinds[n]);
        if (n + 1 < N)
            assert_true(str_eq(ptx_tok_str(m, e->sep), ","));
        else
            assert_int_equal(e->sep, PTX_NOTOK);
    }
    assert_null(e);
    char *out = exact(m);
    assert_string_equal(out, b.p);
    free(out);
    ptx_module_free(m);
    free(b.p);
}

/* The parser's lexer takes an instruction's registers, punctuation and
   integers without the scanner's DFA (lex_after_word): the tokens are
   ptx_lex's, whatever the spelling around them. */
static void operands_as_lexed(void **state)
{
    static const char text[] =
        ".entry k()\n{\n"
        "\tmov.u32 \t%r1, %tid.x;\n\tadd.s32 %r1,%r2 ,%r3;\n"
        "\tld.global.v2.u32 {%r1, %r2}, [%rd1+8];\n\tst.u32 [%rd1],%r1;\n"
        "\tadd.s32 %r1,  %r2,\t%r3;\n\tadd.s32 %r1,\n\t%r2, %r3;\n"
        "\tmov.u32 %r1, %r2;// c\n\tmov.u32 %r1, %r2/*c*/;\n"
        "\t@%p1 bra $L1;\n$L1:\n\tcall (%r1), f, (%r2);\n\tmov.b32 %r$1, %_x;\n"
        "\tmov.u32 %r1, %r2.x::y;\n\tmov.u32 %r1, a.b;\n\tst.u32 [%rd1+-4], -%r1;\n"
        "\tmov.u32 %r1, 7;\n\tadd.s32 %r1, %r2, 12;\n\tmov.u32 %r1, 0;\n"
        "\tmov.u32 %r1, 0x10;\n\tmov.u32 %r1, 012;\n\tmov.u32 %r1, 1U;\n"
        "\tmov.f32 %f1, 0f3F800000;\n\tmov.f32 %f1, 1.5;\n\tmov.f32 %f1, 1e3;\n"
        "\tld.u32 %r1, [%rd1+16];\n\tmov.u32 %r1, -7;\n\tmov.b64 %rd1, {7, %r1};\n"
        "\tmov.u32 %r1, 1+2;\n\tmov.u32 %r1,%r2;}";
    ptx_module *m = parse(text);
    expect_lexed_as_ptx_lex(m);
    ptx_module_free(m);
}

/* ---- fused tokens: the tree is the one the parse a token at a time builds */

static void dump_expr(ptx_buf *b, const ptx_expr *e)
{
    for (; e; e = e->next) {
        char s[96];
        snprintf(s, sizeof s, "(%u %u %u %u %u %u", e->kind, e->depth, e->tok, e->open,
                 e->close, e->sep);
        ptx_buf_puts(b, s);
        dump_expr(b, e->a);
        dump_expr(b, e->b);
        dump_expr(b, e->c);
        ptx_buf_putc(b, ')');
    }
}

/* Every statement's kind and first token, and the whole of instructions
   and variables (what fused tokens build), in bodies and blocks too. */
static void dump_stmts(ptx_buf *b, const ptx_module *m, const ptx_stmt *s)
{
    for (; s; s = s->next) {
        char t[128];
        snprintf(t, sizeof t, "\n%u %u", s->kind, s->first);
        ptx_buf_puts(b, t);
        if (s->kind == PTX_S_INSTR) {
            const ptx_instr *in = &s->u.instr;
            snprintf(t, sizeof t, " %u %u %u %u %u %.*s", in->at, in->bang, in->pred,
                     in->op, in->semi, (int)in->opcode.n, in->opcode.p);
            ptx_buf_puts(b, t);
            for (uint32_t k = 0; k < in->nmods; k++) {
                ptx_buf_putc(b, '.');
                ptx_buf_put(b, in->mods[k].p, in->mods[k].n);
            }
            dump_expr(b, in->operands);
        } else if (s->kind == PTX_S_VAR) {
            for (const ptx_declarator *d = s->u.var.decls; d; d = d->next) {
                snprintf(t, sizeof t, " %u %u %u", d->name, d->eq, d->sep);
                ptx_buf_puts(b, t);
                dump_expr(b, d->init);
            }
        } else if (s->kind == PTX_S_LABEL) {
            snprintf(t, sizeof t, " %u %u", s->u.label.name, s->u.label.colon);
            ptx_buf_puts(b, t);
        } else if (s->kind == PTX_S_SECTION) {
            dump_stmts(b, m, s->u.section.body.stmts);
        } else if (s->kind == PTX_S_FUNC && s->u.func.body) {
            dump_stmts(b, m, s->u.func.body->stmts);
        } else if (s->kind == PTX_S_BLOCK) {
            dump_stmts(b, m, s->u.block.stmts);
        }
    }
}

static char *dump(const ptx_module *m)
{
    ptx_buf b = { 0 };
    dump_stmts(&b, m, m->items);
    ptx_buf_putc(&b, 0);
    return b.p;
}

/* Instructions of every operand shape an INSTR holds and of shapes next
   to them that it does not, after each kind of statement end; runs of
   them with labels between, labels before what an INSTR does not hold
   (a block's end, a .callprototype, data in a debug section); tables. */
static const char fused_text[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .b8 t[8] = {1, 2, 3, 4, 5, 6, 0x7, 8}, u[2] = {1, 2};\n"
    ".global .u32 v[2][2] = {{1, 2}, {3, 4}}, w = 5;\n"
    ".entry k(.param .u64 p)\n{\n"
    "\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\tld.param.u64 %rd1, [p];\n\tret;\n\tmov.u32 %r1, 0;\n"
    "\tadd.s32 %r2, %r1, 4;\n\tmov.f32 %r3, 0f3F800000;\n"
    "\tld.global.v2.u32 {%r4, %r5}, [%rd1+8];\n\tst.global.u32 [%rd1], %r5;\n"
    "\tst.global.u32 [%rd1+-4], %r5;\n\tld.global.u32 %r6, [%rd1+%r2];\n"
    "\tmov.b64 %rd2, {%r1, 7};\n\tmov.b64 %rd3, {};\n"
    "\tsetp.ne.s32 %p1, %r1, 0;\n\t@%p1 bra $L__BB0_2;\n\t@!%p1 bra.uni $L__BB0_2;\n"
    "\t@%p1 exit;\n\t.loc 1 2 3\n\tadd.s32 %r7, %r1, %r2;\n"
    "$L__BB0_2:\n\tmul.lo.s32 %r8, %r7, 3;\n\t{ add.s32 %r8, %r8, 1; }\n"
    "\tcall.uni (%r1), f, (%r2);\n\tprmt.b32 %r1, %r2, %r3, 0x3210;\n"
    "$L__BB0_3:\n$L__BB0_4: @%p1 bra $L__BB0_3; $L__BB0_5: ret; $L__BB0_6: ret;\n"
    "{ $L__BB0_7: ret; $L__BB0_8: }\n"
    "\tadd.s32 %r1, %r2, -5;\n\tmov.f32 %r3, -0f3F800000;\n\tneg.s32 %r1, -%r2;\n"
    "\tld.u32 %r1, [%rd1+-4];\n\tst.u32 [%rd1+-8], -1;\n\tld.u32 %r1, [%rd1-4];\n"
    "\tmov.u32 %r1, - -1;\n\tmov.u32 %r1, -(1);\n\tld.u32 %r1, [%rd1+-%r2];\n"
    "$proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n$L__BB0_9:\n}\n"
    ".section .debug_str {\n$L__info_string0:\n.b8 65,0\n$L__info_string1:\n.b8 0\n}\n";

static void fused_as_unfused(void **state)
{
    ptx_diag d;
    ptx_module *a = ptx_parse_buffer("t.ptx", fused_text, strlen(fused_text), &d);
    ptx_module *b = ptx_parse_unfused("t.ptx", fused_text, strlen(fused_text), &d);
    assert_non_null(a);
    assert_non_null(b);
    char *x = dump(a), *y = dump(b);
    assert_string_equal(x, y);
    free(x);
    free(y);
    ptx_module_free(a);
    ptx_module_free(b);
}

/* Where a fused parse fails, the parse a token at a time reports. */
static void fused_errors_as_unfused(void **state)
{
    static const char *const bad[] = {
        ".entry k() { mov.u32 %r1 %r2; }",
        ".entry k() { mov.u32 %r1, [%rd1; }",
        ".entry k() { mov.u32 {%r1, %r2, [%rd1]; }",
        ".entry k() { foo; bar baz, ; }",
        ".global .b8 t[] = { , 1, 2, 3};",
        ".global .u32 x = p ? 1 : y;\n.entry k() { @%p1 ; }",
        ".entry k() { ret; } mov.u32 %r1, 1;",
        ".entry k() { ret; $L: ret; $M: mov.u32 %r1 %r2; }",
        ".entry k() { $L: $M: ret; ret, ; }",
        ".section .debug_str { $L: ret; }",
        ".entry k() { add.s32 %r1, -; }",
        ".entry k() { ld.u32 %r1, [%rd1+-]; }",
        ".entry k() { ld.u32 %r1, [%rd1+-4; }",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ptx_diag d1, d2;
        assert_null(ptx_parse_buffer("b.ptx", bad[i], strlen(bad[i]), &d1));
        assert_null(ptx_parse_unfused("b.ptx", bad[i], strlen(bad[i]), &d2));
        assert_string_equal(d1.msg, d2.msg);
        assert_int_equal(d1.line, d2.line);
        assert_int_equal(d1.col, d2.col);
    }
}

static void parse_function_header(void **state)
{
    ptx_module *m = parse(".visible .func (.param .b32 r) f(.param .u64 .ptr .global"
                          " .align 16 p, .reg .b32 q) .noreturn;\n"
                          ".entry k .maxntid 128, 1, 1 .minnctapersm 2 { ret; }\n");
    ptx_func *f = &m->items->u.func;
    assert_non_null(f->ret);
    assert_true(str_eq(ptx_tok_str(m, f->name), "f"));
    assert_non_null(f->params->params->next);
    assert_true(str_eq(ptx_tok_str(m, f->dirs->dir), ".noreturn"));
    assert_null(f->body);
    ptx_func *k = &m->items->next->u.func;
    assert_null(k->params);
    assert_true(str_eq(ptx_tok_str(m, k->dirs->args->next->next->tok), "1"));
    assert_true(str_eq(ptx_tok_str(m, k->dirs->next->dir), ".minnctapersm"));
    ptx_module_free(m);
}

static void parse_line_directives(void **state)
{
    ptx_module *m = parse(".version 8.3\n.target sm_90a, debug\n.address_size 64\n"
                          ".file 1 \"a.cu\", 1700000000, 42\n"
                          ".entry k() {\n.loc 1 2 3, function_name $L__s0, inlined_at 1 9 4\n"
                          "ret;\n}\n");
    ptx_stmt *s = m->items;
    assert_int_equal(s->kind, PTX_S_VERSION);
    assert_int_equal((s = s->next)->kind, PTX_S_TARGET);
    assert_non_null(s->u.dir.args->next);
    assert_int_equal((s = s->next)->kind, PTX_S_ADDRESS_SIZE);
    assert_int_equal((s = s->next)->kind, PTX_S_FILE);
    ptx_stmt *loc = s->next->u.func.body->stmts;
    assert_int_equal(loc->kind, PTX_S_LOC);
    int n = 0;
    for (ptx_expr *e = loc->u.dir.args; e; e = e->next)
        n++;
    assert_int_equal(n, 9); /* 1 2 3 function_name $L__s0 inlined_at 1 9 4 */
    assert_int_equal(loc->next->kind, PTX_S_INSTR);
    ptx_module_free(m);
}

static void parse_section_and_calls(void **state)
{
    ptx_module *m = parse(".section .debug_info\n{\n$L__a:\n.b32 .debug_abbrev\n"
                          ".b8 1, 2\n.b64 $L__a+4\n}\n"
                          ".entry k() {\nproto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                          "t: .branchtargets L1, L2;\ncall (r), %rd1, (a), proto;\n}\n");
    ptx_stmt *sec = m->items;
    assert_int_equal(sec->kind, PTX_S_SECTION);
    ptx_stmt *it = sec->u.section.body.stmts;
    assert_int_equal(it->kind, PTX_S_LABEL);
    assert_int_equal(it->next->kind, PTX_S_DATA);
    assert_int_equal(it->next->u.dir.args->kind, PTX_E_DOTNAME);
    ptx_stmt *b = m->items->next->u.func.body->stmts;
    assert_int_equal(b->kind, PTX_S_CALLPROTOTYPE);
    assert_int_equal(b->next->kind, PTX_S_BRANCHTARGETS);
    ptx_expr *ops = b->next->next->u.instr.operands;
    assert_int_equal(ops->kind, PTX_E_PAREN);
    assert_int_equal(ops->next->next->kind, PTX_E_PAREN);
    ptx_module_free(m);
}

static void parse_expressions(void **state)
{
    ptx_module *m = parse(".global .u64 p = generic(x)+4*2;\n.global .u32 q = (1<<4)|1;\n");
    ptx_expr *e = m->items->u.var.decls->init;
    assert_int_equal(e->kind, PTX_E_BINARY); /* generic(x) + (4*2) */
    assert_int_equal(e->a->kind, PTX_E_CALL);
    assert_int_equal(e->b->kind, PTX_E_BINARY);
    ptx_expr *q = m->items->next->u.var.decls->init;
    assert_true(str_eq(ptx_tok_str(m, q->tok), "|"));
    assert_int_equal(q->a->kind, PTX_E_PAREN);
    ptx_module_free(m);
}

/* ---- errors */

static void expect_error(const char *text, size_t n, unsigned line, unsigned col,
                         const char *msg_part)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("bad.ptx", text, n, &d);
    assert_null(m);
    assert_int_equal(d.line, line);
    assert_int_equal(d.col, col);
    if (!strstr(d.msg, msg_part))
        print_error("message '%s' lacks '%s'\n", d.msg, msg_part);
    assert_non_null(strstr(d.msg, msg_part));
}

static void errors_have_locations(void **state)
{
    const char *missing_semi = ".entry k() {\n  ret\n}\n";
    expect_error(missing_semi, strlen(missing_semi), 3, 1, "syntax error");
    const char *missing_brace = ".entry k() {\n ret;\n";
    expect_error(missing_brace, strlen(missing_brace), 3, 1, "end of file");
    expect_error("\x7f\x45LF", 4, 1, 1, "unexpected character");
    expect_error(".entry k() { ret; }\n/* never closed", 35, 2, 1, "unterminated");
    /* a ',' that starts a run of integers in an initializer is named as the
       ',' it is */
    const char *lone_comma = ".global .b8 t[] = { , 1, 2, 3};";
    expect_error(lone_comma, strlen(lone_comma), 1, 21, "unexpected ',', expecting '}'");
    const char *after_op = ".global .b8 t[] = {1 +, 2, 3};";
    expect_error(after_op, strlen(after_op), 1, 23, "unexpected ',', expecting an operand");
    /* "08" is two integers, however the operands are lexed (lex_after_word) */
    const char *zero_eight = ".entry k() { mov.u32 %r1, 08; }";
    expect_error(zero_eight, strlen(zero_eight), 1, 28, "unexpected integer '8'");
}

static void errors_nesting(void **state)
{
    size_t n = 5000;
    char *t = malloc(n + 16);
    memcpy(t, ".entry k()", 10);
    memset(t + 10, '{', n);
    ptx_diag d;
    assert_null(ptx_parse_buffer("deep.ptx", t, n + 10, &d));
    assert_non_null(strstr(d.msg, "nested deeper"));
    assert_int_equal(d.col, 10 + PTX_MAX_DEPTH + 1);
    free(t);
}

/* ---- printers */

static void exact_keeps_every_byte(void **state)
{
    const char *texts[] = {
        "",
        "// only a comment",
        ".version 8.3\r\n.target sm_90\r\n.address_size 64\r\n",
        ".entry k ( ) { ret ;}",
        ".entry k() {\n\t@%p1 /* c */ bra \t$L__BB0_1 ; // t\n$L__BB0_1 :\n ret;\n}   ",
        ".global .b8 g[] = { 1 , 0f3F800000 , -2 };",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        ptx_module *m = parse(texts[i]);
        char *out = exact(m);
        assert_string_equal(out, texts[i]);
        free(out);
        ptx_module_free(m);
    }
}

static void canonical_layout(void **state)
{
    ptx_module *m = parse("  .version 8.3 .target sm_90 /*x*/ .address_size 64\n"
                          ".visible .entry k(.param .u64 a,.param .u32 b) .maxntid 32,1,1\n"
                          "{ .reg .b32 %r<3>; @%p1 bra L; L: add.s32 %r1,%r2,-1; { ret; } }");
    char *c = canonical(m);
    assert_string_equal(c,
        ".version 8.3\n"
        ".target sm_90\n"
        ".address_size 64\n"
        "\n"
        ".visible .entry k(\n"
        "\t.param .u64 a,\n"
        "\t.param .u32 b\n"
        ")\n"
        ".maxntid 32, 1, 1\n"
        "{\n"
        "\t.reg .b32 %r<3>;\n"
        "\t@%p1 bra\tL;\n"
        "L:\n"
        "\tadd.s32\t%r1, %r2, -1;\n"
        "\t{\n"
        "\t\tret;\n"
        "\t}\n"
        "}\n");
    free(c);
    ptx_module_free(m);
}

/* A list's one-token elements and their ',' (canonical_leaf): after a
   tab or a space or nothing, longer than the fixed-size copy, and at the
   end of the source. */
static void canonical_leaves(void **state)
{
    static const char text[] =
        ".entry k() { mov.u32 %a_register_name_longer_than_32_bytes,%r2; "
        "call (%r1), f, (%r2, %r3); st.u32 [%rd1],%r1;}";
    ptx_module *m = parse(text);
    char *c = canonical(m);
    assert_string_equal(c,
        ".entry k()\n"
        "{\n"
        "\tmov.u32\t%a_register_name_longer_than_32_bytes, %r2;\n"
        "\tcall\t(%r1), f, (%r2, %r3);\n"
        "\tst.u32\t[%rd1], %r1;\n"
        "}\n");
    free(c);
    ptx_module_free(m);
}

static void canonical_keeps_tokens(void **state)
{
    /* `a % b` must stay two tokens plus operator, not `a` `%b` */
    ptx_module *m = parse(".global .u32 x = 7 % 3, y = a ? 1 : 2;\n");
    char *c = canonical(m);
    assert_string_equal(c, ".global .u32 x = 7 % 3, y = a ? 1 : 2;\n");
    const char *src = ".global .u32 x = 7 % 3, y = a ? 1 : 2;\n";
    size_t a, b;
    assert_int_equal(ptx_same_tokens(src, strlen(src), c, strlen(c), &a, &b, NULL), 1);
    assert_int_equal(ptx_same_tokens("a b", 3, "a c", 3, &a, &b, NULL), 0);
    assert_int_equal(b, 2);
    free(c);
    ptx_module_free(m);
}

/* Where a module may be cut: after a function's closing brace or a
   declaration's semicolon that ends a line, where a top-level directive
   follows; never inside a function, nor after a `}` or `;` that does not
   stand so. */
static void cut_between_items(void **state)
{
    (void)state;
    static const struct { const char *text; const char *after; } cases[] = {
        { ".global .b8 a[2] = {1, 2};\n.global .b8 b;\n", "{1, 2};" },
        { ".global .b8 a;   \r\n// note\n\n.visible .entry k()\n{\n}\n", "a;" },
        { ".entry k()\n{\n\tret;\n}\n.entry j()\n{\n}\n", "\n}" },
        { ".entry k()\n{\n\tret;\n\tret;\n}\n", NULL },   /* no item follows */
        { ".visible\n.entry k()\n{\n}\n", NULL },            /* an item's middle */
        { ".entry k()\n{\n\tret; }\n.entry j()\n{\n}\n", NULL }, /* `}` not first */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *t = cases[i].text;
        size_t n = strlen(t);
        const char *a = cases[i].after ? strstr(t, cases[i].after) : NULL;
        size_t want = a ? (size_t)(a - t) + strlen(cases[i].after) : n;
        assert_int_equal(ptx_cut_after(t, n, 1), want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lex_instruction),
        cmocka_unit_test(lex_numbers),
        cmocka_unit_test(lex_directives),
        cmocka_unit_test(lex_opcode_word),
        cmocka_unit_test(lex_errors),
        cmocka_unit_test(parse_instruction),
        cmocka_unit_test(parse_declarations),
        cmocka_unit_test(tables_as_lexed),
        cmocka_unit_test(operands_as_lexed),
        cmocka_unit_test(fused_as_unfused),
        cmocka_unit_test(fused_errors_as_unfused),
        cmocka_unit_test(parse_function_header),
        cmocka_unit_test(parse_line_directives),
        cmocka_unit_test(parse_section_and_calls),
        cmocka_unit_test(parse_expressions),
        cmocka_unit_test(errors_have_locations),
        cmocka_unit_test(errors_nesting),
        cmocka_unit_test(exact_keeps_every_byte),
        cmocka_unit_test(canonical_layout),
        cmocka_unit_test(canonical_leaves),
        cmocka_unit_test(canonical_keeps_tokens),
        cmocka_unit_test(cut_between_items),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
