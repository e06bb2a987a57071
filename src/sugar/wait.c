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
 * whose targets are labels of the block, with at least one back edge.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define MAXW 16      /* wildcard operand positions per block */
#define MAXLOCAL 16

typedef struct inst_ {
    cg_stmt *scope;          /* the CG_S_SCOPE */
    cg_stmt **link;          /* where it hangs */
    cg_opnd *w[MAXW];        /* wildcard operands, traversal order */
    unsigned nw;
    char *key;
    int group;
} winst;

typedef struct {
    cg_symid local[MAXLOCAL];
    unsigned nlocal;
} locals;

static int is_local(const locals *l, cg_symid s)
{
    for (unsigned i = 0; i < l->nlocal; i++)
        if (l->local[i] == s)
            return 1;
    return 0;
}

/* Serialize an operand; collect wildcard leaves (outer registers, ints). */
static int ser_opnd(const cg_kernel *k, const locals *l, cg_opnd *o, ptx_buf *b,
                    winst *wi)
{
    for (; o; o = o->next) {
        ptx_buf_printf(b, "(%d", o->kind);
        if (o->kind == CG_O_SYM && !is_local(l, o->sym) &&
            cg_sym_is_reg(&k->syms[o->sym])) {
            if (wi->nw == MAXW)
                return 0;
            wi->w[wi->nw++] = o;
            ptx_buf_puts(b, "?");
        } else if (o->kind == CG_O_INT) {
            if (wi->nw == MAXW)
                return 0;
            wi->w[wi->nw++] = o;
            ptx_buf_puts(b, "#");
        } else {
            if (o->kind == CG_O_SYM) {
                ptx_buf_printf(b, "s%u:%d", (unsigned)(is_local(l, o->sym) ? 0 : o->sym + 1),
                               o->index);
                ptx_buf_puts(b, k->syms[o->sym].ptx);
            }
            sg_text_key(&o->text, b);
            if (!ser_opnd(k, l, o->a, b, wi) || !ser_opnd(k, l, o->b, b, wi) ||
                !ser_opnd(k, l, o->elems, b, wi))
                return 0;
        }
        ptx_buf_putc(b, ')');
    }
    return 1;
}

/* Pass 1 of match_block: the block declares its locals (registers,
   labels) and holds one mbarrier try_wait/test_wait, `bra`s and comments
   only. */
static int block_shape(cg_stmt *scope, locals *l)
{
    unsigned nwait = 0;
    for (cg_stmt *s = scope->u.body; s; s = s->next) {
        if (s->kind == CG_S_REG || s->kind == CG_S_LABEL) {
            if (l->nlocal == MAXLOCAL)
                return 0;
            l->local[l->nlocal++] = s->kind == CG_S_REG ? s->u.reg : s->u.label;
        } else if (s->kind == CG_S_INST) {
            if (sg_inst_is(s, "mbarrier") && s->u.inst.nmods &&
                (!strncmp(s->u.inst.mods[0], "try_wait", 8) ||
                 !strncmp(s->u.inst.mods[0], "test_wait", 9)))
                nwait++;
            else if (!sg_inst_is(s, "bra"))
                return 0;
        } else if (!(s->kind == CG_S_RAW && !s->u.raw.why)) {
            return 0;
        }
    }
    return nwait == 1;
}

/* Pass 2: every branch goes to a local label under a local guard, and one
   goes backward. */
static int block_loops(cg_stmt *scope, const locals *l)
{
    unsigned nback = 0;
    for (cg_stmt *s = scope->u.body; s; s = s->next) {
        if (!sg_inst_is(s, "bra"))
            continue;
        cg_opnd *t = s->u.inst.ops;
        if (!t || t->next || t->kind != CG_O_SYM || !is_local(l, t->sym))
            return 0;
        if (s->u.inst.guard) {
            const cg_opnd *g = s->u.inst.guard;
            if (g->kind == CG_O_NOT)
                g = g->a;
            if (!g || g->kind != CG_O_SYM || !is_local(l, g->sym))
                return 0;
        }
        for (cg_stmt *u = scope->u.body; u != s; u = u->next)
            if (u->kind == CG_S_LABEL && u->u.label == t->sym)
                nback++;
    }
    return nback > 0;
}

