/*
 * emit_jobs.c - a module's text printed on several threads.
 *
 * The module's items are cut into groups of about equal source size, which
 * threads print at once (ptx_emit_items; ptx_print_each_thread puts their
 * text together).  A group's text does not depend on what the groups before
 * it printed, only on whether they printed anything (canonical spacing), so
 * the result is the one-thread printer's.
 */
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"
#include "util/buf.h"
#include "util/threads.h"

typedef struct group {
    const ptx_module *m;
    const ptx_stmt *from, *to;
    int canonical, after;
} group;

static void print_group(void *arg, ptx_buf *text)
{
    group *g = arg;
    /* room for the group's source text, which is all of exact's and about
       canonical's: one allocation, where a buffer doubling from 4 KiB was
       reallocated (and copied) eight times for a 16th of a 12 MB module */
    const ptx_token *t = g->m->toks;
    ptx_buf_reserve(text, (g->to ? t[g->to->first].start : g->m->size) - t[g->from->first].start);
    ptx_emit_items(g->m, g->from, g->to, g->canonical, g->after, text);
}

/* Cuts the items into at most `want` groups of about equal source size:
   their number. */
static unsigned cut(const ptx_module *m, int canonical, unsigned want, group *g)
{
    ptx_cut c = ptx_cut_start(m->size, want);
    unsigned n = 0;
    g[0] = (group){ m, m->items, NULL, canonical, 0 };
    for (const ptx_stmt *s = m->items->next; s; s = s->next)
        if (ptx_cut_here(&c, m->toks[s->first].start)) {
            g[n].to = s;
            g[++n] = (group){ m, s, NULL, canonical, 1 };
        }
    return n + 1;
}

void ptx_emit_split(const ptx_module *m, int canonical, unsigned jobs, size_t min_group,
                    ptx_buf *out)
{
    unsigned want = ptx_parts(m->size, jobs, min_group);
    if (want < 2 || !m->items) {
        ptx_emit_items(m, m->items, NULL, canonical, 0, out);
        return;
    }
    group g[PTX_MAX_THREADS];
    unsigned n = cut(m, canonical, want, g);
    g[0].after = out->n != 0;   /* as the one-thread printer sees out */
    ptx_print_each_thread(g, n, sizeof *g, print_group, out);
}
