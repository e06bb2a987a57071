/*
 * sugar/wait.c - pass "wait": mbarrier try_wait spin loops written as
 * inline-asm blocks (CUTLASS ClusterBarrier::wait, Triton's waitLoop, ...)
 * become one call each.
 *
 * pyptx 0.1.1 has ptx.mbarrier.wait(bar, phase), but it emits
 *
 *     $_mbar_wait_N:
 *         mbarrier.try_wait.parity.shared.b64 %pK, [bar], phase;
 *         @!%pK bra $_mbar_wait_N;
 *
 * with %pK taken from the shared predicate pool (it grows or adds the
 * `.reg .pred %p<N>` declaration), no `{ }`, `.shared` and a plain `bra`.
 * None of the spin loops of the corpora is that text (CUTLASS:
 * `{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 P1,
 * [a], b; @P1 bra.uni DONE; bra.uni LAB_WAIT; DONE: }`, Triton:
 * `{ .reg .pred complete; waitLoop: ... .shared.b64 complete, [a], b;
 * @!complete bra.uni waitLoop; }`), so folding into ptx.mbarrier.wait
 * would change the PTX.  Instead the pass defines, once per kernel and per
 * distinct spin-loop text, a helper that emits that exact block:
 *
 *     def _mbar_wait(bar, phase):
 *         with ptx.scope():
 *             P1 = reg.scalar(pred, name="P1")
 *             ptx.label("LAB_WAIT")
 *             ptx.inst.mbarrier.try_wait.parity.shared__cta.b64(P1, ptx.addr(bar), phase)
 *             ptx.inst.bra.uni("DONE", pred=P1)
 *             ptx.inst.bra.uni("LAB_WAIT")
 *             ptx.label("DONE")
 *
 * and each block becomes `_mbar_wait(r[130], r[598])`.  Only operands
 * that differ between the blocks become parameters; the block-local names
 * (P1, LAB_WAIT, DONE) must be spelled the same in every block folded
 * into one helper, so the traced text is the source text.
 *
 * A block qualifies when it holds only .reg declarations, labels, exactly
 * one mbarrier.try_wait / test_wait instruction and `bra` instructions
 * whose targets are labels of the block, with at least one back edge, and
 * every guard is a register of the block.  Blocks are grouped by their
 * structural key (key.c: the block-local names by spelling, outer
 * registers and integers as holes), through a hash map, so the pass is
 * linear in the kernel.
 *
 * pyptx's own loop, where the source is exactly that text (a kernel pyptx
 * traced), is folded back into the call instead: `P = reg.scalar(pred)`
 * (the pool predicate, compare.c), the label, the try_wait and the back
 * edge become `ptx.mbarrier.wait(bar, phase)`, which takes the next pool
 * predicate and a fresh label itself; nothing else may name either.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

#define MAXW 16      /* holes (operands that may differ) per block */
#define MAXLOCAL 16  /* names declared by a block */

/* The names a block declares, and where (labels: their position). */
typedef struct locals {
    cg_symid sym[MAXLOCAL];
    unsigned pos[MAXLOCAL];
    unsigned n;
} locals;

/* One spin-wait block found in the kernel. */
typedef struct block {
    cg_stmt *scope;          /* the CG_S_SCOPE, which becomes the call */
    cg_opnd *w[MAXW];        /* its holes, in key order */
    unsigned nw;
    int group;
} block;

typedef struct helper {
    const char *name;
    int param[MAXW];         /* hole -> parameter index, or -1 */
    const char *pname[MAXW];
    unsigned nparams;
} helper;

static int local_at(const locals *l, cg_symid s)
{
    for (unsigned i = 0; i < l->n; i++)
        if (l->sym[i] == s)
            return (int)i;
    return -1;
}

static int local_sym(const locals *l, const cg_opnd *o)
{
    if (o && o->kind == CG_O_NOT)
        o = o->a;
    return o && o->kind == CG_O_SYM && local_at(l, o->sym) >= 0;
}

/* ---- matching --------------------------------------------------------- */

/* The block declares its locals (registers, labels) and holds one
   mbarrier try_wait/test_wait, `bra`s and comment lines only. */