/* The key of one statement of the block, appended to b (wildcard operands
   collected into wi); 0 if it has operands no key can hold. */
static int stmt_key(const cg_kernel *k, const locals *l, const cg_stmt *s,
                    ptx_buf *b, winst *wi)
{
    ptx_buf_printf(b, "[%d", s->kind);
    if (s->kind == CG_S_REG) {
        const cg_sym *y = &k->syms[s->u.reg];
        ptx_buf_printf(b, "%d %s %s %u", y->kind, y->ptx, y->type ? y->type : "", y->count);
    } else if (s->kind == CG_S_LABEL) {
        ptx_buf_puts(b, k->syms[s->u.label].ptx);
    } else if (s->kind == CG_S_RAW) {
        ptx_buf_puts(b, "raw");
    } else {
        ptx_buf_puts(b, s->u.inst.op);
        for (uint32_t i = 0; i < s->u.inst.nmods; i++)
            ptx_buf_printf(b, ".%s", s->u.inst.mods[i]);
        ptx_buf_puts(b, "|g");
        if (s->u.inst.guard) {
            winst dummy = { 0 };
            cg_opnd g = *s->u.inst.guard;
            g.next = NULL;
            if (!ser_opnd(k, l, &g, b, &dummy) || dummy.nw)
                return 0;
        }
        ptx_buf_puts(b, "|o");
        if (!ser_opnd(k, l, s->u.inst.ops, b, wi))
            return 0;
    }
    ptx_buf_putc(b, ']');
    return 1;
}

/* Does this scope hold a spin-wait?  Fills wi (key, wildcards). */
static int match_block(cg_module *m, const cg_kernel *k, cg_stmt *scope, winst *wi)
{
    locals l = { .nlocal = 0 };
    if (!block_shape(scope, &l) || !block_loops(scope, &l))
        return 0;
    ptx_buf b = { 0 };
    wi->nw = 0;
    for (cg_stmt *s = scope->u.body; s; s = s->next)
        if (!stmt_key(k, &l, s, &b, wi)) {
            ptx_buf_free(&b);
            return 0;
        }
    wi->key = cg_strndup(m, b.p, b.n);
    ptx_buf_free(&b);
    wi->scope = scope;
    return 1;
}

/* ---- collecting ----------------------------------------------------- */

typedef struct {
    winst *v;
    unsigned n, cap;
} wlist;

static void collect(cg_module *m, cg_kernel *k, cg_stmt **link, wlist *wl)
{
    for (; *link; link = &(*link)->next) {
        cg_stmt *s = *link;
        if (s->kind == CG_S_SCOPE) {
            winst wi = { 0 };
            if (match_block(m, k, s, &wi)) {
                wl->v = cg_grow(m, wl->v, wl->n, &wl->cap, sizeof *wl->v);
                wi.link = link;
                wl->v[wl->n++] = wi;
            } else {
                collect(m, k, &s->u.body, wl);
            }
        } else if (s->kind >= CG_S_LOOP && s->kind < CG_S_KIND_END && s->u.sugar.body) {
            collect(m, k, &s->u.sugar.body, wl);
        }
    }
}

/* ---- helper definitions --------------------------------------------- */

typedef struct helper {
    const char *name;
    int param[MAXW];         /* wildcard position -> param index or -1 */
    const char *pname[MAXW];
    unsigned nparams;
} helper;

/* Deep-copy an operand list, replacing wildcard positions that are
   parameters by CG_O_PY(name).  Same traversal as ser_opnd. */
static cg_opnd *copy_params(cg_module *m, const cg_kernel *k, const locals *l,
                            cg_opnd *o, const helper *h, unsigned *pos)
{
    cg_opnd *head = NULL, **tail = &head;
    for (; o; o = o->next) {
        cg_opnd *c;
        int wild = (o->kind == CG_O_SYM && !is_local(l, o->sym) &&
                    cg_sym_is_reg(&k->syms[o->sym])) ||
                   o->kind == CG_O_INT;
        if (wild) {
            unsigned p = (*pos)++;
            if (h->param[p] >= 0)
                c = sg_py_opnd(m, h->pname[h->param[p]]);
            else
                c = sg_copy_opnd(m, o);
        } else {
            c = cg_alloc(m, sizeof *c);
            *c = *o;
            c->next = NULL;
            c->a = copy_params(m, k, l, o->a, h, pos);
            c->b = copy_params(m, k, l, o->b, h, pos);
            c->elems = copy_params(m, k, l, o->elems, h, pos);
        }
        *tail = c;
        tail = &c->next;
    }
    return head;
}

