/*
 * sugar/desc.c - part of pass "decls": wgmma shared-memory descriptors
 * built as ptx.wgmma.make_descriptor builds them become that call, and
 * inside the mma_async that takes them.
 *
 * pyptx 0.1.1 (ptx.py _Wgmma.make_descriptor, also behind mma_async's
 * a=/b= when given an allocation with a GMMA layout) takes fresh u64
 * registers in this order and emits:
 *
 *     mov.u64 A, name;            (a named allocation; a 32-bit register
 *                                  R: cvt.u64.u32 A, R; a 64-bit one: A = R)
 *     mov.b64 O, off;             (dyn_smem at a byte offset > 0 only)
 *     add.s64 A, A, O;
 *     add.s64 S, A, addr_off;     (addr_byte_offset != 0 only; then A = S)
 *     shr.u64 D, A, 4;
 *     and.b64 D, D, 16383;
 *     mov.b64 C, const;           const = LBO>>4 << 16 | SBO>>4 << 32 |
 *     or.b64 D, D, C;                     base_offset << 49 | swizzle << 62
 *
 * The run becomes the operand `ptx.wgmma.make_descriptor(base,
 * leading_byte_offset=, stride_byte_offset=, ...)` (SG_O_DESC, its numbers
 * as int operands, so that "repeat" can roll copies that differ in them;
 * addr_byte_offset=0 is pyptx's no add) when every register but D is
 * named only there and const decodes exactly: `D = ...` on its own, or,
 * read only by the wgmma.mma_async right after it (a's before b's, as
 * Python evaluates them), that argument.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

typedef struct descs {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;
    cg_opnd *value;          /* masked: the call the run becomes */
} descs;


/* A non-negative int operand's value; *ok = 0 for anything else, and for
   a spelling past 64 bits (not PTX; strtoull would saturate it). */
static uint64_t int_of(const cg_opnd *o, int *ok)
{
    char buf[32];
    *ok = o->kind == CG_O_INT && sg_text_lit(&o->text, buf, sizeof buf) && buf[0] != '-';
    if (!*ok)
        return 0;
    errno = 0;
    uint64_t v = strtoull(buf, NULL, 10);
    *ok = errno != ERANGE;
    return v;
}

static cg_opnd *int_opnd(cg_module *m, uint64_t v)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    cg_opnd *o = cg_opnd_new(m, CG_O_INT);
    o->text = sg_lit(m, buf, (size_t)n);
    return o;
}

static void uses_dyn(cg_module *m)
{
    sg_st(m)->uses_dyn = sg_st(m)->uses_smem = 1;
    m->types_used |= 1u << cg_type_index("b8", 2) | 1u << cg_type_index("u32", 3);
}

/* The base: the statements that make A from it; *base is what
   make_descriptor takes, *a the register shr or the add reads; the
   statement after them, or NULL. */
static cg_stmt *base(descs *c, cg_stmt *s, cg_opnd **bo, cg_symid *a)
{
    const cg_kernel *k = c->k;
    if (!sg_fresh_decl(c->k, s, "u64") || !s->next)
        return NULL;
    cg_stmt *mv = s->next;
    const cg_opnd *src = mv->u.inst.ops ? mv->u.inst.ops->next : NULL;
    *a = s->u.reg;
    if (sg_inst_match(mv, "cvt.u64.u32", SG_ANY_OPS) && sg_reg_is(mv->u.inst.ops, s->u.reg) && src->kind == CG_O_SYM && src->index < 0 &&
        cg_sym_is_reg(&k->syms[src->sym]) && c->refs[s->u.reg] == 2) {
        *bo = sg_copy_opnd(c->m, src);              /* a 32-bit register */
        return mv->next;
    }
    if (!sg_inst_match(mv, "mov.u64", 2) || !sg_reg_is(mv->u.inst.ops, s->u.reg) ||
        (src->kind != CG_O_STR && !(src->kind == CG_O_SYM && !cg_sym_is_reg(&k->syms[src->sym]))))
        return NULL;
    char name[128];
    if (src->kind == CG_O_STR ? !sg_text_lit(&src->text, name, sizeof name)
                              : snprintf(name, sizeof name, "%s", k->syms[src->sym].ptx) >= 128)
        return NULL;
    if (strcmp(name, "dyn_smem")) {                   /* a named allocation */
        *bo = sg_copy_opnd(c->m, src);
        return c->refs[s->u.reg] == 2 ? mv->next : NULL;
    }
    cg_stmt *o = mv->next, *add = o && o->next ? o->next->next : NULL;
    uint64_t off = 0;
    int ok;
    *bo = cg_opnd_new(c->m, SG_O_DYN);
    uses_dyn(c->m);
    if (sg_fresh_decl(c->k, o, "u64") && sg_inst_match(o->next, "mov.b64", 2) &&
        sg_reg_is(o->next->u.inst.ops, o->u.reg) && sg_inst_match(add, "add.s64", 3) &&
        sg_reg_is(add->u.inst.ops, s->u.reg) && sg_reg_is(add->u.inst.ops->next, s->u.reg) &&
        sg_reg_is(add->u.inst.ops->next->next, o->u.reg) && c->refs[o->u.reg] == 2 &&
        (off = int_of(o->next->u.inst.ops->next, &ok), ok && off > 0)) {
        (*bo)->a = int_opnd(c->m, off);
        return c->refs[s->u.reg] == 4 ? add->next : NULL;   /* mov, add (2), reader */
    }
    (*bo)->a = int_opnd(c->m, 0);
    return c->refs[s->u.reg] == 2 ? mv->next : NULL;
}

