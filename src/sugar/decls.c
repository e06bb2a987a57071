/*
 * sugar/decls.c - pass "decls": register declarations the way pyptx code
 * writes them.
 *
 *     rd0 = reg.scalar(b64, name="%rd0")         x_ptr, y_ptr = ptx.global_ptrs("X", "Y")
 *     rd1 = reg.scalar(b64, name="%rd1")         tid = reg.from_(ptx.special.tid.x(), u32)
 *     r0 = reg.scalar(u32, name="%r0")     ->    ...
 *     f1 = reg.scalar(f32, name="%f1")           f1 = reg.scalar(f32, init=0.0)
 *     ptx.param(u64, "X", rd0)
 *     ptx.inst.cvta.to.global_.u64(rd0, rd0)  ... ptx.mov(f32, f1, "0f00000000")
 *
 * What pyptx 0.1.1 does with declarations (NOTES.md): every top-level
 * reg.scalar/reg.array call goes to the kernel's declarations, in call
 * order, wherever the call stands among the statements; a reg.scalar
 * without name= takes the name prefix + counter (reg.py _REG_PREFIX, one
 * counter per prefix), and a reg.array(..., name=B) of N registers moves
 * B's counter to N.  So:
 *
 *  1. a scalar declaration whose name is the one pyptx would allocate at
 *     that point (replaying the counters over the declarations in order)
 *     drops its name=;
 *  2. each declaration moves down to just before the top-level statement
 *     that first names its register, but never past a later declaration
 *     (so the declarations keep their order, and the counters their
 *     values);
 *  3. a declaration merges with what first writes its register, where
 *     that is what a DSL helper emits with a register it allocates itself
 *     (merge.c: init=, reg.from_, ptx.global_ptrs, warp reductions,
 *     operators, mbarrier arrivals).
 *
 * A loop's predicate counts as named where the loop starts (ptx.loop takes
 * it at its head), so a declaration never moves into the loop it guards.
 * The predicate pool that "compare" will rewrite has its declaration made
 * by its last predicate (compare.c): it is placed after that statement.
 * Linear: one walk finds first uses, one rebuilds the top-level list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

#define NONE UINT32_MAX

/* reg.py _REG_PREFIX: the prefix of an implicitly named scalar, by type.
   pred is absent: reg.scalar(pred) without a name uses the shared pool. */
static const struct { const char *type, *prefix; } prefixes[] = {
    { "b16", "%rs" }, { "b32", "%r" }, { "b64", "%rd" }, { "b128", "%rq" },
    { "u16", "%rs" }, { "u32", "%r" }, { "u64", "%rd" },
    { "s16", "%rs" }, { "s32", "%r" }, { "s64", "%rd" },
    { "f16", "%h" }, { "f16x2", "%hh" }, { "bf16", "%h" }, { "bf16x2", "%hh" },
    { "f32", "%f" }, { "f64", "%fd" }, { "e4m3", "%b" }, { "e5m2", "%b" },
    { "tf32", "%f" },
};

static const char *prefix_of(const char *type)
{
    for (unsigned i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strcmp(prefixes[i].type, type))
            return prefixes[i].prefix;
    return NULL;
}

typedef struct decls {
    cg_module *m;
    cg_kernel *k;
    uint32_t *first;     /* per symbol: the top-level statement naming it first */
    uint32_t *refs;      /* per symbol: how many statements name it (where
                            counted: first_uses) */
    uint32_t at;         /* the top-level statement being walked */
    cg_map counters;     /* prefix -> pyptx's next index */
} decls;

/* ---- first uses -------------------------------------------------------- */

static void use(decls *c, cg_symid s)
{
    if (s >= c->k->nsyms)
        return;
    if (c->at < c->first[s])
        c->first[s] = c->at;
    c->refs[s]++;
}

static void use_text(decls *c, const cg_text *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].sym != CG_NOSYM)
            use(c, t->v[i].sym);
}

