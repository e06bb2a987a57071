/*
 * tree_report.c - print a tree diff: unified, --stat, --json and markdown,
 * each with the kernels' resource figures where the caller measured them.
 *
 * A kernel's hunks are ptx_diff's (report.c), printed through a view of
 * the two files' sides, so a tree's hunks read exactly as a diff of the
 * two files would print them.
 */
#include <stdlib.h>
#include <string.h>
#include "diff/tree.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/json.h"

static const char *const res_names[PTX_RES_N] = {
    "regs", "spill-stores", "spill-loads", "stack", "shared", "local", "const", "insts",
};
/* How much a regression of each figure weighs in the markdown's order:
   spills first, then registers, stack and the rest. */
static const int res_weight[PTX_RES_N] = { 100, 1000, 1000, 10, 1, 10, 0, 0 };
static const char *const how_names[] = { "name", "metadata", "similarity", "unpaired" };
static const char *const status_names[] = { "same", "changed", "added", "removed" };

const char *ptx_res_name(unsigned i)
{
    return i < PTX_RES_N ? res_names[i] : NULL;
}

/* The two files' sides as one ptx_diff, for report.c's printers. */
static ptx_diff view_of(const ptx_tree_diff *t, const tentry *e)
{
    ptx_diff v;
    memset(&v, 0, sizeof v);
    if (e->fa >= 0)
        v.a = t->s[0].sd[e->fa];
    if (e->fb >= 0)
        v.b = t->s[1].sd[e->fb];
    v.context = t->context;
    return v;
}

static const char *path_of(const ptx_tree_diff *t, int s, int f)
{
    return f >= 0 ? t->s[s].f[f].path : "/dev/null";
}

static void how_text(const tentry *e, ptx_buf *out)
{
    if (e->info.how == PTX_TREE_BY_SIMILARITY)
        ptx_buf_printf(out, "paired by similarity, %u%%", e->info.similarity);
    else if (e->info.how != PTX_TREE_UNPAIRED)
        ptx_buf_printf(out, "paired by %s", how_names[e->info.how]);
}

/* "regs 40 -> 48 (+8, worse)" for each figure that differs, or that one
   side alone has; nothing where neither was measured. */
static void res_deltas(const ptx_res *ra, const ptx_res *rb, const char *sep, ptx_buf *out)
{
    const char *s = "";
    for (unsigned i = 0; i < PTX_RES_N; i++) {
        long long a = ra ? ra->v[i] : -1, b = rb ? rb->v[i] : -1;
        if (a == b)
            continue;
        ptx_buf_printf(out, "%s%s ", s, res_names[i]);
        if (a >= 0 && b >= 0)
            ptx_buf_printf(out, "%lld -> %lld (%+lld, %s)", a, b, b - a,
                           b > a ? "worse" : "better");
        else if (a >= 0)
            ptx_buf_printf(out, "%lld -> n/a", a);
        else
            ptx_buf_printf(out, "n/a -> %lld", b);
        s = sep;
    }
    for (int k = 0; k < 2; k++) {
        const ptx_res *r = k ? rb : ra;
        if (r && r->error)
            ptx_buf_printf(out, "%s%s: %s", s, k ? "b" : "a", r->error), s = sep;
    }
}

static void file_errors(const ptx_tree_diff *t, ptx_buf *out)
{
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < t->s[s].n; i++)
            if (!t->s[s].f[i].m && t->s[s].f[i].error)
                ptx_buf_printf(out, "%s\n", t->s[s].f[i].error);
            else if (!t->s[s].f[i].m)
                ptx_buf_printf(out, "%s: error: not read\n", t->s[s].f[i].path);
}