/* The run from s as a SG_O_DESC, *d the descriptor; the last statement
   of the run, or NULL. */
static cg_stmt *match(descs *c, cg_stmt *s, cg_symid *d, cg_opnd **desc)
{
    cg_symid a = CG_NOSYM;
    cg_opnd *bo = NULL;
    cg_stmt *t = base(c, s, &bo, &a);
    if (!t)
        return NULL;
    int ok = 1;
    uint64_t shift = 0;
    if (sg_fresh_decl(c->k, t, "u64") && sg_inst_match(t->next, "add.s64", 3)) {      /* addr_byte_offset */
        const cg_opnd *o = t->next->u.inst.ops;
        if (!sg_reg_is(o, t->u.reg) || !sg_reg_is(o->next, a) || c->refs[t->u.reg] != 2)
            return NULL;
        shift = int_of(o->next->next, &ok);
        if (!ok || !shift)
            return NULL;
        a = t->u.reg;
        t = t->next->next;
    }
    cg_stmt *shr = t ? t->next : NULL, *and = shr ? shr->next : NULL;
    cg_stmt *cr = and ? and->next : NULL, *cm = cr ? cr->next : NULL, *or = cm ? cm->next : NULL;
    if (!sg_fresh_decl(c->k, t, "u64") || !sg_inst_match(shr, "shr.u64", 3) || !sg_inst_match(and, "and.b64", 3) ||
        !sg_fresh_decl(c->k, cr, "u64") || !sg_inst_match(cm, "mov.b64", 2) || !sg_inst_match(or, "or.b64", 3))
        return NULL;
    cg_symid dr = t->u.reg, cs = cr->u.reg;
    const cg_opnd *x = shr->u.inst.ops, *y = and->u.inst.ops, *z = or->u.inst.ops;
    uint64_t four = int_of(x->next->next, &ok), mask = ok ? int_of(y->next->next, &ok) : 0;
    uint64_t k = ok ? int_of(cm->u.inst.ops->next, &ok) : 0;
    if (!ok || four != 4 || mask != 0x3FFF || !sg_reg_is(x, dr) || !sg_reg_is(x->next, a) ||
        !sg_reg_is(y, dr) || !sg_reg_is(y->next, dr) || !sg_reg_is(cm->u.inst.ops, cs) ||
        !sg_reg_is(z, dr) || !sg_reg_is(z->next, dr) || !sg_reg_is(z->next->next, cs) || c->refs[cs] != 2)
        return NULL;
    uint64_t lbo = (k >> 16 & 0x3FFF) << 4, sbo = (k >> 32 & 0x3FFF) << 4;
    uint64_t bof = k >> 49 & 7, sw = k >> 62;
    if (((lbo >> 4) << 16 | (sbo >> 4) << 32 | bof << 49 | sw << 62) != k)
        return NULL;
    cg_opnd *o = cg_opnd_new(c->m, SG_O_DESC), **e = &o->elems;
    const uint64_t v[5] = { lbo, sbo, sw, bof, shift };
    o->a = bo;
    for (int i = 0; i < 5; i++, e = &(*e)->next)
        *e = int_opnd(c->m, v[i]);
    *desc = o;
    *d = dr;
    return or;
}

/* ---- masked descriptors (Blackwell) --------------------------------------- */

/* pyptx 0.1.1 (_Wgmma.masked_descriptor, behind ptx.tcgen05.descriptor):
 *
 *     mov.u32 b, name;            (a register base: none)
 *     t = b + byte_offset         (add.u32; byte_offset != 0 only)
 *     x = t & mask; i = x >> 4    (and.b32, shr.u32)
 *     cvt.u64.u32 d, i; or.b64 d, d, const;
 *     mov.b64 D, d;               (ptx.tcgen05.descriptor and masked_descriptor)
 *
 * each register fresh.  With the final mov and mask 0x3FFF0, a const that
 * tcgen05.descriptor encodes is written as that call, its arguments
 * decoded; otherwise as the masked_descriptor it came from. */

