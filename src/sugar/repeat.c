/*
 * sugar/repeat.c - pass "repeat": runs of near-identical instruction
 * blocks that differ only by constant strides become Python loops:
 *
 *     add.s32 %r101, %r111, 221208;           for i in range(3):
 *     mbarrier.init.shared::cta.b64 [%r101], 4;    ptx.inst.add.s32(r[101 + 2*i], r[111], 221208 + 8*i)
 *     add.s32 %r103, %r111, 221216;   ->         ptx.inst.mbarrier.init.shared__cta.b64(ptx.addr(r[101 + 2*i]), 4)
 *     ...
 *
 * A block is g consecutive instructions (1 <= g <= 16) repeated c times;
 * every register index or decimal immediate that differs between the
 * copies must be an arithmetic progression base + stride*i, everything
 * else (opcodes, modifiers, operand shapes, other operands) identical.
 * The loop only re-emits the same calls in the same order: Python ints
 * print as decimal, r[k] prints %rk, so the traced text is the source
 * text.  A run is rolled when it saves at least 2 lines.  Labels, raw
 * statements and blocks end a run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define MAXG 16
#define MAXLEAF 512

/* ---- shapes and leaves ---------------------------------------------- */

static void shape_opnd(const cg_opnd *o, ptx_buf *b)
{
    for (; o; o = o->next) {
        ptx_buf_printf(b, "(%d", o->kind);
        if (o->kind == CG_O_SYM)
            ptx_buf_printf(b, "s%u%c", (unsigned)o->sym, o->index >= 0 ? 'i' : 'n');
        else if (o->kind != CG_O_INT)
            sg_text_key(&o->text, b);
        shape_opnd(o->a, b);
        shape_opnd(o->b, b);
        shape_opnd(o->elems, b);
        ptx_buf_putc(b, ')');
    }
}

static void shape_inst(const cg_stmt *s, ptx_buf *b);

/* A scope of instructions only (nvcc's `{ cvt.rn.bf16.f32 ... }`) rolls
   like one compound statement. */
static int inst_scope(const cg_stmt *s)
{
    if (s->kind != CG_S_SCOPE || !s->u.body)
        return 0;
    for (const cg_stmt *t = s->u.body; t; t = t->next)
        if (t->kind != CG_S_INST)
            return 0;
    return 1;
}

static char *shape_of(cg_module *m, const cg_stmt *s)
{
    ptx_buf b = { 0 };
    if (inst_scope(s)) {
        ptx_buf_putc(&b, '{');
        for (const cg_stmt *t = s->u.body; t; t = t->next) {
            shape_inst(t, &b);
            ptx_buf_putc(&b, ';');
        }
        ptx_buf_putc(&b, '}');
        char *r = cg_strndup(m, b.p, b.n);
        ptx_buf_free(&b);
        return r;
    }
    if (s->kind != CG_S_INST)
        return NULL;
    shape_inst(s, &b);
    char *r = cg_strndup(m, b.p, b.n);
    ptx_buf_free(&b);
    return r;
}

static void shape_inst(const cg_stmt *s, ptx_buf *bp)
{
#define b (*bp)
    ptx_buf_puts(&b, s->u.inst.op);
    for (uint32_t i = 0; i < s->u.inst.nmods; i++)
        ptx_buf_printf(&b, ".%s", s->u.inst.mods[i]);
    ptx_buf_putc(&b, '|');
    if (s->u.inst.guard) {
        cg_opnd g = *s->u.inst.guard;
        g.next = NULL;
        shape_opnd(&g, &b);
    }
    ptx_buf_putc(&b, '|');
    shape_opnd(s->u.inst.ops, &b);
#undef b
}

typedef struct leaf {
    cg_opnd *o;
    long long v;       /* index or int value */
    int ok;            /* value parsed */
} leaf;

