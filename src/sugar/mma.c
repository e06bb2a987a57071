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
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

#define MAXDESCS 16

typedef struct mmas {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;
    int mask_tuple;          /* PTX 8.8 or later: pyptx passes {z, z, z, z} */
    cg_opnd *scale;          /* the last match's scale_d= */
    cg_opnd *call;           /* and its ptx.tcgen05.mma(...) */
    int kind_f16;            /* the last match is kind::f16 */
    cg_symid descs[MAXDESCS];   /* the descriptor registers the matches read */
    unsigned ndescs;
    uint32_t made;
} mmas;

/* `mov.u32 r, v` with r declared by s (as REG + mov, or decls' merged
   node): the int's text, or NULL. */
static const cg_opnd *set_u32(const mmas *c, const cg_stmt *s, cg_symid *r)
{
    const cg_stmt *d = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->orig : s;
    const cg_stmt *mv = d ? d->next : NULL;
    if (!sg_fresh_decl(c->k, d, "u32") || !sg_inst_match(mv, "mov.u32", SG_ANY_OPS) ||
        !sg_reg_is(mv->u.inst.ops, d->u.reg) || mv->u.inst.ops->next->kind != CG_O_INT ||
        (s->kind == SG_S_ALLOC && mv->next))
        return NULL;
    *r = d->u.reg;
    return mv->u.inst.ops->next;
}

/* The statement after the mov of set_u32 (its REG + mov or merged node). */
static cg_stmt *after_set(cg_stmt *s)
{
    return s->kind == SG_S_ALLOC ? s->next : s->next->next;
}

/* The scale argument at s into c->scale: `p = ...; setp.ne.b32 p, x, 0`,
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
    if (!sg_inst_match(setp, "setp.ne.b32", 3) || !sg_reg_is(setp->u.inst.ops, *p) ||
        !sg_int_is(setp->u.inst.ops->next->next, 0))
        return NULL;
    const cg_opnd *x = setp->u.inst.ops->next;
    if (v) {
        if (!sg_reg_is(x, w) || c->refs[w] != 2 || !(sg_int_is(v, 0) || sg_int_is(v, 1)))
            return NULL;
        c->scale = sg_name_opnd(c->m, sg_int_is(v, 1) ? "True" : "False");
    } else {
        const cg_sym *y = x->kind == CG_O_SYM ? &c->k->syms[x->sym] : NULL;
        if (!y || !cg_sym_is_reg(y) || (y->type && !strcmp(y->type, "pred")))
            return NULL;
        c->scale = sg_copy_opnd(c->m, x);
    }
    c->scale = sg_kw_opnd(c->m, "scale_d", c->scale);
    return setp->next;
}

/* `.mma.cta_group::N.kind::K`: N and K into *cg, *kind. */
static int mma_mods(const cg_stmt *s, const char **cg, const char **kind)
{
    const cg_inst *in = &s->u.inst;
    if (!sg_inst_match(s, "tcgen05.mma.cta_group::*.kind::*", SG_ANY_OPS | SG_ANY_GUARD))
        return 0;
    *cg = in->mods[1] + 11;
    *kind = in->mods[2] + 6;
    return !strcmp(*cg, "1") || !strcmp(*cg, "2");
}

/* ptx.tcgen05.mma(d, a, b, idesc[, cta_group=N][, kind="K"], scale_d=s
   [, pred=g]) of instruction in, the scale c->scale. */
static cg_opnd *mma_call(const mmas *c, const cg_inst *in, const char *cg, const char *kind)
{
    cg_opnd *v[9];
    unsigned n = 0;
    v[n++] = sg_pair_opnd(c->m, SG_O_TAKEN, sg_copy_opnd(c->m, in->ops), NULL);
    for (unsigned i = 1; i < 4; i++)
        v[n++] = sg_copy_opnd(c->m, sg_op(in, i));
    if (strcmp(cg, "1"))
        v[n++] = sg_kw_opnd(c->m, "cta_group", sg_text_opnd(c->m, CG_O_INT, cg));
    if (strcmp(kind, "f16"))
        v[n++] = sg_kw_opnd(c->m, "kind", sg_text_opnd(c->m, CG_O_STR, kind));
    v[n++] = c->scale;
    if (in->guard)
        v[n++] = sg_kw_opnd(c->m, "pred", sg_copy_opnd(c->m, in->guard));
    return sg_call_opnd(c->m, "ptx.tcgen05.mma", NULL, sg_opnd_list(v, n));
}

/* The mma run at s as the call c->call; its instruction, or NULL. */
static cg_stmt *match(mmas *c, cg_stmt *s)
{
    cg_symid p, z = CG_NOSYM;
    cg_stmt *t = scale(c, s, &p), *in;
    if (!t)
        return NULL;
    const cg_opnd *zero = set_u32(c, t, &z);
    in = zero ? after_set(t) : t;
    const char *cg, *kind;
    if (!in || !mma_mods(in, &cg, &kind) || (zero && !sg_int_is(zero, 0)))
        return NULL;
    const cg_opnd *o = in->u.inst.ops;
    unsigned n = sg_nops(o), words = !strcmp(cg, "2") ? 8 : 4;
    if (!zero != !c->mask_tuple || n != (zero ? 6u : 5u) || (o->kind != CG_O_ADDR && o->kind != SG_O_DYN && o->kind != SG_O_SLOT))
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
    c->kind_f16 = !strcmp(kind, "f16");
    c->call = mma_call(c, &in->u.inst, cg, kind);
    return in;
}

