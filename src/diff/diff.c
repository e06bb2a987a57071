/*
 * diff.c - pair the units of two modules and align each pair.
 *
 * Functions pair by name (the k-th definition of a name in a with the k-th
 * in b), or by position under --ignore-names, where names do not count.
 * The work is linear in the input plus, per pair, Myers' O((N+M)D) on the
 * lines left after the common prefix and suffix are cut off, so two large
 * files that are mostly equal cost little more than reading them.  The
 * lines are built on threads (sides.c), and the pairs are aligned on
 * threads too, in runs of about equal source size: a pair's alignment
 * writes only the pair.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/internal.h"
#include "util/alloc.h"
#include "util/diag.h"
#include "util/threads.h"

static char *strndup_x(const char *p, size_t n)
{
    char *s = pd_realloc(NULL, n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static pair *add_pair(ptx_diff *d, int ua, int ub)
{
    pair *p = &d->pairs[d->n++];
    memset(p, 0, sizeof *p);
    p->ua = ua, p->ub = ub;
    const unit *u = ua >= 0 ? &d->a.units[ua] : &d->b.units[ub];
    p->info.name = (ua == 0 || ub == 0) ? strndup_x("(module)", 8)
                                        : strndup_x(u->name.p, u->name.n);
    return p;
}

static void push_run(pair *p, size_t *cap, char op, uint32_t i, uint32_t j)
{
    if (p->nruns && p->runs[p->nruns - 1].op == op) {
        p->runs[p->nruns - 1].len++;
        return;
    }
    if (p->nruns == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        p->runs = pd_realloc(p->runs, *cap * sizeof *p->runs);
    }
    p->runs[p->nruns++] = (edit_run){ op, i, j, 1 };
}

/* In each stretch of edits between kept lines, min(removed, added)
   statements count as changed. */
static void count(pair *p)
{
    uint32_t del = 0, ins = 0;
    for (size_t r = 0; r <= p->nruns; r++) {
        if (r == p->nruns || p->runs[r].op == ' ') {
            uint32_t c = del < ins ? del : ins;
            p->info.changed += c;
            p->info.removed += del - c;
            p->info.added += ins - c;
            del = ins = 0;
        } else if (p->runs[r].op == '-') {
            del += p->runs[r].len;
        } else {
            ins += p->runs[r].len;
        }
    }
}

static void align(ptx_diff *d, pair *p)
{
    pd_align(p, pd_pair_unit(d, p, 0), pd_pair_unit(d, p, 1));
}

void pd_align(pair *p, const unit *a, const unit *b)
{
    /* the ids and the edit marks of both sides, in one block */
    size_t na = a->n + 1, nb = b->n + 1;
    uint32_t *ia = pd_realloc(NULL, (na + nb) * (sizeof *ia + 1)), *ib = ia + na;
    ptx_owned own;
    ptx_own(&own, free, ia);
    uint8_t *del = (uint8_t *)(ib + nb), *ins = del + na;
    memset(del, 0, na + nb);
    for (uint32_t i = 0; i < a->n; i++)
        ia[i] = a->v[i].id;
    for (uint32_t j = 0; j < b->n; j++)
        ib[j] = b->v[j].id;
    pd_seq(ia, a->n, ib, b->n, del, ins);
    size_t cap = 0;
    uint32_t i = 0, j = 0;
    while (i < a->n || j < b->n) {
        if (i < a->n && del[i])
            push_run(p, &cap, '-', i, j), i++;
        else if (j < b->n && ins[j])
            push_run(p, &cap, '+', i, j), j++;
        else
            push_run(p, &cap, ' ', i, j), i++, j++;
    }
    ptx_disown(&own);
    free(ia);
    count(p);
    int edits = p->info.added || p->info.removed || p->info.changed;
    p->info.status = p->ua < 0 ? PTX_DIFF_ADDED : p->ub < 0 ? PTX_DIFF_REMOVED
                   : edits ? PTX_DIFF_CHANGED : PTX_DIFF_SAME;
}

typedef struct align_run {
    ptx_diff *d;
    size_t first, last;     /* pairs */
} align_run;