static int block_shape(cg_stmt *scope, locals *l)
{
    unsigned nwait = 0, pos = 0;
    for (cg_stmt *s = sg_body(scope); s; s = s->next, pos++) {
        if (s->kind == CG_S_REG || s->kind == CG_S_LABEL) {
            if (l->n == MAXLOCAL)
                return 0;
            l->pos[l->n] = pos;
            l->sym[l->n++] = s->kind == CG_S_REG ? s->u.reg : s->u.label;
        } else if (s->kind == CG_S_INST) {
            if (sg_inst_match(s, "mbarrier.try_wait*.**", SG_ANY_OPS | SG_ANY_GUARD) ||
                sg_inst_match(s, "mbarrier.test_wait*.**", SG_ANY_OPS | SG_ANY_GUARD))
                nwait++;
            else if (!sg_inst_is(s, "bra"))
                return 0;
        } else if (!(s->kind == CG_S_RAW && !s->u.raw.why)) {
            return 0;
        }
    }
    return nwait == 1;
}

/* Every branch goes to a local label under a local guard (or none), the
   wait's guard too, and one goes backward. */
static int block_loops(cg_stmt *scope, const locals *l)
{
    unsigned nback = 0, pos = 0;
    for (cg_stmt *s = sg_body(scope); s; s = s->next, pos++) {
        if (s->kind != CG_S_INST)
            continue;
        if (s->u.inst.guard && !local_sym(l, s->u.inst.guard))
            return 0;
        if (!sg_inst_is(s, "bra"))
            continue;
        cg_opnd *t = s->u.inst.ops;
        int at = t && !t->next && t->kind == CG_O_SYM ? local_at(l, t->sym) : -1;
        if (at < 0)
            return 0;
        nback += l->pos[at] < pos;
    }
    return nback > 0;
}

/* Names of the block by spelling (each block declares its own), outer
   registers and integers as holes, anything else exactly. */
static sg_leaf block_leaf(const sg_key *key, const cg_opnd *o)
{
    if (o->kind == CG_O_INT)
        return SG_LEAF_WILD;
    if (local_at(key->ctx, o->sym) >= 0)
        return SG_LEAF_SPELLED;
    return cg_sym_is_reg(&key->k->syms[o->sym]) ? SG_LEAF_WILD : SG_LEAF_EXACT;
}

/* Is `scope` a spin-wait?  Fills bl and its key into key->b. */
static int match_block(sg_key *key, cg_stmt *scope, block *bl)
{
    locals l = { .n = 0 };
    if (!block_shape(scope, &l) || !block_loops(scope, &l))
        return 0;
    key->ctx = &l;
    key->b.n = 0;
    key->nholes = 0;
    for (cg_stmt *s = sg_body(scope); s; s = s->next)
        sg_key_stmt(key, s);
    if (key->nholes > MAXW)
        return 0;
    bl->scope = scope;
    bl->nw = key->nholes;
    if (key->nholes)         /* holes is NULL until the first one */
        memcpy(bl->w, key->holes, key->nholes * sizeof *bl->w);
    return 1;
}

/* ---- collecting and grouping ---------------------------------------- */

typedef struct waits {
    cg_module *m;
    cg_kernel *k;
    sg_key key;
    cg_map groups;           /* key -> group */
    block *v;
    unsigned n, cap, ngroups;
} waits;

/* A spin block is collected, not entered. */
static int collect(void *ctx, cg_stmt **link)
{
    waits *w = ctx;
    block bl;
    if ((*link)->kind != CG_S_SCOPE || !match_block(&w->key, *link, &bl))
        return SG_VISIT_ON;
    cg_mslot *g = cg_map_put(w->m, &w->groups, w->key.b.p, w->key.b.n);
    if (g->val < 0) {
        g->k = cg_strndup(w->m, w->key.b.p, w->key.b.n);
        g->val = (int32_t)w->ngroups++;
    }
    bl.group = g->val;
    w->v = cg_grow(w->m, w->v, w->n, &w->cap, sizeof *w->v);
    w->v[w->n++] = bl;
    return SG_VISIT_SKIP;
}

/* ---- helper definitions --------------------------------------------- */

