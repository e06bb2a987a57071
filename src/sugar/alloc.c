/*
 * sugar/alloc.c - merged declarations (merge.c makes them, part of pass
 * "decls"): how each prints, and what the other passes ask of one (what
 * it binds, its key, whether and how a rolled loop may hold a copy).
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/alloc.h"
#include "util/buf.h"

/* ---- printing ------------------------------------------------------------- */

/* [x = ]ptx.mbarrier.arrive(bar[, tx][, pred=g]) */
static void print_arrive(const cg_module *m, const cg_kernel *k, const cg_stmt *s, ptx_buf *out)
{
    const alloc *a = sg_alloc_of(s)->a;
    const cg_opnd *src = sg_alloc_of(s)->src ? sg_alloc_of(s)->src : a->src;   /* a rolled copy's */
    if (a->width)
        ptx_buf_printf(out, "%s = ", k->syms[a->regs[0]].py);
    ptx_buf_printf(out, "%s(", a->init);
    sg_print_addr_arg(m, k, src, out);
    if (src->next) {
        cg_opnd tx = *src->next;
        ptx_buf_puts(out, ", ");
        cg_print_opnd(m, k, &tx, out);
    }
    if (a->guard) {
        ptx_buf_puts(out, ", pred=");
        cg_print_opnd(m, k, a->guard, out);
    }
    ptx_buf_puts(out, ")\n");
}

void sg_print_alloc(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                    int depth, ptx_buf *out)
{
    const alloc *a = sg_alloc_of(s)->a;
    const cg_sym *y = &k->syms[a->regs[0]];
    cg_opnd src;
    sg_indent(out, depth);
    if (a->form == PTRS) {
        ptx_buf_puts(out, a->n == 1 ? "(" : "");
        for (uint32_t i = 0; i < a->n; i++)
            ptx_buf_printf(out, "%s%s", i ? ", " : "", k->syms[a->regs[i]].py);
        ptx_buf_puts(out, a->n == 1 ? ",) = ptx.global_ptrs(" : " = ptx.global_ptrs(");
        for (uint32_t i = 0; i < a->n; i++) {
            cg_opnd p = { .kind = CG_O_SYM, .sym = a->params[i], .index = -1 };
            ptx_buf_puts(out, i ? ", " : "");
            cg_print_opnd(m, k, &p, out);
        }
        ptx_buf_puts(out, ")\n");
        return;
    }
    src = *a->src;
    src.next = NULL;
    if (a->form == WARP) {
        ptx_buf_printf(out, "ptx.warp.reduce_%s(", a->init);
        cg_print_opnd(m, k, &src, out);
        if (a->width != 32)
            ptx_buf_printf(out, ", width=%u", a->width);
        ptx_buf_puts(out, ")\n");
        return;
    }
    if (a->form == ARRIVE) {
        print_arrive(m, k, s, out);
        return;
    }
    if (a->form == AUG) {        /* left OP= off */
        const cg_opnd *e = a->src;
        cg_opnd l = *e->a, r = *e->b;
        l.next = r.next = NULL;
        cg_print_opnd(m, k, &l, out);
        ptx_buf_putc(out, ' ');
        cg_text_ptx(k, &e->text, out);
        ptx_buf_puts(out, "= ");
        cg_print_opnd(m, k, &r, out);
        ptx_buf_putc(out, '\n');
        return;
    }
    ptx_buf_printf(out, "%s = ", y->py);
    if (a->form == LOAD) {
        ptx_buf_printf(out, "smem.load(%s, ", y->type);
        cg_print_opnd(m, k, &src, out);
        ptx_buf_puts(out, ")\n");
        return;
    }
    if (a->form == OPER) {       /* a OP b, or a helper's call */
        if (a->src->kind == SG_O_OPER)
            sg_print_oper(m, k, a->src, out);
        else
            cg_print_opnd(m, k, a->src, out);
        ptx_buf_putc(out, '\n');
        return;
    }
    if (a->form == FROM) {
        ptx_buf_puts(out, "reg.from_(");
        cg_print_opnd(m, k, &src, out);
        ptx_buf_printf(out, ", %s)\n", y->type);
        return;
    }
    ptx_buf_printf(out, "reg.scalar(%s, init=", y->type);
    cg_print_opnd(m, k, &src, out);     /* an int, a float, a call, or the text as a str */
    if (!y->implicit) {
        ptx_buf_puts(out, ", name=\"");
        ptx_buf_puts(out, y->ptx);
        ptx_buf_putc(out, '"');
    }
    ptx_buf_puts(out, ")\n");
}

