/*
 * sugar/outline_emit.c - pass "outline": the nodes that replace a group of
 * copies (outline.c finds them).  A helper is an SG_S_DEF, its parameters
 * SG_O_NAME operands, its body the first copy's statements with each
 * parameter's operands in place of the values that copy had; each copy
 * becomes an SG_S_ASSIGN of the call (SG_O_CALL) that keeps the statements
 * it replaced in orig.  Copies in a row whose parameters are ints growing
 * by one step per copy become one SG_S_FOR over the first copy's
 * statements, each int a SG_O_AFFINE of the loop variable.
 *
 * The first copy's statements themselves become the body (its call keeps
 * a deep copy, sg_copy_list), so that a parameter reaches every place the
 * copy prints an operand from, a merged declaration's source and an
 * expression's instructions included: each hole's operand takes the
 * parameter's place where it stands, after every group is found (the
 * keys of the copies point at those operands).
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/outline.h"

/* ---- operands ---------------------------------------------------------- */

/* A value as an argument: the register's name (negated: a guard's), or
   the int. */
static cg_opnd *value_opnd(cg_module *m, val v, uint8_t part)
{
    if (v.sym == CG_NOSYM)
        return sg_int_opnd(m, v.v);
    if (part != P_GUARD || v.v != 1)
        return sg_sym_opnd(m, v.sym);
    cg_opnd *o = cg_opnd_new(m, CG_O_NOT);
    o->a = sg_sym_opnd(m, v.sym);
    return o;
}

/* What stands at the first copy's hole pos, part, in the body: by[r] for
   parameter r, or NULL where no parameter takes it. */
static cg_opnd *by_part(const group *g, cg_opnd *const *by, uint32_t pos, uint8_t part)
{
    for (uint32_t r = 0; r < g->np; r++)
        for (uint32_t k = 0; k < g->p[r].nkey; k++)
            if (g->p[r].key[k].pos == pos && g->p[r].key[k].part == part)
                return by[r];
    return NULL;
}

/* Every hole of the first copy that a parameter takes, with the operand
   that replaces it: by[r] for a register or an int; for an element, the
   element of the array (or of by[r]) at the index (or by[r]).  A loop's
   index (SG_O_AFFINE) names its array itself. */
static void put_substs(outliner *o, const group *g, cg_opnd *const *by)
{
    for (uint32_t r = 0; r < g->np; r++)
        for (uint32_t k = 0; k < g->p[r].nkey; k++) {
            uint32_t pos = g->p[r].key[k].pos;
            uint8_t part = g->p[r].key[k].part;
            if (part == P_COUNT) {       /* range(by) */
                subst s = { NULL, &sg_for_of(o->slots[pos])->count_by, by[r] };
                ol_append(&o->substs, &s, sizeof s);
                continue;
            }
            if (part >= P_GUARD_REG) {   /* pred=by, or its register: ~by */
                cg_opnd **guard = &o->slots[pos]->u.inst.guard;
                subst s = { NULL, guard, by[r] };
                if (part == P_GUARD_REG)
                    s.hole = (*guard)->kind == CG_O_NOT ? (*guard)->a : *guard;
                ol_append(&o->substs, &s, sizeof s);
                continue;
            }
            cg_opnd *x = o->holes[pos];
            const subst *done = (const subst *)o->substs.p;
            size_t n = o->substs.n / sizeof *done, i = 0;
            while (i < n && done[i].hole != x)
                i++;
            if (i < n)
                continue;   /* an element both of whose parts vary */
            subst s = { x, NULL, o->ob.p[pos] ? sg_operand_opnd(o->m, by[r]) : by[r] };
            if (x->kind == CG_O_SYM && x->index >= 0) {
                cg_opnd *a = by_part(g, by, pos, P_NAME), *b = by_part(g, by, pos, P_INDEX);
                if (b && b->kind == SG_O_AFFINE && !a) {
                    s.by = sg_copy_opnd(o->m, b);
                    s.by->sym = x->sym;
                } else {
                    s.by = sg_index_opnd(o->m, a ? a : sg_sym_opnd(o->m, x->sym),
                                         b ? b : sg_int_opnd(o->m, x->index));
                }
            }
            ol_append(&o->substs, &s, sizeof s);
        }
}

