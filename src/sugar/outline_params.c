/*
 * sugar/outline_params.c - pass "outline": the parameters of a helper.
 * Where the copies differ (outline.c pairs their holes and guard slots) a
 * parameter stands; keys whose values agree in every copy share one, and
 * a guard some copy has not is pred=None.  A parameter is named for what
 * the first copy passes, so that the body reads like that copy.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/outline.h"
#include "util/alloc.h"
#include "util/buf.h"

/* A guard slot's value: its register and whether it is negated, or none. */
val ol_guard_value(const cg_opnd *g)
{
    if (!g)
        return (val){ CG_NOSYM, -1 };
    return g->kind == CG_O_NOT ? (val){ g->a->sym, 1 } : (val){ g->sym, 0 };
}

val ol_value(const outliner *o, const group *g, uint32_t q, uint32_t pos, uint8_t part)
{
    const cg_opnd *guard = part >= P_GUARD_REG ? ol_guard(o, pos) : NULL;
    for (uint32_t i = 0; q && i < g->mb[q - 1].nd; i++) {
        const diff *d = &g->mb[q - 1].d[i];
        if (d->pos == pos && d->part == part)
            return d->v;
        if (d->pos == pos && d->part == P_GUARD_REG && part == P_GUARD)
            return (val){ d->v.sym, ol_guard_value(guard).v };   /* another register */
    }
    if (part == P_COUNT)
        return (val){ CG_NOSYM, sg_count(o->slots[pos]) };
    if (part >= P_GUARD_REG) {
        val v = ol_guard_value(guard);
        return part == P_GUARD || !guard ? v : (val){ v.sym, 0 };
    }
    const cg_opnd *x = o->holes[pos];
    val v = { CG_NOSYM, 0 };
    if (part == P_NAME)
        v.sym = x->sym;
    else if (part == P_INDEX)
        v.v = x->index;
    else
        sg_int_value(x, &v.v);
    return v;
}

static int same_values(const outliner *o, const group *g, const diff *x, const diff *y)
{
    for (uint32_t q = 0; q < g->c; q++) {
        val a = ol_value(o, g, q, x->pos, x->part), b = ol_value(o, g, q, y->pos, y->part);
        if (a.sym != b.sym || a.v != b.v)
            return 0;
    }
    return 1;
}

/* Is (pos, part) one of p's keys? */
static int has_key(const param *p, uint32_t pos, uint8_t part)
{
    for (uint32_t k = 0; k < p->nkey; k++)
        if (p->key[k].pos == pos && p->key[k].part == part)
            return 1;
    return 0;
}

/* Does the Python of the group's first copy name `name` (a type, or a
   module the head imports)?  Its statements printed one at a time. */
static int body_names(const outliner *o, const group *g, const char *name)
{
    ptx_buf b = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &b, NULL);
    for (uint32_t s = g->at[0]; s < g->at[0] + g->len; s++) {
        cg_stmt *st = o->v[s].s, *next = st->next;
        st->next = NULL;
        cg_print_list(o->m, o->k, st, 0, &b);
        st->next = next;
    }
    const char *names[1] = { name };
    int used = cg_scan_uses(b.p, b.n, names, 1, 0) != 0;
    ptx_free_bufs(&ob);
    return used;
}

static int name_free(const outliner *o, const group *g, const param *p, const char *name)
{
    size_t n = strlen(name);
    if (cg_py_keyword(name, n))
        return 0;
    /* a type or module name may be shadowed where the body does not print
       it (p's own keys are then its only uses): `pred` for a guard, unless
       the body declares a pred register */
    if (cg_py_reserved(name, n) && body_names(o, g, name))
        return 0;
    for (uint32_t q = 0; q < g->np; q++)
        if (&g->p[q] != p && g->p[q].name && !strcmp(g->p[q].name, name))
            return 0;
    for (uint32_t s = g->at[0]; s < g->at[0] + g->len; s++) {
        const item *it = &o->v[s];
        for (uint32_t h = it->hole; h < it->hole + it->nholes; h++) {
            const cg_opnd *x = o->holes[h];
            if (x->kind == CG_O_SYM && !strcmp(o->k->syms[x->sym].py, name) &&
                !has_key(p, h, P_NAME))
                return 0;
        }
        for (uint32_t t = it->slot; t < it->slot + it->nslots; t++) {
            val v = ol_guard_value(ol_guard(o, t));
            if (o->slots[t]->kind == CG_S_INST && v.sym != CG_NOSYM &&
                !strcmp(o->k->syms[v.sym].py, name) &&
                !has_key(p, t, P_GUARD_REG) && !has_key(p, t, P_GUARD))
                return 0;
        }
    }
    return 1;
}

