/*
 * sugar/outline.c - pass "outline": a block of statements that a kernel
 * repeats, with operands that differ from copy to copy, becomes one local
 * helper and a call per copy:
 *
 *     r78 = r20 + r76                          def _block(pred=None):
 *     ptx.cp.async_.cg(ptx.addr(r78), ...)         nonlocal rd3, r76
 *     rd3 += 64                                    r78 = r20 + r76
 *     r76 += 4096                       ->         ptx.cp.async_.cg(ptx.addr(r78), ..., pred=pred)
 *     ... (again, with r80)                        rd3 += 64
 *     ... (again, with r82, pred=p3)               r76 += 4096
 *                                              _block()
 *                                              _block()
 *                                              _block(pred=p3)
 *
 * The pass runs last, so it compares copies as the Python that will be
 * printed, token by token; a call is exact when it runs the same Python
 * operations, in the same order, as the copy it replaces.  Tokens must be
 * equal, except:
 *   - a name the copy binds that nothing outside the copy names (a fresh
 *     register: pyptx takes its PTX name from a counter, so the Python
 *     name does not matter): copies pair these up one to one, and the
 *     helper keeps the first copy's;
 *   - a name the copy only reads, or a decimal int: it may differ, and
 *     becomes a parameter (evaluating a name or a literal emits nothing,
 *     so passing it in is the same as reading it in place);
 *   - `pred=V` (V a name or ~name) in one copy and absent in another: a
 *     parameter `pred=None` (every pyptx call's pred defaults to None).
 * A name a copy binds that other code names too (`rd3 += 64`) must be the
 * same in every copy, and is declared nonlocal.  Copies in a row whose
 * parameters are all ints that grow by one step per copy become a loop,
 * `for i in range(c):` over the body, rather than a helper.  A copy never holds
 * labels (their spellings may still change after the passes, ir.h),
 * nested function definitions, or statements that print nothing.
 *
 * Finding copies is linear: every statement gets a sketch (its kind and
 * opcode word), windows of MINRUN sketches are chained through a hash
 * table, and a leader's copies are the windows chained to it, as far as
 * their sketches agree with the leader's (choose_copies).  Only those
 * statements are printed and compared, within a budget proportional to
 * the kernel's size.  The pass applies only to kernels with registers
 * pyptx allocated itself (src/sugar/NOTES.md says why).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/outline.h"

static void push_item(outliner *o, item it)
{
    o->v = ol_append(&o->vb, &it, sizeof it);
    o->n++;
}

/* ---- statements and sketches ------------------------------------------ */

static uint32_t sketch(const cg_stmt *s)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ s->kind;
    switch (s->kind) {
    case CG_S_LABEL: case SG_S_LOOP: case CG_S_COMMENT: case CG_S_VAR:
        return 0;
    case CG_S_INST:
        h = (h ^ (uintptr_t)(s->u.inst.path ? s->u.inst.path : s->u.inst.op)) * 0x100000001b3ull;
        h = (h ^ sg_nops(s->u.inst.ops)) * 0x100000001b3ull;
        break;
    case SG_S_DEF:          /* a function definition */
        return 0;
    case SG_S_PY:
        if (sg_body(s))     /* (this pass's own definitions yet) */
            return 0;
        /* fall through */
    default:
        if (s->kind >= CG_S_EXT && sg_name(s))
            for (const char *p = sg_name(s); *p && p - sg_name(s) < 8; p++)
                h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
        break;
    }
    return (uint32_t)(h ^ h >> 32) | 1;
}

/* The statements of list `head` and (depth first) the lists below them,
   each list followed by an item that ends every window.  A helper's body
   (SG_S_DEF) is another function's scope: not entered. */
static void collect(outliner *o, cg_stmt **head, int32_t loop, int32_t up)
{
    int32_t at = (int32_t)o->n;
    for (cg_stmt **link = head; *link; link = &(*link)->next) {
        cg_stmt *s = *link;
        push_item(o, (item){ .s = s, .link = link, .sketch = sketch(s), .text = -1,
                             .loop = loop, .up = up });
    }
    push_item(o, (item){ .text = -1, .loop = -1, .up = up });
    for (cg_stmt *s = *head; s; s = s->next, at++) {
        cg_stmt **body = cg_body(s);
        if (!body || !*body || s->kind == SG_S_DEF || s->kind == SG_S_PY)
            continue;
        int32_t in = loop;
        if (s->kind == SG_S_FOR && sg_for_of(s)->var) {
            loopvar l = { sg_for_of(s)->var, loop };
            ol_append(&o->lb, &l, sizeof l);
            in = (int32_t)(o->lb.n / sizeof l) - 1;
        }
        collect(o, body, in, at);
    }
}

