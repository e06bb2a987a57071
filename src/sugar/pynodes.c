/*
 * sugar/pynodes.c - the Python statements and expressions that passes build
 * from parts rather than write as text: an assignment or a call made for
 * its effect (SG_S_ASSIGN), a local function (SG_S_DEF), and the operands
 * they hold (SG_O_NAME, _CALL, _KW, _INDEX, _REPEAT).  A pass makes them
 * with the constructors below and never prints Python itself: what a node
 * means stays in its fields, where later passes read it (keys, operand
 * walks, renames), and how it prints is decided here alone.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

/* ---- constructors ---------------------------------------------------- */

cg_opnd *sg_name_opnd(cg_module *m, const char *name)
{
    cg_opnd *o = cg_opnd_new(m, SG_O_NAME);
    o->text = sg_lit(m, name, strlen(name));
    return o;
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

cg_stmt *sg_assign_new(cg_module *m, ptx_tok first, cg_opnd *targets, cg_opnd *value)
{
    cg_stmt *s = sg_node_new(m, SG_S_ASSIGN, first);
    sg_assign_of(s)->targets = targets;
    sg_assign_of(s)->value = value;
    return s;
}

cg_stmt *sg_assign_splice(cg_module *m, cg_stmt **link, cg_stmt *last, cg_opnd *targets,
                          cg_opnd *value)
{
    cg_stmt *s = sg_assign_new(m, (*link)->first, targets, value);
    sg_assign_of(s)->orig = cg_splice(link, last, s);
    return s;
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

/* The operands from o on, joined by ", ". */
static void put_list(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    for (; o; o = o->next) {
        cg_print_opnd(m, k, o, out);
        if (o->next)
            ptx_buf_put(out, ", ", 2);
    }
}

int sg_print_pyopnd(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    switch (o->kind) {
    case SG_O_NAME:
        cg_text_ptx(k, &o->text, out);
        return 1;
    case SG_O_CALL:
        if (o->a) {
            cg_print_opnd(m, k, o->a, out);
            ptx_buf_putc(out, '.');
        }
        cg_text_ptx(k, &o->text, out);
        ptx_buf_putc(out, '(');
        put_list(m, k, o->elems, out);
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
        cg_print_opnd(m, k, o->b, out);
        ptx_buf_putc(out, ']');
        return 1;
    case SG_O_REPEAT:
        ptx_buf_putc(out, '[');
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_puts(out, " for _ in range(");
        cg_print_opnd(m, k, o->b, out);
        ptx_buf_puts(out, ")]");
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
    if (a->targets) {
        put_list(m, k, a->targets, out);
        ptx_buf_put(out, " = ", 3);
    }
    put_list(m, k, a->value, out);
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
    put_list(m, k, d->params, out);
    ptx_buf_puts(out, "):\n");
    if (d->nonlocals) {
        sg_indent(out, depth + 1);
        ptx_buf_puts(out, "nonlocal ");
        put_list(m, k, d->nonlocals, out);
        ptx_buf_putc(out, '\n');
    }
    if (s->u.ext.body)
        cg_print_stmts(m, k, s->u.ext.body, depth + 1, out);
    else if (!d->nonlocals) {
        sg_indent(out, depth + 1);
        ptx_buf_puts(out, "pass\n");
    }
}
