/*
 * sugar/expr.c - pass "expr": chains of single-use integer temporaries
 * become one Python expression.
 *
 *     shl.b32 %r187, %r20, 13;
 *     add.s32 %r190, %r187, %r140;    ->  with ptx.expr(): ptx.inst.shl.b32(r[191],
 *     shl.b32 %r191, %r190, 1;              ptx.inst.add.s32(r[190], ptx.inst.shl.b32(
 *                                           r[187], r[20], 13), r[140]), 1)
 *
 * ptx.inst.<op>(dst, ...) returns dst, and Python evaluates arguments left
 * to right, so a nested call emits its instruction just before its
 * parent's: a chain is folded only where the source order is exactly that
 * post-order (nothing moves; every instruction keeps its modifiers and its
 * destination register).  The outermost instruction is written with a
 * pyptx operator (`r[k] = a + b`) only where pyptx 0.1.1 emits exactly that
 * instruction: RegArray.__setitem__ renames the operator's fresh
 * temporary to %rk and drops its declaration; the table below follows
 * reg.py (_emit_int_add ... ) for the operand dtypes, and it is not used in
 * a kernel that declares a scalar named like pyptx's temporaries (%rN,
 * %rdN), whose declaration __setitem__ could remove.  ptx.expr() groups
 * chains of two or more instructions (it records the same instructions).
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define MAXCHAIN 6
#define MAXOPS 8

typedef struct enode enode;
struct enode {
    cg_stmt *inst;
    enode *kid[MAXOPS];     /* operand position -> folded child */
    const char *opsym;      /* top only: Python operator, or NULL */
    unsigned size;          /* instructions in the tree */
};

typedef struct ctx {
    cg_module *m;
    cg_kernel *k;
    uint32_t *base;         /* sym -> first counter */
    uint16_t *uses, *defs;
    int no_overload;
    int ok32, ok64;         /* reg.array(..., name="%r"/"%rd") bumps pyptx's
                               temporary counter past the array */
} ctx;

static int int_type(const char *t)
{
    if (!t || (t[0] != 'b' && t[0] != 'u' && t[0] != 's'))
        return 0;
    return !strcmp(t + 1, "16") || !strcmp(t + 1, "32") || !strcmp(t + 1, "64");
}

static int kind_bits(const char *t)
{
    if (!int_type(t))
        return 0;
    return !strcmp(t + 1, "32") ? 32 : !strcmp(t + 1, "64") ? 64 : 16;
}

static int arith_inst(const cg_stmt *s)
{
    static const char *const ops[] = { "add", "sub", "mul", "mad", "shl", "shr", "and",
                                       "or", "xor", "not", "neg", "cvt", "min", "max",
                                       "bfe", "bfi", "rem", "div", "abs", "popc", "clz",
                                       "brev" };
    if (!s || s->kind != CG_S_INST || s->u.inst.guard)
        return 0;
    int ok = 0;
    for (unsigned i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(s->u.inst.op, ops[i]))
            ok = 1;
    if (!ok)
        return 0;
    unsigned ntypes = 0;
    for (uint32_t i = 0; i < s->u.inst.nmods; i++) {
        const char *md = s->u.inst.mods[i];
        if (md[0] == 'f' || !strncmp(md, "bf", 2) || !strcmp(md, "pred") ||
            !strncmp(md, "rn", 2) || !strncmp(md, "rz", 2) || !strncmp(md, "rm", 2) ||
            !strncmp(md, "rp", 2) || !strcmp(md, "sat") || !strcmp(md, "cc"))
            return 0;
        if (int_type(md))
            ntypes++;
    }
    if (!ntypes)
        return 0;
    const cg_opnd *d = s->u.inst.ops;
    return d && d->kind == CG_O_SYM && sg_nops(d) <= MAXOPS;
}

/* ---- use/def counts -------------------------------------------------- */

static uint32_t slot(const ctx *c, cg_symid s, int32_t idx)
{
    const cg_sym *y = &c->k->syms[s];
    if (y->kind == CG_SYM_REGARRAY)
        return idx >= 0 && (uint32_t)idx < y->count ? c->base[s] + (uint32_t)idx : UINT32_MAX;
    if (y->kind == CG_SYM_REG)
        return c->base[s];
    return UINT32_MAX;
}

static void bump(uint16_t *v, uint32_t i)
{
    if (i != UINT32_MAX && v[i] < 60000)
        v[i]++;
}