/* Is item i, or a statement whose list holds it, in a copy taken?  A
   copy's text is its statements' as printed before any call replaced
   one, so nothing inside it may be taken as well. */
static int taken(const outliner *o, uint32_t i)
{
    for (int32_t at = (int32_t)i; at >= 0; at = o->v[at].up)
        if (o->v[at].used)
            return 1;
    return 0;
}

/* ---- comparing a copy with the first ---------------------------------- */

static int add_diff(member *mb, uint32_t pos, uint32_t span, uint32_t vat, uint32_t vn)
{
    if (mb->nd == sizeof mb->d / sizeof *mb->d)
        return 0;
    mb->d[mb->nd++] = (diff){ pos, span, vat, vn };
    return 1;
}

/* Names a and b (o->t[i], o->t[j]) of one role: a pair of the copies'
   own, the same name, or a read that may differ. */
static int pair_names(outliner *o, const names *fn, member *mb, uint32_t i, uint32_t j)
{
    const tok *a = &o->t[i], *b = &o->t[j];
    int fa = ol_name_at(o, fn, a), fb = ol_name_at(o, &mb->nm, b);
    int la = fa >= 0 && fn->local[fa], lb = fb >= 0 && mb->nm.local[fb];
    if (la != lb)
        return 0;
    if (la) {
        if (mb->pair[fa] >= 0)
            return mb->pair[fa] == fb;
        for (uint32_t q = 0; q < fn->cnt; q++)
            if (mb->pair[q] == fb)
                return 0;
        mb->pair[fa] = fb;
        return 1;
    }
    if (a->n == b->n && !memcmp(o->src.p + a->at, o->src.p + b->at, a->n))
        return 1;
    if (a->role != R_READ || fa >= 0 || fb >= 0)
        return 0;                       /* what a copy binds never differs */
    return add_diff(mb, i, 1, b->at, b->n);
}

/* `, pred=V)` at t[i] (V a name or ~name the copy does not bind): the
   index of V's first token in *v and V's length in tokens, or 0. */
static uint32_t pred_slot(const outliner *o, uint32_t i, uint32_t end, const names *nm,
                          uint32_t *v)
{
    const tok *t = o->t;
    if (i + 4 >= end || !ol_tok_is(o, &t[i], ",") || !ol_tok_is(o, &t[i + 1], "pred") ||
        t[i + 1].role != R_FIXED || !ol_tok_is(o, &t[i + 2], "="))
        return 0;
    uint32_t j = i + 3, neg = ol_tok_is(o, &t[j], "~");
    j += neg;
    if (j + 1 >= end || t[j].kind != T_NAME || t[j].role != R_READ ||
        ol_name_at(o, nm, &t[j]) >= 0 || !ol_tok_is(o, &t[j + 1], ")"))
        return 0;
    *v = i + 3;
    return neg + 1;
}

/* Statement fi of the first copy against mi of the member: 1 if alike,
   the differences appended to mb->d. */
static int match_stmt(outliner *o, const names *fn, member *mb, uint32_t fi, uint32_t mi)
{
    text mx = *ol_text(o, mi), fx = *ol_text(o, fi);
    uint32_t j = mx.tok, me = j + mx.ntok, i = fx.tok, fe = i + fx.ntok, v, span;
    o->budget -= fx.ntok;
    while (i < fe && j < me) {
        const tok *a = &o->t[i], *b = &o->t[j];
        if (a->kind == T_NAME && b->kind == T_NAME && a->role == b->role && a->role != R_FIXED) {
            if (!pair_names(o, fn, mb, i++, j++))
                return 0;
        } else if (a->kind == b->kind && a->role == b->role && a->n == b->n &&
                   !memcmp(o->src.p + a->at, o->src.p + b->at, a->n)) {
            i++, j++;
        } else if (a->kind == T_INT && b->kind == T_INT) {
            if (!add_diff(mb, i++, 1, b->at, b->n))
                return 0;
            j++;
        } else if (ol_tok_is(o, b, ")") && (span = pred_slot(o, i, fe, fn, &v))) {
            if (!add_diff(mb, v, span, NONE, 0))
                return 0;
            i = v + span;
        } else if (ol_tok_is(o, a, ")") && (span = pred_slot(o, j, me, &mb->nm, &v))) {
            const tok *e = &o->t[v + span - 1];
            if (!add_diff(mb, i, 0, o->t[v].at, e->at + e->n - o->t[v].at))
                return 0;
            j = v + span;
        } else {
            return 0;
        }
    }
    return i == fe && j == me;
}

