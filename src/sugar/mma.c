/*
 * sugar/mma.c - pass "mma": a tcgen05.mma with the predicate pyptx sets
 * up for it becomes ptx.tcgen05.mma.
 *
 *     p4 = reg.scalar(pred)
 *     ptx.setp("ne", b32, p4, acc, 0)
 *     r9 = reg.scalar(u32, init=0)                  ->  ptx.tcgen05.mma(ptx.addr(t), da, db, idesc, scale_d=acc)
 *     ptx.inst.tcgen05.mma.cta_group__1.kind__f16(ptx.addr(t), da, db, idesc, [r9, r9, r9, r9], p4)
 *
 * pyptx 0.1.1 (ptx.py _Tcgen05.mma, dense form): the D address
 * (_make_address), then the scale predicate, a fresh pool predicate:
 * `setp.ne.b32 p, scale_d, 0` for a register scale_d, or for a bool a
 * fresh u32 w, `mov.u32 w, 1|0; setp.ne.b32 p, w, 0`; then, for PTX 8.8
 * and later, a fresh u32 z, `mov.u32 z, 0`, passed as the disable-output
 * mask {z, z, z, z} (eight with cta_group 2); the instruction last.  The
 * predicate and z must be named nowhere else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

typedef struct mmas {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;
    int mask_tuple;          /* PTX 8.8 or later: pyptx passes {z, z, z, z} */
    ptx_buf text;
} mmas;

/* `mov.u32 r, v` with r declared by s (as REG + mov, or decls' merged
   node): the int's text, or NULL. */
static const cg_opnd *set_u32(const mmas *c, const cg_stmt *s, cg_symid *r)
{
    const cg_stmt *d = s && s->kind == CG_S_ALLOC ? s->u.sugar.orig : s;
    const cg_stmt *mv = d ? d->next : NULL;
    if (!sg_fresh_decl(c->k, d, "u32") || !sg_inst_is(mv, "mov") || mv->u.inst.guard ||
        mv->u.inst.nmods != 1 || strcmp(mv->u.inst.mods[0], "u32") ||
        !sg_reg_is(mv->u.inst.ops, d->u.reg) || mv->u.inst.ops->next->kind != CG_O_INT ||
        (s->kind == CG_S_ALLOC && mv->next))
        return NULL;
    *r = d->u.reg;
    return mv->u.inst.ops->next;
}

/* The statement after the mov of set_u32 (its REG + mov or merged node). */
static cg_stmt *after_set(cg_stmt *s)
{
    return s->kind == CG_S_ALLOC ? s->next : s->next->next;
}

/* The scale argument at s into c->text: `p = ...; setp.ne.b32 p, x, 0`,
   x a register, or for a bool `w = 1|0` between them (the declarations
   stand in the order the trace makes them: a register written before p
   is the caller's, not pyptx's w); the statement after, *p the
   predicate; NULL if not that. */
static cg_stmt *scale(mmas *c, cg_stmt *s, cg_symid *p)
{
    cg_symid w = CG_NOSYM;
    if (!sg_fresh_decl(c->k, s, "pred") || c->refs[s->u.reg] != 2 || !s->next)
        return NULL;
    *p = s->u.reg;
    const cg_opnd *v = set_u32(c, s->next, &w);
    cg_stmt *setp = v ? after_set(s->next) : s->next;
    if (!sg_inst_is(setp, "setp") || setp->u.inst.guard || setp->u.inst.nmods != 2 ||
        strcmp(setp->u.inst.mods[0], "ne") || strcmp(setp->u.inst.mods[1], "b32") ||
        sg_nops(setp->u.inst.ops) != 3 || !sg_reg_is(setp->u.inst.ops, *p) ||
        !sg_int_is(setp->u.inst.ops->next->next, 0))
        return NULL;
    const cg_opnd *x = setp->u.inst.ops->next;
    ptx_buf_puts(&c->text, ", scale_d=");
    if (v) {
        if (!sg_reg_is(x, w) || c->refs[w] != 2 || !(sg_int_is(v, 0) || sg_int_is(v, 1)))
            return NULL;
        ptx_buf_puts(&c->text, sg_int_is(v, 1) ? "True" : "False");
    } else {
        const cg_sym *y = x->kind == CG_O_SYM ? &c->k->syms[x->sym] : NULL;
        if (!y || !cg_sym_is_reg(y) || (y->type && !strcmp(y->type, "pred")))
            return NULL;
        cg_opnd one = *x;
        one.next = NULL;
        cg_print_opnd(c->m, c->k, &one, &c->text);
    }
    return setp->next;
}