static void count_opnd(ctx *c, const cg_opnd *o)
{
    for (; o; o = o->next) {
        if (o->kind == CG_O_SYM)
            bump(c->uses, slot(c, o->sym, o->index));
        for (uint32_t i = 0; i < o->text.n; i++)
            if (o->text.v[i].sym != CG_NOSYM) {
                uint32_t sl = slot(c, o->text.v[i].sym, o->text.v[i].index);
                bump(c->uses, sl);
                bump(c->uses, sl);   /* raw text: never a temp */
            }
        count_opnd(c, o->a);
        count_opnd(c, o->b);
        count_opnd(c, o->elems);
    }
}

static void count_stmts(ctx *c, const cg_stmt *s)
{
    for (; s; s = s->next) {
        switch (s->kind) {
        case CG_S_INST: {
            const cg_opnd *d = s->u.inst.ops;
            if (d && d->kind == CG_O_SYM) {
                bump(c->defs, slot(c, d->sym, d->index));
                count_opnd(c, d->next);
            } else {
                count_opnd(c, d);
            }
            if (s->u.inst.guard) {
                cg_opnd g = *s->u.inst.guard;
                g.next = NULL;
                count_opnd(c, &g);
            }
            break;
        }
        case CG_S_RAW:
            for (uint32_t i = 0; i < s->u.raw.text.n; i++)
                if (s->u.raw.text.v[i].sym != CG_NOSYM) {
                    uint32_t sl = slot(c, s->u.raw.text.v[i].sym, s->u.raw.text.v[i].index);
                    bump(c->uses, sl);
                    bump(c->uses, sl);
                }
            break;
        case CG_S_SCOPE:
            count_stmts(c, s->u.body);
            break;
        case CG_S_LOOP:
            count_stmts(c, s->u.sugar.body);
            if (s->u.sugar.args) {
                cg_opnd g = *s->u.sugar.args;
                g.next = NULL;
                count_opnd(c, &g);
            }
            break;
        case CG_S_FOR:
        case CG_S_WAIT:
        case CG_S_EXPR:
            count_stmts(c, s->u.sugar.orig);
            break;
        default:
            break;
        }
    }
}

/* ---- operator table (pyptx 0.1.1 reg.py) ------------------------------- */

static const char *opnd_type(const ctx *c, const cg_opnd *o, const enode *kid)
{
    if (kid)
        o = kid->inst->u.inst.ops;
    if (o->kind != CG_O_SYM)
        return NULL;
    const cg_sym *y = &c->k->syms[o->sym];
    if (y->kind != CG_SYM_REG && y->kind != CG_SYM_REGARRAY)
        return NULL;
    return y->type;
}

static int mods_are(const cg_stmt *s, const char *a, const char *b)
{
    const cg_inst *in = &s->u.inst;
    if (b)
        return in->nmods == 2 && !strcmp(in->mods[0], a) && !strcmp(in->mods[1], b);
    return in->nmods == 1 && !strcmp(in->mods[0], a);
}

/* Python operator that emits exactly instruction s, or NULL. */
static const char *overload(const ctx *c, const enode *e)
{
    const cg_stmt *s = e->inst;
    if (c->no_overload || sg_nops(s->u.inst.ops) != 3)
        return NULL;
    const cg_opnd *d = s->u.inst.ops, *l = d->next, *r = l->next;
    const cg_sym *dy = &c->k->syms[d->sym];
    if (dy->kind != CG_SYM_REGARRAY || d->index < 0)
        return NULL;
    const char *lt = opnd_type(c, l, e->kid[1]);
    if (!lt)
        return NULL;
    int lb = kind_bits(lt);
    if ((lb != 32 || !c->ok32) && (lb != 64 || !c->ok64))
        return NULL;
    /* right operand: int, or a register of a given width class */
    int r_int = r->kind == CG_O_INT && !e->kid[2];
    const char *rt = r_int ? NULL : opnd_type(c, r, e->kid[2]);
    int rb = rt ? kind_bits(rt) : 0;
    if (!r_int && !rb)
        return NULL;      /* pred, float, special, string ... */
    const char *op = s->u.inst.op;
    int same = r_int || rb == lb;
    if (!strcmp(op, "add")) {
        if (!same)
            return NULL;
        if (lb == 64)
            return mods_are(s, "s64", NULL) ? "+" : NULL;
        if (!strcmp(lt, "s32"))
            return mods_are(s, "s32", NULL) ? "+" : NULL;
        return mods_are(s, "u32", NULL) ? "+" : NULL;
    }
    if (!strcmp(op, "sub"))
        return same && mods_are(s, lb == 64 ? "s64" : "s32", NULL) ? "-" : NULL;
    if (!strcmp(op, "mul")) {
        if (lb == 64)
            return same && mods_are(s, "lo", "u64") ? "*" : NULL;
        if (r_int)
            return mods_are(s, "lo", "s32") ? "*" : NULL;
        return rb == 32 && mods_are(s, "lo", "u32") ? "*" : NULL;
    }
    if (!strcmp(op, "shl"))
        return mods_are(s, lb == 64 ? "b64" : "b32", NULL) ? "<<" : NULL;
    if (!strcmp(op, "shr"))
        return mods_are(s, lb == 64 ? "u64" : "u32", NULL) ? ">>" : NULL;
    const char *bt = lb == 64 ? "b64" : "b32";
    if (!strcmp(op, "and"))
        return same && mods_are(s, bt, NULL) ? "&" : NULL;
    if (!strcmp(op, "or"))
        return same && mods_are(s, bt, NULL) ? "|" : NULL;
    if (!strcmp(op, "xor"))
        return same && mods_are(s, bt, NULL) ? "^" : NULL;
    return NULL;
}