/* A parameter is named for the register the first copy passes, `pred`
   for an optional guard; else a0, a1 ... in order. */
static void name_param(outliner *o, group *g, param *p, unsigned *numbered)
{
    char base[64], buf[80];
    val v = ol_value(o, g, 0, p->key[0].pos, p->key[0].part);
    const char *py = v.sym != CG_NOSYM ? o->k->syms[v.sym].py : NULL;
    if (p->optional)
        snprintf(base, sizeof base, "pred");
    else if (py && strlen(py) < sizeof base)
        snprintf(base, sizeof base, "%s", py);
    else
        snprintf(base, sizeof base, "a%u", (*numbered)++);
    snprintf(buf, sizeof buf, "%s", base);
    for (unsigned i = 2; !name_free(o, g, p, buf); i++)
        snprintf(buf, sizeof buf, "%s_%u", base, i);
    p->name = cg_strndup(o->m, buf, strlen(buf));
}

/* The parameter that holds key d already, or whose values agree with d's
   in every copy; NULL if none. */
static param *param_of(const outliner *o, group *g, const diff *d)
{
    for (uint32_t r = 0; r < g->np; r++)
        if (has_key(&g->p[r], d->pos, d->part))
            return &g->p[r];
    for (uint32_t r = 0; r < g->np; r++)
        if (same_values(o, g, &g->p[r].key[0], d))
            return &g->p[r];
    return NULL;
}

/* Does some copy have no guard at slot pos where the first has one, or
   the reverse? */
static int slot_optional(const group *g, uint32_t pos)
{
    for (uint32_t q = 1; q < g->c; q++)
        for (uint32_t i = 0; i < g->mb[q - 1].nd; i++)
            if (g->mb[q - 1].d[i].pos == pos && g->mb[q - 1].d[i].part == P_GUARD)
                return 1;
    return 0;
}

/* Each parameter's default: None for a guard some copy has not, which
   must be its only use (None passed anywhere else would not trace). */
static int defaults(const outliner *o, group *g)
{
    for (uint32_t r = 0; r < g->np; r++) {
        param *p = &g->p[r];
        for (uint32_t q = 0; q < g->c; q++)
            p->optional |= ol_value(o, g, q, p->key[0].pos, p->key[0].part).v == -1 &&
                           p->key[0].part == P_GUARD;
        for (uint32_t k = 0; k < p->nkey && p->optional; k++)
            if (p->key[k].part != P_GUARD)
                return 0;
    }
    return 1;
}

/* The copies' differences as parameters: keys whose values agree in
   every copy share one (a guard's register that differs where another
   copy has no guard is the whole guard's).  0 if there are too many. */
int ol_make_params(outliner *o, group *g)
{
    g->np = 0;
    for (uint32_t q = 1; q < g->c; q++)
        for (uint32_t i = 0; i < g->mb[q - 1].nd; i++) {
            diff dd = g->mb[q - 1].d[i];
            const diff *d = &dd;
            if (dd.part == P_GUARD_REG && slot_optional(g, dd.pos))
                dd.part = P_GUARD;
            param *p = param_of(o, g, d);
            if (!p) {
                if (g->np == MAXPARAM)
                    return 0;
                p = &g->p[g->np++];
                *p = (param){ .key = { *d }, .nkey = 1 };
                continue;
            }
            if (has_key(p, d->pos, d->part))
                continue;
            if (p->nkey == MAXDIFF)
                return 0;
            p->key[p->nkey++] = *d;
        }
    if (!defaults(o, g))
        return 0;
    unsigned numbered = 0;
    for (uint32_t r = 0; r < g->np; r++)
        name_param(o, g, &g->p[r], &numbered);
    return 1;
}

