/*
 * sugar/pipeline.c - pass "pipeline": the ring update that
 * ptx.pipeline(n).advance() emits becomes that call.
 *
 *     p3 = cur == 4
 *     r7 = reg.scalar(u32)
 *     ptx.selp(u32, r7, 1, 0, p3)
 *     ph ^= r7                          ->   st, ph = ptx.pipeline(4, cursor=cur, phase=ph).advance()
 *     st = reg.scalar(u32)
 *     ptx.selp(u32, st, 0, cur, p3)
 *     ptx.add(s32, cur, st, 1)
 *
 * pyptx 0.1.1 (ptx.py PipelineState.advance): `wrap = cursor == n` (a
 * comparison: the predicate pool's next, compare.c), `flip =
 * reg.scalar(u32)`, `selp.u32 flip, 1, 0, wrap`, `phase ^= flip`
 * (xor.b32), `stage = reg.scalar(u32)`, `selp.u32 stage, 0, cursor,
 * wrap`, `add.s32 cursor, stage, 1`; it returns (stage, phase).  A
 * PipelineState given its cursor and phase registers emits nothing when
 * made, so the call can name the kernel's own.  wrap and flip must be
 * named nowhere else.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

static int u32_reg(const cg_kernel *k, const cg_opnd *o)
{
    const cg_sym *y = o && o->kind == CG_O_SYM && o->index < 0 ? &k->syms[o->sym] : NULL;
    return y && y->kind == CG_SYM_REG && y->type && !strcmp(y->type, "u32");
}

/* The advance at s (the comparison): its last statement, or NULL. */
static cg_stmt *advance(const cg_kernel *k, const uint32_t *refs, cg_stmt *s,
                        const cg_opnd **cur, const cg_opnd **n, const cg_opnd **ph, cg_symid *st)
{
    if (s->kind != SG_S_CMP)
        return NULL;
    const cg_stmt *setp = sg_cmp_of(s)->setp;
    const cg_opnd *c;
    if (!sg_inst_match(setp, "setp.eq.u32", SG_ANY_OPS | SG_ANY_GUARD))
        return NULL;
    c = setp->u.inst.ops->next;
    cg_symid w = sg_cmp_of(s)->pred;
    cg_stmt *rf = s->next, *sf = rf ? rf->next : NULL, *x = sf ? sf->next : NULL;
    cg_stmt *rs = x ? x->next : NULL, *ss = rs ? rs->next : NULL, *add = ss ? ss->next : NULL;
    const cg_opnd *a = sg_inst_ops(sf, "selp.u32", 4), *b = sg_inst_ops(x, "xor.b32", 3);
    const cg_opnd *d = sg_inst_ops(ss, "selp.u32", 4), *e = sg_inst_ops(add, "add.s32", 3);
    if (!u32_reg(k, c) || c->next->kind != CG_O_INT || !sg_fresh_decl(k, rf, "u32") || !sg_fresh_decl(k, rs, "u32") ||
        !a || !b || !d || !e)
        return NULL;
    cg_symid f = rf->u.reg;
    if (!sg_reg_is(a, f) || !sg_int_is(a->next, 1) || !sg_int_is(a->next->next, 0) ||
        !sg_reg_is(a->next->next->next, w) || !u32_reg(k, b) || !sg_reg_is(b->next, b->sym) ||
        !sg_reg_is(b->next->next, f) || b->sym == c->sym || !sg_reg_is(d, rs->u.reg) ||
        !sg_int_is(d->next, 0) || !sg_reg_is(d->next->next, c->sym) ||
        !sg_reg_is(d->next->next->next, w) || !sg_reg_is(e, c->sym) || !sg_reg_is(e->next, rs->u.reg) ||
        !sg_int_is(e->next->next, 1) || refs[w] != 4 || refs[f] != 2)
        return NULL;
    *cur = c;
    *n = c->next;
    *ph = b;
    *st = rs->u.reg;
    return add;
}

static int pipe_at(void *ctx, cg_stmt **link)
{
    sg_walk *w = ctx;
    const cg_kernel *k = w->k;
    cg_stmt *s = *link, *last;
    const cg_opnd *cur, *n, *ph;
    cg_symid st;
    if (cg_body(s) || !(last = advance(k, w->refs, s, &cur, &n, &ph, &st)))
        return SG_VISIT_ON;
    cg_opnd *targets[2] = { sg_sym_opnd(w->m, st), sg_sym_opnd(w->m, ph->sym) };
    cg_opnd *args[3] = { sg_copy_opnd(w->m, n),
                         sg_kw_opnd(w->m, "cursor", sg_sym_opnd(w->m, cur->sym)),
                         sg_kw_opnd(w->m, "phase", sg_sym_opnd(w->m, ph->sym)) };
    cg_opnd *state = sg_call_opnd(w->m, "ptx.pipeline", NULL, sg_opnd_list(args, 3));
    sg_assign_splice(w->m, link, last, sg_opnd_list(targets, 2),
                     sg_call_opnd(w->m, "advance", state, NULL));
    w->made++;
    return SG_VISIT_ON;
}

uint32_t sugar_pipeline(cg_module *m, cg_kernel *k)
{
    return sg_walk_fresh(m, k, pipe_at);
}