static int use_opnd(void *ctx, cg_opnd *o)
{
    decls *c = ctx;
    if (o->kind == CG_O_SYM)
        use(c, o->sym);
    if (sg_text_names(o))
        use_text(c, &o->text);
    return SG_VISIT_ON;
}

static void use_opnds(decls *c, const cg_opnd *o)
{
    sg_visit_opnds(o, use_opnd, c);
}

static void use_stmts(decls *c, const cg_stmt *s, int one)
{
    for (; s; s = one ? NULL : s->next) {
        cg_stmt **body = cg_body((cg_stmt *)s);
        switch (s->kind) {
        case CG_S_INST:
            use_opnds(c, s->u.inst.ops);
            use_opnds(c, s->u.inst.guard);
            break;
        case CG_S_RAW: use_text(c, &s->u.raw.text); break;
        case CG_S_LABEL: use(c, s->u.label); break;
        case CG_S_VAR: use(c, s->u.var.sym); break;
        case CG_S_BIND: use(c, s->u.reg); break;
        default:
            if (s->kind >= CG_S_EXT) {
                use_stmts(c, sg_orig(s), 0);
                use_opnds(c, sg_args(s));
                if (sg_sym(s) != CG_NOSYM)
                    use(c, sg_sym(s));
            }
        }
        if (body)
            use_stmts(c, *body, 0);
    }
}

/* The top-level declarations' places in a[0..n) into ds; how many. */
static unsigned declarations(cg_stmt *const *a, unsigned n, uint32_t *ds)
{
    unsigned nd = 0;
    for (unsigned i = 0; i < n; i++)
        if (a[i]->kind == CG_S_REG)
            ds[nd++] = i;
    return nd;
}

/* Has every declaration (ds[0..nd)) a first use?  *seen: those known to,
   in order (a first use never goes back to NONE). */
static int all_found(const decls *c, cg_stmt *const *a, const uint32_t *ds, unsigned nd,
                     unsigned *seen)
{
    for (; *seen < nd; ++*seen)
        if (c->first[a[ds[*seen]]->u.reg] == NONE)
            return 0;
    return 1;
}

/* Are the places of the declarations (ds[0..nd)) settled before
   statement i?  place() puts each at or before the first use of the last
   one, P, which is found; every first use found from i on is at i (> P)
   or, a back edge's guard, at a label already met, label0 at the
   earliest: where P <= label0, none of them can move a place.  Only the
   places are settled, not every first use. */
static int settled(const decls *c, cg_stmt *const *a, const uint32_t *ds, unsigned nd,
                   uint32_t label0)
{
    uint32_t p = nd ? c->first[a[ds[nd - 1]]->u.reg] : 0;
    return p != NONE && (label0 == NONE || p <= label0);
}

/* Every top-level statement's first uses, in one walk over a[0..n) (ds:
   its nd declarations), and with `counts` how many statements name each
   symbol (c->refs).  The guard of a loop's back edge is used where its
   label stands: that is where the loops pass will print it (ptx.loop(...,
   pred=p)).  Without `counts`, once every declaration has a first use,
   only back edges can move one (to a label before it): the walk then
   looks at the top-level statements alone, not at their operands and
   lists.  Where only the places matter (!exact: no predicate pool reads
   the first uses, sg_pool_last), the walk stops once they are settled:
   in a compiler's kernel, whose last declaration (%rd) is named first,
   after a few statements. */
