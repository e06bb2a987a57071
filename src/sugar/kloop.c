/*
 * sugar/kloop.c - pass "kloop": the unrolled counted loop ptx.kloop emits
 * becomes that call, its body a local function.
 *
 *     r7 = r6 & 3
 *     r8 = r6 - r7
 *     p0 = r6 >= 4                             def body():
 *     with ptx.if_(p0):                            nonlocal x_ptr
 *         r9 = reg.from_(r8, u32)                  ...body...
 *         p1 = r9 != 0                   ->    ptx.kloop(r6, unroll=4, body=body, loop_label="main")
 *         with ptx.loop("main", pred=p1):
 *             ...body... (4 times)
 *             r9 -= 4; setp.ne p1, r9, 0
 *     p2 = r7 != 0
 *     with ptx.if_(p2): ...body...; p3 = r7 != 1; with ptx.if_(p3): ...
 *
 * pyptx 0.1.1 (ptx.py kloop, for a register total and unroll U a power of
 * two): `rem = total & (U-1)`, `rnd = total - rem` (operators), `if_(total
 * >= U)`: `left` = fresh, `mov left, rnd`, `keep = total != 0` as
 * `setp.ne` (the pool's next), `loop(label, pred=keep)` of U bodies, `left
 * -= U`, `setp.ne keep, left, 0`; then the tail ladder `if_(rem != 0)`:
 * body, `if_(rem != 1)`: body ... (U-1 bodies).  Every body must be the
 * same statements (the same registers: a body that allocates makes copies
 * that differ), and the helper's registers named nowhere else.  The
 * bodies' assignments to Python names (r += ...) need `nonlocal` in the
 * function.
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

#define MAXU 64

typedef struct kloops {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;
    sg_key key;
    ptx_buf first;           /* the key of the first body */
    uint32_t made;
} kloops;

static sg_leaf exact(const sg_key *key, const cg_opnd *o)
{
    (void)key, (void)o;
    return SG_LEAF_EXACT;
}

/* s is `p = lhs CMP v` (compare.c), setp's modifier `cmp`: p. */
static cg_symid cmp_of(const cg_stmt *s, const char *cmp, cg_symid lhs, unsigned v)
{
    if (!s || s->kind != SG_S_CMP)
        return CG_NOSYM;
    const cg_inst *in = &sg_cmp_of(s)->setp->u.inst;
    return !strcmp(in->mods[0], cmp) && sg_reg_is(in->ops->next, lhs) && sg_int_is(in->ops->next->next, v)
           ? sg_cmp_of(s)->pred : CG_NOSYM;
}

static int if_of(const cg_stmt *s, cg_symid p)
{
    return sg_with_is(s, "ptx.if_") && sg_reg_is(sg_with_of(s)->cond, p) &&
           !sg_with_is(s->next, "ptx.else_");
}

/* The n statements from s equal the first body?  The statement after. */
static const cg_stmt *body_is(kloops *c, const cg_stmt *s, unsigned n, int first)
{
    c->key.b.n = 0;
    for (unsigned i = 0; i < n; i++, s = s->next) {
        if (!s)
            return NULL;
        sg_key_stmt(&c->key, s);
    }
    if (first) {
        c->first.n = 0;
        ptx_buf_put(&c->first, c->key.b.p, c->key.b.n);
        return s ? s : (const cg_stmt *)&c->first;   /* non-NULL: matched */
    }
    return c->key.b.n == c->first.n && !memcmp(c->key.b.p, c->first.p, c->first.n)
           ? (s ? s : (const cg_stmt *)&c->first) : NULL;
}

static unsigned list_len(const cg_stmt *s)
{
    unsigned n = 0;
    for (; s; s = s->next)
        n++;
    return n;
}

typedef struct kmatch {
    const cg_opnd *total;
    unsigned unroll, n;      /* statements per body */
    cg_stmt *body;           /* the first body's statements */
    cg_symid label;
    cg_stmt *last;
} kmatch;