static void align_pairs(void *item)
{
    align_run *r = item;
    for (size_t k = r->first; k < r->last; k++)
        align(r->d, &r->d->pairs[k]);
}

static size_t pair_bytes(const ptx_diff *d, const pair *p)
{
    return (p->ua >= 0 ? d->a.units[p->ua].bytes : 0)
         + (p->ub >= 0 ? d->b.units[p->ub].bytes : 0);
}

/* Every pair aligned, in runs of about equal source size on threads. */
static void align_all(ptx_diff *d, unsigned jobs, size_t min_part)
{
    size_t total = 0;
    for (size_t k = 0; k < d->n; k++)
        total += pair_bytes(d, &d->pairs[k]);
    ptx_cut c = ptx_cut_start(total, ptx_parts(total, jobs, min_part));
    align_run r[PTX_MAX_THREADS];
    unsigned n = 0;
    size_t at = 0;
    r[0] = (align_run){ d, 0, d->n };
    for (size_t k = 0; k < d->n; at += pair_bytes(d, &d->pairs[k++]))
        if (k && ptx_cut_here(&c, at)) {
            r[n].last = k;
            r[++n] = (align_run){ d, k, d->n };
        }
    if (ptx_each_thread(r, n + 1, sizeof *r, align_pairs))
        ptx_oom();
    for (size_t k = 0; k < d->n; k++)
        if (d->pairs[k].info.status != PTX_DIFF_SAME)
            d->same = 0;
}

static int wanted(const ptx_diff_options *o, ptx_str name)
{
    for (size_t k = 0; k < o->nfunctions; k++)
        if (strlen(o->functions[k]) == name.n
            && memcmp(o->functions[k], name.p, name.n) == 0)
            return 1;
    return 0;
}

static int unit_wanted(const ptx_diff *d, const ptx_diff_options *o, int ua,
                       int ub)
{
    if (!o->nfunctions)
        return 1;
    if (ua == 0 || ub == 0)
        return 0;
    return (ua > 0 && wanted(o, d->a.units[ua].name))
        || (ub > 0 && wanted(o, d->b.units[ub].name));
}

/* Pairs a's functions with b's: (ua, ub) into out, -1 where unmatched. */
typedef struct pairing {
    char *taken;
    int *next;
    smap names;
} pairing;

/* pair_units' scratch, freed at its end or where memory runs out */
static void release_pairing(void *arg)
{
    pairing *g = arg;
    free(g->taken);
    free(g->next);
    pd_map_free(&g->names);
}

static size_t pair_units(const ptx_diff *d, unsigned flags, int (*out)[2])
{
    size_t na = d->a.n, nb = d->b.n, n = 0;
    pairing g = { 0 };
    ptx_owned own;
    ptx_own(&own, release_pairing, &g);
    char *taken = g.taken = pd_calloc(nb, 1);
    if (flags & PTX_DIFF_IGNORE_NAMES) {
        for (size_t i = 1; i < na; i++) {
            int j = i < nb ? (int)i : -1;
            if (j > 0)
                taken[j] = 1;
            out[n][0] = (int)i, out[n++][1] = j;
        }
    } else {
        /* chains of b's units by name, first definition first */
        smap *names = &g.names;
        int *next = g.next = pd_calloc(nb, sizeof *next);
        for (size_t j = nb; j-- > 1;) {
            ptx_str s = d->b.units[j].name;
            int fresh;
            smap_ent *e = pd_map_put(names, s.p, s.n, pd_hash(s.p, s.n), &fresh);
            next[j] = fresh ? -1 : (int)e->val;
            e->val = (uint32_t)j;
        }
        for (size_t i = 1; i < na; i++) {
            ptx_str s = d->a.units[i].name;
            smap_ent *e = pd_map_get(names, s.p, s.n, pd_hash(s.p, s.n));
            int j = e ? (int)e->val : -1;
            if (e)
                e->val = next[j] < 0 ? e->val : (uint32_t)next[j];
            if (j > 0 && taken[j])
                j = -1;
            if (j > 0)
                taken[j] = 1;
            out[n][0] = (int)i, out[n++][1] = j;
        }
    }
    for (size_t j = 1; j < nb; j++)
        if (!taken[j])
            out[n][0] = -1, out[n++][1] = (int)j;
    ptx_disown(&own);
    release_pairing(&g);
    return n;
}

