/*
 * sugar/compare.c - pass "compare": the predicates of a kernel written as
 * pyptx comparisons.
 *
 *     p = reg.array(pred, 2, name="%p")          p0 = f0 < f1
 *     ptx.setp("lt", f32, p[0], f0, f1)    ->    ...
 *     ptx.inst.setp.ne.u32(p[1], r1, 0)          p1 = r1 != 0
 *
 * pyptx 0.1.1 (reg.py _emit_setp): `a < b` takes %pN from a pool (N = the
 * pool's counter, so comparisons number their predicates in the order
 * they run), emits `setp.lt.T %pN, a, b` with T the left register's type
 * (b32 and b64 as u32 and u64), and keeps one declaration `.reg .pred
 * %p<N+1>`, which each growth moves behind the declarations made so far.
 * So the pool array %p<N> of the source is rewritten when
 *
 *  - each %pI is written once, by such a setp of a register and a
 *    register or int, and they come in the order I = 0, 1, ...;
 *  - nothing names %pI before its setp, or the pool as a whole (a loop's
 *    predicate counts as named where the loop starts: ptx.loop takes it
 *    at its head);
 *  - the declarations after %p<N> (in order) all stand after the last
 *    comparison (decls.c puts declarations at their first use), so the
 *    pool's declaration lands where the source has it.
 *
 * %pI becomes a Python name pI bound to the comparison's result.  A
 * predicate that no comparison makes (one a loop tests, or that a
 * ptx.setp writes) is `pI = reg.scalar(pred)`, which takes it from the
 * same pool, just before the top-level statement that first names it;
 * the pool's allocations must then still come in index order.  Any
 * place between its neighbours' allocations gives the same numbers, so it
 * moves up to the statement where the next one is taken where it must,
 * and one that nothing names (`done = reg.scalar(pred)` never used) stands
 * there too (place_scalars).
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

#define NEVER UINT32_MAX

static const char *const cmps[][2] = {
    { "lt", "<" }, { "le", "<=" }, { "gt", ">" }, { "ge", ">=" }, { "eq", "==" }, { "ne", "!=" },
};

typedef struct pool {
    cg_module *m;
    cg_kernel *k;
    cg_symid p;          /* the pool array %p<N> */
    uint32_t n;
    cg_stmt **writer;    /* per predicate: its setp */
    uint32_t *at;        /* per predicate: where its setp stands */
    uint32_t *first;     /* per predicate: where it is first named */
    uint32_t *label_at;  /* per symbol: where the label stands */
    uint32_t *label_top; /* per symbol: the top-level statement it stands in */
    uint32_t *first_top; /* per predicate: the top-level statement naming or
                            writing it first */
    uint32_t *top_pos;   /* per top-level statement: its position */
    uint32_t pos;        /* statements walked */
    uint32_t top;        /* the top-level statement being walked */
    uint32_t ntop;       /* top-level statements */
    uint8_t *scalar;     /* per predicate: taken by reg.scalar though a
                            comparison writes it (place_scalars) */
    int whole;           /* the pool named as a whole */
} pool;

/* The Python operator of a setp's comparison modifier, or NULL. */
static const char *operator_of(const cg_stmt *setp)
{
    for (unsigned i = 0; i < sizeof cmps / sizeof *cmps; i++)
        if (!strcmp(setp->u.inst.mods[0], cmps[i][0]))
            return cmps[i][1];
    return NULL;
}

/* The Python operator of a setp that a comparison of left and right would
   emit, or NULL. */
static const char *comparison(const cg_kernel *k, const cg_stmt *s)
{
    const cg_inst *in = &s->u.inst;
    if (!sg_inst_match(s, "setp.*.*", 3))
        return NULL;
    const cg_opnd *d = in->ops, *l = d->next, *r = l->next;
    if (l->kind != CG_O_SYM || !cg_sym_is_reg(&k->syms[l->sym]) || !k->syms[l->sym].type ||
        (r->kind != CG_O_INT && (r->kind != CG_O_SYM || !cg_sym_is_reg(&k->syms[r->sym]))))
        return NULL;
    const char *t = k->syms[l->sym].type;
    const char *want = !strcmp(t, "b32") ? "u32" : !strcmp(t, "b64") ? "u64" : t;
    if (cg_type_index(t, strlen(t)) < 0 || strcmp(in->mods[1], want))
        return NULL;
    return operator_of(s);
}