/* How many of len statements from mb->at match the first copy's. */
static void match(outliner *o, uint32_t first, const names *fn, member *mb, uint32_t len)
{
    mb->len = mb->nd = 0;
    for (uint32_t q = 0; q < MAXNAMES; q++)
        mb->pair[q] = -1;
    if (!ol_bound_names(o, mb->at, len, &mb->nm))
        return;
    for (uint32_t s = 0; s < len && o->budget > 0; s++) {
        uint32_t nd = mb->nd;
        if (!match_stmt(o, fn, mb, first + s, mb->at + s)) {
            mb->nd = nd;
            return;
        }
        mb->len = s + 1;
    }
}

/* ---- parameters -------------------------------------------------------- */

typedef struct param {
    diff key[4 * MAXPARAM];   /* positions in the first copy (vat unused) */
    uint32_t nkey;
    int optional;             /* some copy passes None: `pred=None` */
    const char *name;
} param;

typedef struct group {
    uint32_t at[MAXMEMB], c, len;
    member *mb;               /* mb[q - 1]: copy q > 0 */
    names fn;
    param p[MAXPARAM];
    uint32_t np;
} group;

/* The value copy q passes at key (pos, span): bytes, or NONE. */
static void value(const outliner *o, const group *g, uint32_t q, const diff *key,
                  uint32_t *at, uint32_t *n)
{
    if (q)
        for (uint32_t i = 0; i < g->mb[q - 1].nd; i++) {
            const diff *d = &g->mb[q - 1].d[i];
            if (d->pos == key->pos && d->span == key->span) {
                *at = d->vat;
                *n = d->vn;
                return;
            }
        }
    if (!key->span) {
        *at = NONE;
        *n = 0;
        return;
    }
    const tok *a = &o->t[key->pos], *e = &o->t[key->pos + key->span - 1];
    *at = a->at;
    *n = e->at + e->n - a->at;
}

static int same_values(const outliner *o, const group *g, const diff *x, const diff *y)
{
    for (uint32_t q = 0; q < g->c; q++) {
        uint32_t a, an, b, bn;
        value(o, g, q, x, &a, &an);
        value(o, g, q, y, &b, &bn);
        if ((a == NONE) != (b == NONE) || an != bn ||
            (a != NONE && memcmp(o->src.p + a, o->src.p + b, an)))
            return 0;
    }
    return 1;
}

/* Is `name` spelled by no name of the first copy but at p's own keys? */
static int name_free(const outliner *o, const group *g, const param *p, const char *name)
{
    size_t n = strlen(name);
    if (cg_py_keyword(name, n))
        return 0;       /* shadowing a type or module name is fine: p's
                           own keys are the only uses in the body */
    for (uint32_t q = 0; q < g->np; q++)
        if (&g->p[q] != p && g->p[q].name && !strcmp(g->p[q].name, name))
            return 0;
    for (uint32_t s = g->at[0]; s < g->at[0] + g->len; s++) {
        const text *x = &o->tx[o->v[s].text];
        for (uint32_t i = x->tok; i < x->tok + x->ntok; i++) {
            const tok *t = &o->t[i];
            if (t->kind != T_NAME || t->role == R_FIXED || t->n != n ||
                memcmp(o->src.p + t->at, name, n))
                continue;       /* (an attribute or keyword is no variable) */
            uint32_t k = 0;
            while (k < p->nkey && p->key[k].pos != i)
                k++;
            if (k == p->nkey)
                return 0;
        }
    }
    return 1;
}

/* A parameter is named for what the first copy passes, if that is a
   name; else `pred`, or a0, a1 ... in order. */