static void leaves_opnd(cg_opnd *o, leaf *v, unsigned *n)
{
    for (; o; o = o->next) {
        if ((o->kind == CG_O_SYM && o->index >= 0) || o->kind == CG_O_INT) {
            if (*n < MAXLEAF) {
                leaf *l = &v[(*n)++];
                l->o = o;
                l->ok = 1;
                if (o->kind == CG_O_SYM) {
                    l->v = o->index;
                } else {
                    char buf[40];
                    if (!sg_text_lit(&o->text, buf, sizeof buf)) {
                        l->ok = 0;
                    } else {
                        errno = 0;
                        char *e;
                        l->v = strtoll(buf, &e, 10);
                        if (errno || *e || l->v > (1LL << 52) || l->v < -(1LL << 52))
                            l->ok = 0;   /* keep huge constants literal */
                    }
                }
            } else {
                (*n)++;
            }
            continue;
        }
        leaves_opnd(o->a, v, n);
        leaves_opnd(o->b, v, n);
        leaves_opnd(o->elems, v, n);
    }
}

static unsigned leaves_inst(cg_stmt *s, leaf *v, unsigned n);

static unsigned leaves_of(cg_stmt *s, leaf *v)
{
    unsigned n = 0;
    if (s->kind == CG_S_SCOPE) {
        for (cg_stmt *t = s->u.body; t; t = t->next)
            n = leaves_inst(t, v, n);
        return n;
    }
    return leaves_inst(s, v, 0);
}

static unsigned leaves_inst(cg_stmt *s, leaf *v, unsigned n)
{
    unsigned n0 = n;
    if (s->u.inst.guard) {
        cg_opnd g = *s->u.inst.guard;
        g.next = NULL;
        /* the guard copy is a temporary: record the real node */
        leaves_opnd(&g, v, &n);
        if (n > n0 && n0 < MAXLEAF && v[n0].o == &g)  /* @p: the copy stands */
            v[n0].o = s->u.inst.guard;                  /* for the guard */   /* (@!p: the leaf is g.a, a real node) */
    }
    leaves_opnd(s->u.inst.ops, v, &n);
    return n;
}

/* ---- finding runs ---------------------------------------------------- */

typedef struct run {
    unsigned g, c;
} run;

static int same_leaf_text(const leaf *a, const leaf *b)
{
    return sg_opnd_equal(a->o, b->o);
}

/* Can blocks 0..c-1 starting at s (size g) be rolled?  Checks leaves. */
static int leaves_ap(cg_stmt **a, unsigned s, unsigned g, unsigned c, leaf *la, leaf *lb,
                     leaf *lc)
{
    for (unsigned j = 0; j < g; j++) {
        unsigned n0 = leaves_of(a[s + j], la);
        if (n0 > MAXLEAF)
            return 0;
        unsigned n1 = leaves_of(a[s + g + j], lb);
        if (n1 != n0)
            return 0;
        for (unsigned q = 0; q < n0; q++) {
            if (la[q].o->kind != lb[q].o->kind)
                return 0;
            if (la[q].o->kind == CG_O_SYM && la[q].o->sym != lb[q].o->sym)
                return 0;
        }
        for (unsigned r = 2; r < c; r++) {
            unsigned n2 = leaves_of(a[s + r * g + j], lc);
            if (n2 != n0)
                return 0;
            for (unsigned q = 0; q < n0; q++) {
                if (lc[q].o->kind != la[q].o->kind ||
                    (lc[q].o->kind == CG_O_SYM && lc[q].o->sym != la[q].o->sym))
                    return 0;
                if (!la[q].ok || !lb[q].ok || !lc[q].ok) {
                    if (!same_leaf_text(&la[q], &lc[q]) || !same_leaf_text(&la[q], &lb[q]))
                        return 0;
                    continue;
                }
                if (lc[q].v - la[q].v != (long long)r * (lb[q].v - la[q].v))
                    return 0;
            }
        }
        for (unsigned q = 0; q < n0; q++)
            if ((!la[q].ok || !lb[q].ok) && !same_leaf_text(&la[q], &lb[q]))
                return 0;
    }
    return 1;
}

