/*
 * print.c - statements and operands of a kernel body as Python
 * (DESIGN.md 4, 5).  Every statement kind prints through its row of
 * `printers`; the layer above's kinds through their own rows (cg_ext),
 * its operands and instructions through m->layer.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "codegen/pystr.h"
#include "util/buf.h"

/* Statements, operands and indices are written in place (ptx_buf_room):
   they are short, and a call to memcpy or strlen for each would cost more
   than the bytes. */

/* depth levels of indentation at w (room for 4 * depth bytes). */
static char *put_indent(char *w, int depth)
{
    for (int i = 0; i < depth; i++, w += 4)
        memcpy(w, "    ", 4);
    return w;
}

static void indent(ptx_buf *out, int depth)
{
    if (depth <= 0)
        return; /* (the buffer may still be NULL) */
    char *w = put_indent(ptx_buf_room(out, (size_t)depth * 4), depth);
    out->n = (size_t)(w - out->p);
}

char *cg_put_digits(char *w, uint32_t v, int brackets)
{
    static const char pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    size_t nd = 1;
    uint32_t t = v;
    for (; t >= 100; t /= 100)
        nd += 2;
    nd += t >= 10;
    if (brackets)
        *w++ = '[';
    char *e = w + nd;
    for (; v >= 10; v /= 100) {
        e -= 2;
        memcpy(e, pairs + 2 * (v % 100), 2);
    }
    if (e > w)
        *--e = (char)('0' + v);
    w += nd;
    if (brackets)
        *w++ = ']';
    return w;
}

static void put_index(ptx_buf *out, uint32_t v, int brackets)
{
    char *w = cg_put_digits(ptx_buf_room(out, 12), v, brackets);
    out->n = (size_t)(w - out->p);
}

/* A register's Python name (r, rd, p: a few bytes) and [index], after
   ", " when sep is set (an operand list's: one reservation for both). */
static inline void put_reg(ptx_buf *out, const cg_sym *y, int32_t index, int sep)
{
    char *w = ptx_buf_room(out, 34), *lim = w + 20;
    if (sep) {
        memcpy(w, ", ", 2);
        w += 2;
        lim += 2;
    }
    const char *s = y->py;
    while (*s && w < lim)
        *w++ = *s++;
    if (*s) { /* a long name: the rest the ordinary way */
        out->n = (size_t)(w - out->p);
        ptx_buf_puts(out, s);
        w = ptx_buf_room(out, 12);
    }
    if (index >= 0 && y->kind == CG_SYM_REGARRAY)
        w = cg_put_digits(w, (uint32_t)index, 1);
    out->n = (size_t)(w - out->p);
}

void cg_sym_ptx(const cg_kernel *k, cg_symid s, int32_t index, ptx_buf *out)
{
    ptx_buf_puts(out, k->syms[s].ptx);
    if (index >= 0)
        put_index(out, (uint32_t)index, 0);
}

void cg_text_ptx(const cg_kernel *k, const cg_text *t, ptx_buf *out)
{
    for (uint32_t i = 0; i < t->n; i++) {
        const cg_piece *p = &t->v[i];
        if (p->sym == CG_NOSYM)
            ptx_buf_put(out, p->p, p->n);
        else
            cg_sym_ptx(k, p->sym, p->index, out);
    }
}

/* The text as a Python "..." literal, escaping piece by piece. */
void cg_text_str(const cg_kernel *k, const cg_text *t, ptx_buf *out)
{
    ptx_buf_putc(out, '"');
    for (uint32_t i = 0; i < t->n; i++) {
        const cg_piece *p = &t->v[i];
        if (p->sym == CG_NOSYM) {
            py_escape(out, p->p, p->n);
        } else {
            const char *s = k->syms[p->sym].ptx;
            py_escape_cstr(out, s);
            if (p->index >= 0)
                put_index(out, (uint32_t)p->index, 0);
        }
    }
    ptx_buf_putc(out, '"');
}

static void sym_py(const cg_kernel *k, cg_symid s, int32_t index, ptx_buf *out)
{
    const cg_sym *y = &k->syms[s];
    if (cg_sym_is_reg(y)) {
        put_reg(out, y, index, 0);
        return;
    }
    ptx_buf_putc(out, '"');
    py_escape_cstr(out, y->ptx);
    if (index >= 0)
        put_index(out, (uint32_t)index, 0);
    ptx_buf_putc(out, '"');
}

void cg_print_opnds(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    for (int sep = 0; o; o = o->next, sep = 1) {
        if (o->kind == CG_O_SYM && cg_sym_is_reg(&k->syms[o->sym])) {
            put_reg(out, &k->syms[o->sym], o->index, sep); /* most: no call */
            continue;
        }
        if (sep)
            ptx_buf_put(out, ", ", 2);
        cg_print_opnd(m, k, o, out);
    }
}