static cg_stmt *helper_body(cg_module *m, const cg_kernel *k, cg_stmt *scope,
                            const helper *h)
{
    locals l = { .nlocal = 0 };
    for (cg_stmt *s = scope->u.body; s; s = s->next)
        if ((s->kind == CG_S_REG || s->kind == CG_S_LABEL) && l.nlocal < MAXLOCAL)
            l.local[l.nlocal++] = s->kind == CG_S_REG ? s->u.reg : s->u.label;
    cg_stmt *sc = sg_copy_stmt(m, scope);
    cg_stmt **tail = &sc->u.body;
    *tail = NULL;
    unsigned pos = 0;
    for (cg_stmt *s = scope->u.body; s; s = s->next) {
        cg_stmt *c = sg_copy_stmt(m, s);
        if (c->kind == CG_S_INST)
            c->u.inst.ops = copy_params(m, k, &l, s->u.inst.ops, h, &pos);
        *tail = c;
        tail = &c->next;
    }
    return sc;
}

/* Parameter name for wildcard p of the try_wait instruction. */
static const char *role_name(const winst *wi, unsigned p)
{
    /* find the try_wait operand that contains wildcard p */
    for (cg_stmt *s = wi->scope->u.body; s; s = s->next) {
        if (!sg_inst_is(s, "mbarrier"))
            continue;
        unsigned idx = 0;
        for (cg_opnd *o = s->u.inst.ops; o; o = o->next, idx++) {
            if (o == wi->w[p])
                return idx == 2 ? "phase" : idx == 3 ? "hint" : NULL;
            if (o->kind == CG_O_ADDR && (o->a == wi->w[p]))
                return "bar";
            if (o->kind == CG_O_ADDR && (o->b == wi->w[p]))
                return "offset";
        }
    }
    return NULL;
}

void sg_hook_wait(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                  int depth, ptx_buf *out)
{
    for (int i = 0; i < depth; i++)
        ptx_buf_puts(out, "    ");
    ptx_buf_printf(out, "%s(", (const char *)s->u.sugar.data);
    for (cg_opnd *a = s->u.sugar.args; a; a = a->next) {
        cg_print_opnd(m, k, a, out);
        if (a->next)
            ptx_buf_puts(out, ", ");
    }
    ptx_buf_puts(out, ")\n");
}

/* Puts the ungrouped blocks with the same shape as block i into group g;
   returns how many there are. */
static unsigned form_group(wlist *wl, unsigned i, int g)
{
    unsigned members = 0;
    for (unsigned j = i; j < wl->n; j++)
        if (wl->v[j].group < 0 && wl->v[j].nw == wl->v[i].nw &&
            !strcmp(wl->v[j].key, wl->v[i].key)) {
            wl->v[j].group = g;
            members++;
        }
    return members;
}

/* A free Python name for the parameter at wildcard position p of the
   first block: its role (bar, phase), else a<n>. */
static const char *param_name(cg_module *m, const cg_kernel *k,
                              const winst *first, unsigned p, const helper *h)
{
    const char *role = role_name(first, p);
    char buf[32];
    snprintf(buf, sizeof buf, "%s", role ? role : "a");
    if (!role)
        snprintf(buf, sizeof buf, "a%u", h->nparams);
    for (unsigned q = 0; q < h->nparams; q++)
        if (!strcmp(h->pname[q], buf))
            snprintf(buf, sizeof buf, "%s%u", role ? role : "a", h->nparams);
    while (!sg_py_name_free(m, k, buf) && strlen(buf) < sizeof buf - 2)
        strcat(buf, "_");
    return cg_strndup(m, buf, strlen(buf));
}

/* Group g's helper: parameters where the wildcard operands differ between
   the members (first is wl->v[i]), and a free name. */