/* ---- folding ------------------------------------------------------------ */

static int single_temp(const ctx *c, const cg_opnd *o)
{
    if (o->kind != CG_O_SYM)
        return 0;
    const cg_sym *y = &c->k->syms[o->sym];
    if (!int_type(y->type))
        return 0;
    uint32_t sl = slot(c, o->sym, o->index);
    return sl != UINT32_MAX && c->uses[sl] == 1 && c->defs[sl] == 1;
}

/* Fold into a[b] the temporaries defined right before it; *start gets the
   first statement of the tree.  Returns the tree. */
static enode *fold(ctx *c, cg_stmt **a, unsigned lo, unsigned b, unsigned *start,
                   unsigned budget)
{
    enode *e = cg_alloc(c->m, sizeof *e);
    e->inst = a[b];
    e->size = 1;
    unsigned pos = b;
    unsigned n = sg_nops(a[b]->u.inst.ops);
    for (unsigned i = n; i-- > 1;) {
        cg_opnd *o = sg_op(a[b], i);
        if (pos == lo || e->size >= budget || !single_temp(c, o))
            continue;
        cg_stmt *d = a[pos - 1];
        if (!arith_inst(d))
            continue;
        const cg_opnd *dd = d->u.inst.ops;
        if (dd->sym != o->sym || dd->index != o->index)
            continue;
        unsigned st;
        enode *kid = fold(c, a, lo, pos - 1, &st, budget - e->size);
        e->kid[i] = kid;
        e->size += kid->size;
        pos = st;
    }
    *start = pos;
    return e;
}

/* ---- printing -------------------------------------------------------- */

static void text_of(const cg_module *m, const cg_kernel *k, const enode *e, ptx_buf *out,
                    int top)
{
    const cg_stmt *s = e->inst;
    if (top && e->opsym) {
        const cg_opnd *d = s->u.inst.ops, *l = d->next, *r = l->next;
        cg_opnd dd = *d;
        dd.next = NULL;
        cg_print_opnd(m, k, &dd, out);
        ptx_buf_puts(out, " = ");
        for (int side = 1; side <= 2; side++) {
            if (side == 2)
                ptx_buf_printf(out, " %s ", e->opsym);
            if (e->kid[side]) {
                text_of(m, k, e->kid[side], out, 0);
            } else {
                cg_opnd x = side == 1 ? *l : *r;
                x.next = NULL;
                cg_print_opnd(m, k, &x, out);
            }
        }
        return;
    }
    /* a copy of the instruction whose folded operands are Python text */
    cg_stmt cp = *s;
    cp.next = NULL;
    cg_opnd *head = NULL, **tail = &head;
    unsigned i = 0;
    for (const cg_opnd *o = s->u.inst.ops; o; o = o->next, i++) {
        cg_opnd *x = cg_alloc((cg_module *)m, sizeof *x);
        *x = *o;
        x->next = NULL;
        if (i < MAXOPS && e->kid[i]) {
            ptx_buf t = { 0 };
            text_of(m, k, e->kid[i], &t, 0);
            memset(x, 0, sizeof *x);
            x->kind = CG_O_PY;
            x->sym = CG_NOSYM;
            x->index = -1;
            x->text = sg_lit((cg_module *)m, t.p, t.n);
            ptx_buf_free(&t);
        }
        *tail = x;
        tail = &x->next;
    }
    cp.u.inst.ops = head;
    sg_print_inline(m, k, &cp, out);
}

void sg_hook_expr(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                  ptx_buf *out)
{
    const enode *e = s->u.sugar.data;
    for (int i = 0; i < depth; i++)
        ptx_buf_puts(out, "    ");
    if (e->size >= 2)
        ptx_buf_puts(out, "with ptx.expr(): ");
    text_of(m, k, e, out, 1);
    ptx_buf_putc(out, '\n');
}

