/*
 * emit_jobs.c - a module's text printed on several threads.
 *
 * The module's items are cut into groups of about equal source size; each
 * thread prints one group into a buffer of its own (ptx_emit_items), and
 * the buffers are then copied, in order, into the output, each thread its
 * own at the offset the sizes before it give.  A group's text does not
 * depend on what the groups before it printed, only on whether they printed
 * anything (canonical spacing), so the result is the one-thread printer's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"

#define MAX_GROUPS 256
/* Less text per thread than this is printed faster than a thread starts. */
#define MIN_GROUP ((size_t)256 * 1024)

typedef struct group {
    const ptx_module *m;
    const ptx_stmt *from, *to;
    int canonical, after;
    ptx_buf text;
    char *dest;            /* where text goes in the output (second round) */
} group;

static void *print_group(void *arg)
{
    group *g = arg;
    if (g->dest) {
        memcpy(g->dest, g->text.p, g->text.n);
        ptx_buf_free(&g->text);
    } else {
        ptx_emit_items(g->m, g->from, g->to, g->canonical, g->after, &g->text);
    }
    return NULL;
}

/* Runs print_group on every group, a thread each (this one takes the first
   and any a thread could not be started for). */
static void run(group *g, unsigned n)
{
    pthread_t t[MAX_GROUPS];
    int started[MAX_GROUPS] = { 0 };
    for (unsigned i = 1; i < n; i++)
        started[i] = pthread_create(&t[i], NULL, print_group, &g[i]) == 0;
    for (unsigned i = 0; i < n; i++)
        if (!started[i])
            print_group(&g[i]);
    for (unsigned i = 1; i < n; i++)
        if (started[i])
            pthread_join(t[i], NULL);
}

/* Cuts the items into at most `want` groups of about m->size / want bytes
   of source each: their number. */
static unsigned cut(const ptx_module *m, int canonical, unsigned want, group *g)
{
    size_t per = m->size / want, next = per;
    unsigned n = 0;
    g[0] = (group){ m, m->items, NULL, canonical, 0, { 0 }, NULL };
    for (const ptx_stmt *s = m->items; s; s = s->next) {
        if (n + 1 == want || m->toks[s->first].start < next || s == g[n].from)
            continue;
        g[n].to = s;
        g[++n] = (group){ m, s, NULL, canonical, 1, { 0 }, NULL };
        next = m->toks[s->first].start + per;
    }
    return n + 1;
}

void ptx_emit_jobs(const ptx_module *m, int canonical, unsigned jobs, ptx_buf *out)
{
    ptx_emit_split(m, canonical, jobs, MIN_GROUP, out);
}

void ptx_emit_split(const ptx_module *m, int canonical, unsigned jobs, size_t min_group,
                    ptx_buf *out)
{
    size_t most = m->size / (min_group ? min_group : 1);
    unsigned want = jobs > MAX_GROUPS ? MAX_GROUPS : jobs;
    if (most < want)
        want = (unsigned)most;
    if (want < 2 || !m->items) {
        ptx_emit_items(m, m->items, NULL, canonical, 0, out);
        return;
    }
    group g[MAX_GROUPS];
    unsigned n = cut(m, canonical, want, g);
    g[0].after = out->n != 0;   /* as the one-thread printer sees out */
    run(g, n);
    size_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += g[i].text.n;
    ptx_buf_reserve(out, total);
    char *at = out->p + out->n;
    for (unsigned i = 0; i < n; i++) {
        g[i].dest = at;
        at += g[i].text.n;
    }
    out->n += total;
    run(g, n);
}