static void record(outliner *o, uint32_t at, uint32_t len, cg_opnd *args, cg_stmt *def)
{
    call c = { at, len, args, def };
    ol_append(&o->calls, &c, sizeof c);
    for (uint32_t i = at; i < at + len; i++) {
        o->v[i].used = 1;
        for (int32_t up = o->v[i].up; up >= 0 && !o->v[up].holds; up = o->v[up].up)
            o->v[up].holds = 1;
    }
}

/* ---- a loop over copies in a row -------------------------------------- */

/* Copy q's value of parameter p as an int, or 0 if it is none (or a
   loop's count: the loop's body would stand for every copy's, where
   sg_fix_pyptx_labels counts the fresh labels a body takes). */
static int int_value(const outliner *o, const group *g, uint32_t q, const param *p,
                     long long *v)
{
    val x = ol_value(o, g, q, p->key[0].pos, p->key[0].part);
    *v = x.v;
    return (p->key[0].part == P_INT || p->key[0].part == P_INDEX) &&
           x.v < 1000000000000000LL;
}

static int loop_named(void *ctx, cg_stmt **link)
{
    const cg_stmt *s = *link;
    return s->kind == SG_S_FOR && sg_for_of(s)->var && !strcmp(sg_for_of(s)->var, ctx)
               ? SG_VISIT_STOP
               : SG_VISIT_ON;
}

/* Does a loop around the copies, a register, or a loop in the first copy
   use `var`? */
static int var_taken(const outliner *o, const group *g, const char *var)
{
    const loopvar *l = (const loopvar *)o->lb.p;
    for (int32_t at = o->v[g->at[0]].loop; at >= 0; at = l[at].up)
        if (!strcmp(l[at].var, var))
            return 1;
    for (uint32_t s = 0; s < o->k->nsyms; s++)
        if (cg_sym_is_reg(&o->k->syms[s]) && o->k->syms[s].py && !strcmp(o->k->syms[s].py, var))
            return 1;
    for (uint32_t i = g->at[0]; i < g->at[0] + g->len; i++) {
        cg_stmt one = *o->v[i].s;
        one.next = NULL;
        if (sg_visit_list(&one, loop_named, (void *)var))
            return 1;
    }
    return 0;
}

/* Copies that follow one another, each passing ints that grow by one step
   per copy, are a loop rather than calls: `for i in range(c):` over the
   body with `base + step*i` for each parameter.  The loop, or NULL. */
static cg_stmt *try_loop(outliner *o, const group *g, cg_opnd **by)
{
    const char *var = NULL;
    for (uint32_t q = 1; q < g->c; q++)
        if (g->at[q] != g->at[q - 1] + g->len)
            return NULL;
    for (unsigned i = 0; i < SG_NLOOP_VARS && !var; i++)
        if (!var_taken(o, g, sg_loop_vars[i]))
            var = sg_loop_vars[i];
    for (uint32_t r = 0; r < g->np && var; r++) {
        long long base, next, v;
        if (!int_value(o, g, 0, &g->p[r], &base) || !int_value(o, g, 1, &g->p[r], &next))
            return NULL;
        for (uint32_t q = 2; q < g->c; q++)
            if (!int_value(o, g, q, &g->p[r], &v) || v != base + (next - base) * (long long)q)
                return NULL;
        by[r] = cg_opnd_new(o->m, SG_O_AFFINE);
        by[r]->sym = CG_NOSYM;
        by[r]->text = sg_lit(o->m, var, strlen(var));
        by[r]->a = sg_int_opnd(o->m, base);
        by[r]->b = sg_int_opnd(o->m, next - base);
    }
    if (!var)
        return NULL;
    cg_stmt *loop = sg_node_new(o->m, SG_S_FOR, o->v[g->at[0]].s->first);
    sg_for_of(loop)->var = var;
    sg_for_of(loop)->count = g->c;
    return loop;
}

/* ---- a helper and its calls ------------------------------------------- */

/* What copy q passes: its values in the parameters' order, an optional
   one's as pred=V where it has one. */
static cg_opnd *call_args(outliner *o, const group *g, uint32_t q)
{
    cg_opnd *args = NULL, **at = &args;
    for (int opt = 0; opt < 2; opt++)
        for (uint32_t r = 0; r < g->np; r++) {
            const diff *k = &g->p[r].key[0];
            val v = ol_value(o, g, q, k->pos, k->part);
            if (g->p[r].optional != opt || (opt && v.v == -1))
                continue;
            *at = value_opnd(o->m, v, k->part);
            if (opt)
                *at = sg_kw_opnd(o->m, g->p[r].name, *at);
            at = &(*at)->next;
        }
    return args;
}