static void unified(const ptx_tree_diff *t, const ptx_res *res, ptx_buf *out)
{
    file_errors(t, out);
    for (size_t i = 0; i < t->n; i++) {
        const tentry *e = &t->e[i];
        if (e->info.status == PTX_DIFF_SAME)
            continue;
        ptx_buf_printf(out, "=== %s: %s", e->info.name, status_names[e->info.status]);
        if (e->info.how != PTX_TREE_UNPAIRED && e->p.ua != 0) {
            ptx_buf_puts(out, " (");
            how_text(e, out);
            ptx_buf_putc(out, ')');
        }
        ptx_buf_putc(out, '\n');
        if (res && e->p.ua != 0) {
            ptx_buf b = { 0 };
            ptx_bufs ob;
            ptx_own_bufs(&ob, &b, NULL);
            res_deltas(&res[2 * i], &res[2 * i + 1], "; ", &b);
            if (b.n)
                ptx_buf_printf(out, "resources: %.*s\n", (int)b.n, b.p);
            ptx_free_bufs(&ob);
        }
        ptx_buf_printf(out, "--- %s\n+++ %s\n", path_of(t, 0, e->fa), path_of(t, 1, e->fb));
        ptx_diff v = view_of(t, e);
        pd_unified_hunks(&v, &e->p, out);
    }
}

static void totals(const ptx_tree_diff *t, size_t *by_status)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].p.ua != 0)
            by_status[t->e[i].info.status]++;
}

static void stat(const ptx_tree_diff *t, const ptx_res *res, ptx_buf *out)
{
    size_t width = 0, n[4] = { 0 };
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].info.status != PTX_DIFF_SAME && strlen(t->e[i].info.name) > width)
            width = strlen(t->e[i].info.name);
    file_errors(t, out);
    for (size_t i = 0; i < t->n; i++) {
        const tentry *e = &t->e[i];
        if (e->info.status == PTX_DIFF_SAME)
            continue;
        ptx_buf_printf(out, " %-*s | %s, %u added, %u removed, %u changed", (int)width,
                       e->info.name, status_names[e->info.status], e->info.added,
                       e->info.removed, e->info.changed);
        if (res && e->p.ua != 0) {
            ptx_buf b = { 0 };
            ptx_bufs ob;
            ptx_own_bufs(&ob, &b, NULL);
            res_deltas(&res[2 * i], &res[2 * i + 1], ", ", &b);
            if (b.n)
                ptx_buf_printf(out, " | %.*s", (int)b.n, b.p);
            ptx_free_bufs(&ob);
        }
        ptx_buf_putc(out, '\n');
    }
    totals(t, n);
    ptx_buf_printf(out, " %zu kernels: %zu same, %zu changed, %zu added, %zu removed\n",
                   n[0] + n[1] + n[2] + n[3], n[0], n[1], n[2], n[3]);
}

static void json_res(const ptx_res *r, ptx_buf *out)
{
    if (!r) {
        ptx_buf_puts(out, "null");
        return;
    }
    ptx_buf_putc(out, '{');
    for (unsigned i = 0; i < PTX_RES_N; i++)
        if (r->v[i] >= 0)
            ptx_buf_printf(out, "\"%s\":%lld,", res_names[i], r->v[i]);
    ptx_buf_puts(out, "\"error\":");
    if (r->error)
        json_string(out, r->error);
    else
        ptx_buf_puts(out, "null");
    ptx_buf_putc(out, '}');
}

static void json_path(const ptx_tree_diff *t, int s, int f, ptx_buf *out)
{
    if (f >= 0)
        json_string(out, t->s[s].f[f].path);
    else
        ptx_buf_puts(out, "null");
}