int sg_alloc_oper(const cg_stmt *s, cg_symid *x, const cg_opnd **e)
{
    const alloc *a = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->a : NULL;
    if (!a || a->form != OPER || a->src->kind != SG_O_OPER)
        return 0;
    *x = a->regs[0];
    *e = a->src;
    return 1;
}

int sg_alloc_from(const cg_stmt *s, cg_symid *x, const cg_opnd **src)
{
    const alloc *a = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->a : NULL;
    if (!a || a->form != FROM)
        return 0;
    *x = a->regs[0];
    *src = a->src;
    return 1;
}

int sg_alloc_load(const cg_stmt *s, cg_symid *x, const cg_opnd **addr)
{
    const alloc *a = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->a : NULL;
    if (!a || a->form != LOAD)
        return 0;
    *x = a->regs[0];
    *addr = a->src;
    return 1;
}

int sg_alloc_init(const cg_stmt *s, cg_symid *x, const cg_opnd **v)
{
    const alloc *a = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->a : NULL;
    if (!a || a->form != INIT)
        return 0;
    *x = a->regs[0];
    *v = a->src;
    return 1;
}

void sg_key_alloc(sg_key *key, const cg_stmt *s)
{
    const alloc *a = sg_alloc_of(s)->a;
    const cg_opnd *src = sg_alloc_of(s)->src ? sg_alloc_of(s)->src : a->src;
    const cg_sym *y = &key->k->syms[a->regs[0]];
    /* the registers it names: all (PTRS), the one it assigns, or none (a
       call whose registers are the helper's own: WARP, an arrival's
       unread state, AUG's left, which is src's) */
    uint32_t named = a->form == PTRS ? a->n
                     : a->form == WARP || a->form == AUG || (a->form == ARRIVE && !a->width) ? 0
                                                                                         : 1;
    int typed = a->form == INIT || a->form == FROM || a->form == LOAD;   /* prints T */
    ptx_buf_printf(&key->b, "%u %s %s %u %u %s %s|", a->form, a->init ? a->init : "",
                   sg_alloc_of(s)->init ? sg_alloc_of(s)->init : "", a->width, a->n,
                   typed && y->type ? y->type : "", !typed || y->implicit ? "" : y->ptx);
    for (uint32_t i = 0; i < named; i++) {
        sg_key_sym(key, a->regs[i]);
        if (a->params)
            sg_key_sym(key, a->params[i]);
    }
    if (src && a->form != PTRS) {
        sg_key_opnd(key, src);
        if (a->form == ARRIVE && src->next)
            sg_key_opnd(key, src->next);
    }
    if (a->guard)
        sg_key_opnd(key, a->guard);
}

unsigned sg_alloc_binds(const cg_stmt *s, cg_symid *syms, unsigned max, int *how)
{
    const alloc *a = sg_alloc_of(s)->a;
    *how = SG_BINDS;
    if (a->form == PTRS) {   /* `(x,) = ...` for one: a tuple, no name */
        unsigned n = a->n > 1 && a->n <= max ? a->n : 0;
        memcpy(syms, a->regs, n * sizeof *syms);
        return n;
    }
    if (a->form == AUG) {    /* left OP= off */
        const cg_opnd *l = a->src->a;
        *how = SG_AUGMENTS;
        syms[0] = l->sym;
        return l->kind == CG_O_SYM && l->index < 0;
    }
    if (a->form == WARP || (a->form == ARRIVE && !a->width))
        return 0;            /* a call */
    syms[0] = a->regs[0];
    return 1;
}

int sg_alloc_rolls(const cg_stmt *s, cg_symid *x)
{
    if (s->kind != SG_S_ALLOC || sg_alloc_of(s)->init)
        return 0;
    const alloc *a = sg_alloc_of(s)->a;
    if (a->n != 1 || a->guard ||
        (a->form != INIT && a->form != FROM && a->form != LOAD && a->form != OPER &&
         a->form != AUG))
        return 0;
    *x = a->form == AUG ? CG_NOSYM : a->regs[0];   /* (sg_key_alloc names none) */
    return 1;
}

const cg_opnd *sg_alloc_src(const cg_stmt *s)
{
    return sg_alloc_of(s)->a->src;
}

cg_stmt *sg_alloc_copy(cg_module *m, const cg_stmt *s, cg_opnd *src)
{
    cg_stmt *c = sg_node_new(m, SG_S_ALLOC, s->first);
    *sg_alloc_of(c) = *sg_alloc_of(s);
    alloc *a = cg_alloc(m, sizeof *a);
    *a = *sg_alloc_of(s)->a;
    a->src = src;
    sg_alloc_of(c)->a = a;
    return c;
}

void sg_alloc_set_init(cg_stmt *s, const cg_opnd *v)
{
    sg_alloc_of(s)->a->src = v;
}