static run best_run(cg_stmt **a, char **shape, unsigned n, unsigned s, leaf *la,
                    leaf *lb, leaf *lc)
{
    run best = { 0, 0 };
    long bestsave = 1;
    if (!shape[s])
        return best;
    for (unsigned g = 1; g <= MAXG && s + 2 * g <= n; g++) {
        /* block shapes */
        unsigned c = 1;
        int ok = 1;
        for (unsigned j = 0; j < g; j++)
            if (!shape[s + j]) {
                ok = 0;
                break;
            }
        if (!ok)
            break;
        while (s + (c + 1) * g <= n) {
            unsigned j;
            for (j = 0; j < g; j++) {
                const char *x = shape[s + j], *y = shape[s + c * g + j];
                if (!y || strcmp(x, y))
                    break;
            }
            if (j < g)
                break;
            c++;
        }
        if (c < 2)
            continue;
        /* shrink c until the leaves are progressions */
        while (c >= 2 && !leaves_ap(a, s, g, c, la, lb, lc))
            c--;
        if (c < 2)
            continue;
        long save = (long)c * g - (long)(g + 1);
        if (save > bestsave) {
            bestsave = save;
            best.g = g;
            best.c = c;
        }
    }
    return best;
}

/* ---- building the loop ------------------------------------------------ */

static void affine(ptx_buf *b, const char *var, long long base, long long stride)
{
    if (base)
        ptx_buf_printf(b, "%lld", base);
    if (stride) {
        long long as = stride < 0 ? -stride : stride;
        if (base)
            ptx_buf_puts(b, stride < 0 ? " - " : " + ");
        else if (stride < 0)
            ptx_buf_puts(b, "-");
        if (as == 1)
            ptx_buf_puts(b, var);
        else
            ptx_buf_printf(b, "%lld*%s", as, var);
    } else if (!base) {
        ptx_buf_puts(b, "0");
    }
}

/* Replace, in a deep copy of block-0 statement t, each varying leaf. */
static cg_opnd *subst_opnd(cg_module *m, const cg_kernel *k, cg_opnd *o, leaf *l0, leaf *l1,
                           unsigned *q, const char *var)
{
    cg_opnd *head = NULL, **tail = &head;
    for (; o; o = o->next) {
        cg_opnd *c;
        if ((o->kind == CG_O_SYM && o->index >= 0) || o->kind == CG_O_INT) {
            unsigned i = (*q)++;
            if (l0[i].ok && l1[i].ok && l0[i].v != l1[i].v) {
                ptx_buf b = { 0 };
                long long base = l0[i].v, stride = l1[i].v - l0[i].v;
                if (o->kind == CG_O_SYM) {
                    ptx_buf_printf(&b, "%s[", k->syms[o->sym].py);
                    affine(&b, var, base, stride);
                    ptx_buf_putc(&b, ']');
                } else {
                    affine(&b, var, base, stride);
                }
                c = cg_opnd_new(m, CG_O_PY);
                c->text = sg_lit(m, b.p, b.n);
                ptx_buf_free(&b);
            } else {
                c = sg_copy_opnd(m, o);
            }
        } else {
            c = cg_alloc(m, sizeof *c);
            *c = *o;
            c->next = NULL;
            c->a = subst_opnd(m, k, o->a, l0, l1, q, var);
            c->b = subst_opnd(m, k, o->b, l0, l1, q, var);
            c->elems = subst_opnd(m, k, o->elems, l0, l1, q, var);
        }
        *tail = c;
        tail = &c->next;
    }
    return head;
}

static cg_stmt *template_stmt(cg_module *m, const cg_kernel *k, cg_stmt *s0, cg_stmt *s1,
                              const char *var, leaf *l0, leaf *l1)
{
    if (s0->kind == CG_S_SCOPE) {
        cg_stmt *sc = sg_copy_stmt(m, s0), **tail = &sc->u.body;
        for (cg_stmt *a = s0->u.body, *b = s1->u.body; a && b; a = a->next, b = b->next) {
            *tail = template_stmt(m, k, a, b, var, l0, l1);
            tail = &(*tail)->next;
        }
        *tail = NULL;
        return sc;
    }
    leaves_inst(s0, l0, 0);
    leaves_inst(s1, l1, 0);
    cg_stmt *t = sg_copy_stmt(m, s0);
    unsigned q = 0;
    if (s0->u.inst.guard) {
        cg_opnd g = *s0->u.inst.guard;
        g.next = NULL;
        t->u.inst.guard = subst_opnd(m, k, &g, l0, l1, &q, var);
    }
    t->u.inst.ops = subst_opnd(m, k, s0->u.inst.ops, l0, l1, &q, var);
    return t;
}