/* Every --function name must name a function in a or b. */
static int check_names(const ptx_diff *d, const ptx_diff_options *o, char *err,
                       size_t errn)
{
    for (size_t k = 0; k < o->nfunctions; k++) {
        int found = 0;
        size_t len = strlen(o->functions[k]);
        for (int s = 0; s < 2 && !found; s++) {
            const side *sd = s ? &d->b : &d->a;
            for (size_t i = 1; i < sd->n && !found; i++)
                found = sd->units[i].name.n == len
                     && memcmp(sd->units[i].name.p, o->functions[k], len) == 0;
        }
        if (!found) {
            snprintf(err, errn, "no function '%s' in either file",
                     o->functions[k]);
            return -1;
        }
    }
    return 0;
}

typedef struct diff_call {
    const ptx_module *a, *b;
    const ptx_diff_options *o;
    char *msg;
    size_t errn;
    ptx_diff *d;
} diff_call;

static void diff_run(void *ud)
{
    diff_call *c = ud;
    c->d = pd_diff_split(c->a, c->b, c->o, PTX_MIN_PART, c->msg, c->errn);
}

static void free_diff(void *d)
{
    ptx_diff_free(d);
}

ptx_diff *ptx_diff_run(const ptx_module *a, const ptx_module *b,
                       const ptx_diff_options *o, ptx_diag *err)
{
    size_t errn;
    char *msg = ptx_diag_msgbuf(err, &errn);
    diff_call c = { a, b, o, msg, errn, NULL };
    if (ptx_protect(diff_run, &c) != 0) {
        ptx_diag_none(err, NULL, PTX_OUT_OF_MEMORY);
        return NULL;
    }
    return c.d;
}

ptx_diff *pd_diff_split(const ptx_module *a, const ptx_module *b,
                        const ptx_diff_options *o, size_t min_part, char *err,
                        size_t errn)
{
    ptx_diff *d = pd_calloc(1, sizeof *d);
    ptx_owned own, own_pu;
    ptx_own(&own, free_diff, d);
    unsigned jobs = !o->jobs ? 2 : o->jobs < PTX_MAX_THREADS ? o->jobs : PTX_MAX_THREADS;
    d->context = o->context >= 0 ? o->context : 3;
    d->same = 1;
    pd_sides_build(d, a, b, o->flags, jobs, min_part);
    if (check_names(d, o, err, errn) < 0) {
        ptx_disown(&own);
        ptx_diff_free(d);
        return NULL;
    }
    int (*pu)[2] = pd_calloc(d->a.n + d->b.n + 1, sizeof *pu);
    ptx_own(&own_pu, free, pu);
    size_t np = pair_units(d, o->flags, pu);
    d->pairs = pd_calloc(np + 1, sizeof *d->pairs);
    if (unit_wanted(d, o, 0, 0))
        add_pair(d, 0, 0);
    for (size_t k = 0; k < np; k++)
        if (unit_wanted(d, o, pu[k][0], pu[k][1]))
            add_pair(d, pu[k][0], pu[k][1]);
    ptx_disown(&own_pu);
    free(pu);
    align_all(d, jobs, min_part);
    ptx_disown(&own);
    return d;
}

int ptx_diff_same(const ptx_diff *d)
{
    return d->same;
}

size_t ptx_diff_nunits(const ptx_diff *d)
{
    return d->n;
}

const ptx_diff_unit *ptx_diff_unit_at(const ptx_diff *d, size_t i)
{
    return i < d->n ? &d->pairs[i].info : NULL;
}

void ptx_diff_free(ptx_diff *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->pairs[i].runs);
        free((char *)d->pairs[i].info.name);
    }
    free(d->pairs);
    pd_side_free(&d->a);
    pd_side_free(&d->b);
    pd_interner_free(&d->in);
    free(d);
}
