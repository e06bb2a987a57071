/*
 * sugar/loops.c - pass "loops": a label L followed, in the same statement
 * list, by a back edge to L becomes
 *
 *     with ptx.loop("L", pred=p[1]):     # L: ... @%p1 bra L;
 *     with ptx.loop("L", pred=~p[1]):    # L: ... @!%p1 bra L;
 *     with ptx.loop("L"):                # L: ... bra.uni L;   (persistent)
 *
 * pyptx 0.1.1 ptx.loop emits exactly `L:` on entry and, on exit,
 * `@[!]P bra L;` (no .uni) when pred is given, `bra.uni L;` otherwise, so
 * only those two back-edge spellings are raised (`@p bra.uni L` and a bare
 * `bra L` stay as they are).  The back edge is the last branch to L in
 * the list, so other branches to L (continue-like) stay inside the body.
 * Loops nest: the body is processed recursively.  Nothing moves.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

static int is_back_edge(const cg_stmt *s, cg_symid label)
{
    if (!sg_inst_is(s, "bra"))
        return 0;
    const cg_inst *in = &s->u.inst;
    const cg_opnd *t = in->ops;
    if (!t || t->next || t->kind != CG_O_SYM || t->sym != label || t->index >= 0)
        return 0;
    if (in->guard) {
        if (in->nmods != 0)
            return 0;
        const cg_opnd *g = in->guard;
        if (g->kind == CG_O_NOT)
            g = g->a;
        return g && g->kind == CG_O_SYM;
    }
    return in->nmods == 1 && !strcmp(in->mods[0], "uni");
}

static uint32_t raise_list(cg_module *m, cg_stmt **link)
{
    uint32_t n = 0;
    for (; *link; link = &(*link)->next) {
        cg_stmt *s = *link;
        if (s->kind == CG_S_SCOPE) {
            n += raise_list(m, &s->u.body);
            continue;
        }
        if (s->kind == CG_S_LOOP) {
            n += raise_list(m, &s->u.sugar.body);
            continue;
        }
        if (s->kind != CG_S_LABEL)
            continue;
        cg_stmt *last = NULL, *prev = NULL;
        for (cg_stmt *t = s->next; t; prev = t, t = t->next)
            if (is_back_edge(t, s->u.label))
                last = t;
        (void)prev;
        if (!last)
            continue;
        /* body: statements strictly between the label and the back edge */
        cg_stmt *body = s->next == last ? NULL : s->next;
        if (body) {
            cg_stmt *b = body;
            while (b->next != last)
                b = b->next;
            b->next = NULL;
        }
        cg_stmt *node = cg_stmt_new(m, CG_S_LOOP, s->first);
        node->u.sugar.label = s->u.label;
        node->u.sugar.args = last->u.inst.guard;
        node->u.sugar.pass = sg_pass_index("loops");
        node->u.sugar.body = body;
        /* orig: label, body copies are not needed by the hook; keep the
           original chain label -> body -> back edge for the plain print */
        cg_stmt *lab = sg_copy_stmt(m, s), *be = sg_copy_stmt(m, last);
        lab->next = body;
        if (body) {
            cg_stmt *b = body;
            while (b->next)
                b = b->next;
            /* the plain fallback shares the body list; it is only printed
               when the loop hook is not installed */
            (void)b;
        }
        node->u.sugar.orig = lab;
        node->u.sugar.data = be;
        node->next = last->next;
        *link = node;
        n++;
        n += raise_list(m, &node->u.sugar.body);
    }
    return n;
}

static void indent(ptx_buf *out, int depth)
{
    for (int i = 0; i < depth; i++)
        ptx_buf_puts(out, "    ");
}

void sg_hook_loop(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                  int depth, ptx_buf *out)
{
    indent(out, depth);
    ptx_buf_puts(out, "with ptx.loop(\"");
    cg_sym_ptx(k, s->u.sugar.label, -1, out);
    ptx_buf_putc(out, '"');
    if (s->u.sugar.args) {
        ptx_buf_puts(out, ", pred=");
        cg_print_opnd(m, k, s->u.sugar.args, out);
    }
    ptx_buf_puts(out, "):\n");
    if (s->u.sugar.body) {
        cg_print_stmts(m, k, s->u.sugar.body, depth + 1, out);
    } else {
        indent(out, depth + 1);
        ptx_buf_puts(out, "pass\n");
    }
}

void sugar_loops(cg_module *m, cg_stats *st)
{
    uint32_t n = 0;
    sg_install_hooks();
    for (uint32_t ki = 0; ki < m->nkernels; ki++)
        if (!m->kernels[ki].unsupported)
            n += raise_list(m, &m->kernels[ki].body);
    sg_count(st, "loops", n);
}