/* `.mma.cta_group::N.kind::K`: N and K into *cg, *kind. */
static int mma_mods(const cg_stmt *s, const char **cg, const char **kind)
{
    const cg_inst *in = &s->u.inst;
    if (!sg_inst_is(s, "tcgen05") || in->nmods != 3 || strcmp(in->mods[0], "mma") ||
        strncmp(in->mods[1], "cta_group::", 11) || strncmp(in->mods[2], "kind::", 6))
        return 0;
    *cg = in->mods[1] + 11;
    *kind = in->mods[2] + 6;
    return !strcmp(*cg, "1") || !strcmp(*cg, "2");
}

/* The mma run at s into c->text; its instruction, or NULL. */
static cg_stmt *match(mmas *c, cg_stmt *s)
{
    cg_symid p, z = CG_NOSYM;
    c->text.n = 0;
    cg_stmt *t = scale(c, s, &p), *in;
    if (!t)
        return NULL;
    size_t scale_n = c->text.n;
    char scale_txt[160];
    if (scale_n >= sizeof scale_txt)
        return NULL;
    memcpy(scale_txt, c->text.p, scale_n);
    const cg_opnd *zero = set_u32(c, t, &z);
    in = zero ? after_set(t) : t;
    const char *cg, *kind;
    if (!in || !mma_mods(in, &cg, &kind) || (zero && !sg_int_is(zero, 0)))
        return NULL;
    const cg_opnd *o = in->u.inst.ops;
    unsigned n = sg_nops(o), words = !strcmp(cg, "2") ? 8 : 4;
    if (!zero != !c->mask_tuple || n != (zero ? 6u : 5u) || (o->kind != CG_O_ADDR && o->kind != CG_O_DYN && o->kind != CG_O_SLOT))
        return NULL;
    const cg_opnd *mask = zero ? o->next->next->next->next : NULL;
    if (zero) {
        unsigned k = 0;
        for (const cg_opnd *e = mask->kind == CG_O_VEC ? mask->elems : NULL; e; e = e->next, k++)
            if (!sg_reg_is(e, z))
                return NULL;
        if (k != words || c->refs[z] != words + 1)
            return NULL;
    }
    if (!sg_reg_is(zero ? mask->next : o->next->next->next->next, p))
        return NULL;
    c->text.n = 0;
    ptx_buf_puts(&c->text, "ptx.tcgen05.mma(");
    sg_print_addr_arg(c->m, c->k, o, &c->text);
    for (unsigned i = 1; i < 4; i++) {
        cg_opnd one = *sg_op(&in->u.inst, i);
        one.next = NULL;
        ptx_buf_puts(&c->text, ", ");
        cg_print_opnd(c->m, c->k, &one, &c->text);
    }
    if (strcmp(cg, "1"))
        ptx_buf_printf(&c->text, ", cta_group=%s", cg);
    if (strcmp(kind, "f16"))
        ptx_buf_printf(&c->text, ", kind=\"%s\"", kind);
    ptx_buf_put(&c->text, scale_txt, scale_n);
    if (in->u.inst.guard) {
        ptx_buf_puts(&c->text, ", pred=");
        cg_print_opnd(c->m, c->k, in->u.inst.guard, &c->text);
    }
    ptx_buf_putc(&c->text, ')');
    return in;
}

static uint32_t mma_list(mmas *c, cg_stmt **link)
{
    uint32_t made = 0;
    for (; *link; link = &(*link)->next) {
        cg_stmt *s = *link, **body = cg_body(s), *last;
        if (body) {
            made += mma_list(c, body);
        } else if ((last = match(c, s)) != NULL) {
            sg_py_splice(c->m, link, last, c->text.p, c->text.n);
            made++;
        }
    }
    return made;
}

uint32_t sugar_mma(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    sg_scratch sc = { 0 };
    mmas c = { .m = m, .k = k };
    uint32_t *refs = sg_scratch_get(&sc, (k->nsyms + 1) * sizeof *refs);
    sg_count_refs(k->body, refs);
    c.refs = refs;
    long major = m->vmajor ? strtol(m->vmajor, NULL, 10) : 0;
    long minor = m->vminor ? strtol(m->vminor, NULL, 10) : 0;
    c.mask_tuple = major > 8 || (major == 8 && minor >= 8);
    uint32_t made = mma_list(&c, &k->body);
    ptx_buf_free(&sc);
    ptx_buf_free(&c.text);
    return made;
}