/* Parameter name for hole p of the try_wait instruction (bar, phase...). */
static const char *role_name(const block *bl, unsigned p)
{
    for (cg_stmt *s = sg_body(bl->scope); s; s = s->next) {
        if (!sg_inst_is(s, "mbarrier"))
            continue;
        unsigned idx = 0;
        for (cg_opnd *o = s->u.inst.ops; o; o = o->next, idx++) {
            if (o == bl->w[p])
                return idx == 2 ? "phase" : idx == 3 ? "hint" : NULL;
            if (o->kind == CG_O_ADDR && o->a == bl->w[p])
                return "bar";
            if (o->kind == CG_O_ADDR && o->b == bl->w[p])
                return "offset";
        }
    }
    return NULL;
}

/* A free Python name for the parameter at hole p of the first block:
   its role (bar, phase), else a<n>. */
static const char *param_name(waits *w, const block *first, unsigned p,
                              const helper *h)
{
    const char *role = role_name(first, p);
    char buf[32];
    if (role)
        snprintf(buf, sizeof buf, "%s", role);
    else
        snprintf(buf, sizeof buf, "a%u", h->nparams);
    for (unsigned q = 0; q < h->nparams; q++)
        if (!strcmp(h->pname[q], buf))
            snprintf(buf, sizeof buf, "%s%u", role ? role : "a", h->nparams);
    while (!sg_py_name_free(w->m, w->k, buf) && strlen(buf) < sizeof buf - 2)
        strcat(buf, "_");
    return cg_strndup(w->m, buf, strlen(buf));
}

/* The helper of group g (members[0..n), in order): a parameter for each
   hole that differs between them, and a free name. */
static helper *make_helper(waits *w, block **members, unsigned n)
{
    const block *first = members[0];
    helper *h = cg_alloc(w->m, sizeof *h);
    for (unsigned p = 0; p < first->nw; p++) {
        int differs = 0;
        for (unsigned j = 1; j < n && !differs; j++)
            differs = !sg_opnd_equal(members[j]->w[p], first->w[p]);
        /* a single block: its address and phase still read better as
           arguments */
        if (n == 1 && role_name(first, p))
            differs = 1;
        h->param[p] = differs ? (int)h->nparams : -1;
        if (differs) {
            h->pname[h->nparams] = param_name(w, first, p, h);
            h->nparams++;
        }
    }
    char hn[64];
    snprintf(hn, sizeof hn, "_mbar_wait");
    for (unsigned q = 2; !sg_py_name_free(w->m, w->k, hn); q++)
        snprintf(hn, sizeof hn, "_mbar_wait%u", q);
    h->name = cg_strndup(w->m, hn, strlen(hn));
    sg_py_reserve(w->m, w->k, h->name);
    return h;
}

/* Deep copy of an operand list in which the holes that are parameters
   become the parameter's name; *pos walks the holes in key order. */
static cg_opnd *copy_params(cg_module *m, const block *bl, cg_opnd *o,
                            const helper *h, unsigned *pos)
{
    cg_opnd *head = NULL, **tail = &head;
    for (; o; o = o->next) {
        cg_opnd *c;
        if (*pos < bl->nw && o == bl->w[*pos]) {
            unsigned p = (*pos)++;
            c = h->param[p] >= 0 ? sg_name_opnd(m, h->pname[h->param[p]])
                                 : sg_copy_opnd(m, o);
        } else {
            c = cg_alloc(m, sizeof *c);
            *c = *o;
            c->next = NULL;
            c->a = copy_params(m, bl, o->a, h, pos);
            c->b = copy_params(m, bl, o->b, h, pos);
            c->elems = copy_params(m, bl, o->elems, h, pos);
        }
        *tail = c;
        tail = &c->next;
    }
    return head;
}

/* `def NAME(params):` around a copy of block bl with its parameters. */
static cg_stmt *helper_def(cg_module *m, const helper *h, const block *bl)
{
    cg_opnd *params[MAXW];
    for (unsigned q = 0; q < h->nparams; q++)
        params[q] = sg_name_opnd(m, h->pname[q]);
    cg_stmt *sc = sg_copy_stmt(m, bl->scope), **tail = cg_body(sc);
    unsigned pos = 0;
    for (cg_stmt *s = sg_body(bl->scope); s; s = s->next) {
        cg_stmt *c = sg_copy_stmt(m, s);
        if (c->kind == CG_S_INST)
            c->u.inst.ops = copy_params(m, bl, s->u.inst.ops, h, &pos);
        *tail = c;
        tail = &c->next;
    }
    return sg_def_new(m, PTX_NOTOK, h->name, sg_opnd_list(params, h->nparams), NULL, sc);
}

