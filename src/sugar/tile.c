/*
 * sugar/tile.c - part of pass "decls": 2-D element access of a shared
 * allocation, as pyptx code writes it.
 *
 *     r8 = reg.scalar(u32)                        tile[r7, tid] = f0
 *     r9 = reg.scalar(u32)
 *     ptx.inst.mul.lo.u32(r9, r7, 33)       ->
 *     ptx.inst.add.u32(r8, r9, tid)
 *     r10 = r8 << 2
 *     r11 = reg.scalar(u32)
 *     ptx.mov(b32, r11, "tile")
 *     r11 += r10
 *     ptx.st(f32, ptx.addr(r11), f0, space="shared")
 *
 * pyptx 0.1.1 (smem.py _smem_store_2d / _smem_load_2d, for a register
 * row): idx and t fresh u32 (idx first), `mul.lo.u32 t, row, cols`,
 * `add.u32 idx, t, col`, off fresh, `shl.b32 off, idx, log2(size)`, a
 * fresh u32 `mov.b32 a, name; add.u32 a, a, off`, then `st.shared.T [a], v`
 * or, into a fresh register of the allocation's dtype, `ld.shared.T r,
 * [a]`.  The allocation must be one smem.c declares (`smem.alloc`): it is
 * declared again with that dtype and shape (rows, cols), the same bytes,
 * when every access agrees on them.  Only elements of 2 to 16 bytes (1
 * byte: no shl).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

typedef struct access {
    cg_stmt **link, *last;   /* the run */
    cg_symid var;
    const char *type;        /* the element's pyptx type */
    unsigned cols;
    const cg_opnd *row, *col, *val;
    cg_symid res;            /* a load's result, else CG_NOSYM */
} access;

typedef struct tiles {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;
    access *v;
    unsigned n, cap;
} tiles;


/* A non-negative int operand that fits 32 bits, else 0. */
static unsigned num(const cg_opnd *o)
{
    long long v;
    return sg_int_value(o, &v) && v >= 0 && v <= UINT32_MAX ? (unsigned)v : 0;
}

/* log2 of the element's bytes for a pyptx type, or -1. */
static int elem_shift(const char *t)
{
    if (!t || !t[0] || !t[1] || strchr(t, 'x'))         /* f16x2: two elements */
        return -1;
    int bits = atoi(t + (t[1] == 'f' ? 2 : 1));         /* bf16 */
    return bits == 16 ? 1 : bits == 32 ? 2 : bits == 64 ? 3 : bits == 128 ? 4 : -1;
}

/* The variable a `mov.b32 a, name` names: a shared allocation of k. */
static cg_symid var_of(const tiles *c, const cg_opnd *o)
{
    char w[128];
    if (o->kind == CG_O_SYM && c->k->syms[o->sym].kind == CG_SYM_VAR)
        return o->sym;
    if (o->kind != CG_O_STR || !sg_text_lit(&o->text, w, sizeof w))
        return CG_NOSYM;
    for (uint32_t i = 0; i < c->k->nsyms; i++)
        if (c->k->syms[i].kind == CG_SYM_VAR && !strcmp(c->k->syms[i].ptx, w))
            return i;
    return CG_NOSYM;
}

/* The access run at *link into a; 0 if none. */
static int access_at(const tiles *c, cg_stmt **link, access *a)
{
    cg_stmt *s0 = *link, *s1 = s0->next, *mul = s1 ? s1->next : NULL;
    cg_stmt *add = mul ? mul->next : NULL, *sh = add ? add->next : NULL;
    cg_stmt *ra = sh ? sh->next : NULL, *mv = ra ? ra->next : NULL, *ad = mv ? mv->next : NULL;
    cg_stmt *use = ad ? ad->next : NULL;
    const cg_opnd *m, *p, *q, *x, *e;
    cg_symid off;
    if (!sg_fresh_decl(c->k, s0, "u32") || !sg_fresh_decl(c->k, s1, "u32") || !(m = sg_inst_ops(mul, "mul.lo.u32", 3)) ||
        !(p = sg_inst_ops(add, "add.u32", 3)) || !sg_alloc_oper(sh, &off, &e) ||
        !sg_fresh_decl(c->k, ra, "u32") || !(q = sg_inst_ops(mv, "mov.b32", 2)) ||
        !(x = sg_inst_ops(ad, "add.u32", 3)) || !use)
        return 0;
    cg_symid idx = s0->u.reg, t = s1->u.reg, r = ra->u.reg;
    if (!sg_reg_is(m, t) || m->next->kind != CG_O_SYM || !(a->cols = num(m->next->next)) ||
        !sg_reg_is(p, idx) || !sg_reg_is(p->next, t) || e->text.v[0].p[0] != '<' ||
        !sg_reg_is(e->a, idx) || !sg_reg_is(q, r) || !sg_reg_is(x, r) || !sg_reg_is(x->next, r) ||
        !sg_reg_is(x->next->next, off) || c->refs[idx] != 2 || c->refs[t] != 2 ||
        c->refs[off] != 2 || (a->var = var_of(c, q->next)) == CG_NOSYM)
        return 0;
    a->row = m->next;
    a->col = p->next->next;
    unsigned shift = num(e->b);
    const cg_opnd *u;
    cg_symid res;
    a->res = CG_NOSYM;
    if (sg_inst_match(use, "st.shared.*", 2) && (u = use->u.inst.ops)->kind == CG_O_ADDR && !u->b && sg_reg_is(u->a, r)) {
        a->type = use->u.inst.mods[1];
        a->val = u->next;
        a->last = use;
    } else if (use->kind == CG_S_REG && sg_inst_match(use->next, "ld.shared.*", 2) &&
               sg_fresh_decl(c->k, use, use->next->u.inst.mods[1]) && (u = use->next->u.inst.ops) &&
               sg_reg_is(u, use->u.reg) && u->next->kind == CG_O_ADDR &&
               !u->next->b && sg_reg_is(u->next->a, r)) {
        a->type = use->next->u.inst.mods[1];
        a->res = use->u.reg;
        a->val = NULL;
        a->last = use->next;
    } else if (sg_alloc_load(use, &res, &u) && !u->b && sg_reg_is(u->a, r)) {
        a->type = c->k->syms[res].type;            /* merge.c made it smem.load */
        a->res = res;
        a->val = NULL;
        a->last = use;
    } else {
        return 0;
    }
    a->link = link;
    return c->refs[r] == 4 && elem_shift(a->type) == (int)shift && shift > 0 &&
           cg_type_index(a->type, strlen(a->type)) >= 0;
}