static void name_param(outliner *o, group *g, param *p, unsigned *numbered)
{
    char base[64], buf[80];
    const tok *t = &o->t[p->key[0].pos];
    if (p->optional)
        snprintf(base, sizeof base, "pred");
    else if (p->key[0].span == 1 && t->kind == T_NAME && t->n < sizeof base)
        snprintf(base, sizeof base, "%.*s", (int)t->n, o->src.p + t->at);
    else
        snprintf(base, sizeof base, "a%u", (*numbered)++);
    snprintf(buf, sizeof buf, "%s", base);
    for (unsigned i = 2; !name_free(o, g, p, buf); i++)
        snprintf(buf, sizeof buf, "%s_%u", base, i);
    p->name = cg_strndup(o->m, buf, strlen(buf));
}

/* The copies' differences as parameters: keys whose values agree in
   every copy share one.  0 if there are too many, or None would reach
   anything but a pred= slot. */
static int make_params(outliner *o, group *g)
{
    g->np = 0;
    for (uint32_t q = 1; q < g->c; q++)
        for (uint32_t i = 0; i < g->mb[q - 1].nd; i++) {
            const diff *d = &g->mb[q - 1].d[i];
            param *p = NULL;
            for (uint32_t r = 0; r < g->np && !p; r++)
                for (uint32_t k = 0; k < g->p[r].nkey && !p; k++)
                    if (g->p[r].key[k].pos == d->pos) {
                        if (g->p[r].key[k].span != d->span)
                            return 0;
                        p = &g->p[r];
                    }
            for (uint32_t r = 0; r < g->np && !p; r++)
                if (same_values(o, g, &g->p[r].key[0], d))
                    p = &g->p[r];
            if (p && p->key[0].pos != d->pos) {
                uint32_t k = 0;
                while (k < p->nkey && p->key[k].pos != d->pos)
                    k++;
                if (k == p->nkey) {
                    if (p->nkey == sizeof p->key / sizeof *p->key)
                        return 0;
                    p->key[p->nkey++] = *d;
                }
            }
            if (!p) {
                if (g->np == MAXPARAM)
                    return 0;
                p = &g->p[g->np++];
                *p = (param){ .key = { *d }, .nkey = 1 };
            }
        }
    for (uint32_t r = 0; r < g->np; r++) {
        param *p = &g->p[r];
        for (uint32_t q = 0; q < g->c; q++) {
            uint32_t a, n;
            value(o, g, q, &p->key[0], &a, &n);
            p->optional |= a == NONE;
        }
        for (uint32_t k = 0; k < p->nkey && p->optional; k++) {
            uint32_t pos = p->key[k].pos;
            if (p->key[k].span && !(pos >= 2 && ol_tok_is(o, &o->t[pos - 1], "=") &&
                                    ol_tok_is(o, &o->t[pos - 2], "pred")))
                return 0;
        }
    }
    unsigned numbered = 0;
    for (uint32_t r = 0; r < g->np; r++)
        name_param(o, g, &g->p[r], &numbered);
    return 1;
}

/* ---- the helper and the calls ----------------------------------------- */

static const param *key_at(const group *g, uint32_t i, const diff **key)
{
    for (uint32_t r = 0; r < g->np; r++)
        for (uint32_t k = 0; k < g->p[r].nkey; k++)
            if (g->p[r].key[k].pos == i) {
                *key = &g->p[r].key[k];
                return &g->p[r];
            }
    return NULL;
}

/* Is repl one Python atom (a name, an int, -i)?  Otherwise it is an
   expression ("8 + 4*i") that keeps its own evaluation only where it
   stands alone: as an operator's operand it takes parentheses, or Python
   would apply the operator to its first term (pyptx emitting one
   instruction per operator). */
static int py_atom(const char *repl)
{
    for (const char *c = repl + (*repl == '-'); *c; c++)
        if (!(*c == '_' || (*c >= '0' && *c <= '9') || ((*c | 32) >= 'a' && (*c | 32) <= 'z')))
            return 0;
    return 1;
}

/* Do the tokens first..last stand alone: an argument, an index, an
   assigned value, never an operator's operand? */
