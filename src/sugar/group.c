/*
 * sugar/group.c - pass "group": declarations in a row that allocate alike
 * become one line.
 *
 *     f37 = reg.scalar(f32)                 f37, f38 = reg.scalar(f32), reg.scalar(f32)
 *     f38 = reg.scalar(f32)          ->     f33, f34, f35 = [reg.scalar(f32, init=0.0) for _ in range(3)]
 *
 * Python evaluates the right side left to right before it binds the
 * names, so the registers are taken in the same order (pyptx's counters
 * and declaration list see the same calls).  Only declarations of
 * registers pyptx names itself (no name=) with the same type and the same
 * init= operand, and only as the last pass, since the other passes match
 * the declarations one by one.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define MAXGROUP 8

/* s declares a register pyptx names itself, x = reg.scalar(T[, init=V]):
   *x, and *v (V, or NULL); 0 for anything else. */
static int fresh_scalar(const cg_kernel *k, const cg_stmt *s, cg_symid *x, const cg_opnd **v)
{
    *v = NULL;
    if (s->kind == CG_S_REG)
        *x = s->u.reg;
    else if (!sg_alloc_init(s, x, v))
        return 0;
    const cg_sym *y = &k->syms[*x];
    return y->kind == CG_SYM_REG && y->implicit;
}

/* s and t allocate alike: the same type, and the same init= (or none). */
static int alike(const cg_kernel *k, const cg_stmt *s, const cg_stmt *t)
{
    cg_symid x, z;
    const cg_opnd *v, *w;
    return fresh_scalar(k, s, &x, &v) && fresh_scalar(k, t, &z, &w) &&
           !strcmp(k->syms[x].type, k->syms[z].type) && sg_opnd_equal(v, w);
}

/* The right side they share: reg.scalar(T[, init=V]). */
static cg_opnd *scalar_call(cg_module *m, const cg_kernel *k, const cg_stmt *s)
{
    cg_symid x;
    const cg_opnd *v;
    fresh_scalar(k, s, &x, &v);
    cg_opnd *type = sg_name_opnd(m, k->syms[x].type);
    if (v)
        type->next = sg_kw_opnd(m, "init", sg_copy_opnd(m, v));
    return sg_call_opnd(m, "reg.scalar", NULL, type);
}

static int group_at(void *ctx, cg_stmt **link)
{
    sg_walk *g = ctx;
    cg_module *m = g->m;
    cg_kernel *k = g->k;
    cg_stmt *s = *link, *t = s;
    cg_opnd *regs[MAXGROUP];
    unsigned n = 1;
    cg_symid x;
    const cg_opnd *v;
    if (cg_body(s) || !fresh_scalar(k, s, &x, &v))
        return SG_VISIT_ON;
    while (n < MAXGROUP && t->next && alike(k, s, t->next)) {
        t = t->next;
        n++;
    }
    if (n < 2)
        return SG_VISIT_ON;
    const cg_stmt *u = s;
    for (unsigned i = 0; i < n; i++, u = u->next) {
        fresh_scalar(k, u, &x, &v);
        regs[i] = sg_sym_opnd(m, x);
    }
    cg_opnd *rhs = scalar_call(m, k, s);
    if (n == 2)
        rhs->next = scalar_call(m, k, s);
    else
        rhs = sg_pair_opnd(m, SG_O_REPEAT, rhs, sg_int_opnd(m, n));
    sg_assign_splice(m, link, t, sg_opnd_list(regs, n), rhs);
    g->made++;
    return SG_VISIT_ON;
}

uint32_t sugar_group(cg_module *m, cg_kernel *k)
{
    /* two right sides print alike only without name=, i.e. for registers
       pyptx names itself: a kernel with none has nothing to group */
    if (!sg_any_fresh_reg(k))
        return 0;
    sg_walk g = { m, k, NULL, 0 };
    sg_visit_stmts(&k->body, group_at, &g);
    return g.made;
}