/* ---- the instruction descriptor ------------------------------------------ */

/* pyptx 0.1.1 (ptx.py _Tcgen05.make_instr_desc_f16bf16_f32): the 32-bit
   descriptor of a dense f16/bf16 -> f32 tcgen05.mma, field by field.  A
   register that a kind::f16 mma reads as its descriptor, initialized with
   an int that this encoding gives back bit for bit, is written as the call
   (the same int: only the spelling changes).  Arguments at pyptx's
   default are left out, but for m, n and ab_dtype. */
static const char *const ab_dtypes[] = { "f16", "bf16" };

static cg_opnd *kw_int(cg_module *m, const char *kw, long long v)
{
    return sg_kw_opnd(m, kw, sg_int_opnd(m, v));
}

static int instr_desc(cg_module *m, uint64_t v, cg_opnd **call)
{
    unsigned sparse = v >> 2 & 1, sat = v >> 3 & 1, ab = v >> 7 & 7, neg_a = v >> 13 & 1;
    unsigned neg_b = v >> 14 & 1, a_mn = v >> 15 & 1, b_mn = v >> 16 & 1;
    unsigned n = (unsigned)(v >> 17 & 63) << 3, mm = (unsigned)(v >> 24 & 31) << 4;
    unsigned shift = v >> 30 & 3;
    uint64_t back = (uint64_t)sparse << 2 | sat << 3 | 1u << 4 | ab << 7 | ab << 10 |
                    neg_a << 13 | neg_b << 14 | a_mn << 15 | b_mn << 16 | (n >> 3) << 17 |
                    (uint64_t)(mm >> 4) << 24 | (uint64_t)shift << 30;
    if (back != v || ab > 1 || n < 8 || (mm != 64 && mm != 128 && mm != 256))
        return 0;
    cg_opnd *a[10];
    unsigned k = 0;
    a[k++] = kw_int(m, "m", mm);
    a[k++] = kw_int(m, "n", n);
    a[k++] = sg_kw_opnd(m, "ab_dtype", sg_text_opnd(m, CG_O_STR, ab_dtypes[ab]));
    if (a_mn)
        a[k++] = sg_kw_opnd(m, "a_major", sg_text_opnd(m, CG_O_STR, "MN"));
    if (b_mn)
        a[k++] = sg_kw_opnd(m, "b_major", sg_text_opnd(m, CG_O_STR, "MN"));
    if (neg_a)
        a[k++] = kw_int(m, "scale_a", -1);
    if (neg_b)
        a[k++] = kw_int(m, "scale_b", -1);
    if (sat)
        a[k++] = sg_kw_opnd(m, "saturate", sg_name_opnd(m, "True"));
    if (sparse)
        a[k++] = sg_kw_opnd(m, "sparse", sg_name_opnd(m, "True"));
    if (shift)
        a[k++] = kw_int(m, "max_shift", shift);
    *call = sg_call_opnd(m, "ptx.tcgen05.make_instr_desc_f16bf16_f32", NULL, sg_opnd_list(a, k));
    return 1;
}

/* Each mma matched reads its descriptor from a register: the merged
   `reg.scalar(u32, init=V)` of one (top level, where decls puts them) that
   such a register names gets the call.  descs: the registers, n of them. */
static void name_descs(mmas *c, const cg_symid *descs, unsigned n)
{
    for (cg_stmt *s = c->k->body; s; s = s->next) {
        cg_symid x;
        const cg_opnd *v;
        long long val;
        cg_opnd *call;
        if (!sg_alloc_init(s, &x, &v) || strcmp(c->k->syms[x].type, "u32") ||
            !sg_int_value(v, &val) || val < 0 || val > 0xffffffffll)
            continue;
        unsigned i = 0;
        while (i < n && descs[i] != x)
            i++;
        if (i < n && instr_desc(c->m, (uint64_t)val, &call))
            sg_alloc_set_init(s, call);
    }
}

static int mma_at(void *ctx, cg_stmt **link)
{
    mmas *c = ctx;
    cg_stmt *last;
    if (cg_body(*link) || !(last = match(c, *link)))
        return SG_VISIT_ON;
    const cg_opnd *d = sg_op(&last->u.inst, 3);
    if (c->kind_f16 && d->kind == CG_O_SYM && d->index < 0 && c->ndescs < MAXDESCS)
        c->descs[c->ndescs++] = d->sym;
    sg_assign_splice(c->m, link, last, NULL, c->call);
    c->made++;
    return SG_VISIT_ON;
}

uint32_t sugar_mma(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    mmas c = { .m = m, .k = k };
    uint32_t *refs = sg_kernel_refs(&sc, k);
    c.refs = refs;
    long major = m->vmajor ? strtol(m->vmajor, NULL, 10) : 0;
    long minor = m->vminor ? strtol(m->vminor, NULL, 10) : 0;
    c.mask_tuple = major > 8 || (major == 8 && minor >= 8);
    sg_visit_stmts(&k->body, mma_at, &c);
    uint32_t made = c.made;
    if (c.ndescs)
        name_descs(&c, c.descs, c.ndescs);
    ptx_free_bufs(&ob);
    return made;
}