static void json_entry(const ptx_tree_diff *t, size_t i, const ptx_res *res, ptx_buf *out)
{
    const tentry *e = &t->e[i];
    ptx_buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
    json_string(out, e->info.name);
    ptx_buf_printf(out, ",\"status\":\"%s\",\"paired_by\":\"%s\",\"similarity\":%u,"
                   "\"a\":", status_names[e->info.status],
                   e->p.ua == 0 ? "files" : how_names[e->info.how], e->info.similarity);
    json_path(t, 0, e->fa, out);
    ptx_buf_puts(out, ",\"b\":");
    json_path(t, 1, e->fb, out);
    ptx_buf_printf(out, ",\"added\":%u,\"removed\":%u,\"changed\":%u", e->info.added,
                   e->info.removed, e->info.changed);
    if (res && e->p.ua != 0) {
        ptx_buf_puts(out, ",\"resources\":{\"a\":");
        json_res(e->fa >= 0 ? &res[2 * i] : NULL, out);
        ptx_buf_puts(out, ",\"b\":");
        json_res(e->fb >= 0 ? &res[2 * i + 1] : NULL, out);
        ptx_buf_putc(out, '}');
    }
    ptx_buf_puts(out, ",\"hunks\":[");
    if (e->info.status != PTX_DIFF_SAME) {
        ptx_diff v = view_of(t, e);
        pd_json_hunks(&v, &e->p, out);
    }
    ptx_buf_puts(out, "]}");
}

static void json(const ptx_tree_diff *t, const ptx_res *res, ptx_buf *out)
{
    size_t n[4] = { 0 };
    ptx_buf_printf(out, "{\"same\":%s,\"errors\":[", t->same ? "true" : "false");
    const char *sep = "";
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < t->s[s].n; i++)
            if (!t->s[s].f[i].m) {
                ptx_buf_printf(out, "%s{\"side\":\"%c\",\"path\":", sep, "ab"[s]);
                json_string(out, t->s[s].f[i].path);
                ptx_buf_puts(out, ",\"error\":");
                json_string(out, t->s[s].f[i].error ? t->s[s].f[i].error : "not read");
                ptx_buf_putc(out, '}');
                sep = ",";
            }
    ptx_buf_puts(out, "],\"kernels\":[");
    for (size_t i = 0; i < t->n; i++)
        json_entry(t, i, res, out);
    totals(t, n);
    ptx_buf_printf(out, "],\"totals\":{\"kernels\":%zu,\"same\":%zu,\"changed\":%zu,"
                   "\"added\":%zu,\"removed\":%zu}}\n", n[0] + n[1] + n[2] + n[3], n[0],
                   n[1], n[2], n[3]);
}

/* ---- markdown */

/* How bad a kernel's change is: regressions by weight, then statements. */
static long long badness(const tentry *e, const ptx_res *ra, const ptx_res *rb)
{
    long long w = 0;
    for (unsigned i = 0; ra && rb && i < PTX_RES_N; i++)
        if (ra->v[i] >= 0 && rb->v[i] > ra->v[i])
            w += (long long)res_weight[i] * (rb->v[i] - ra->v[i]) + 1000000;
    return w * 4 + e->info.added + e->info.removed + e->info.changed;
}

typedef struct ranked {
    size_t i;
    long long bad;
} ranked;

static int worst_first(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    return a->bad != b->bad ? (a->bad > b->bad ? -1 : 1) : (a->i < b->i ? -1 : a->i > b->i);
}

static void md_cell(const ptx_res *ra, const ptx_res *rb, unsigned i, ptx_buf *out)
{
    long long a = ra ? ra->v[i] : -1, b = rb ? rb->v[i] : -1;
    if (a < 0 && b < 0)
        ptx_buf_puts(out, " |");
    else if (a == b)
        ptx_buf_printf(out, " %lld |", a);
    else if (a < 0 || b < 0)
        ptx_buf_printf(out, " %s → %s |", a < 0 ? "–" : "", b < 0 ? "–" : "");
    else
        ptx_buf_printf(out, b > a ? " %lld → %lld (**%+lld**) |" : " %lld → %lld (%+lld) |",
                       a, b, b - a);
}