/* The main loop (inside `if_(total >= U)`): its body's size into km. */
static int main_loop(kloops *c, const cg_stmt *w, cg_symid rnd, kmatch *km)
{
    const cg_stmt *from = sg_body(w), *cmp = from ? from->next : NULL;
    const cg_stmt *lp = cmp ? cmp->next : NULL;
    cg_symid left, keep;
    const cg_opnd *src;
    if (!sg_alloc_from(from, &left, &src) || !sg_reg_is(src, rnd) ||
        (keep = cmp_of(cmp, "ne", left, 0)) == CG_NOSYM || !lp || lp->kind != SG_S_LOOP ||
        lp->next || !sg_reg_is(sg_loop_of(lp)->pred, keep))
        return 0;
    unsigned len = list_len(sg_body(lp)), u = km->unroll;
    if (len < 2 || (len - 2) % u || (len - 2) / u == 0)
        return 0;
    km->n = (len - 2) / u;
    km->body = sg_body(lp);
    km->label = sg_loop_of(lp)->label;
    const cg_stmt *s = sg_body(lp);
    for (unsigned i = 0; i < u; i++)
        if (!(s = body_is(c, s, km->n, i == 0)) || s == (const cg_stmt *)&c->first)
            return 0;
    const cg_stmt *sub = s, *setp = s->next;
    return sg_inst_match(sub, "sub.s32", SG_ANY_OPS | SG_ANY_GUARD) &&
           sg_reg_is(sub->u.inst.ops, left) && sg_reg_is(sub->u.inst.ops->next, left) &&
           sg_int_is(sub->u.inst.ops->next->next, u) &&
           sg_inst_match(setp, "setp.ne.*", SG_ANY_OPS | SG_ANY_GUARD) && !setp->next &&
           sg_reg_is(setp->u.inst.ops, keep) && sg_reg_is(setp->u.inst.ops->next, left) &&
           sg_int_is(setp->u.inst.ops->next->next, 0);
}

/* The tail ladder from s (`p = rem != i; if_(p): body, ...`). */
static int ladder(kloops *c, const cg_stmt *s, cg_symid rem, unsigned i, const kmatch *km)
{
    cg_symid p = cmp_of(s, "ne", rem, i);
    const cg_stmt *w = s ? s->next : NULL;
    if (p == CG_NOSYM || !if_of(w, p))
        return 0;
    const cg_stmt *after = body_is(c, sg_body(w), km->n, 0);
    if (!after)
        return 0;
    if (i + 2 >= km->unroll)                 /* emit_tail(i + 2) returns at once */
        return after == (const cg_stmt *)&c->first;
    return after != (const cg_stmt *)&c->first && ladder(c, after, rem, i + 1, km) &&
           !after->next->next;
}

/* Every comparison's predicate in the statements from s (inner lists
   too) has all its references in `in` (counts within the kloop). */
static int cmps_inside(const kloops *c, const cg_stmt *s, const cg_stmt *last,
                       const uint32_t *in)
{
    for (; s; s = s == last ? NULL : s->next) {
        if (s->kind == SG_S_CMP && in[sg_cmp_of(s)->pred] != c->refs[sg_cmp_of(s)->pred])
            return 0;
        cg_stmt **body = cg_body((cg_stmt *)s);
        if (body && !cmps_inside(c, *body, NULL, in))
            return 0;
    }
    return 1;
}

/* The predicates the kloop compares are its own: ptx.kloop takes them
   from the pool itself, so no statement after it may name one. */
static int own_predicates(kloops *c, cg_stmt *s, cg_stmt *last)
{
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    uint32_t *in = sg_scratch_get(&sc, (c->k->nsyms + 1) * sizeof *in);
    cg_stmt *after = last->next;
    last->next = NULL;
    sg_count_refs(s, in);
    int ok = cmps_inside(c, s, last, in);
    last->next = after;
    ptx_free_bufs(&ob);
    return ok;
}

