/*
 * sugar/pynodes.c - the Python statements and expressions that passes build
 * from parts rather than write as text: an assignment or a call made for
 * its effect (SG_S_ASSIGN), a local function (SG_S_DEF), and the operands
 * they hold (SG_O_NAME, _CALL, _KW, _INDEX, _REPEAT, _COMP, _CONCAT,
 * _FLOAT, _TAKEN, _PAREN, _ITEM).  A pass makes them
 * with the constructors below and never prints Python itself: what a node
 * means stays in its fields, where later passes read it (keys, operand
 * walks, renames), and how it prints is decided here alone.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/buf.h"

/* ---- constructors ---------------------------------------------------- */

cg_opnd *sg_text_opnd(cg_module *m, unsigned kind, const char *text)
{
    cg_opnd *o = cg_opnd_new(m, kind);
    o->text = sg_lit(m, text, strlen(text));
    return o;
}

cg_opnd *sg_name_opnd(cg_module *m, const char *name)
{
    return sg_text_opnd(m, SG_O_NAME, name);
}

cg_opnd *sg_call_opnd(cg_module *m, const char *callee, cg_opnd *obj, cg_opnd *args)
{
    cg_opnd *o = cg_opnd_new(m, SG_O_CALL);
    o->text = sg_lit(m, callee, strlen(callee));
    o->a = obj;
    o->elems = args;
    return o;
}

cg_opnd *sg_kw_opnd(cg_module *m, const char *kw, cg_opnd *value)
{
    cg_opnd *o = cg_opnd_new(m, SG_O_KW);
    o->text = sg_lit(m, kw, strlen(kw));
    o->a = value;
    return o;
}

cg_opnd *sg_sym_opnd(cg_module *m, cg_symid sym)
{
    cg_opnd *o = cg_opnd_new(m, CG_O_SYM);
    o->sym = sym;
    return o;
}

cg_opnd *sg_sym_name_opnd(cg_module *m, cg_symid sym)
{
    cg_opnd *o = cg_opnd_new(m, SG_O_NAME);
    o->sym = sym;
    return o;
}

cg_opnd *sg_index_opnd(cg_module *m, cg_opnd *obj, cg_opnd *index)
{
    cg_opnd *o = cg_opnd_new(m, SG_O_INDEX);
    o->a = obj;
    o->elems = index;
    return o;
}

cg_opnd *sg_operand_opnd(cg_module *m, cg_opnd *o)
{
    long long stride;
    /* one term: not a loop's int, or the variable alone (or minus it); a
       register's element r[base + stride*i] is one term too */
    if (o->kind != SG_O_AFFINE || o->sym != CG_NOSYM ||
        (sg_int_is(o->a, 0) && sg_int_value(o->b, &stride) && (stride == 1 || stride == -1)))
        return o;
    cg_opnd *p = cg_opnd_new(m, SG_O_PAREN);
    p->a = o;
    return p;
}

cg_opnd *sg_pair_opnd(cg_module *m, unsigned kind, cg_opnd *a, cg_opnd *b)
{
    cg_opnd *o = cg_opnd_new(m, kind);
    o->a = a;
    o->b = b;
    return o;
}

cg_opnd *sg_opnd_list(cg_opnd *const *v, unsigned n)
{
    for (unsigned i = 0; i + 1 < n; i++)
        v[i]->next = v[i + 1];
    return n ? v[0] : NULL;
}

cg_stmt *sg_assign_new(cg_module *m, ptx_tok first, cg_opnd *targets, cg_opnd *value)
{
    cg_stmt *s = sg_node_new(m, SG_S_ASSIGN, first);
    sg_assign *a = sg_assign_of(s);
    cg_opnd **tail = &a->ops;
    for (*tail = targets; *tail; tail = &(*tail)->next)
        a->ntargets++;
    *tail = value;
    return s;
}

cg_stmt *sg_assign_splice(cg_module *m, cg_stmt **link, cg_stmt *last, cg_opnd *targets,
                          cg_opnd *value)
{
    cg_stmt *s = sg_assign_new(m, (*link)->first, targets, value);
    sg_assign_of(s)->orig = cg_splice(link, last, s);
    return s;
}

cg_opnd *sg_assign_value(const cg_stmt *s)
{
    cg_opnd *o = sg_assign_of(s)->ops;
    for (uint32_t i = 0; i < sg_assign_of(s)->ntargets; i++)
        o = o->next;
    return o;
}

cg_stmt *sg_def_new(cg_module *m, ptx_tok first, const char *name, cg_opnd *params,
                    cg_opnd *nonlocals, cg_stmt *body)
{
    cg_stmt *s = sg_node_new(m, SG_S_DEF, first);
    sg_def_of(s)->name = name;
    sg_def_of(s)->params = params;
    sg_def_of(s)->nonlocals = nonlocals;
    *cg_body(s) = body;
    return s;
}