static void md_table(const ptx_tree_diff *t, const ranked *r, size_t nr, const ptx_res *res,
                     ptx_buf *out)
{
    ptx_buf_puts(out, "| kernel | status | statements |");
    for (unsigned i = 0; res && i < PTX_RES_N; i++)
        ptx_buf_printf(out, " %s |", res_names[i]);
    ptx_buf_puts(out, "\n|---|---|---|");
    for (unsigned i = 0; res && i < PTX_RES_N; i++)
        ptx_buf_puts(out, "---:|");
    ptx_buf_putc(out, '\n');
    for (size_t k = 0; k < nr; k++) {
        const tentry *e = &t->e[r[k].i];
        ptx_buf_printf(out, "| `%s` | %s | +%u −%u ~%u |", e->info.name,
                       status_names[e->info.status], e->info.added, e->info.removed,
                       e->info.changed);
        for (unsigned i = 0; res && i < PTX_RES_N; i++)
            md_cell(e->fa >= 0 ? &res[2 * r[k].i] : NULL,
                    e->fb >= 0 ? &res[2 * r[k].i + 1] : NULL, i, out);
        ptx_buf_putc(out, '\n');
    }
}

static void md_details(const ptx_tree_diff *t, const tentry *e, ptx_buf *out)
{
    ptx_buf_printf(out, "\n<details><summary><code>%s</code>: %s", e->info.name,
                   status_names[e->info.status]);
    if (e->info.how != PTX_TREE_UNPAIRED && e->p.ua != 0) {
        ptx_buf_puts(out, ", ");
        how_text(e, out);
    }
    ptx_buf_puts(out, "</summary>\n\n```diff\n");
    ptx_buf_printf(out, "--- %s\n+++ %s\n", path_of(t, 0, e->fa), path_of(t, 1, e->fb));
    ptx_diff v = view_of(t, e);
    pd_unified_hunks(&v, &e->p, out);
    ptx_buf_puts(out, "```\n\n</details>\n");
}

static void markdown(const ptx_tree_diff *t, const ptx_res *res, ptx_buf *out)
{
    size_t n[4] = { 0 }, nr = 0;
    totals(t, n);
    ranked *r = pd_calloc(t->n + 1, sizeof *r);
    ptx_owned own;
    ptx_own(&own, free, r);
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].info.status != PTX_DIFF_SAME)
            r[nr++] = (ranked){ i, badness(&t->e[i], res ? &res[2 * i] : NULL,
                                           res ? &res[2 * i + 1] : NULL) };
    qsort(r, nr, sizeof *r, worst_first);
    ptx_buf_printf(out, "### pyptx-diff: %zu of %zu kernels differ (%zu changed, %zu added, "
                   "%zu removed)\n\n", n[1] + n[2] + n[3], n[0] + n[1] + n[2] + n[3], n[1],
                   n[2], n[3]);
    ptx_buf b = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &b, NULL);
    file_errors(t, &b);
    if (b.n)
        ptx_buf_printf(out, "```\n%.*s```\n\n", (int)b.n, b.p);
    ptx_free_bufs(&ob);
    if (nr)
        md_table(t, r, nr, res, out);
    for (size_t k = 0; k < nr; k++)
        md_details(t, &t->e[r[k].i], out);
    ptx_disown(&own);
    free(r);
}

typedef struct print_call {
    const ptx_tree_diff *t;
    ptx_tree_format f;
    const ptx_res *res;
    ptx_buf *out;
} print_call;

static void print_tree(void *ud)
{
    print_call *c = ud;
    switch (c->f) {
    case PTX_TREE_UNIFIED: unified(c->t, c->res, c->out); break;
    case PTX_TREE_STAT: stat(c->t, c->res, c->out); break;
    case PTX_TREE_JSON: json(c->t, c->res, c->out); break;
    case PTX_TREE_MARKDOWN: markdown(c->t, c->res, c->out); break;
    }
}

int ptx_tree_print(const ptx_tree_diff *t, ptx_tree_format f, const ptx_res *res,
                   ptx_buf *out)
{
    print_call c = { t, f, res, out };
    return ptx_protect_buf(out, print_tree, &c);
}