static void first_uses(decls *c, cg_stmt **a, unsigned n, const uint32_t *ds, unsigned nd,
                       int counts, int exact)
{
    uint32_t *label_at = cg_alloc(c->m, (c->k->nsyms + 1) * sizeof *label_at);
    for (uint32_t i = 0; i < c->k->nsyms; i++)
        label_at[i] = NONE;
    unsigned seen = 0;
    int edges_only = 0;
    uint32_t label0 = NONE;   /* the first label's place */
    for (unsigned i = 0; i < n; i++) {
        cg_stmt *s = a[i];
        cg_symid l;
        if (!counts && !exact && settled(c, a, ds, nd, label0))
            return;
        edges_only = edges_only || (!counts && all_found(c, a, ds, nd, &seen));
        if (s->kind == CG_S_REG)
            continue;
        if (s->kind == CG_S_LABEL && label_at[s->u.label] == NONE) {
            label_at[s->u.label] = i;
            label0 = label0 == NONE ? i : label0;
        } else if ((l = sg_back_edge(s)) != CG_NOSYM && label_at[l] != NONE && s->u.inst.guard) {
            c->at = label_at[l];
            use_opnds(c, s->u.inst.guard);
        }
        c->at = i;
        if (!edges_only)
            use_stmts(c, s, 1);
    }
}

/* ---- 1. which declarations pyptx would name itself -------------------- */

static cg_mslot *counter(decls *c, const char *key, size_t n)
{
    cg_mslot *ct = cg_map_put(c->m, &c->counters, key, n);
    if (ct->val < 0) {
        ct->k = cg_strndup(c->m, key, n);
        ct->val = 0;
    }
    return ct;
}

/* reg.array(T, N) without a name (reg.py array): the first array of a
   prefix takes the prefix itself and N of its counter; a later one takes
   one and is named prefix + "arr" + (the prefix's array counter) + "_".
   1 if y is the one pyptx would make here (the counters then move). */
static int implicit_array(decls *c, const cg_sym *y, const char *pre)
{
    size_t n = strlen(pre);
    cg_mslot *ct = counter(c, pre, n);
    if (ct->val == 0) {
        if (strcmp(y->ptx, pre))
            return 0;
        ct->val = y->count ? (int32_t)y->count : 1;
        return 1;
    }
    char key[16], name[48];
    snprintf(key, sizeof key, "%s_arr", pre);
    cg_mslot *arr = counter(c, key, strlen(key));
    snprintf(name, sizeof name, "%sarr%d_", pre, arr->val);
    if (strcmp(y->ptx, name))
        return 0;
    ct->val++;
    arr->val++;
    return 1;
}

/* Replays pyptx's counters over the top-level declarations in order and
   marks those whose name is the one it would allocate. */
static void mark_implicit(decls *c, cg_stmt *const *a, const uint32_t *ds, unsigned nd)
{
    for (unsigned j = 0; j < nd; j++) {
        const cg_stmt *s = a[ds[j]];
        cg_sym *y = &c->k->syms[s->u.reg];
        const char *pre = prefix_of(y->type);
        if (y->kind == CG_SYM_REGARRAY && pre && implicit_array(c, y, pre)) {
            y->implicit = 1;
            continue;
        }
        if (y->kind == CG_SYM_REGARRAY) {   /* name=B: B's counter to N */
            cg_mslot *ct = counter(c, y->ptx, strlen(y->ptx));
            if (ct->val < (int32_t)y->count)
                ct->val = (int32_t)y->count;
            continue;
        }
        size_t n = pre ? strlen(pre) : 0;
        if (!pre || strncmp(y->ptx, pre, n) || !cg_is_decimal(y->ptx + n, strlen(y->ptx + n)))
            continue;
        cg_mslot *ct = counter(c, pre, n);
        int32_t next = ct->val;
        if (strtol(y->ptx + n, NULL, 10) == next) {
            y->implicit = 1;
            ct->val = next + 1;
        }
    }
}

/* ---- 2. declarations at their first use ------------------------------- */

/* s after *tail: the link to follow it. */
static cg_stmt **relink(cg_stmt **tail, cg_stmt *s)
{
    if (*tail != s)
        *tail = s;
    return &s->next;
}

/* The top-level list a[0..n) (its declarations at ds[0..nd)) with each declaration moved down to just
   before the statement that first names its register, declarations in
   their order. */