/* One statement's operands named: the statement, its destination (the
   first operand, or NULL), where it stands. */
typedef struct naming {
    pool *c;
    const cg_stmt *s;
    const cg_opnd *dst;
    uint32_t pos, top;
} naming;

static int name_opnd(void *ctx, cg_opnd *o)
{
    const naming *u = ctx;
    pool *c = u->c;
    if (o->kind == CG_O_SYM && o->sym == c->p) {
        if (o->index < 0 || (uint32_t)o->index >= c->n) {
            c->whole = 1;
        } else if (o == u->dst && sg_inst_is(u->s, "setp") && !c->writer[o->index]) {
            c->writer[o->index] = (cg_stmt *)u->s;
            c->at[o->index] = c->pos;
        } else if (u->pos < c->first[o->index]) {
            c->first[o->index] = u->pos;
        }
        if (u->top < c->first_top[o->index])
            c->first_top[o->index] = u->top;
    }
    return SG_VISIT_ON;
}

static void name_opnds(pool *c, const cg_opnd *o, const cg_stmt *s, int dst, uint32_t pos,
                       uint32_t top)
{
    naming u = { c, s, dst ? o : NULL, pos, top };
    sg_visit_opnds(o, name_opnd, &u);
}

/* Who writes and who names each predicate, in statement order. */
static void walk(pool *c, cg_stmt *s)
{
    for (; s; s = s->next) {
        cg_stmt **body = cg_body(s);
        c->pos++;
        if (s->kind == CG_S_LABEL && c->label_at[s->u.label] == NEVER) {
            c->label_at[s->u.label] = c->pos;
            c->label_top[s->u.label] = c->top;
        }
        if (s->kind == CG_S_INST) {
            cg_symid l = sg_back_edge(s);
            int head = l != CG_NOSYM && c->label_at[l] != NEVER;   /* ptx.loop's pred */
            name_opnds(c, s->u.inst.ops, s, 1, c->pos, c->top);
            name_opnds(c, s->u.inst.guard, s, 0, head ? c->label_at[l] : c->pos,
                       head ? c->label_top[l] : c->top);
        } else if (s->kind >= CG_S_EXT) {
            name_opnds(c, sg_args(s), s, 0, c->pos, c->top);
            if (sg_orig(s))
                walk(c, sg_orig(s));
        }
        if (body)
            walk(c, *body);
    }
}

/* Predicate i is made by its comparison (nothing names it before)? */
static int by_comparison(const pool *c, uint32_t i)
{
    return !c->scalar[i] && c->writer[i] && comparison(c->k, c->writer[i]) &&
           (c->first[i] == NEVER || c->first[i] > c->at[i]);
}

/* Where predicate i is taken from the pool, in half steps of the top-level
   list: 2t just before statement t (reg.scalar), 2t + 1 within t (a
   comparison); and the same in the statement order, for sorting. */
static uint32_t alloc_top(const pool *c, uint32_t i, uint64_t *key)
{
    if (by_comparison(c, i)) {
        *key = 2 * (uint64_t)c->at[i];
        for (uint32_t t = c->first_top[i]; ; t++)   /* the writer's statement */
            if (t + 1 >= c->ntop || c->top_pos[t + 1] > c->at[i])
                return 2 * t + 1;
    }
    *key = 2 * (uint64_t)c->top_pos[c->first_top[i]] - 1;
    return 2 * c->first_top[i];
}

/* Where each reg.scalar(pred) is taken (first_top): before the top-level
   statement that first names it, or earlier, before the one where the next
   predicate is taken (pyptx numbers them in the order they are taken),
   the last before statement `bound` (where the first declaration after
   the pool's stands: it is made after the pool's last growth).  A
   comparison that comes after the next one is taken that way too (its
   setp stays: ptx.setp of pI).  Those nothing names go there too, the
   last ones after the statement where the one before them is taken and
   after the declarations before the pool's (statement `after` on).  0
   where there is no such place. */
