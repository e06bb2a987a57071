/*
 * sugar/preds.c - pass "preds": a comparison that only the next statement
 * reads goes into it, as an instruction's guard or as ptx.if_'s argument.
 *
 *     p4 = r76 == 12288                ->   ptx.mov(u32, r76, 0, pred=(r76 == 12288))
 *     ptx.mov(u32, r76, 0, pred=p4)
 *     p0 = tid == 0                    ->   with ptx.if_(tid == 0):
 *     with ptx.if_(p0):
 *
 * pyptx evaluates the arguments, pred= among them, before the call emits
 * its instruction (if_ its `@!P bra`), so the setp still comes just
 * before it; the comparison takes its predicate from the pool at the same
 * point.  Only where nothing else in the instruction emits when evaluated
 * (a nested operator, a dynamic address): those would run before the
 * comparison, which the source has first.  A branch keeps its predicate:
 * ifs and loops have taken the ones they lift, and what is left is read
 * as a jump.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

static int is_pred(const cg_opnd *g, cg_symid p)
{
    return g && g->kind == CG_O_SYM && g->sym == p && g->index < 0;
}

/* Where statement t reads predicate p, if it can take the comparison
   there: an instruction's guard (nothing else in it emitting), or
   ptx.if_'s argument, P or ~P; else NULL.  *names: how many times the
   kernel then names p (the node, its setp's destination, and t: twice for
   an if_, whose `@!P bra` stays in its orig). */
static cg_opnd **taker(cg_stmt *t, cg_symid p, uint32_t *names)
{
    *names = 3;
    if (t && t->kind == CG_S_INST)
        return is_pred(t->u.inst.guard, p) && strcmp(t->u.inst.op, "bra") &&
               !sg_opnds_emit(t->u.inst.ops) ? &t->u.inst.guard : NULL;
    if (!t || t->kind != SG_S_WITH || strcmp(sg_with_of(t)->call, "ptx.if_") || !sg_with_of(t)->cond)
        return NULL;
    *names = 4;
    cg_opnd **arg = &sg_with_of(t)->cond;
    if ((*arg)->kind == CG_O_NOT)
        arg = &(*arg)->a;
    return is_pred(*arg, p) ? arg : NULL;
}

static uint32_t nest_list(cg_module *m, cg_kernel *k, cg_stmt **head, const uint32_t *refs)
{
    uint32_t made = 0;
    for (cg_stmt **link = head; *link; ) {
        cg_stmt *s = *link, **body = cg_body(s);
        if (body)
            made += nest_list(m, k, body, refs);
        uint32_t names;
        cg_opnd **at = s->kind == SG_S_CMP ? taker(s->next, sg_cmp_of(s)->pred, &names) : NULL;
        if (!at || refs[sg_cmp_of(s)->pred] != names) {
            link = &s->next;
            continue;
        }
        cg_opnd *next = (*at)->next;
        *at = sg_cmp_oper(m, s);
        (*at)->next = next;
        *link = s->next;
        made++;
    }
    return made;
}

/* Is there a comparison the next statement takes?  Most kernels have
   none (compiler output: no comparison at all, which sg_kstate.cmps
   says without a walk), and this look spares them counting every
   operand. */
static int taken(void *ctx, cg_stmt **link)
{
    const cg_stmt *s = *link;
    uint32_t names;
    (void)ctx;
    return s->kind == SG_S_CMP && taker(s->next, sg_cmp_of(s)->pred, &names) ? SG_VISIT_STOP
                                                                              : SG_VISIT_ON;
}

static int any(const cg_stmt *s)
{
    return sg_visit_list(s, taken, NULL);
}

uint32_t sugar_preds(cg_module *m, cg_kernel *k)
{
    if (!sg_kst(k)->cmps || !any(k->body))
        return 0;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    uint32_t *refs = sg_kernel_refs(&sc, k);
    uint32_t made = nest_list(m, k, &k->body, refs);
    ptx_free_bufs(&ob);
    return made;
}