static int collect(void *ctx, cg_stmt **link)
{
    tiles *c = ctx;
    access a;
    if (!cg_body(*link) && access_at(c, link, &a)) {
        c->v = cg_grow(c->m, c->v, c->n, &c->cap, sizeof *c->v);
        c->v[c->n++] = a;
    }
    return SG_VISIT_ON;
}

/* smem.c's declaration of var (`x = smem.alloc(b8, N, ...)`), or NULL. */
static cg_stmt *decl_of(const tiles *c, cg_symid var)
{
    for (cg_stmt *s = c->k->body; s; s = s->next)
        if (s->kind == SG_S_SMEM && sg_smem_of(s)->var == var && !sg_smem_of(s)->mbarrier &&
            !sg_smem_of(s)->rows)
            return s;
    return NULL;
}

/* Every access of var agrees on its type and columns, and they divide the
   allocation's bytes: the declaration says so; 0 if not. */
static int redeclare(tiles *c, cg_symid var)
{
    const access *f = NULL;
    for (unsigned i = 0; i < c->n; i++)
        if (c->v[i].var == var) {
            if (f && (strcmp(f->type, c->v[i].type) || f->cols != c->v[i].cols))
                return 0;
            f = f ? f : &c->v[i];
        }
    cg_stmt *d = decl_of(c, var);
    unsigned long bytes = d ? strtoul(sg_smem_of(d)->size, NULL, 10) : 0;
    unsigned long row = (unsigned long)f->cols << elem_shift(f->type);
    if (!d || !bytes || bytes % row)
        return 0;
    sg_smem was = *sg_smem_of(d);
    sg_smem_of(d)->dtype = f->type;
    sg_smem_of(d)->rows = bytes / row;
    sg_smem_of(d)->cols = f->cols;
    if (!sg_smem_fits(c->m, c->k, d)) {
        *sg_smem_of(d) = was;
        return 0;
    }
    c->m->types_used |= 1u << cg_type_index(f->type, strlen(f->type));
    return 1;
}

/* The run becomes `x[row, col] = v` or `r = x[row, col]`. */
static void rewrite(tiles *c, const access *a)
{
    cg_opnd *ix[2] = { sg_copy_opnd(c->m, a->row), sg_copy_opnd(c->m, a->col) };
    cg_opnd *elem = sg_index_opnd(c->m, sg_sym_name_opnd(c->m, a->var), sg_opnd_list(ix, 2));
    if (a->res != CG_NOSYM)
        sg_assign_splice(c->m, a->link, a->last, sg_sym_opnd(c->m, a->res), elem);
    else
        sg_assign_splice(c->m, a->link, a->last, elem, sg_copy_opnd(c->m, a->val));
}

uint32_t sg_smem_tiles(cg_module *m, cg_kernel *k)
{
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    uint32_t *refs = sg_kernel_refs(&sc, k);
    tiles c = { .m = m, .k = k, .refs = refs };
    sg_visit_stmts(&k->body, collect, &c);
    uint32_t made = 0;
    /* per variable once (its first access decides); later runs first, so
       that the links of earlier ones stay where they point */
    uint8_t *state = cg_alloc(m, k->nsyms + 1);
    for (unsigned i = 0; i < c.n; i++)
        if (!state[c.v[i].var])
            state[c.v[i].var] = redeclare(&c, c.v[i].var) ? 1 : 2;
    for (unsigned i = c.n; i-- > 0;)
        if (state[c.v[i].var] == 1) {
            rewrite(&c, &c.v[i]);
            made++;
        }
    ptx_free_bufs(&ob);
    return made;
}