static const char *const umma_layout[8] = {
    "NONE", "128B_BASE32B", "128B", NULL, "64B", NULL, "32B", NULL,
};

/* `d = a OP int` in fresh register d declared by r (a: *a, then d);
   the int; the statement after, or NULL. */
static cg_stmt *step(const descs *c, cg_stmt *r, const char *pat, cg_symid *a,
                     uint64_t *v)
{
    cg_stmt *s = r ? r->next : NULL;
    int ok;
    if (!sg_fresh_decl(c->k, r, "u32") || !sg_inst_match(s, pat, 3) || !sg_reg_is(s->u.inst.ops, r->u.reg) ||
        !sg_reg_is(s->u.inst.ops->next, *a) || c->refs[*a] != (*a == r->u.reg ? 3u : 2u))
        return NULL;
    *v = int_of(s->u.inst.ops->next->next, &ok);
    if (!ok)
        return NULL;
    *a = r->u.reg;
    return s->next;
}

/* The keyword argument kw=v, v an int. */
static cg_opnd *kw_int(cg_module *m, const char *kw, uint64_t v)
{
    return sg_kw_opnd(m, kw, int_opnd(m, v));
}

/* tcgen05.descriptor's arguments after its base, for byte offset off and
   const k, those at pyptx's default left out. */
static cg_opnd *tcgen05_args(cg_module *m, uint64_t off, uint64_t k)
{
    uint64_t lead = (k >> 16 & 0xFFFF) << 4, stride = (k >> 32 & 0x3FFF) << 4;
    unsigned ver = (unsigned)(k >> 46 & 3), bo = (unsigned)(k >> 49 & 7);
    unsigned lbo = (unsigned)(k >> 52 & 1);
    cg_opnd *v[7];
    unsigned n = 0;
    if (off)
        v[n++] = kw_int(m, "byte_offset", off);
    v[n++] = kw_int(m, "stride_bytes", stride);
    if (lead != 16)
        v[n++] = kw_int(m, "leading_bytes", lead);
    if (strcmp(umma_layout[k >> 61], "128B"))
        v[n++] = sg_kw_opnd(m, "swizzle", sg_text_opnd(m, CG_O_STR, umma_layout[k >> 61]));
    if (ver != 1)
        v[n++] = kw_int(m, "version", ver);
    if (bo)
        v[n++] = kw_int(m, "base_offset", bo);
    if (lbo)
        v[n++] = kw_int(m, "lbo_mode", lbo);
    return sg_opnd_list(v, n);
}

/* k as tcgen05.descriptor encodes it (stride and leading byte offsets
   multiples of 16, each field in range, a known layout)? */
static int tcgen05_const(uint64_t k)
{
    uint64_t lead = k >> 16 & 0xFFFF, stride = k >> 32 & 0x3FFF;
    uint64_t back = lead << 16 | stride << 32 | (k >> 46 & 3) << 46 | (k >> 49 & 7) << 49 |
                    (k >> 52 & 1) << 52 | (k >> 61) << 61;
    return back == k && umma_layout[k >> 61] && !(lead << 4 >> 32);
}

/* The run from s as the call c->value that makes *out; its last
   statement, or NULL. */
static cg_stmt *masked(descs *c, cg_stmt *s, cg_symid *out)
{
    const cg_kernel *k = c->k;
    cg_opnd *base;
    cg_symid a = CG_NOSYM;
    cg_stmt *t = s;
    if (sg_fresh_decl(c->k, s, "u32") && sg_inst_match(s->next, "mov.u32", 2) && sg_reg_is(s->next->u.inst.ops, s->u.reg)) {
        const cg_opnd *src = s->next->u.inst.ops->next;
        char w[128];
        if (!(src->kind == CG_O_STR ? sg_text_lit(&src->text, w, sizeof w)
                                    : src->kind == CG_O_SYM && !cg_sym_is_reg(&k->syms[src->sym]) &&
                                      snprintf(w, sizeof w, "%s", k->syms[src->sym].ptx) < 128))
            return NULL;
        base = sg_text_opnd(c->m, CG_O_STR, w);
        a = s->u.reg;
        t = s->next->next;
    } else {
        return NULL;   /* a register base: left as it is */
    }
    uint64_t off = 0, mask = 0, four = 0;
    cg_stmt *n = t && t->next && sg_inst_is(t->next, "add") ? step(c, t, "add.u32", &a, &off) : t;
    if (!n || !(n = step(c, n, "and.b32", &a, &mask)) || !(n = step(c, n, "shr.u32", &a, &four)) ||
        four != 4 || !sg_fresh_decl(c->k, n, "u64"))
        return NULL;
    cg_stmt *cv = n->next, *or = cv ? cv->next : NULL;
    cg_symid d = n->u.reg;
    int ok;
    if (!sg_inst_match(cv, "cvt.u64.u32", SG_ANY_OPS) || !sg_reg_is(cv->u.inst.ops, d) || !sg_reg_is(cv->u.inst.ops->next, a) || c->refs[a] != 2 ||
        !sg_inst_match(or, "or.b64", 3) || !sg_reg_is(or->u.inst.ops, d) || !sg_reg_is(or->u.inst.ops->next, d))
        return NULL;
    uint64_t kc = int_of(or->u.inst.ops->next->next, &ok);
    cg_stmt *r2 = or->next, *mv = r2 ? r2->next : NULL, *last = or;
    int tc = sg_fresh_decl(c->k, r2, "b64") && sg_inst_match(mv, "mov.b64", 2) && sg_reg_is(mv->u.inst.ops, r2->u.reg) &&
             sg_reg_is(mv->u.inst.ops->next, d) && c->refs[d] == 4;
    if (!ok)
        return NULL;
    if (tc) {
        *out = r2->u.reg;
        last = mv;
    } else {
        *out = d;
    }
    if (tc && mask == 0x3FFF0 && tcgen05_const(kc)) {
        base->next = tcgen05_args(c->m, off, kc);
        c->value = sg_call_opnd(c->m, "ptx.tcgen05.descriptor", NULL, base);
    } else {
        cg_opnd *v[4] = { base, kw_int(c->m, "byte_offset", off), kw_int(c->m, "mask", mask),
                          kw_int(c->m, "const_bits", kc) };
        c->value = sg_call_opnd(c->m, tc ? "ptx.tcgen05.masked_descriptor"
                                         : "ptx.wgmma.masked_descriptor", NULL, sg_opnd_list(v, 4));
    }
    return last;
}

