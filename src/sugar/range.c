/*
 * sugar/range.c - pass "range": the loops ptx.range_ emits become that
 * loop again.
 *
 *     ri0 = reg.scalar(s32, init=0, name="%ri0")
 *     ptx.label("$_loop_0")
 *     p3 = ri0 >= 8                                for ri0 in ptx.range_(0, 8, 2):
 *     ptx.bra("$_endloop_1", pred=p3)        ->        ...body...
 *     ...body...
 *     ptx.add(s32, ri0, ri0, 2)
 *     ptx.bra("$_loop_0")
 *     ptx.label("$_endloop_1")
 *
 * pyptx 0.1.1 (ptx.py range_): the counter is `.reg .s32 %riN`, N from its
 * own counter (so the k-th range_ of a kernel has %ri<k>), declared when
 * range_ starts; then `mov.s32 %riN, start;`, the label, `setp.ge.s32
 * %pK, %riN, stop;` with %pK the predicate pool's next (compare.c made it
 * a comparison, taken at the same point), `@%pK bra END;`, the body,
 * `add.s32 %riN, %riN, step;`, `bra LOOP;` (plain bra, which ptx.loop never
 * writes), `END:`.  stop and step are ints.  The labels are fresh
 * (renamed consistently; sg_fix_pyptx_labels), and nothing else may name
 * them or the predicate.  The declaration must stand just before the mov
 * (decls.c places it at its first use; merged with the mov as init=, the
 * two are one node), so that range_ declares it in the same place.
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

typedef struct ranges {
    cg_module *m;
    cg_kernel *k;
    uint32_t *refs;
    uint32_t next;       /* N of the next %riN */
    int done;            /* a counter out of order: no more folds */
    uint32_t made;
} ranges;

/* `%ri<next>` declared and set to start by s (REG + mov, or decls'
   merged node holding them); the mov, or NULL. */
static const cg_stmt *head(ranges *c, const cg_stmt *s, cg_symid *ri)
{
    const cg_stmt *decl = s->kind == SG_S_ALLOC ? sg_alloc_of(s)->orig : s;
    const cg_stmt *mov = decl ? decl->next : NULL;
    if (!decl || decl->kind != CG_S_REG || !sg_inst_match(mov, "mov.s32", 2) ||
        !sg_reg_is(mov->u.inst.ops, decl->u.reg))
        return NULL;
    const cg_sym *y = &c->k->syms[decl->u.reg];
    const cg_opnd *start = mov->u.inst.ops->next;
    if (y->kind != CG_SYM_REG || strcmp(y->type, "s32") || strncmp(y->ptx, "%ri", 3) ||
        !cg_is_decimal(y->ptx + 3, strlen(y->ptx + 3)))
        return NULL;
    if (strtoul(y->ptx + 3, NULL, 10) != c->next || (s->kind == SG_S_ALLOC && mov->next)) {
        c->done = 1;
        return NULL;
    }
    if (start->kind != CG_O_INT && !(start->kind == CG_O_SYM && cg_sym_is_reg(&c->k->syms[start->sym])))
        return NULL;
    *ri = decl->u.reg;
    return mov;
}

/* A label named only where it stands and by one branch. */
static int private_label(const ranges *c, const cg_stmt *s)
{
    return s && s->kind == CG_S_LABEL && c->refs[s->u.label] == 2 &&
           !sg_ptx_pinned(c->m, c->k->syms[s->u.label].ptx);
}

/* The range_ starting at *link: the FOR node in place of it, or 0. */
static int fold(ranges *c, cg_stmt **link)
{
    cg_stmt *s = *link, *top, *cmp, *exit, *body, *add = NULL, *last = NULL, *back, *end;
    cg_symid ri;
    const cg_stmt *mov = head(c, s, &ri);
    top = mov ? (s->kind == SG_S_ALLOC ? s->next : s->next->next) : NULL;
    cmp = top ? top->next : NULL;
    exit = cmp ? cmp->next : NULL;
    if (!private_label(c, top) || !cmp || cmp->kind != SG_S_CMP || !exit)
        return 0;
    const cg_stmt *setp = sg_cmp_of(cmp)->setp;
    const cg_opnd *d = setp->u.inst.ops, *stop = d->next->next;
    cg_symid p = sg_cmp_of(cmp)->pred;
    if (!sg_inst_match(setp, "setp.ge.s32", SG_ANY_OPS | SG_ANY_GUARD) || !sg_reg_is(d->next, ri) || stop->kind != CG_O_INT ||
        !sg_inst_match(exit, "bra", SG_ANY_OPS | SG_ANY_GUARD) || !sg_reg_is(exit->u.inst.guard, p) ||
        c->refs[p] != 3 || exit->u.inst.ops->kind != CG_O_SYM)
        return 0;
    cg_symid lend = exit->u.inst.ops->sym;
    for (back = exit->next; back; last = add, add = back, back = back->next)   /* back edge */
        if (sg_inst_match(back, "bra", SG_ANY_OPS) &&
            sg_reg_is(back->u.inst.ops, top->u.label))
            break;
    end = back ? back->next : NULL;
    if (!end || !private_label(c, end) || end->u.label != lend || add == exit ||
        !sg_inst_match(add, "add.s32", SG_ANY_OPS) ||
        !sg_reg_is(add->u.inst.ops, ri) || !sg_reg_is(add->u.inst.ops->next, ri) ||
        add->u.inst.ops->next->next->kind != CG_O_INT)
        return 0;
    const cg_opnd *step = add->u.inst.ops->next->next;
    body = exit->next == add ? NULL : exit->next;
    if (body)
        last->next = NULL;                         /* the body ends */
    cg_stmt *node = sg_node_new(c->m, SG_S_FOR, s->first);
    sg_kst(c->k)->fors = 1;
    sg_for_of(node)->var = c->k->syms[ri].py;
    *cg_body(node) = body;
    sg_for_of(node)->range = sg_copy_opnd(c->m, mov->u.inst.ops->next);
    sg_for_of(node)->range->next = sg_copy_opnd(c->m, stop);
    if (step->text.n != 1 || step->text.v[0].n != 1 || step->text.v[0].p[0] != '1')
        sg_for_of(node)->range->next->next = sg_copy_opnd(c->m, step);
    exit->next = add;                              /* orig: the loop's own statements */
    sg_for_of(node)->orig = cg_splice(link, end, node);
    c->next++;
    return 1;
}

static int fold_at(void *ctx, cg_stmt **link)
{
    ranges *c = ctx;
    if (c->done)
        return SG_VISIT_STOP;
    c->made += (uint32_t)fold(c, link);
    return SG_VISIT_ON;
}

/* A register spelled like range_'s counters (%ri<N>): else nothing to do. */
static int has_counter(const cg_kernel *k)
{
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].kind == CG_SYM_REG && !strncmp(k->syms[i].ptx, "%ri", 3))
            return 1;
    return 0;
}

uint32_t sugar_range(cg_module *m, cg_kernel *k)
{
    if (!has_counter(k))
        return 0;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    ranges c = { .m = m, .k = k };
    c.refs = sg_kernel_refs(&sc, k);
    if (!sg_pyptx_label_pinned(m, k, c.refs))
        sg_visit_stmts(&k->body, fold_at, &c);
    ptx_free_bufs(&ob);
    return c.made;
}