/* ---- the pass ------------------------------------------------------------ */

static uint32_t fold_list(ctx *c, cg_stmt **head)
{
    uint32_t made = 0;
    for (cg_stmt *s = *head; s; s = s->next) {
        if (s->kind == CG_S_SCOPE)
            made += fold_list(c, &s->u.body);
        else if (s->kind == CG_S_LOOP)
            made += fold_list(c, &s->u.sugar.body);
    }
    unsigned n = 0;
    for (cg_stmt *s = *head; s; s = s->next)
        n++;
    if (!n)
        return made;
    cg_stmt **a = cg_alloc(c->m, n * sizeof *a);
    n = 0;
    for (cg_stmt *s = *head; s; s = s->next)
        a[n++] = s;
    /* right to left: the latest consumer takes the longest chain */
    cg_stmt **repl = cg_alloc(c->m, n * sizeof *repl);   /* node at start */
    unsigned *skip_to = cg_alloc(c->m, n * sizeof *skip_to);
    for (unsigned i = 0; i < n; i++)
        skip_to[i] = i;
    for (unsigned b = n; b-- > 0;) {
        if (!arith_inst(a[b]))
            continue;
        unsigned start;
        enode *e = fold(c, a, 0, b, &start, MAXCHAIN);
        e->opsym = overload(c, e);
        if (e->size < 2 && !e->opsym)
            continue;
        cg_stmt *node = cg_stmt_new(c->m, CG_S_EXPR, a[start]->first);
        node->u.sugar.pass = sg_pass_index("expr");
        node->u.sugar.data = e;
        for (unsigned j = start; j < b; j++)
            a[j]->next = a[j + 1];
        a[b]->next = NULL;
        node->u.sugar.orig = a[start];
        repl[start] = node;
        skip_to[start] = b + 1;
        made++;
        b = start;   /* loop decrements */
    }
    cg_stmt *out = NULL, **tail = &out;
    for (unsigned i = 0; i < n;) {
        if (repl[i]) {
            *tail = repl[i];
            tail = &repl[i]->next;
            i = skip_to[i];
        } else {
            *tail = a[i];
            tail = &a[i]->next;
            i++;
        }
    }
    *tail = NULL;
    *head = out;
    return made;
}

static int temp_like(const char *p)
{
    /* %r<digits> or %rd<digits>: names pyptx's operators allocate */
    if (strncmp(p, "%r", 2))
        return 0;
    p += 2;
    if (*p == 'd')
        p++;
    if (!*p)
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

void sugar_expr(cg_module *m, cg_stats *st)
{
    uint32_t made = 0;
    sg_install_hooks();
    for (uint32_t ki = 0; ki < m->nkernels; ki++) {
        cg_kernel *k = &m->kernels[ki];
        if (k->unsupported)
            continue;
        ctx c = { .m = m, .k = k };
        c.base = cg_alloc(m, (k->nsyms + 1) * sizeof *c.base);
        uint64_t total = 0;
        for (uint32_t i = 0; i < k->nsyms; i++) {
            c.base[i] = (uint32_t)total;
            const cg_sym *y = &k->syms[i];
            if (y->kind == CG_SYM_REGARRAY)
                total += y->count;
            else if (y->kind == CG_SYM_REG)
                total += 1;
            if (y->kind == CG_SYM_REG && y->ptx && temp_like(y->ptx))
                c.no_overload = 1;
        }
        /* pyptx names an operator's temporary %r<counter> / %rd<counter>;
           only when the kernel declares %r<N> / %rd<N> through reg.array
           (a top-level CG_S_REG) is the counter past every source
           register, so the temporary can neither be the destination
           (__setitem__ would then keep its .reg) nor a source name */
        for (const cg_stmt *s = k->body; s; s = s->next)
            if (s->kind == CG_S_REG && k->syms[s->u.reg].kind == CG_SYM_REGARRAY) {
                if (!strcmp(k->syms[s->u.reg].ptx, "%r"))
                    c.ok32 = 1;
                if (!strcmp(k->syms[s->u.reg].ptx, "%rd"))
                    c.ok64 = 1;
            }
        /* use/def counts are kept per register; a declared range far
           beyond what any kernel uses (%r<99999999999>) is left alone
           rather than allocated */
        if (total > SG_MAX_TRACKED_REGS)
            continue;
        c.uses = cg_alloc(m, (total + 1) * sizeof *c.uses);
        c.defs = cg_alloc(m, (total + 1) * sizeof *c.defs);
        count_stmts(&c, k->body);
        made += fold_list(&c, &k->body);
    }
    sg_count(st, "expr", made);
}
