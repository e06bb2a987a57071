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
 * A call is exact when it runs the same Python operations, in the same
 * order, as the copy it replaces.  Copies are compared by their structural
 * keys (key.c, deep: every node by what it prints), the operands that may
 * differ left as holes: registers and ints.  Holes must be equal, except:
 *   - a register the copy binds (`x = ...`) that nothing outside the copy
 *     names (a fresh register: pyptx takes its PTX name from a counter, so
 *     the Python name does not matter): copies pair these up one to one,
 *     and the helper keeps the first copy's;
 *   - a register the copy only reads, an element's index, an int: it may
 *     differ, and becomes a parameter (evaluating a name or a literal emits
 *     nothing, so passing it in is the same as reading it in place);
 *   - `pred=V` (V a register or ~register the copy does not bind, a guard
 *     slot the key leaves out) in one copy and none in another: a
 *     parameter `pred=None` (every pyptx call's pred defaults to None).
 * A name a copy binds that other code names too (`rd3 += 64`) must be the
 * same in every copy, and is declared nonlocal.  Copies in a row whose
 * parameters are all ints that grow by one step per copy become a loop,
 * `for i in range(c):` over the body, rather than a helper.  A copy never
 * holds labels (their spellings may still change after the passes, ir.h),
 * comment lines, nested function definitions, or an empty block.
 *
 * Finding copies is linear: every statement gets a sketch (its kind and
 * opcode word), windows of MINRUN sketches are chained through a hash
 * table, and a leader's copies are the windows chained to it, as far as
 * their sketches agree with the leader's (choose_copies).  Only those
 * statements are keyed and compared, within a budget proportional to the
 * kernel's size.  The pass applies only to kernels with registers pyptx
 * allocated itself (src/sugar/NOTES.md says why).  outline_emit.c builds
 * the helper and the calls.
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/outline.h"
#include "util/alloc.h"
#include "util/buf.h"

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
    case CG_S_LABEL: case SG_S_LOOP: case CG_S_COMMENT: case CG_S_VAR: case SG_S_DEF:
        return 0;
    case CG_S_INST:
        h = (h ^ (uintptr_t)(s->u.inst.path ? s->u.inst.path : s->u.inst.op)) * 0x100000001b3ull;
        h = (h ^ sg_nops(s->u.inst.ops)) * 0x100000001b3ull;
        break;
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
   is another function's scope: not entered. */
static void collect(outliner *o, cg_stmt **head, int32_t loop, int32_t up)
{
    int32_t at = (int32_t)o->n;
    for (cg_stmt **link = head; *link; link = &(*link)->next) {
        cg_stmt *s = *link;
        push_item(o, (item){ .s = s, .link = link, .sketch = sketch(s), .loop = loop, .up = up });
    }
    push_item(o, (item){ .loop = -1, .up = up });
    for (cg_stmt *s = *head; s; s = s->next, at++) {
        cg_stmt **body = cg_body(s);
        if (!body || !*body || s->kind == SG_S_DEF)
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

/* Is item i, or a statement whose list holds it, in a copy taken, or
   does its body hold one?  A copy's key is its statements' as they were
   before any call replaced one, so nothing inside a copy may be taken as
   well, and no copy may hold a call already made (its arguments would
   not follow the copy's values). */
static int taken(const outliner *o, uint32_t i)
{
    if (o->v[i].holds)
        return 1;
    for (int32_t at = (int32_t)i; at >= 0; at = o->v[at].up)
        if (o->v[at].used)
            return 1;
    return 0;
}

/* ---- keys --------------------------------------------------------------- */

/* Registers and ints are holes; an int stays in the key where its value
   decides how its operand prints (a descriptor leaves a field of 0 out, a
   loop's index a term of 0 or a factor of 1). */
static sg_leaf hole_leaf(const sg_key *key, const cg_opnd *o)
{
    if (o->kind == CG_O_SYM)
        return o->sym != CG_NOSYM && cg_sym_is_reg(&key->k->syms[o->sym]) ? SG_LEAF_WILD
                                                                           : SG_LEAF_EXACT;
    if (key->up && (key->up->kind == SG_O_DESC || key->up->kind == SG_O_AFFINE))
        return SG_LEAF_EXACT;
    /* (an int is asked about once, in key order: whether it is an
       operator's operand, for a loop's sum in its place) */
    outliner *ol = key->ctx;
    uint8_t oper = key->up && key->up->kind == SG_O_OPER;
    ptx_buf_putc(&ol->ints, (char)oper);
    return SG_LEAF_WILD;
}

static int label_opnd(void *ctx, cg_opnd *o)
{
    const cg_kernel *k = ctx;
    if (o->kind == CG_O_SYM && o->sym != CG_NOSYM && k->syms[o->sym].kind == CG_SYM_LABEL)
        return SG_VISIT_STOP;
    for (uint32_t i = 0, n = sg_text_names(o) ? o->text.n : 0; i < n; i++)
        if (o->text.v[i].sym != CG_NOSYM && k->syms[o->text.v[i].sym].kind == CG_SYM_LABEL)
            return SG_VISIT_STOP;
    return SG_VISIT_ON;
}

/* Statements that may not move into a helper: a label, or a name of one
   (the spellings of labels may still change after the passes: driver.c),
   comment lines (one copy's would stand for all), a helper's definition
   (its body would run where the new helper is called), and a block with
   no statements (it prints `pass`). */
static int unmovable_stmt(void *ctx, cg_stmt **link)
{
    const cg_stmt *s = *link;
    cg_stmt **body = cg_body(*link);
    int fixed = s->kind == CG_S_LABEL || s->kind == SG_S_LOOP || s->kind == CG_S_COMMENT ||
                s->kind == SG_S_DEF || (body && !*body);
    return fixed || sg_visit_stmt_opnds(s, label_opnd, ctx) ? SG_VISIT_STOP : SG_VISIT_ON;
}

/* The lines statement s prints: one, and those of its body. */
static uint32_t lines(const cg_stmt *s)
{
    uint32_t n = 1;
    for (const cg_stmt *b = sg_body(s); b; b = b->next)
        n += lines(b);
    return n;
}

/* An instruction whose guard the key left out, a loop whose count: a
   slot. */
static int slot_stmt(void *ctx, cg_stmt **link)
{
    outliner *o = ctx;
    cg_stmt *s = *link;
    if ((s->kind == CG_S_INST && sg_guard_slot(s->u.inst.guard)) || sg_count_slot(s)) {
        ptx_buf_put(&o->sb, (const char *)&s, sizeof s);
        o->slots = (cg_stmt **)o->sb.p;
        o->ns++;
    }
    return SG_VISIT_ON;
}

int ol_keyed(outliner *o, uint32_t i)
{
    item *it = &o->v[i];
    if (it->keyed)
        return it->ok;
    it->keyed = 1;
    cg_stmt one = *it->s;   /* the statement and what it holds, not those after it */
    one.next = NULL;
    if (sg_visit_list(&one, unmovable_stmt, o->k))
        return 0;
    o->key.b.n = 0;
    o->key.nholes = 0;
    o->ints.n = 0;
    sg_key_stmt(&o->key, it->s);
    for (uint32_t h = 0, q = 0; h < o->key.nholes; h++) {
        char oper = o->key.holes[h]->kind == CG_O_INT && q < o->ints.n ? o->ints.p[q++] : 0;
        ptx_buf_putc(&o->ob, oper);
    }
    cg_mslot *slot = cg_map_put(o->m, &o->shapes, o->key.b.p, o->key.b.n);
    if (slot->val < 0) {
        slot->k = cg_strndup(o->m, o->key.b.p, o->key.b.n);
        slot->val = (int32_t)o->shapes.n;
    }
    it->shape = (uint32_t)slot->val;
    it->hole = o->nh;
    it->nholes = o->key.nholes;
    ptx_buf_put(&o->hb, (const char *)o->key.holes, o->key.nholes * sizeof *o->key.holes);
    o->holes = (cg_opnd **)o->hb.p;
    o->nh += o->key.nholes;
    it->slot = o->ns;          /* in key order: the statement, then its list */
    slot_stmt(o, &it->s);
    if (cg_body(it->s))
        sg_visit_stmts(cg_body(it->s), slot_stmt, o);
    it->nslots = o->ns - it->slot;
    it->lines = lines(it->s);
    return it->ok = 1;
}

/* ---- what a copy binds -------------------------------------------------- */

static int name_at(const names *nm, cg_symid sym)
{
    for (uint32_t i = 0; i < nm->cnt; i++)
        if (nm->sym[i] == sym)
            return (int)i;
    return -1;
}

/* The registers statement s (and its body) binds, appended to nm in
   order; 0 if there are too many. */
static int bind_stmt(names *nm, const cg_stmt *s)
{
    cg_symid syms[MAXNAMES];
    unsigned n = 0;
    int how = SG_BINDS;
    if (s->kind == CG_S_REG || s->kind == CG_S_BIND)
        syms[n++] = s->u.reg;
    else if (s->kind == SG_S_ALLOC)
        n = sg_alloc_binds(s, syms, MAXNAMES, &how);
    else if (s->kind == SG_S_EXPR)
        n = (how = sg_expr_binds(s, syms)) != 0;
    else if (s->kind == SG_S_ASSIGN)   /* its targets */
        for (const cg_opnd *t = sg_assign_of(s)->ops; t && t != sg_assign_value(s); t = t->next)
            if (t->kind == CG_O_SYM && t->index < 0 && n < MAXNAMES)
                syms[n++] = t->sym;
    if (n == 0 && (s->kind == SG_S_CMP || s->kind == SG_S_ALIAS) && sg_sym(s) != CG_NOSYM)
        syms[n++] = sg_sym(s);   /* p = a < b, tid = r[2] */
    for (unsigned i = 0; i < n; i++) {
        if (name_at(nm, syms[i]) >= 0)
            continue;
        if (nm->cnt == MAXNAMES)
            return 0;
        nm->sym[nm->cnt] = syms[i];
        nm->role[nm->cnt++] = (uint8_t)how;
    }
    for (const cg_stmt *t = sg_body(s); t; t = t->next)
        if (!bind_stmt(nm, t))
            return 0;
    return 1;
}

static void count_run(outliner *o, uint32_t at, uint32_t len, int undo)
{
    for (uint32_t i = at; i < at + len; i++) {
        cg_stmt one = *o->v[i].s;
        one.next = NULL;
        (undo ? sg_uncount_refs : sg_count_refs)(&one, o->inrun);
    }
}

/* The names statements at..at+len bind, and which are the copy's own (a
   register bound with `=` that nothing outside names).  0 if a statement
   may not move or there are too many. */
static int bound_names(outliner *o, uint32_t at, uint32_t len, names *nm)
{
    nm->cnt = 0;
    if (!o->refs) {
        o->refs = cg_alloc(o->m, (o->k->nsyms + 1) * sizeof *o->refs);
        o->inrun = cg_alloc(o->m, (o->k->nsyms + 1) * sizeof *o->inrun);
        sg_count_refs(o->k->body, o->refs);
    }
    for (uint32_t i = at; i < at + len; i++)
        if (!ol_keyed(o, i) || !bind_stmt(nm, o->v[i].s))
            return 0;
    count_run(o, at, len, 0);
    for (uint32_t i = 0; i < nm->cnt; i++) {
        cg_symid s = nm->sym[i];
        nm->local[i] = nm->role[i] == SG_BINDS && cg_sym_is_reg(&o->k->syms[s]) &&
                       o->refs[s] == o->inrun[s];
    }
    count_run(o, at, len, 1);
    return 1;
}

/* ---- comparing a copy with the first ---------------------------------- */

static int add_diff(member *mb, uint32_t pos, uint8_t part, val v)
{
    if (mb->nd == MAXDIFF)
        return 0;
    mb->d[mb->nd++] = (diff){ pos, part, v };
    return 1;
}

/* Registers a and b at the first's hole pos (part P_NAME, or a guard's
   register): a pair of the copies' own, the same register, or a read that
   may differ. */
static int pair_names(const names *fn, member *mb, uint32_t pos, uint8_t part, cg_symid a,
                      cg_symid b)
{
    int fa = name_at(fn, a), fb = name_at(&mb->nm, b);
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
    if (a == b)
        return 1;
    if (fa >= 0 || fb >= 0)
        return 0;                       /* what a copy binds never differs */
    return add_diff(mb, pos, part, (val){ b, 0 });
}

/* The first's guard slot pos against y's guard: none in both, registers
   paired as above, or one where the other has none, which the helper
   passes as pred=None (every pyptx call's default): a register neither
   copy binds. */
static int pair_guard(const names *fn, member *mb, uint32_t pos, const cg_opnd *x,
                      const cg_opnd *y)
{
    val a = ol_guard_value(x), b = ol_guard_value(y);
    if (x && y)
        return a.v == b.v && pair_names(fn, mb, pos, P_GUARD_REG, a.sym, b.sym);
    if (x || y)
        return name_at(fn, a.sym) < 0 && name_at(&mb->nm, b.sym) < 0 &&
               add_diff(mb, pos, P_GUARD, b);
    return 1;
}

/* The first's slot pos against y: loops' counts, which may differ (an int
   in range()), or guards. */
static int pair_slot(const outliner *o, const names *fn, member *mb, uint32_t pos,
                     const cg_stmt *y)
{
    const cg_stmt *x = o->slots[pos];
    if (x->kind != y->kind)
        return 0;
    if (x->kind == CG_S_INST)
        return pair_guard(fn, mb, pos, x->u.inst.guard, y->u.inst.guard);
    return sg_count(x) == sg_count(y) ||
           add_diff(mb, pos, P_COUNT, (val){ CG_NOSYM, sg_count(y) });
}

/* An int that may be a parameter: a decimal >= 0 (-5 prints as an
   operator and a literal). */
static int plain_int(const cg_opnd *o, long long *v)
{
    return sg_int_value(o, v) && *v >= 0;
}

/* The first copy's hole pos against y, the member's. */
static int pair_hole(outliner *o, const names *fn, member *mb, uint32_t pos, const cg_opnd *y)
{
    const cg_opnd *x = o->holes[pos];
    long long a, b;
    if (x->kind == CG_O_INT) {
        if (sg_opnd_equal(x, y))
            return 1;
        return plain_int(x, &a) && plain_int(y, &b) &&
               add_diff(mb, pos, P_INT, (val){ CG_NOSYM, b });
    }
    if ((x->index < 0) != (y->index < 0) || !pair_names(fn, mb, pos, P_NAME, x->sym, y->sym))
        return 0;
    return x->index == y->index || add_diff(mb, pos, P_INDEX, (val){ CG_NOSYM, y->index });
}

/* Statement fi of the first copy against mi of the member: 1 if alike,
   the differences appended to mb->d. */
static int match_stmt(outliner *o, const names *fn, member *mb, uint32_t fi, uint32_t mi)
{
    if (!ol_keyed(o, fi) || !ol_keyed(o, mi) || o->v[fi].shape != o->v[mi].shape ||
        o->v[fi].nslots != o->v[mi].nslots)
        return 0;
    const item *a = &o->v[fi], *b = &o->v[mi];
    o->budget -= a->nholes + a->nslots + 1;
    for (uint32_t h = 0; h < a->nholes; h++)
        if (!pair_hole(o, fn, mb, a->hole + h, o->holes[b->hole + h]))
            return 0;
    for (uint32_t t = 0; t < a->nslots; t++)
        if (!pair_slot(o, fn, mb, a->slot + t, o->slots[b->slot + t]))
            return 0;
    return 1;
}

/* How many of len statements from mb->at match the first copy's. */
static void match(outliner *o, uint32_t first, const names *fn, member *mb, uint32_t len)
{
    mb->len = mb->nd = 0;
    for (uint32_t q = 0; q < MAXNAMES; q++)
        mb->pair[q] = -1;
    if (!bound_names(o, mb->at, len, &mb->nm))
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

/* ---- groups of copies ------------------------------------------------- */

static uint32_t lines_of(const outliner *o, uint32_t at, uint32_t len)
{
    uint32_t n = 0;
    for (uint32_t i = at; i < at + len; i++)
        n += o->v[i].lines;
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
    if (rematch && !bound_names(o, g->at[0], len, &g->fn)) {
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
        if (nm->role[i] == SG_BINDS && !nm->local[i])
            return 0;   /* it would have to be the same in every copy */
    return 1;
}

/* The best group of copies of the statements from `lead` on, in *g; the
   lines it saves, or 0 if none saves MINSAVED. */
static long plan(outliner *o, uint32_t lead, group *g)
{
    member *mbs = g->mb;
    *g = (group){ .mb = mbs };
    uint32_t n = choose_copies(o, lead, g);
    if (!n || !bound_names(o, lead, n, &g->fn))
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
        nonlocal |= g->fn.role[i] == SG_AUGMENTS;
    for (uint32_t q = 1; q < g->c; q++)
        if (!names_ok(&g->mb[q - 1].nm))
            return 0;
    long s = saved(g->c, lines_of(o, lead, len), nonlocal);
    return s >= MINSAVED && ol_make_params(o, g) ? s : 0;
}

/* Groups, leader by leader.  A group that starts one statement later and
   saves more wins (two calls of one helper, each after a statement that
   happens to repeat too: the group of helper bodies, not the pairs that
   start with that statement). */
static void find_groups(outliner *o)
{
    /* one block, owned while planning can run out of memory: a failure
       unwinds, where skipping the pass would give other Python */
    struct { group g[2]; member mbs[2 * MAXMEMB]; } *w = ptx_xcalloc(1, sizeof *w);
    ptx_owned own;
    ptx_own(&own, free, w);
    group *g = w->g;
    member *mbs = w->mbs;
    for (uint32_t i = 0; i < o->n && o->budget > 0; i++) {
        if (!o->v[i].next || taken(o, i))
            continue;
        g[0].mb = mbs;
        g[1].mb = mbs + MAXMEMB;
        long here = plan(o, i, &g[0]);
        if (here && i + 1 < o->n && o->v[i + 1].next && plan(o, i + 1, &g[1]) > here)
            continue;
        if (here)
            ol_take(o, &g[0]);
    }
    ptx_disown(&own);
    free(w);
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

uint32_t sugar_outline(cg_module *m, cg_kernel *k)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    outliner o = { .m = m, .k = k,
                   .key = { .k = k, .leaf = hole_leaf, .m = m, .deep = 1 } };
    o.key.ctx = &o;
    o.dtail = &o.defs;
    ptx_bufs ob;
    ptx_own_bufs(&ob, &o.vb, &o.hb, &o.sb, &o.lb, &o.calls, &o.substs, &o.key.b, &o.ints,
                 NULL);
    ptx_bufs ob_o;   /* (past PTX_OWN_BUFS) */
    ptx_own_bufs(&ob_o, &o.ob, NULL);
    collect(&o, &k->body, -1, -1);
    uint32_t made = 0;
    if (o.n > 2 * MINRUN) {
        sg_scratch sc = { 0 };
        ptx_bufs ob_sc;
        ptx_own_bufs(&ob_sc, &sc, NULL);
        chain_windows(&o, &sc);
        o.budget = 64 * (int64_t)o.n + 4096;
        find_groups(&o);
        made = ol_rewrite(&o);
        ptx_free_bufs(&ob_sc);
    }
    ptx_free_bufs(&ob_o);
    ptx_free_bufs(&ob);
    return made;
}
