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
 * the name alone (a rolled loop's operand), the line stays.  The walk
 * stops at the last alias the kernel's rows made or copied (sg_state's
 * count): they stand near the top, where a kernel reads its special
 * registers, and the rest of a library kernel is not walked.
 */
#include "codegen/build.h"
#include "sugar/sugar.h"

typedef struct folding {
    sg_walk w;
    uint32_t left;       /* aliases not reached yet */
} folding;

/* The alias at *link becomes the mov's destination, written name := elem. */
static int fold_alias(void *ctx, cg_stmt **link)
{
    folding *f = ctx;
    sg_walk *c = &f->w;
    cg_stmt *s = *link, *mov = s->next;
    if (s->kind != SG_S_ALIAS)
        return SG_VISIT_ON;
    int last = --f->left == 0;
    const sg_alias *a = sg_alias_of(s);
    cg_opnd *d = mov && mov->kind == CG_S_INST ? mov->u.inst.ops : NULL;
    if (!d || d->kind != CG_O_SYM || d->sym != a->name || d->index >= 0)
        return last ? SG_VISIT_STOP : SG_VISIT_ON;
    cg_opnd *w = cg_opnd_new(c->m, SG_O_WALRUS);
    w->sym = a->name;
    w->index = -1;
    w->a = a->elem;
    w->next = d->next;
    mov->u.inst.ops = w;
    *link = mov;
    c->made++;
    return last ? SG_VISIT_STOP : SG_VISIT_GONE;
}

uint32_t sugar_alias(cg_module *m, cg_kernel *k)
{
    folding f = { { m, k, NULL, 0 }, sg_st(m)->aliases };
    if (f.left)
        sg_visit_stmts(&k->body, fold_alias, &f);
    return f.w.made;
}