/* ---- printing -------------------------------------------------------- */

/* The operands from o on (n of them; UINT32_MAX: all), joined by sep.
   An operator among them prints bare where the list is a call's
   arguments (bare): smem.apply_swizzle(a + b, "64B"). */
static void put_list(const cg_module *m, const cg_kernel *k, const cg_opnd *o, uint32_t n,
                     const char *sep, int bare, ptx_buf *out)
{
    for (; o && n; o = o->next, n--) {
        if (bare && o->kind == SG_O_OPER)
            sg_print_oper(m, k, o, out);
        else
            cg_print_opnd(m, k, o, out);
        if (o->next && n > 1)
            ptx_buf_puts(out, sep);
    }
}

/* [x[k] for k in range(...)]: k, or i where the array is named k (a
   comprehension has a scope of its own, but a reader should not need to
   know that). */
static void put_comp(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    const char *x = k->syms[o->sym].py, *v = strcmp(x, "k") ? "k" : "i";
    ptx_buf_printf(out, "[%s[%s] for %s in range(", x, v, v);
    put_list(m, k, o->elems, UINT32_MAX, ", ", 0, out);
    ptx_buf_puts(out, ")]");
}

int sg_print_pyopnd(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    switch (o->kind) {
    case SG_O_NAME:
        if (o->sym != CG_NOSYM)
            ptx_buf_puts(out, k->syms[o->sym].py);
        else
            cg_text_ptx(k, &o->text, out);
        return 1;
    case SG_O_CALL:
        if (o->a) {
            cg_print_opnd(m, k, o->a, out);
            ptx_buf_putc(out, '.');
        }
        cg_text_ptx(k, &o->text, out);
        ptx_buf_putc(out, '(');
        put_list(m, k, o->elems, UINT32_MAX, ", ", 1, out);
        ptx_buf_putc(out, ')');
        return 1;
    case SG_O_KW:
        cg_text_ptx(k, &o->text, out);
        ptx_buf_putc(out, '=');
        cg_print_opnd(m, k, o->a, out);
        return 1;
    case SG_O_INDEX:
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_putc(out, '[');
        put_list(m, k, o->elems, UINT32_MAX, ", ", 0, out);
        ptx_buf_putc(out, ']');
        return 1;
    case SG_O_ITEM:
        cg_print_opnd(m, k, o->a, out);
        if (o->b) {
            ptx_buf_putc(out, '[');
            cg_print_opnd(m, k, o->b, out);
            ptx_buf_putc(out, ']');
        }
        return 1;
    case SG_O_WALRUS:
        ptx_buf_puts(out, k->syms[o->sym].py);
        ptx_buf_puts(out, " := ");
        cg_print_opnd(m, k, o->a, out);
        return 1;
    case SG_O_PAREN:
        ptx_buf_putc(out, '(');
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_putc(out, ')');
        return 1;
    case SG_O_REPEAT:
        ptx_buf_putc(out, '[');
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_puts(out, " for _ in range(");
        cg_print_opnd(m, k, o->b, out);
        ptx_buf_puts(out, ")]");
        return 1;
    case SG_O_COMP:
        put_comp(m, k, o, out);
        return 1;
    case SG_O_CONCAT:
        put_list(m, k, o->elems, UINT32_MAX, " + ", 0, out);
        return 1;
    case SG_O_FLOAT:
        cg_text_ptx(k, &o->text, out);
        return 1;
    case SG_O_TAKEN:
        sg_print_addr_arg(m, k, o->a, out);
        return 1;
    default:
        return 0;
    }
}

void sg_print_assign(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                     ptx_buf *out)
{
    const sg_assign *a = sg_assign_of(s);
    sg_indent(out, depth);
    if (a->ntargets) {
        put_list(m, k, a->ops, a->ntargets, ", ", 0, out);
        ptx_buf_put(out, " = ", 3);
    }
    put_list(m, k, sg_assign_value(s), UINT32_MAX, ", ", 0, out);
    ptx_buf_putc(out, '\n');
}

void sg_print_def(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                  ptx_buf *out)
{
    const sg_def *d = sg_def_of(s);
    sg_indent(out, depth);
    ptx_buf_puts(out, "def ");
    ptx_buf_puts(out, d->name);
    ptx_buf_putc(out, '(');
    put_list(m, k, d->params, UINT32_MAX, ", ", 0, out);
    ptx_buf_puts(out, "):\n");
    if (d->nonlocals) {
        sg_indent(out, depth + 1);
        ptx_buf_puts(out, "nonlocal ");
        put_list(m, k, d->nonlocals, UINT32_MAX, ", ", 0, out);
        ptx_buf_putc(out, '\n');
    }
    if (s->u.ext.body)
        cg_print_stmts(m, k, s->u.ext.body, depth + 1, out);
    else if (!d->nonlocals) {
        sg_indent(out, depth + 1);
        ptx_buf_puts(out, "pass\n");
    }
}