void cg_print_opnd(const cg_module *m, const cg_kernel *k, const cg_opnd *o,
                   ptx_buf *out)
{
    const char *sp;
    switch (o->kind) {
    case CG_O_SYM:
        if (cg_sym_is_reg(&k->syms[o->sym]))
            put_reg(out, &k->syms[o->sym], o->index, 0);   /* most: no call */
        else
            sym_py(k, o->sym, o->index, out);
        break;
    case CG_O_SPECIAL:
        if ((sp = cg_special_py(o->text.v->p, o->text.v->n))) {
            ptx_buf_puts(out, sp);
        } else {
            ptx_buf_puts(out, "ptx.sreg(");
            cg_text_str(k, &o->text, out);
            ptx_buf_putc(out, ')');
        }
        break;
    case CG_O_INT:
        cg_text_ptx(k, &o->text, out);
        break;
    case CG_O_STR:
        cg_text_str(k, &o->text, out);
        break;
    case CG_O_NOT:
        ptx_buf_putc(out, '~');
        cg_print_opnd(m, k, o->a, out);
        break;
    case CG_O_PIPE: {
        int pred = o->a->kind == CG_O_SYM && k->syms[o->a->sym].is_pred;
        ptx_buf_puts(out, pred ? "" : "PipeRef(");
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_puts(out, pred ? " | " : ", ");
        cg_print_opnd(m, k, o->b, out);
        ptx_buf_puts(out, pred ? "" : ")");
        break;
    }
    case CG_O_VEC:
        ptx_buf_putc(out, '[');
        cg_print_opnds(m, k, o->elems, out);
        ptx_buf_putc(out, ']');
        break;
    case CG_O_TUPLE:
        ptx_buf_putc(out, '(');
        cg_print_opnds(m, k, o->elems, out);
        if (o->elems && !o->elems->next)
            ptx_buf_putc(out, ',');
        ptx_buf_putc(out, ')');
        break;
    case CG_O_ADDR:
        ptx_buf_puts(out, "ptx.addr(");
        if (o->a->kind >= CG_O_EXT)
            m->layer->print_opnd(m, k, o->a, 1, out);
        else
            cg_print_opnd(m, k, o->a, out);
        if (o->b) {
            ptx_buf_put(out, ", ", 2);
            cg_print_opnd(m, k, o->b, out);
        }
        ptx_buf_putc(out, ')');
        break;
    case CG_O_TMA:
        ptx_buf_puts(out, "ptx._make_tma_address(");
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_put(out, ", (", 3);
        cg_print_opnds(m, k, o->elems, out);
        ptx_buf_puts(out, o->elems && !o->elems->next ? ",))" : "))");
        break;
    default:
        m->layer->print_opnd(m, k, o, 0, out);
        break;
    }
}

/* ---- statements ----------------------------------------------------- */

/* The attribute path (ld.global_.v4.u32): the opcode cache's, or built
   from op/mods where a pass changed them and set path to NULL. */
static void put_path(const cg_inst *in, ptx_buf *out)
{
    if (in->path) {
        ptx_buf_put(out, in->path, in->pathlen);
        return;
    }
    for (uint32_t i = 0; i <= in->nmods; i++) {
        const char *ptxs = i ? in->mods[i - 1] : in->op;
        char buf[300];
        if (i)
            ptx_buf_putc(out, '.');
        ptx_buf_puts(out, cg_mangle(ptxs, strlen(ptxs), buf, sizeof buf) ? buf : ptxs);
    }
}

static void print_inst(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                       int depth, ptx_buf *out)
{
    const cg_inst *in = &s->u.inst;
    if (in->hook) {
        m->layer->print_inst(m, k, s, depth, out);
        return;
    }
    if (in->path && depth >= 0) { /* the usual: one reservation */
        char *w = ptx_buf_room(out, (size_t)depth * 4 + 10 + in->pathlen);
        w = put_indent(w, depth);
        memcpy(w, "ptx.inst.", 9);
        memcpy(w + 9, in->path, in->pathlen);
        w += 9 + in->pathlen;
        *w++ = '(';
        out->n = (size_t)(w - out->p);
    } else {
        indent(out, depth);
        ptx_buf_put(out, "ptx.inst.", 9);
        put_path(in, out);
        ptx_buf_putc(out, '(');
    }
    cg_print_opnds(m, k, in->ops, out);
    if (in->guard) {
        ptx_buf_puts(out, in->ops ? ", pred=" : "pred=");
        cg_print_opnd(m, k, in->guard, out);
    }
    ptx_buf_put(out, ")\n", 2);
}