/* The block becomes a call of the helper in place (so the links to it
   stay valid); its old self is kept as `orig`. */
static void make_call(cg_module *m, const block *bl, const helper *h)
{
    cg_stmt *call = bl->scope;
    cg_stmt *orig = sg_copy_stmt(m, call);
    sg_node_become(m, call, SG_S_WAIT);
    sg_wait_of(call)->orig = orig;
    sg_wait_of(call)->helper = h->name;
    cg_opnd **at = &sg_wait_of(call)->args;
    for (unsigned q = 0; q < h->nparams; q++)
        for (unsigned p = 0; p < bl->nw; p++)
            if (h->param[p] == (int)q) {
                *at = sg_copy_opnd(m, bl->w[p]);
                at = &(*at)->next;
                break;
            }
}

/* o is ptx.addr(base + (stage << 3)) as merged operators (registers
   base and stage): what a barrier slot `.at(stage)` on a register base
   at offset 0 computes when ptx.mbarrier.wait takes its address after
   the loop's label, the same instructions in the same order.  (Not for
   the arrivals: they allocate their state before the address.) */
static int reg_slot(const cg_opnd *o)
{
    if (o->kind != CG_O_ADDR || o->b || !sg_oper_is(o->a, "+") || o->a->a->kind != CG_O_SYM)
        return 0;
    const cg_opnd *t = o->a->b;
    return sg_oper_is(t, "<<") && t->a->kind == CG_O_SYM && sg_int_is(t->b, 3);
}

/* ptx.mbarrier.wait's barrier: pyptx makes the address itself. */
static void wait_addr(const cg_module *m, const cg_kernel *k, const cg_opnd *a, ptx_buf *out)
{
    if (!reg_slot(a)) {
        sg_print_addr_arg(m, k, a, out);
        return;
    }
    cg_opnd base = *a->a->a, stage = *a->a->b->a;
    base.next = stage.next = NULL;
    ptx_buf_puts(out, "ptx.mbarrier.array(");
    cg_print_opnd(m, k, &base, out);
    ptx_buf_puts(out, ", 0, 1).at(");
    cg_print_opnd(m, k, &stage, out);
    ptx_buf_putc(out, ')');
}

void sg_print_wait(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out)
{
    sg_indent(out, depth);
    ptx_buf_printf(out, "%s(", sg_wait_of(s)->helper);
    for (cg_opnd *a = sg_wait_of(s)->args; a; a = a->next) {
        if (a == sg_wait_of(s)->args && !strcmp(sg_wait_of(s)->helper, "ptx.mbarrier.wait"))
            wait_addr(m, k, a, out);
        else
            cg_print_opnd(m, k, a, out);
        if (a->next)
            ptx_buf_puts(out, ", ");
    }
    ptx_buf_puts(out, ")\n");
}

/* ---- pyptx's own loop ------------------------------------------------ */

/* r = `P = reg.scalar(pred)`, then `L: try_wait.parity.shared.b64 P, [bar],
   phase; @!P bra L;` with P and L named nowhere else: the try_wait. */