/* The whole kloop from s: km filled, 0 if not that. */
static int match(kloops *c, cg_stmt *s, kmatch *km)
{
    cg_symid rem, rnd, big;
    const cg_opnd *e, *f;
    if (!sg_alloc_oper(s, &rem, &e) || !sg_alloc_oper(s->next, &rnd, &f) ||
        e->text.n != 1 || e->text.v[0].p[0] != '&' || e->a->kind != CG_O_SYM ||
        e->b->kind != CG_O_INT || f->text.v[0].p[0] != '-' || !sg_reg_is(f->b, rem) ||
        f->a->kind != CG_O_SYM || f->a->sym != e->a->sym)
        return 0;
    char b[16];
    unsigned long mask = sg_text_lit(&e->b->text, b, sizeof b) ? strtoul(b, NULL, 10) : MAXU;
    if (mask + 1 > MAXU || (mask & (mask + 1)))
        return 0;
    km->unroll = (unsigned)mask + 1;
    km->total = e->a;
    cg_stmt *ge = s->next->next, *w = ge ? ge->next : NULL;
    if ((big = cmp_of(ge, "ge", e->a->sym, km->unroll)) == CG_NOSYM || !if_of(w, big) ||
        !main_loop(c, w, rnd, km))
        return 0;
    if (!ladder(c, w->next, rem, 0, km))
        return 0;
    km->last = w->next->next;
    /* rem: its `&`, the `-`, and the ladder's comparisons, of which even
       unroll 1 has one (`if_(rem != 0)`, a body that never runs) */
    unsigned cmps = km->unroll > 2 ? km->unroll - 1 : 1;
    return c->refs[rem] == cmps + 2 && c->refs[rnd] == 2 &&
           own_predicates(c, s, km->last);
}

/* ---- the rewrite --------------------------------------------------------- */

/* `nonlocal a, b`: the scalar registers the body writes (a Reg operator
   in place rebinds its Python name), by next. */
static cg_opnd *nonlocals(kloops *c, const cg_stmt *body, unsigned n)
{
    cg_symid seen[64];
    unsigned ns = 0;
    cg_opnd *head = NULL, **tail = &head;
    for (const cg_stmt *s = body; n--; s = s->next) {
        const cg_opnd *d = s->kind == CG_S_INST ? s->u.inst.ops : NULL;
        if (!d || d->kind != CG_O_SYM || d->index >= 0 || !cg_sym_is_reg(&c->k->syms[d->sym]))
            continue;
        unsigned i = 0;
        while (i < ns && seen[i] != d->sym)
            i++;
        if (i < ns || ns == sizeof seen / sizeof *seen)
            continue;
        seen[ns++] = d->sym;
        *tail = sg_sym_opnd(c->m, d->sym);
        tail = &(*tail)->next;
    }
    return head;
}

/* def body(): ... ; ptx.kloop(...): two nodes in place of the run. */
static void rewrite(kloops *c, cg_stmt **link, const kmatch *km)
{
    const char *fn = sg_py_fresh(c->m, c->k, "body");
    /* the function's statements: a copy of the first body */
    cg_stmt *head = NULL, **t = &head;
    const cg_stmt *s = km->body;
    for (unsigned i = 0; i < km->n; i++, s = s->next, t = &(*t)->next)
        *t = sg_copy_stmt(c->m, s);
    cg_stmt *def = sg_def_new(c->m, (*link)->first, fn, NULL,
                              nonlocals(c, km->body, km->n), head);
    cg_opnd *v[4] = { sg_copy_opnd(c->m, km->total),
                      sg_kw_opnd(c->m, "unroll", sg_int_opnd(c->m, km->unroll)),
                      sg_kw_opnd(c->m, "body", sg_name_opnd(c->m, fn)) };
    unsigned n = 3;
    if (strcmp(c->k->syms[km->label].ptx, "kloop"))
        v[n++] = sg_kw_opnd(c->m, "loop_label", sg_sym_opnd(c->m, km->label));
    def->next = sg_assign_splice(c->m, link, km->last, NULL,   /* orig: the copies */
                                 sg_call_opnd(c->m, "ptx.kloop", NULL, sg_opnd_list(v, n)));
    *link = def;
}

static int kloop_at(void *ctx, cg_stmt **link)
{
    kloops *c = ctx;
    kmatch km;
    if (cg_body(*link) || !match(c, *link, &km))
        return SG_VISIT_ON;
    rewrite(c, link, &km);   /* *link: the def, then the call */
    c->made++;
    return SG_VISIT_SKIP;
}

uint32_t sugar_kloop(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    sg_scratch sc = { 0 };
    kloops c = { .m = m, .k = k, .key = { .k = k, .leaf = exact, .m = m } };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, &c.key.b, &c.first, NULL);
    uint32_t *refs = sg_kernel_refs(&sc, k);
    c.refs = refs;
    sg_visit_stmts(&k->body, kloop_at, &c);
    uint32_t made = c.made;
    ptx_free_bufs(&ob);
    return made;
}