void ol_take(outliner *o, group *g)
{
    cg_opnd *by[MAXPARAM];
    cg_stmt *loop = try_loop(o, g, by);
    if (loop) {
        put_substs(o, g, by);
        record(o, g->at[0], g->c * g->len, NULL, loop);
        return;
    }
    const char *name = sg_py_fresh(o->m, o->k, "_block");
    if (!name)
        return;
    cg_opnd *params = NULL, **pt = &params, *nonlocals = NULL, **nt = &nonlocals;
    for (int opt = 0; opt < 2; opt++)   /* the ones with a default last */
        for (uint32_t r = 0; r < g->np; r++)
            if (g->p[r].optional == opt) {
                by[r] = sg_name_opnd(o->m, g->p[r].name);
                *pt = opt ? sg_kw_opnd(o->m, g->p[r].name, sg_name_opnd(o->m, "None"))
                          : sg_name_opnd(o->m, g->p[r].name);
                pt = &(*pt)->next;
            }
    for (uint32_t i = 0; i < g->fn.cnt; i++)
        if (g->fn.role[i] == SG_AUGMENTS) {
            *nt = sg_sym_opnd(o->m, g->fn.sym[i]);
            nt = &(*nt)->next;
        }
    cg_stmt *def = sg_def_new(o->m, PTX_NOTOK, name, params, nonlocals, NULL);
    *o->dtail = def;
    o->dtail = &def->next;
    put_substs(o, g, by);
    for (uint32_t q = 0; q < g->c; q++)
        record(o, g->at[q], g->len, sg_call_opnd(o->m, name, NULL, call_args(o, g, q)),
               q ? NULL : def);
}

/* ---- rewriting ------------------------------------------------------- */

static int by_position_down(const void *a, const void *b)
{
    const call *x = a, *y = b;
    return x->at < y->at ? 1 : x->at > y->at ? -1 : 0;
}

/* The first n statements of list *run, cut off and returned; *run keeps
   the rest. */
static cg_stmt *cut(cg_stmt **run, uint32_t n)
{
    cg_stmt *head = *run, **link = run;
    while (n-- && *link)
        link = &(*link)->next;
    *run = *link;
    *link = NULL;
    return head;
}

/* Call c in place of its copy; a helper's first copy (a loop's) becomes
   its body, and the call (the loop) keeps a deep copy of it. */
static void put_call(outliner *o, const call *c, uint32_t len)
{
    cg_stmt **link = o->v[c->at].link, *last = o->v[c->at + c->len - 1].s;
    cg_stmt **orig;
    if (!c->args) {                     /* a loop */
        sg_for_of(c->def)->orig = cg_splice(link, last, c->def);
        orig = &sg_for_of(c->def)->orig;
    } else {
        cg_stmt *s = sg_assign_splice(o->m, link, last, NULL, c->args);
        orig = &sg_assign_of(s)->orig;
    }
    if (!c->def)
        return;
    cg_stmt *body = cut(orig, len), *copy = sg_copy_list(o->m, body), *t = copy;
    while (t->next)
        t = t->next;
    t->next = *orig;
    *orig = copy;
    *cg_body(c->def) = body;
}

/* Every copy becomes a call (the last first, so that the links of the
   earlier ones stay valid), the parameters take their places in the
   bodies, and the helpers go to the top of the kernel's body. */
uint32_t ol_rewrite(outliner *o)
{
    uint32_t n = (uint32_t)(o->calls.n / sizeof(call));
    call *c = (call *)o->calls.p;
    if (n)
        qsort(c, n, sizeof *c, by_position_down);
    for (uint32_t i = 0; i < n; i++)
        put_call(o, &c[i], c[i].args ? c[i].len : c[i].len / sg_for_of(c[i].def)->count);
    const subst *s = (const subst *)o->substs.p;
    for (size_t i = 0; i < o->substs.n / sizeof *s; i++) {
        if (!s[i].hole) {
            *s[i].slot = s[i].by;
            continue;
        }
        cg_opnd *next = s[i].hole->next;
        *s[i].hole = *s[i].by;
        s[i].hole->next = next;
    }
    if (o->defs) {
        *o->dtail = o->k->body;
        o->k->body = o->defs;
    }
    return n;
}