static int stands_alone(const outliner *o, uint32_t first, uint32_t last)
{
    static const char *const before[] = { "(", ",", "[", "=" }, *const after[] = { ")", ",", "]" };
    int b = 0, a = 0;
    for (unsigned i = 0; i < sizeof before / sizeof *before && first > 0; i++)
        b |= ol_tok_is(o, &o->t[first - 1], before[i]);
    for (unsigned i = 0; i < sizeof after / sizeof *after && last + 1 < o->nt; i++)
        a |= ol_tok_is(o, &o->t[last + 1], after[i]);
    return a && b;
}

/* The first copy's text with repl[r] in place of parameter r's values. */
static void put_body(const outliner *o, const group *g, const char *const *repl, ptx_buf *b)
{
    for (uint32_t s = g->at[0]; s < g->at[0] + g->len; s++) {
        const text *x = &o->tx[o->v[s].text];
        uint32_t cur = x->at;
        for (uint32_t i = x->tok; i < x->tok + x->ntok; i++) {
            const diff *key;
            const param *p = key_at(g, i, &key);
            if (!p)
                continue;
            const tok *t = &o->t[i], *e = &o->t[i + (key->span ? key->span - 1 : 0)];
            ptx_buf_put(b, o->src.p + cur, t->at - cur);
            if (key->span) {
                const char *r = repl[p - g->p];
                if (py_atom(r) || stands_alone(o, i, i + key->span - 1))
                    ptx_buf_puts(b, r);
                else
                    ptx_buf_printf(b, "(%s)", r);
                cur = e->at + e->n;
                i += key->span - 1;
            } else {
                ptx_buf_printf(b, "%spred=%s", ol_tok_is(o, &o->t[i - 1], "(") ? "" : ", ",
                               repl[p - g->p]);
                cur = t->at;
            }
        }
        ptx_buf_put(b, o->src.p + cur, x->at + x->n - cur);
    }
}

static const char *helper_text(const outliner *o, const group *g, const char *name)
{
    ptx_buf b = { 0 };
    ptx_buf_printf(&b, "def %s(", name);
    const char *sep = "";
    for (int opt = 0; opt < 2; opt++)
        for (uint32_t r = 0; r < g->np; r++)
            if (g->p[r].optional == opt) {
                ptx_buf_printf(&b, "%s%s%s", sep, g->p[r].name, opt ? "=None" : "");
                sep = ", ";
            }
    ptx_buf_puts(&b, "):\n");
    sep = "    nonlocal ";
    for (uint32_t i = 0; i < g->fn.cnt; i++)
        if (g->fn.role[i] == R_AUG && !g->fn.local[i]) {
            ptx_buf_printf(&b, "%s%.*s", sep, (int)g->fn.n[i], o->src.p + g->fn.at[i]);
            sep = ", ";
        }
    if (*sep == ',')
        ptx_buf_putc(&b, '\n');
    const char *repl[MAXPARAM];
    for (uint32_t r = 0; r < g->np; r++)
        repl[r] = g->p[r].name;
    put_body(o, g, repl, &b);
    const char *t = cg_strndup(o->m, b.p, b.n);
    ptx_buf_free(&b);
    return t;
}

static const char *call_text(const outliner *o, const group *g, uint32_t q, const char *name)
{
    ptx_buf b = { 0 };
    ptx_buf_printf(&b, "%s(", name);
    const char *sep = "";
    for (int opt = 0; opt < 2; opt++)
        for (uint32_t r = 0; r < g->np; r++) {
            uint32_t at, n;
            value(o, g, q, &g->p[r].key[0], &at, &n);
            if (g->p[r].optional != opt || at == NONE)
                continue;
            ptx_buf_printf(&b, "%s%s%s%.*s", sep, opt ? g->p[r].name : "", opt ? "=" : "",
                           (int)n, o->src.p + at);
            sep = ", ";
        }
    ptx_buf_putc(&b, ')');
    const char *t = cg_strndup(o->m, b.p, b.n);
    ptx_buf_free(&b);
    return t;
}

/* ---- groups of copies ------------------------------------------------- */

typedef struct call {
    uint32_t at, len;
    const char *text;
} call;

static uint32_t lines_of(const outliner *o, uint32_t at, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = at; i < at + len; i++)
        n += o->tx[o->v[i].text].lines;
    return n;
}

/* Lines saved by a helper of `lines` lines called from c copies. */
static long saved(uint32_t c, uint32_t lines, int nonlocal)
{
    return (long)c * lines - (long)(1 + nonlocal + lines + c);
}

/* How many statements from i agree by sketch with those from lead (no
   further than where i starts, when i comes later in lead's list). */