static void print_reg(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                      int depth, ptx_buf *out)
{
    const cg_sym *y = &k->syms[s->u.reg];
    indent(out, depth);
    ptx_buf_puts(out, y->py);
    ptx_buf_put(out, " = ", 3);
    int arr = y->kind == CG_SYM_REGARRAY;
    if (s->kind == CG_S_REG) {
        ptx_buf_puts(out, arr ? "reg.array(" : "reg.scalar(");
        ptx_buf_puts(out, y->type);
        if (arr) {
            ptx_buf_put(out, ", ", 2);
            put_index(out, y->count, 0);
        }
        if (!y->implicit) {   /* pyptx picks this very name itself */
            ptx_buf_puts(out, ", name=");
            py_str_cstr(out, y->ptx);
        }
    } else {
        ptx_buf_puts(out, arr ? "RegArray(" : "Reg(");
        py_str_cstr(out, y->ptx);
        if (arr) {
            ptx_buf_put(out, ", ", 2);
            put_index(out, y->count, 0);
        }
        ptx_buf_put(out, ", ", 2);
        ptx_buf_puts(out, y->type);
    }
    ptx_buf_put(out, ")\n", 2);
}

static void print_var(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                      int depth, ptx_buf *out)
{
    const cg_var *v = &s->u.var;
    indent(out, depth);
    ptx_buf_puts(out, "ptx.var(\"");
    for (const char *p = v->space; *p; p++)
        ptx_buf_putc(out, *p == ':' ? '_' : *p);
    ptx_buf_put(out, "\", ", 3);
    ptx_buf_puts(out, v->type);
    ptx_buf_put(out, ", ", 2);
    sym_py(k, v->sym, -1, out);
    if (v->size) {
        ptx_buf_puts(out, ", size=");
        ptx_buf_puts(out, v->size);
    }
    if (v->align) {
        ptx_buf_puts(out, ", align=");
        ptx_buf_puts(out, v->align);
    }
    if (v->linking) {
        ptx_buf_puts(out, ", linking=\"");
        ptx_buf_puts(out, v->linking);
        ptx_buf_putc(out, '"');
    }
    ptx_buf_put(out, ")\n", 2);
}

static void print_simple(const cg_module *m, const cg_kernel *k,
                         const cg_stmt *s, int depth, ptx_buf *out)
{
    indent(out, depth);
    switch (s->kind) {
    case CG_S_LABEL:
        ptx_buf_puts(out, "ptx.label(");
        sym_py(k, s->u.label, -1, out);
        ptx_buf_put(out, ")\n", 2);
        break;
    case CG_S_PRAGMA:
        ptx_buf_puts(out, "ptx.pragma(");
        py_str(out, s->u.pragma.p, s->u.pragma.n);
        ptx_buf_put(out, ")\n", 2);
        break;
    case CG_S_RAW:
        ptx_buf_puts(out, "_raw(");
        cg_text_str(k, &s->u.raw.text, out);
        ptx_buf_putc(out, ')');
        if (s->u.raw.why) {
            ptx_buf_puts(out, "  # ");
            ptx_buf_puts(out, s->u.raw.why);
        }
        ptx_buf_putc(out, '\n');
        break;
    case CG_S_COMMENT:
        ptx_buf_puts(out, "# ");
        ptx_buf_puts(out, s->u.comment);
        ptx_buf_putc(out, '\n');
        break;
    }
}

static void print_scope(const cg_module *m, const cg_kernel *k,
                        const cg_stmt *s, int depth, ptx_buf *out)
{
    indent(out, depth);
    ptx_buf_puts(out, "with ptx.scope():\n");
    cg_print_stmts(m, k, s->u.body, depth + 1, out);
}

/* One printer per statement kind, fixed at compile time: how a node prints
   never depends on what ran before (ir.h, rule 2). */
static const cg_print_hook printers[CG_S_EXT] = {
    [CG_S_INST] = print_inst,     [CG_S_LABEL] = print_simple,
    [CG_S_REG] = print_reg,       [CG_S_BIND] = print_reg,
    [CG_S_VAR] = print_var,       [CG_S_PRAGMA] = print_simple,
    [CG_S_RAW] = print_simple,    [CG_S_SCOPE] = print_scope,
    [CG_S_COMMENT] = print_simple,
};

void cg_print_list(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out)
{
    for (; s; s = s->next)
        (s->kind < CG_S_EXT ? printers[s->kind] : s->u.ext.ext->print)(m, k, s, depth, out);
}

void cg_print_stmts(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                    int depth, ptx_buf *out)
{
    size_t n0 = out->n;
    cg_print_list(m, k, s, depth, out);
    if (out->n == n0) {
        indent(out, depth);
        ptx_buf_puts(out, "pass\n");
    }
}