static int place_scalars(pool *c, uint32_t after, uint32_t bound)
{
    uint64_t key, next = bound < c->ntop ? 2 * (uint64_t)c->top_pos[bound] - 1 : UINT64_MAX;
    uint32_t at = bound;   /* the slot of the next predicate, and its key */
    uint32_t named = c->n;
    while (named > 0 && c->first_top[named - 1] == NEVER)
        named--;
    if (c->n - named > named)   /* reg.array(pred, N) written larger than used */
        return 0;
    for (uint32_t i = c->n; i-- > 0;) {
        if (by_comparison(c, i) && (alloc_top(c, i, &key), key > next))
            c->scalar[i] = 1;
        if (!by_comparison(c, i) && at < c->first_top[i] && at < c->ntop)
            c->first_top[i] = at;
        if (c->first_top[i] != NEVER)
            at = alloc_top(c, i, &next) / 2;
    }
    at = after;
    for (uint32_t i = 0; i < c->n; i++) {
        if (c->first_top[i] != NEVER) {
            uint32_t h = alloc_top(c, i, &key);
            at = h / 2 + (h & 1);   /* after the comparison's statement */
            at = at > after ? at : after;
        } else if (at < c->ntop) {
            c->first_top[i] = at;
        } else {
            return 0;
        }
    }
    return 1;
}

/* Every predicate named, made by a comparison or taken by reg.scalar, in
   index order: where the last is taken (alloc_top's half steps), or NEVER. */
static uint32_t in_order(const pool *c)
{
    if (c->whole)
        return NEVER;
    uint64_t prev = 0;
    uint32_t last = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        uint64_t key;
        if (c->first_top[i] == NEVER)
            return NEVER;
        last = alloc_top(c, i, &key);
        /* (equal: reg.scalar(pred) before one statement, in index order) */
        if (i && key < prev)
            return NEVER;
        prev = key;
    }
    return last;
}

/* ... and the declarations before the pool's stand before the last one,
   those after it after it (pyptx declares in allocation order, but moves
   the pool's declaration behind the others at each growth). */
static int qualifies(pool *c, cg_stmt **a, unsigned n, unsigned decl)
{
    uint32_t last = in_order(c);
    if (last == NEVER)
        return 0;
    for (unsigned i = 0; i < n; i++) {   /* merged nodes and operators declare too */
        if (i == decl || !sg_declares(a[i]))
            continue;
        if (i < decl ? 2 * i + 1 >= last : 2 * i + 1 <= last)
            return 0;
    }
    return 1;
}

/* `pI = left OP right` */
void sg_print_cmp(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                  int depth, ptx_buf *out)
{
    const cg_stmt *setp = sg_cmp_of(s)->setp;
    const cg_opnd *d = setp->u.inst.ops, *l = d->next, *r = l->next;
    cg_opnd x;
    sg_indent(out, depth);
    ptx_buf_printf(out, "%s = ", k->syms[sg_cmp_of(s)->pred].py);
    x = *l;
    x.next = NULL;
    cg_print_opnd(m, k, &x, out);
    /* (checked when made: "outline" may have put a helper's parameters in
       place of its registers since) */
    ptx_buf_printf(out, " %s ", operator_of(setp));
    x = *r;
    x.next = NULL;
    cg_print_opnd(m, k, &x, out);
    ptx_buf_putc(out, '\n');
}

cg_opnd *sg_cmp_oper(cg_module *m, const cg_stmt *s)
{
    const cg_stmt *setp = sg_cmp_of(s)->setp;
    const cg_opnd *l = setp->u.inst.ops->next;
    const char *op = operator_of(setp);
    cg_opnd *e = cg_opnd_new(m, SG_O_OPER);
    e->a = sg_copy_opnd(m, l);
    e->b = sg_copy_opnd(m, l->next);
    e->text = sg_lit(m, op, strlen(op));
    return e;
}

typedef struct retarget {
    const pool *c;
    const cg_symid *to;      /* per predicate: its symbol pI */
} retarget;

static cg_symid pool_element(void *ctx, cg_symid sym, int32_t index)
{
    const retarget *r = ctx;
    return sym == r->c->p && index >= 0 && (uint32_t)index < r->c->n ? r->to[index] : CG_NOSYM;
}

/* The setps become comparisons binding pI, the other predicates
   reg.scalar(pred) before their first use, and the pool's declaration
   goes (the pool makes it). */
