/*
 * sugar/alias.c - pass "alias": an element of a register array that holds
 * a special register, which pass "names" names (specials.c), is bound
 * where the mov writes it, not on a line of its own:
 *
 *     ctaid = r[4]
 *     ptx.mov(u32, ctaid, ptx.special.ctaid.x())   ->   ptx.mov(u32, ctaid := r[4], ptx.special.ctaid.x())
 *
 * Both bind the same pyptx register to the name and record nothing, so the
 * PTX is the same; the name still reads at every later use, and the
 * kernel is a line shorter per name, as long as pyptx's own output.  The
 * row runs last: the passes before it see the alias as the statement it
 * was (key.c, repeat's copies, outline's helpers).  Where anything came
 * between the alias and its mov, or the mov's destination is no longer
 * the name alone (a rolled loop's operand), the line stays.  The row
 * visits the aliases the kernel's rows made or copied (sg_state), not the
 * kernel's statements: an alias takes its mov's place in the list (the
 * link to the alias stays).  One that a pass replaced, no longer printed,
 * may be folded too: only its own node changes.
 */
#include "codegen/build.h"
#include "sugar/sugar.h"

/* The alias s becomes its mov, with name := elem as the destination; 0
   if the mov does not follow it. */
static int fold_alias(cg_module *m, cg_stmt *s)
{
    cg_stmt *mov = s->next;
    const sg_alias *a = sg_alias_of(s);
    cg_opnd *d = mov && mov->kind == CG_S_INST ? mov->u.inst.ops : NULL;
    if (!d || d->kind != CG_O_SYM || d->sym != a->name || d->index >= 0)
        return 0;
    cg_opnd *w = cg_opnd_new(m, SG_O_WALRUS);
    w->sym = a->name;
    w->index = -1;
    w->a = a->elem;
    w->next = d->next;
    *s = *mov;   /* (next: the mov's, which leaves the list) */
    s->u.inst.ops = w;
    return 1;
}

uint32_t sugar_alias(cg_module *m, cg_kernel *k)
{
    (void)k;
    const sg_state *st = sg_st(m);
    uint32_t made = 0;
    for (uint32_t i = 0; i < st->naliases; i++)
        if (st->alias_nodes[i]->kind == SG_S_ALIAS)
            made += (uint32_t)fold_alias(m, st->alias_nodes[i]);
    return made;
}
