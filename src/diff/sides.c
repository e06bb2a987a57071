/*
 * sides.c - both modules' units, built on threads; where a unit's line is
 * in its source, and its text.
 *
 * The work is cut by function: each side's function definitions are
 * grouped into runs of about equal source size, a fork of the side's
 * normaliser per run (units.c), and the runs of both sides share the
 * threads.  The first run interns straight into d->in, which nothing else
 * touches while the runs are built; every other run interns into its own
 * interner and is mapped into d->in when it is joined.  Ids only ever
 * compare for equality, so the numbering this gives changes nothing.
 */
#include <stdlib.h>
#include <string.h>
#include "diff/internal.h"
#include "emit/emit.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/threads.h"

typedef struct group {
    norm *w;
    size_t first, last;     /* units of the side */
} group;

static void fill(void *item)
{
    group *g = item;
    pd_norm_units(g->w, g->first, g->last);
}

/* The function units of sd in at most ptx_parts(...) runs into g: their
   number (0 without functions). */
static unsigned cut(const side *sd, unsigned jobs, size_t min_part, group *g)
{
    if (sd->n < 2)
        return 0;
    size_t total = 0;
    for (size_t k = 1; k < sd->n; k++)
        total += sd->units[k].bytes;
    ptx_cut c = ptx_cut_start(total, ptx_parts(total, jobs, min_part));
    unsigned n = 0;
    size_t at = sd->units[1].bytes;
    g[0] = (group){ NULL, 1, sd->n };
    for (size_t k = 2; k < sd->n; at += sd->units[k++].bytes)
        if (ptx_cut_here(&c, at)) {
            g[n].last = k;
            g[++n] = (group){ NULL, k, sd->n };
        }
    return n + 1;
}

static void line_starts(side *sd)
{
    const ptx_module *m = sd->m;
    size_t cap = 1024, n = 0;
    /* (in sd as it grows: the side's to free, should memory run out) */
    uint32_t *v = sd->lines = pd_realloc(NULL, cap * sizeof *v);
    v[n++] = 0;
    for (const char *p = m->src, *e = m->src + m->size;
         (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++) {
        if (n == cap)
            v = sd->lines = pd_realloc(v, (cap *= 2) * sizeof *v);
        v[n++] = (uint32_t)(p + 1 - m->src);
    }
    sd->nlines = n;
}

/* What pd_sides_build holds while it builds: its normalisers and forks. */
typedef struct held {
    norm *z[2];
    group g[PTX_MAX_THREADS + 1];
    unsigned n;         /* forks made */
} held;

static void release_held(void *arg)
{
    held *h = arg;
    pd_norm_free(h->z[0]);
    pd_norm_free(h->z[1]);
    for (unsigned k = 0; k < h->n; k++)
        pd_norm_free(h->g[k].w);
}

void pd_sides_build(ptx_diff *d, const ptx_module *a, const ptx_module *b,
                    unsigned flags, unsigned jobs, size_t min_part)
{
    side *sd[2] = { &d->a, &d->b };
    const ptx_module *m[2] = { a, b };
    unsigned share[2] = { (jobs + 1) / 2, jobs / 2 ? jobs / 2 : 1 };
    held h = { { NULL, NULL }, { { 0 } }, 0 };   /* (freed if memory runs out) */
    norm **z = h.z;
    group *g = h.g;
    unsigned ng[2], n = 0;
    ptx_owned own;
    ptx_own(&own, release_held, &h);
    for (int s = 0; s < 2; s++) {
        memset(sd[s], 0, sizeof *sd[s]);
        sd[s]->m = m[s];
        line_starts(sd[s]);
        z[s] = pd_side_start(sd[s], m[s], flags, &d->in);
        ng[s] = cut(sd[s], share[s], min_part, g + n);
        for (unsigned k = n; k < n + ng[s]; k++, h.n = k)
            g[k].w = pd_norm_fork(z[s], k == 0 ? &d->in : NULL);
        n += ng[s];
    }
    if (jobs > 1) {
        if (ptx_each_thread(g, n, sizeof *g, fill))
            ptx_oom();
    } else {
        for (unsigned k = 0; k < n; k++)
            fill(&g[k]);
    }
    for (unsigned k = 0; k < n; k++) {
        pd_norm_join(z[k >= ng[0]], g[k].w, g[k].first, g[k].last);
        g[k].w = NULL;
    }
    pd_side_finish(z[0]);
    z[0] = NULL;
    pd_side_finish(z[1]);     /* (frees it, and unwinds only before) */
    ptx_disown(&own);
}

void pd_side_build(side *sd, const ptx_module *m, unsigned flags, interner *in)
{
    memset(sd, 0, sizeof *sd);
    sd->m = m;
    line_starts(sd);
    held h = { { pd_side_start(sd, m, flags, in), NULL }, { { 0 } }, 0 };
    ptx_owned own;
    ptx_own(&own, release_held, &h);
    h.g[0].w = pd_norm_fork(h.z[0], in);
    h.n = 1;
    pd_norm_units(h.g[0].w, 1, sd->n);
    pd_norm_join(h.z[0], h.g[0].w, 1, sd->n);
    h.g[0].w = NULL;
    pd_side_finish(h.z[0]);   /* (frees it, and unwinds only before) */
    ptx_disown(&own);
}

void pd_side_free(side *sd)
{
    for (size_t i = 0; i < sd->n; i++)
        free(sd->units[i].v);
    free(sd->units);
    free(sd->lines);
    memset(sd, 0, sizeof *sd);
}

uint32_t pd_side_line(const side *sd, const dline *l)
{
    uint32_t off = sd->m->toks[l->t0].start;
    size_t lo = 0, hi = sd->nlines;     /* last start <= off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (sd->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)lo + 1;
}

static void indent(ptx_buf *out, int depth)
{
    for (int i = 0; i < depth; i++)
        ptx_buf_putc(out, '\t');
}

void pd_dline_text(const side *sd, const dline *l, ptx_buf *out)
{
    const ptx_module *m = sd->m;
    switch (l->what) {
    case DL_OPEN: case DL_CLOSE:
        indent(out, l->depth);
        ptx_buf_puts(out, l->what == DL_OPEN ? "{\n" : "}\n");
        break;
    case DL_HEAD:
        if (l->s->kind == PTX_S_SECTION) {
            indent(out, l->depth);
            ptx_print_token(m, l->s->u.section.dir, out);
            ptx_buf_putc(out, ' ');
            ptx_print_token(m, l->s->u.section.name, out);
            ptx_buf_putc(out, '\n');
        } else {
            /* the header alone: the same statement without its body */
            ptx_stmt head = *l->s;
            head.u.func.body = NULL;
            ptx_print_stmt(m, &head, l->depth, out);
        }
        break;
    default:
        ptx_print_stmt(m, l->s, (l->flags & DF_LINE0) ? 0 : l->depth, out);
        break;
    }
}