static uint32_t agree(const outliner *o, uint32_t lead, uint32_t i)
{
    uint32_t n = 0, lim = i > lead && i - lead < MAXRUN ? i - lead : MAXRUN;
    while (n < lim && o->v[i + n].sketch && o->v[i + n].sketch == o->v[lead + n].sketch &&
           !taken(o, i + n) && !taken(o, lead + n))
        n++;
    return n;
}

/* The copies of the statements from lead among the windows chained to it,
   and how many statements they span: the choice that saves most
   statements, copies taken in order without overlap.  Returns that span,
   or 0. */
static uint32_t choose_copies(const outliner *o, uint32_t lead, group *g)
{
    uint32_t cand[2 * MAXMEMB], a[2 * MAXMEMB], nc = 0, best = 0;
    long most = 0;
    for (uint32_t i = o->v[lead].next; i && nc < 2 * MAXMEMB; i = o->v[i].next)
        if ((a[nc] = agree(o, lead, i)) >= MINRUN)
            cand[nc++] = i;
    for (uint32_t t = 0; t < nc; t++) {
        uint32_t span = a[t], c = 1, end = lead + span;
        for (uint32_t j = 0; j < nc && c < MAXMEMB; j++)
            if (a[j] >= span && cand[j] >= end) {
                c++;
                end = cand[j] + span;
            }
        long s = (long)(c - 1) * span - 1 - c;
        if (s > most || (s == most && span > best)) {
            most = s;
            best = span;
        }
    }
    g->c = 0;
    if (!best)
        return 0;
    g->at[g->c++] = lead;
    for (uint32_t j = 0, end = lead + best; j < nc && g->c < MAXMEMB; j++)
        if (a[j] >= best && cand[j] >= end) {
            g->at[g->c++] = cand[j];
            end = cand[j] + best;
        }
    return best;
}

/* The copies that match the first for len statements, the rest dropped. */
static void keep(outliner *o, group *g, uint32_t len, int rematch)
{
    uint32_t c = 1;
    if (rematch && !ol_bound_names(o, g->at[0], len, &g->fn)) {
        g->c = 0;
        return;
    }
    for (uint32_t q = 1; q < g->c; q++) {
        member *mb = &g->mb[q - 1];
        if (rematch && mb->len >= len)
            match(o, g->at[0], &g->fn, mb, len);
        if (mb->len < len)
            continue;
        if (c != q) {
            g->at[c] = g->at[q];
            g->mb[c - 1] = *mb;
        }
        c++;
    }
    g->c = c;
    g->len = len;
}

/* The length that saves most, given how far each copy matched; 0 if
   none saves MINSAVED lines. */
static uint32_t best_length(outliner *o, const group *g, uint32_t n)
{
    uint32_t best = 0;
    long most = MINSAVED - 1;
    for (uint32_t q = 0; q < g->c; q++) {
        uint32_t len = q ? g->mb[q - 1].len : n, c = 1;
        if (len < MINRUN)
            continue;
        for (uint32_t r = 1; r < g->c; r++)
            c += g->mb[r - 1].len >= len;
        long s = saved(c, lines_of(o, g->at[0], len), 1);
        if (s > most || (s == most && len > best)) {
            most = s;
            best = len;
        }
    }
    return best;
}

static int names_ok(const names *nm)
{
    for (uint32_t i = 0; i < nm->cnt; i++)
        if (nm->role[i] == R_BIND && !nm->local[i])
            return 0;   /* it would have to be the same in every copy */
    return 1;
}

static void record(outliner *o, ptx_buf *calls, uint32_t at, uint32_t len, const char *text)
{
    call c = { at, len, text };
    ptx_buf_put(calls, (const char *)&c, sizeof c);
    for (uint32_t i = at; i < at + len; i++)
        o->v[i].used = 1;
}

/* Copy q's value of parameter p as an int, or 0 if it is none. */
static int int_value(const outliner *o, const group *g, uint32_t q, const param *p,
                     long long *v)
{
    uint32_t at, n;
    char buf[24];
    value(o, g, q, &p->key[0], &at, &n);
    if (at == NONE || n >= sizeof buf || !cg_is_decimal(o->src.p + at, n))
        return 0;
    memcpy(buf, o->src.p + at, n);
    buf[n] = 0;
    *v = strtoll(buf, NULL, 10);
    return n < 16;
}