static cg_stmt *own_wait(const cg_module *m, const cg_kernel *k, const uint32_t *refs,
                         const cg_stmt *r)
{
    const cg_stmt *l = r->next, *w = l ? l->next : NULL, *b = w ? w->next : NULL;
    if (r->kind != CG_S_REG || !k->syms[r->u.reg].implicit ||
        strcmp(k->syms[r->u.reg].type, "pred") || !l || l->kind != CG_S_LABEL ||
        !sg_inst_is(w, "mbarrier") || !sg_inst_is(b, "bra"))
        return NULL;
    const cg_inst *wi = &w->u.inst, *bi = &b->u.inst;
    cg_symid p = r->u.reg, lab = l->u.label;
    const cg_opnd *d = wi->ops;
    /* the address: pyptx computes a dynamic allocation's or a barrier
       slot's itself, after the label; an operator nested in ptx.addr()
       would be evaluated before the call, outside the loop */
    const cg_opnd *a = d->next;
    if (!sg_inst_match(w, "mbarrier.try_wait.parity.shared.b64", 3) || d->kind != CG_O_SYM ||
        d->sym != p || d->index >= 0 ||
        (a->kind != CG_O_ADDR && a->kind != SG_O_DYN && a->kind != SG_O_SLOT) ||
        (a->kind == CG_O_ADDR && !reg_slot(a) &&
         (sg_opnd_emits(a->a) || (a->b && sg_opnd_emits(a->b)))))
        return NULL;
    const cg_opnd *g = bi->guard, *t = bi->ops;
    if (!sg_inst_match(b, "bra", 1 | SG_ANY_GUARD) || !g || g->kind != CG_O_NOT ||
        g->a->kind != CG_O_SYM || g->a->sym != p || g->a->index >= 0 || t->kind != CG_O_SYM || t->sym != lab ||
        refs[p] != 2 || refs[lab] != 2 || sg_ptx_pinned((cg_module *)m, k->syms[lab].ptx))
        return NULL;
    return (cg_stmt *)w;
}

/* Every such loop becomes the call; the count. */
static uint32_t fold_own(cg_module *m, cg_kernel *k, const uint32_t *refs, cg_stmt **link)
{
    uint32_t made = 0;
    for (; *link; link = &(*link)->next) {
        cg_stmt *s = *link, **body = cg_body(s), *w;
        if (body) {
            made += fold_own(m, k, refs, body);
            continue;
        }
        if (!(w = own_wait(m, k, refs, s)))
            continue;
        cg_stmt *call = sg_node_new(m, SG_S_WAIT, s->first);
        sg_wait_of(call)->orig = sg_copy_stmt(m, w);   /* the operands, for later passes */
        sg_wait_of(call)->helper = "ptx.mbarrier.wait";
        sg_wait_of(call)->args = sg_copy_opnd(m, w->u.inst.ops->next);
        sg_wait_of(call)->args->next = sg_copy_opnd(m, w->u.inst.ops->next->next);
        call->next = w->next->next;
        *link = call;
        made++;
    }
    return made;
}

static uint32_t fold_own_waits(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))                 /* its predicate is the pool's */
        return 0;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    uint32_t *refs = sg_kernel_refs(&sc, k), made = 0;
    if (!sg_pyptx_label_pinned(m, k, refs))
        made = fold_own(m, k, refs, &k->body);
    ptx_free_bufs(&ob);
    return made;
}

/* One helper per group, defined at the top of the body in the order the
   groups first occur; every member becomes a call. */
uint32_t sugar_wait(cg_module *m, cg_kernel *k)
{
    waits w = { .m = m, .k = k, .key = { .k = k, .leaf = block_leaf, .m = m } };
    if (!(k->ops & cg_op_bit("mbarrier")))   /* no try_wait: no spin loop */
        return 0;
    uint32_t own = fold_own_waits(m, k);
    ptx_bufs ob;
    ptx_own_bufs(&ob, &w.key.b, NULL);
    sg_visit_stmts(&k->body, collect, &w);
    ptx_free_bufs(&ob);
    if (!w.n)
        return own;
    /* members of each group, in order: a counting sort by group */
    unsigned *start = cg_alloc(m, (w.ngroups + 1) * sizeof *start);
    block **by = cg_alloc(m, w.n * sizeof *by);
    for (unsigned i = 0; i < w.n; i++)
        start[w.v[i].group + 1]++;
    for (unsigned g = 0; g < w.ngroups; g++)
        start[g + 1] += start[g];
    for (unsigned i = 0; i < w.n; i++)
        by[start[w.v[i].group]++] = &w.v[i];
    cg_stmt *defs = NULL, **dtail = &defs;
    for (unsigned g = 0, at = 0; g < w.ngroups; g++) {
        unsigned n = start[g] - at;   /* start[g] is now group g's end */
        helper *h = make_helper(&w, by + at, n);
        *dtail = helper_def(m, h, by[at]);
        dtail = &(*dtail)->next;
        for (unsigned j = 0; j < n; j++)
            make_call(m, by[at + j], h);
        at = start[g];
    }
    *dtail = k->body;
    k->body = defs;
    return own + w.n;
}