static helper *make_helper(cg_module *m, cg_kernel *k, const wlist *wl,
                           unsigned i, int g, unsigned members)
{
    const winst *first = &wl->v[i];
    helper *h = cg_alloc(m, sizeof *h);
    for (unsigned p = 0; p < first->nw; p++) {
        int differs = 0;
        for (unsigned j = i + 1; j < wl->n && !differs; j++)
            if (wl->v[j].group == g && !sg_opnd_equal(wl->v[j].w[p], first->w[p]))
                differs = 1;
        /* a single block: its address and phase still read better as
           arguments */
        if (members == 1 && role_name(first, p))
            differs = 1;
        if (!differs) {
            h->param[p] = -1;
            continue;
        }
        h->param[p] = (int)h->nparams;
        h->pname[h->nparams] = param_name(m, k, first, p, h);
        h->nparams++;
    }
    char hn[64];
    snprintf(hn, sizeof hn, "_mbar_wait");
    for (unsigned q = 2; !sg_py_name_free(m, k, hn); q++)
        snprintf(hn, sizeof hn, "_mbar_wait%u", q);
    h->name = cg_strndup(m, hn, strlen(hn));
    sg_py_reserve(m, k, h->name);
    return h;
}

/* `def NAME(params):` with the body made from the block `scope`. */
static cg_stmt *helper_def(cg_module *m, cg_kernel *k, const helper *h,
                           cg_stmt *scope)
{
    ptx_buf b = { 0 };
    ptx_buf_printf(&b, "def %s(", h->name);
    for (unsigned q = 0; q < h->nparams; q++)
        ptx_buf_printf(&b, "%s%s", q ? ", " : "", h->pname[q]);
    ptx_buf_puts(&b, "):");
    cg_stmt *def = cg_stmt_new(m, CG_S_PY, PTX_NOTOK);
    def->u.sugar.name = cg_strndup(m, b.p, b.n);
    def->u.sugar.pass = sg_pass_index("wait");
    ptx_buf_free(&b);
    def->u.sugar.body = helper_body(m, k, scope, h);
    return def;
}

/* The block becomes a call of the helper in place (other blocks' links
   stay valid); its old self is kept as `orig`. */
static void make_call(cg_module *m, const winst *wi, const helper *h)
{
    cg_stmt *call = wi->scope;
    cg_stmt *orig = sg_copy_stmt(m, call);
    memset(&call->u, 0, sizeof call->u);
    call->kind = CG_S_WAIT;
    call->u.sugar.orig = orig;
    call->u.sugar.label = CG_NOSYM;
    call->u.sugar.pass = sg_pass_index("wait");
    call->u.sugar.data = (void *)h->name;
    cg_opnd **at = &call->u.sugar.args;
    for (unsigned q = 0; q < h->nparams; q++) {
        for (unsigned p = 0; p < wi->nw; p++)
            if (h->param[p] == (int)q) {
                *at = sg_copy_opnd(m, wi->w[p]);
                at = &(*at)->next;
                break;
            }
    }
}

static uint32_t fold_kernel(cg_module *m, cg_kernel *k)
{
    wlist wl = { 0 };
    collect(m, k, &k->body, &wl);
    if (!wl.n)
        return 0;
    for (unsigned i = 0; i < wl.n; i++)
        wl.v[i].group = -1;
    cg_stmt *defs = NULL, **dtail = &defs;
    uint32_t folded = 0;
    unsigned ngroups = 0;
    for (unsigned i = 0; i < wl.n; i++) {
        if (wl.v[i].group >= 0)
            continue;
        int g = (int)ngroups++;
        unsigned members = form_group(&wl, i, g);
        helper *h = make_helper(m, k, &wl, i, g, members);
        cg_stmt *def = helper_def(m, k, h, wl.v[i].scope);
        *dtail = def;
        dtail = &def->next;
        for (unsigned j = i; j < wl.n; j++)
            if (wl.v[j].group == g) {
                make_call(m, &wl.v[j], h);
                folded++;
            }
    }
    /* definitions go first in the body */
    *dtail = k->body;
    k->body = defs;
    return folded;
}

void sugar_wait(cg_module *m, cg_stats *st)
{
    uint32_t n = 0;
    sg_install_hooks();
    for (uint32_t ki = 0; ki < m->nkernels; ki++)
        if (!m->kernels[ki].unsupported)
            n += fold_kernel(m, &m->kernels[ki]);
    sg_count(st, "wait", n);
}