static void rewrite(pool *c, cg_stmt **a, unsigned decl)
{
    cg_symid *to = cg_alloc(c->m, c->n * sizeof *to);
    for (uint32_t i = 0; i < c->n; i++) {
        char ptx[32], py[32];
        snprintf(ptx, sizeof ptx, "%s%u", c->k->syms[c->p].ptx, i);
        snprintf(py, sizeof py, "p%u", i);
        const char *name = sg_py_fresh(c->m, c->k, py);
        to[i] = cg_sym_add(c->m, c->k, CG_SYM_REG, cg_strndup(c->m, ptx, strlen(ptx)),
                           "pred", 0, 0);
        c->k->syms[to[i]].py = name ? name : cg_py_name(c->m, c->k, ptx);
        c->k->syms[to[i]].alias = 1;
    }
    cg_stmt **before = cg_alloc(c->m, c->n * sizeof *before);
    for (uint32_t i = 0; i < c->n; i++) {
        if (!by_comparison(c, i)) {         /* pI = reg.scalar(pred) */
            cg_stmt *r = cg_stmt_new(c->m, CG_S_REG, a[c->first_top[i]]->first);
            r->u.reg = to[i];
            c->k->syms[to[i]].alias = 0;
            c->k->syms[to[i]].implicit = 1;
            before[i] = r;
            continue;
        }
        cg_stmt *s = c->writer[i], *setp = sg_copy_stmt(c->m, s);   /* keeps the setp */
        sg_node_become(c->m, s, SG_S_CMP);
        sg_kst(c->k)->cmps = 1;
        sg_cmp_of(s)->setp = setp;
        sg_cmp_of(s)->pred = to[i];
    }
    retarget rt = { c, to };
    sg_retarget(c->k->body, pool_element, &rt);
    /* the top-level list again: the pool's declaration out, the
       reg.scalar(pred) in, in index order before their statements */
    cg_stmt **link = &c->k->body;
    for (unsigned t = 0, i = 0; t < c->ntop; t++) {
        for (; i < c->n && (!before[i] || c->first_top[i] <= t); i++)
            if (before[i] && c->first_top[i] == t) {
                *link = before[i];
                link = &before[i]->next;
            }
        if (t != decl) {
            *link = a[t];
            link = &a[t]->next;
        }
    }
    *link = NULL;
}

/* Does a statement from s on (what walk looks at) name predicate 0 of
   the pool?  in_order fails unless every
   predicate is named, and nvcc numbers them from %p1: this look, which
   stops at the first use, spares most kernels the analysis. */
static int p0_opnd(void *ctx, cg_opnd *o)
{
    const pool *c = ctx;
    return o->kind == CG_O_SYM && o->sym == c->p && o->index == 0 ? SG_VISIT_STOP : SG_VISIT_ON;
}

static int p0_stmt(void *ctx, cg_stmt **link)
{
    const cg_stmt *s = *link;
    if (s->kind == CG_S_RAW)   /* (carried text: not looked at) */
        return SG_VISIT_ON;
    return sg_visit_stmt_opnds(s, p0_opnd, ctx) ||
           (s->kind >= CG_S_EXT && sg_visit_list(sg_orig(s), p0_stmt, ctx)) ? SG_VISIT_STOP
                                                                              : SG_VISIT_ON;
}

static int names_p0(const pool *c, cg_stmt *s)
{
    return sg_visit_list(s, p0_stmt, (void *)c);
}

/* Finds the pool among the top-level statements a[0..n): its
   declaration's index in *decl; 0 if there is none. */
static int find_pool(pool *c, cg_stmt **a, unsigned n, unsigned *decl)
{
    for (unsigned i = 0; i < n && c->p == CG_NOSYM; i++) {
        const cg_sym *y = a[i]->kind == CG_S_REG ? &c->k->syms[a[i]->u.reg] : NULL;
        if (y && y->kind == CG_SYM_REGARRAY && !strcmp(y->ptx, "%p") &&
            !strcmp(y->type, "pred") && y->count > 0 && y->count <= SG_MAX_TRACKED_REGS) {
            c->p = a[i]->u.reg;
            c->n = y->count;
            *decl = i;
        }
    }
    return c->p != CG_NOSYM;
}

/* Can the pool qualify at all: its %p0 named (pyptx's first comparison's
   predicate), or a kernel written in pyptx, which may leave %p0 unnamed
   (an unused reg.scalar(pred))?  Asked before any walk over the list:
   nvcc's pools never name %p0. */