void sg_hook_for(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                 ptx_buf *out)
{
    for (int i = 0; i < depth; i++)
        ptx_buf_puts(out, "    ");
    ptx_buf_printf(out, "for %s in range(%u):\n", s->u.sugar.name, s->u.sugar.count);
    cg_print_stmts(m, k, s->u.sugar.body, depth + 1, out);
}

static const char *loop_var(cg_module *m, cg_kernel *k)
{
    static const char *const cand[] = { "i", "j", "n", "_i", "_j" };
    for (unsigned i = 0; i < sizeof cand / sizeof *cand; i++)
        if (sg_py_name_free(m, k, cand[i]))
            return cand[i];
    return NULL;
}

static uint32_t roll_list(cg_module *m, cg_kernel *k, cg_stmt **head, const char *var,
                          leaf *la, leaf *lb, leaf *lc)
{
    uint32_t rolled = 0;
    /* recurse first */
    for (cg_stmt *s = *head; s; s = s->next) {
        if (s->kind == CG_S_SCOPE)
            rolled += roll_list(m, k, &s->u.body, var, la, lb, lc);
        else if (s->kind == CG_S_LOOP)
            rolled += roll_list(m, k, &s->u.sugar.body, var, la, lb, lc);
    }
    unsigned n = 0;
    for (cg_stmt *s = *head; s; s = s->next)
        n++;
    if (n < 3)
        return rolled;
    cg_stmt **a = cg_alloc(m, n * sizeof *a);
    char **shape = cg_alloc(m, n * sizeof *shape);
    n = 0;
    for (cg_stmt *s = *head; s; s = s->next)
        a[n++] = s;
    for (unsigned i = 0; i < n; i++)
        shape[i] = shape_of(m, a[i]);
    cg_stmt *out = NULL, **tail = &out;
    for (unsigned s = 0; s < n;) {
        run r = best_run(a, shape, n, s, la, lb, lc);
        if (!r.g) {
            *tail = a[s];
            tail = &a[s]->next;
            s++;
            continue;
        }
        cg_stmt *node = cg_stmt_new(m, CG_S_FOR, a[s]->first);
        node->u.sugar.pass = sg_pass_index("repeat");
        node->u.sugar.name = var;
        node->u.sugar.count = r.c;
        cg_stmt **bt = &node->u.sugar.body;
        for (unsigned j = 0; j < r.g; j++) {
            *bt = template_stmt(m, k, a[s + j], a[s + r.g + j], var, la, lb);
            bt = &(*bt)->next;
        }
        /* orig: the replaced run, still linked in order */
        for (unsigned j = 0; j + 1 < r.g * r.c; j++)
            a[s + j]->next = a[s + j + 1];
        a[s + r.g * r.c - 1]->next = NULL;
        node->u.sugar.orig = a[s];
        *tail = node;
        tail = &node->next;
        s += r.g * r.c;
        rolled++;
    }
    *tail = NULL;
    *head = out;
    return rolled;
}

void sugar_repeat(cg_module *m, cg_stats *st)
{
    uint32_t n = 0;
    sg_install_hooks();
    leaf *la = malloc(3 * (MAXLEAF + 1) * sizeof *la);
    leaf *lb = la + MAXLEAF + 1, *lc = lb + MAXLEAF + 1;
    for (uint32_t ki = 0; ki < m->nkernels; ki++) {
        cg_kernel *k = &m->kernels[ki];
        if (k->unsupported)
            continue;
        const char *var = loop_var(m, k);
        if (!var)
            continue;
        uint32_t r = roll_list(m, k, &k->body, var, la, lb, lc);
        if (r)
            sg_py_reserve(m, k, var);
        n += r;
    }
    free(la);
    sg_count(st, "repeat", n);
}
