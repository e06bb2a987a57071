/*
 * sugar/inits.c - pass "inits": a run of barrier initializations over
 * consecutive slots of one barrier array becomes init_all.
 *
 *     ptx.mbarrier.init(ptx.addr("mbar_0", 0), 1)
 *     ptx.mbarrier.init(ptx.addr("mbar_0", 8), 1)    ->  ptx.mbarrier.array("mbar_0", 0, 3).init_all(1)
 *     ptx.mbarrier.init(ptx.addr("mbar_0", 16), 1)
 *
 * pyptx 0.1.1 (ptx.py _BarrierArray.init_all): for each slot idx in
 * range(count), slot.init(count) with the slot's address [base+off+8*idx]
 * (written with its offset even where it is 0) and the same pred=.  So a
 * run of two or more ptx.mbarrier.init calls (as "calls" found them) on
 * [S+off], [S+off+8], ... with one arrive count and one guard is that
 * call.  Runs in one list; bodies are walked too.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

/* s initializes [S+off] (S a symbol, off an int) with an int count: its
   operands, else NULL. */
static const cg_opnd *init_at(const cg_stmt *s)
{
    const char *call = s && s->kind == CG_S_INST && s->u.inst.op[0] == 'm' &&
                       s->u.inst.hook ? sg_wrapper_call(&s->u.inst) : NULL;
    const cg_opnd *a = call && !strcmp(call, "ptx.mbarrier.init") ? s->u.inst.ops : NULL;
    if (!a || a->kind != CG_O_ADDR || a->a->kind != CG_O_SYM || a->a->index >= 0 || !a->b ||
        a->b->kind != CG_O_INT || !a->next || a->next->kind != CG_O_INT)
        return NULL;
    return a;
}

/* A non-negative int operand's value, or -1. */
static long long int_of(const cg_opnd *o)
{
    long long v;
    return sg_int_value(o, &v) && v >= 0 ? v : -1;
}

/* The slot after prev's: same array, count and guard, offset + 8. */
static int next_slot(const cg_stmt *prev, const cg_stmt *s)
{
    const cg_opnd *a = init_at(prev), *b = init_at(s);
    const cg_opnd *g = prev->u.inst.guard, *h = b ? s->u.inst.guard : NULL;
    return b && a->a->sym == b->a->sym && int_of(a->b) >= 0 &&
           int_of(b->b) == int_of(a->b) + 8 && sg_opnd_equal(a->next, b->next) &&
           (!g == !h) && (!g || sg_opnd_equal(g, h));
}

/* The run first..last (n slots) at *link as one init_all call. */
static void init_all(cg_module *m, cg_stmt **link, cg_stmt *last, unsigned n)
{
    const cg_stmt *first = *link;
    const cg_opnd *a = init_at(first);
    cg_opnd *arr[3] = { sg_copy_opnd(m, a->a), sg_copy_opnd(m, a->b), sg_int_opnd(m, n) };
    cg_opnd *args[2] = { sg_copy_opnd(m, a->next), NULL };
    if (first->u.inst.guard)
        args[1] = sg_kw_opnd(m, "pred", sg_copy_opnd(m, first->u.inst.guard));
    cg_opnd *array = sg_call_opnd(m, "ptx.mbarrier.array", NULL, sg_opnd_list(arr, 3));
    sg_assign_splice(m, link, last, NULL,
                     sg_call_opnd(m, "init_all", array, sg_opnd_list(args, args[1] ? 2 : 1)));
}

static int inits_at(void *ctx, cg_stmt **link)
{
    sg_walk *c = ctx;
    cg_stmt *last = *link;
    unsigned n = 1;
    if (!init_at(last))
        return SG_VISIT_ON;
    for (; last->next && next_slot(last, last->next); last = last->next)
        n++;
    if (n >= 2) {
        init_all(c->m, link, last, n);
        c->made++;
    }
    return SG_VISIT_ON;
}

uint32_t sugar_inits(cg_module *m, cg_kernel *k)
{
    sg_walk c = { m, k, NULL, 0 };
    if (!(k->ops & cg_op_bit("mbarrier")))   /* no init to look for */
        return 0;
    sg_visit_stmts(&k->body, inits_at, &c);
    return c.made;
}