/* ---- the pass part ------------------------------------------------------ */

/* A descriptor node `d = make_descriptor(...)` for register d read only
   by the instruction after it. */
static int inlinable(const descs *c, const cg_stmt *s, const cg_opnd *o)
{
    const cg_opnd *t = s && s->kind == SG_S_ASSIGN && sg_assign_of(s)->ntargets == 1
                       ? sg_assign_of(s)->ops : NULL;
    return t && t->next->kind == SG_O_DESC && o->kind == CG_O_SYM && sg_reg_is(t, o->sym) &&
           o->index < 0 && c->refs[o->sym] == 6;
}

/* Operand o takes the descriptor of node s. */
static void take(cg_opnd *o, const cg_stmt *s)
{
    cg_opnd *next = o->next;
    *o = *sg_assign_value(s);
    o->next = next;
}

/* wgmma.mma_async's a and b from the descriptor nodes just before it
   (a's first, as Python evaluates the arguments). */
static void inline_into(descs *c, cg_stmt **l2, cg_stmt **l1, cg_stmt *w)
{
    cg_opnd *a = w->u.inst.ops->next, *b = a->next;
    cg_stmt *p1 = l1 ? *l1 : NULL, *p2 = l2 ? *l2 : NULL;
    if (inlinable(c, p2, a) && inlinable(c, p1, b)) {
        take(a, p2);
        take(b, p1);
        *l2 = w;
    } else if (inlinable(c, p1, b)) {
        take(b, p1);
        *l1 = w;
    } else if (inlinable(c, p1, a)) {
        take(a, p1);
        *l1 = w;
    }
}

static uint32_t desc_list(descs *c, cg_stmt **head)
{
    uint32_t made = 0;
    cg_stmt **l2 = NULL, **l1 = NULL;
    for (cg_stmt **link = head; *link; l2 = l1, l1 = link, link = &(*link)->next) {
        cg_stmt *s = *link, **body = cg_body(s), *last;
        cg_opnd *desc;
        cg_symid d;
        if (body) {
            made += desc_list(c, body);
        } else if ((last = match(c, s, &d, &desc)) != NULL) {
            sg_assign_splice(c->m, link, last, sg_sym_opnd(c->m, d), desc);
            made++;
        } else if ((last = masked(c, s, &d)) != NULL) {
            sg_assign_splice(c->m, link, last, sg_sym_opnd(c->m, d), c->value);
            made++;
        } else if (sg_inst_match(s, "wgmma.mma_async.**", SG_ANY_OPS | SG_ANY_GUARD) &&
                   sg_nops(s->u.inst.ops) >= 3) {
            inline_into(c, l2, l1, s);
            if (l1 && *l1 == s)              /* both went: keep the links valid */
                link = l1, l1 = l2 = NULL;
            else if (l2 && *l2 == s)
                link = l2, l1 = l2 = NULL;
        }
    }
    return made;
}

uint32_t sg_wgmma_descriptors(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    descs c = { .m = m, .k = k };
    uint32_t *refs = sg_kernel_refs(&sc, k);
    c.refs = refs;
    uint32_t made = desc_list(&c, &k->body);
    ptx_free_bufs(&ob);
    return made;
}