/* May a loop over g's copies use `var`?  Not if a loop around them does,
   a register is named so, or the copies name it. */
static int var_free(const outliner *o, const group *g, const char *var)
{
    const loopvar *l = (const loopvar *)o->lb.p;
    size_t n = strlen(var);
    for (int32_t at = o->v[g->at[0]].loop; at >= 0; at = l[at].up)
        if (!strcmp(l[at].var, var))
            return 0;
    for (uint32_t s = 0; s < o->k->nsyms; s++)
        if (cg_sym_is_reg(&o->k->syms[s]) && o->k->syms[s].py && !strcmp(o->k->syms[s].py, var))
            return 0;
    for (uint32_t s = g->at[0]; s < g->at[0] + g->len; s++) {
        const text *x = &o->tx[o->v[s].text];
        for (uint32_t i = x->tok; i < x->tok + x->ntok; i++)
            if (o->t[i].kind == T_NAME && o->t[i].n == n && !memcmp(o->src.p + o->t[i].at, var, n))
                return 0;
    }
    return 1;
}

/* Copies that follow one another, each passing ints that grow by one step
   per copy, are a loop rather than calls: `for i in range(c):` over the
   body with `base + step*i` for each parameter. */
static const char *loop_text(outliner *o, const group *g)
{
    char exprs[MAXPARAM][64];
    const char *repl[MAXPARAM], *var = NULL;
    for (uint32_t q = 1; q < g->c; q++)
        if (g->at[q] != g->at[q - 1] + g->len)
            return NULL;
    for (uint32_t r = 0; r < g->np; r++)
        if (g->p[r].optional)
            return NULL;
    for (unsigned i = 0; i < SG_NLOOP_VARS && !var; i++)
        if (var_free(o, g, sg_loop_vars[i]))
            var = sg_loop_vars[i];
    for (uint32_t r = 0; r < g->np && var; r++) {
        long long base, next, v;
        if (!int_value(o, g, 0, &g->p[r], &base) || !int_value(o, g, 1, &g->p[r], &next))
            return NULL;
        for (uint32_t q = 2; q < g->c; q++)
            if (!int_value(o, g, q, &g->p[r], &v) || v != base + (next - base) * (long long)q)
                return NULL;
        ptx_buf e = { 0 };
        sg_affine(&e, var, base, next - base);
        snprintf(exprs[r], sizeof exprs[r], "%.*s", (int)e.n, e.p);
        ptx_buf_free(&e);
        repl[r] = exprs[r];
    }
    if (!var)
        return NULL;
    ptx_buf b = { 0 };
    ptx_buf_printf(&b, "for %s in range(%u):\n", var, g->c);
    put_body(o, g, repl, &b);
    const char *t = cg_strndup(o->m, b.p, b.n);
    ptx_buf_free(&b);
    return t;
}

static void take(outliner *o, group *g, ptx_buf *calls)
{
    const char *loop = loop_text(o, g);
    if (loop) {
        record(o, calls, g->at[0], g->c * g->len, loop);
        return;
    }
    const char *name = sg_py_fresh(o->m, o->k, "_block");
    if (!name)
        return;
    cg_stmt *def = sg_node_new(o->m, SG_S_PY, PTX_NOTOK);
    sg_py_of(def)->text = helper_text(o, g, name);
    sg_py_of(def)->def = 1;
    *o->dtail = def;
    o->dtail = &def->next;
    for (uint32_t q = 0; q < g->c; q++)
        record(o, calls, g->at[q], g->len, call_text(o, g, q, name));
}

/* The best group of copies of the statements from `lead` on, in *g; the
   lines it saves, or 0 if none saves MINSAVED. */
static long plan(outliner *o, uint32_t lead, group *g)
{
    member *mbs = g->mb;
    *g = (group){ .mb = mbs };
    uint32_t n = choose_copies(o, lead, g);
    if (!n || !ol_bound_names(o, lead, n, &g->fn))
        return 0;
    for (uint32_t q = 1; q < g->c; q++) {
        mbs[q - 1].at = g->at[q];
        match(o, lead, &g->fn, &mbs[q - 1], n);
    }
    uint32_t len = best_length(o, g, n);
    if (!len)
        return 0;
    keep(o, g, len, len < n);
    if (g->c < 2 || !names_ok(&g->fn))
        return 0;
    int nonlocal = 0;
    for (uint32_t i = 0; i < g->fn.cnt; i++)
        nonlocal |= g->fn.role[i] == R_AUG && !g->fn.local[i];
    for (uint32_t q = 1; q < g->c; q++)
        if (!names_ok(&g->mb[q - 1].nm))
            return 0;
    long s = saved(g->c, lines_of(o, lead, len), nonlocal);
    return s >= MINSAVED && make_params(o, g) ? s : 0;
}