static int pool_may_qualify(pool *c)
{
    /* decls asks first (sg_pool_may_qualify, sg_pool_last), then the
       pass, so the answer is kept in the kernel's state; the build marked
       the arrays whose element 0 an operand names, and no row before adds
       such an operand, so most kernels are spared the walk */
    if (!sg_kst(c->k)->p0_named)
        sg_kst(c->k)->p0_named = c->k->syms[c->p].elem0 && names_p0(c, c->k->body) ? 1 : 2;
    return sg_kst(c->k)->p0_named == 1 || sg_any_fresh_reg(c->k);
}

/* Who writes and names the predicates of the pool declared at a[decl],
   and where each reg.scalar(pred) goes, those after the pool's
   declaration from statement bound on (place_scalars); 0 if it cannot
   qualify. */
static int analyse(pool *c, cg_stmt **a, unsigned n, unsigned decl, uint32_t bound)
{
    if (!pool_may_qualify(c))
        return 0;
    cg_module *m = c->m;
    c->writer = cg_alloc(m, c->n * sizeof *c->writer);
    c->at = cg_alloc(m, c->n * sizeof *c->at);
    c->first = cg_alloc(m, c->n * sizeof *c->first);
    c->first_top = cg_alloc(m, c->n * sizeof *c->first_top);
    c->scalar = cg_alloc(m, c->n * sizeof *c->scalar);
    c->label_at = cg_alloc(m, (c->k->nsyms + 1) * sizeof *c->label_at);
    c->label_top = cg_alloc(m, (c->k->nsyms + 1) * sizeof *c->label_top);
    c->top_pos = cg_alloc(m, (n + 1) * sizeof *c->top_pos);
    c->ntop = n;
    for (uint32_t i = 0; i < c->n; i++)
        c->first[i] = c->first_top[i] = NEVER;
    for (uint32_t i = 0; i < c->k->nsyms; i++)
        c->label_at[i] = NEVER;
    for (c->top = 0; c->top < n; c->top++) {
        cg_stmt *one = a[c->top], *next = one->next;
        c->top_pos[c->top] = c->pos + 1;
        one->next = NULL;
        walk(c, one);
        one->next = next;
    }
    uint32_t after = 0;   /* past the declarations before the pool's */
    for (unsigned i = 0; i < decl; i++)
        if (sg_declares(a[i]))
            after = i + 1;
    return place_scalars(c, after, bound);
}

int sg_pool_may_qualify(cg_module *m, cg_kernel *k, cg_stmt **a, unsigned n)
{
    pool c = { .m = m, .k = k, .p = CG_NOSYM };
    unsigned decl;
    return find_pool(&c, a, n, &decl) && pool_may_qualify(&c);
}

uint32_t sg_pool_last(cg_module *m, cg_kernel *k, cg_stmt **a, unsigned n, const uint32_t *first,
                      cg_symid *pool_sym)
{
    pool c = { .m = m, .k = k, .p = CG_NOSYM };
    unsigned decl;
    if (!find_pool(&c, a, n, &decl) || !pool_may_qualify(&c))
        return NEVER;
    uint32_t bound = n;   /* the first use of a declaration after the pool's */
    for (unsigned i = decl + 1; i < n; i++)
        if (a[i]->kind == CG_S_REG && first[a[i]->u.reg] < bound)
            bound = first[a[i]->u.reg];
    if (!analyse(&c, a, n, decl, bound))
        return NEVER;
    *pool_sym = c.p;
    return in_order(&c);
}

uint32_t sugar_compare(cg_module *m, cg_kernel *k)
{
    pool c = { .m = m, .k = k, .p = CG_NOSYM };
    unsigned n, decl = 0;
    if (sg_kst(k)->p0_named == 2 && !sg_any_fresh_reg(k))
        return 0;   /* decls asked already: analyse says 0 */
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    cg_stmt **a = sg_list_array(&sc, k->body, &n);
    uint32_t made = 0, bound = n;   /* the first declaration after the pool's */
    if (find_pool(&c, a, n, &decl))
        for (bound = decl + 1; bound < n && !sg_declares(a[bound]); bound++)
            ;
    if (c.p != CG_NOSYM && analyse(&c, a, n, decl, bound) && qualifies(&c, a, n, decl)) {
        rewrite(&c, a, decl);
        made = c.n;
    }
    ptx_free_bufs(&ob);
    return made;
}