static void place(decls *c, cg_stmt **head, cg_stmt **a, unsigned n, const uint32_t *ds,
                  unsigned nd)
{
    uint32_t *pos = cg_alloc(c->m, (nd + 1) * sizeof *pos);  /* their places */
    for (uint32_t j = nd, next = n; j-- > 0;) {
        uint32_t f = c->first[a[ds[j]]->u.reg];
        pos[j] = next = f < next ? f : next;
    }
    /* links are written only where they change: most stay, and a
       statement written is a cache line to write back */
    cg_stmt **tail = head;
    for (unsigned i = 0, j = 0, d = 0; i <= n; i++) {
        for (; j < nd && pos[j] == i; j++)
            tail = relink(tail, a[ds[j]]);
        if (d < nd && ds[d] == i)
            d++;   /* a declaration: placed above */
        else if (i < n)
            tail = relink(tail, a[i]);
    }
    if (*tail)
        *tail = NULL;
}

/* The predicate pool's declaration may wait for its last allocation
   (compare.c takes the pool apart; pyptx declares it anew at each
   growth, behind the declarations made so far) only if "compare" runs and
   every declaration after it in the source can stand after that
   allocation too: none is used before it (a comparison's statement
   included).  Then the declarations before it in the source are made
   before that allocation (one never used would otherwise go to the end).
   half: sg_pool_last's half step; the pool stands where the allocation
   is, after the statement of a comparison. */
static int defer_pool(decls *c, cg_stmt **a, unsigned n, cg_symid pool, uint32_t half)
{
    unsigned at = 0;
    uint32_t last = half / 2, by = last + (half & 1);
    if (!sg_runs(c->m, "compare"))
        return 0;
    while (at < n && !(a[at]->kind == CG_S_REG && a[at]->u.reg == pool))
        at++;
    for (unsigned i = at + 1; i < n; i++)
        if (a[i]->kind == CG_S_REG && c->first[a[i]->u.reg] < by)
            return 0;
    for (unsigned i = 0; i < at; i++)
        if (a[i]->kind == CG_S_REG && c->first[a[i]->u.reg] > last)
            c->first[a[i]->u.reg] = last;
    c->first[pool] = by;
    return 1;
}

/* ---- the pass ------------------------------------------------------------- */

uint32_t sugar_decls(cg_module *m, cg_kernel *k)
{
    decls c = { .m = m, .k = k };
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    unsigned n;
    cg_stmt **a = sg_list_array(&sc, k->body, &n);
    c.first = cg_alloc(m, (k->nsyms + 1) * sizeof *c.first);
    c.refs = cg_alloc(m, (k->nsyms + 1) * sizeof *c.refs);
    for (uint32_t i = 0; i < k->nsyms; i++)
        c.first[i] = NONE;
    uint32_t *ds = cg_alloc(m, (n + 1) * sizeof *ds);   /* the declarations */
    unsigned nd = declarations(a, n, ds);
    mark_implicit(&c, a, ds, nd);   /* (compare looks at the pool of a pyptx kernel) */
    /* the references serve the implicit scalars alone (sg_merge_decls) */
    int counts = sg_any_fresh_reg(k);
    first_uses(&c, a, n, ds, nd, counts, counts || sg_pool_may_qualify(m, k, a, n));
    cg_symid pool;
    uint32_t half = sg_pool_last(m, k, a, n, c.first, &pool);
    if (half != NONE)
        defer_pool(&c, a, n, pool, half);
    place(&c, &k->body, a, n, ds, nd);   /* a: the list as it still is */
    ptx_free_bufs(&ob);
    uint32_t made = sg_dyn_operands(m, k);
    made += sg_wgmma_descriptors(m, k);
    made += sg_merge_decls(m, k, counts ? c.refs : NULL);
    for (uint32_t i = 0; i < k->nsyms; i++)
        made += k->syms[i].implicit;
    return made + sg_smem_decls(m, k);
}