/* Groups, leader by leader.  A group that starts one statement later and
   saves more wins (two calls of one helper, each after a statement that
   happens to repeat too: the group of helper bodies, not the pairs that
   start with that statement). */
static void find_groups(outliner *o, ptx_buf *calls)
{
    group *g = calloc(2, sizeof *g);
    member *mbs = calloc(2 * MAXMEMB, sizeof *mbs);
    for (uint32_t i = 0; g && mbs && i < o->n && o->budget > 0; i++) {
        if (!o->v[i].next || taken(o, i))
            continue;
        g[0].mb = mbs;
        g[1].mb = mbs + MAXMEMB;
        long here = plan(o, i, &g[0]);
        if (here && i + 1 < o->n && o->v[i + 1].next && plan(o, i + 1, &g[1]) > here)
            continue;
        if (here)
            take(o, &g[0], calls);
    }
    free(g);
    free(mbs);
}

/* ---- the pass --------------------------------------------------------- */

/* v[i].next: the next window of MINRUN statements with the same sketches,
   through an open-addressing table of the last window of each. */
static void chain_windows(outliner *o, sg_scratch *sc)
{
    typedef struct slot { uint64_t h; uint32_t last, full; } slot;
    uint32_t cap = 1024;
    while (cap < 2 * o->n)
        cap *= 2;
    slot *tab = sg_scratch_get(sc, cap * sizeof *tab);
    for (uint32_t i = 0; i + MINRUN <= o->n; i++) {
        uint64_t h = 0x9e3779b97f4a7c15ull;
        for (uint32_t j = i; j < i + MINRUN && h; j++)
            h = o->v[j].sketch ? (h ^ o->v[j].sketch) * 0x100000001b3ull | 1 : 0;
        if (!h)
            continue;
        uint32_t at = (uint32_t)(h ^ h >> 29) & (cap - 1);
        while (tab[at].full && tab[at].h != h)
            at = (at + 1) & (cap - 1);
        if (tab[at].full)
            o->v[tab[at].last].next = i;
        tab[at] = (slot){ h, i, 1 };
    }
}

static int by_position_down(const void *a, const void *b)
{
    const call *x = a, *y = b;
    return x->at < y->at ? 1 : x->at > y->at ? -1 : 0;
}

/* Every copy becomes a call (the last first, so that the links of the
   earlier ones stay valid), and the helpers go to the top of the body. */
static uint32_t rewrite(outliner *o, ptx_buf *calls)
{
    uint32_t n = (uint32_t)(calls->n / sizeof(call));
    call *c = (call *)calls->p;
    if (n)
        qsort(c, n, sizeof *c, by_position_down);
    for (uint32_t i = 0; i < n; i++)
        sg_py_splice(o->m, o->v[c[i].at].link, o->v[c[i].at + c[i].len - 1].s, c[i].text,
                     strlen(c[i].text));
    if (o->defs) {
        *o->dtail = o->k->body;
        o->k->body = o->defs;
    }
    return n;
}

uint32_t sugar_outline(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    outliner o = { .m = m, .k = k };
    o.dtail = &o.defs;
    collect(&o, &k->body, -1, -1);
    uint32_t made = 0;
    if (o.n > 2 * MINRUN) {
        sg_scratch sc = { 0 };
        ptx_buf calls = { 0 };
        chain_windows(&o, &sc);
        o.budget = 64 * (int64_t)o.n + 4096;
        find_groups(&o, &calls);
        made = rewrite(&o, &calls);
        ptx_buf_free(&calls);
        ptx_buf_free(&sc);
    }
    ptx_buf_free(&o.vb);
    ptx_buf_free(&o.tb);
    ptx_buf_free(&o.xb);
    ptx_buf_free(&o.lb);
    ptx_buf_free(&o.src);
    return made;
}
