/*
 * report.c - print the result of ptx_diff_run: unified hunks, --stat and
 * --json.
 *
 * Hunks are cut from a pair's runs like diff -u does: `context` kept lines
 * around each stretch of edits, and stretches closer than twice that are
 * merged into one hunk.  The header names the function and the nearest
 * label at or before the first edit, like diff -p.
 */
#include <string.h>
#include "diff/internal.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/json.h"

typedef struct hunk {
    size_t c0, c1;          /* first and last run with edits */
    uint32_t pre, post;     /* kept lines shown before and after */
    uint32_t a0, b0;        /* first line index on each side */
} hunk;

/* Where the label search of one side stands (hunks come in order). */
typedef struct lscan {
    uint32_t pos;
    int64_t last;
} lscan;

typedef struct out_ctx {
    const ptx_diff *d;
    const pair *p;
    const unit *ua, *ub;
    lscan la, lb;
    ptx_buf text;
} out_ctx;

static const unit empty_unit = { { "", 0 }, NULL, 0, NULL, 0, 0 };

const unit *pd_pair_unit(const ptx_diff *d, const pair *p, int which_b)
{
    int k = which_b ? p->ub : p->ua;
    if (k < 0)
        return &empty_unit;
    return which_b ? &d->b.units[k] : &d->a.units[k];
}

/* The next hunk at or after run k; 0 when there is none. */
static int next_hunk(const pair *p, size_t k, int ctx, hunk *h)
{
    const edit_run *r = p->runs;
    size_t n = p->nruns;
    while (k < n && r[k].op == ' ')
        k++;
    if (k == n)
        return 0;
    size_t c1 = k;
    for (;;) {
        if (c1 + 1 < n && r[c1 + 1].op != ' ')
            c1++;
        else if (c1 + 2 < n && r[c1 + 1].len <= 2u * (uint32_t)ctx)
            c1 += 2;
        else
            break;
    }
    h->c0 = k, h->c1 = c1;
    h->pre = k > 0 ? r[k - 1].len : 0;
    h->post = c1 + 1 < n ? r[c1 + 1].len : 0;
    if (h->pre > (uint32_t)ctx)
        h->pre = (uint32_t)ctx;
    if (h->post > (uint32_t)ctx)
        h->post = (uint32_t)ctx;
    h->a0 = r[k].i - h->pre;
    h->b0 = r[k].j - h->pre;
    return 1;
}

/* The last label among u's lines [0, limit), or NULL. */
static const dline *label_before(const unit *u, lscan *s, uint32_t limit)
{
    for (; s->pos < limit && s->pos < u->n; s->pos++)
        if (u->v[s->pos].flags & DF_LABEL)
            s->last = s->pos;
    return s->last >= 0 ? &u->v[s->last] : NULL;
}

static const dline *hunk_label(out_ctx *c, const hunk *h)
{
    const edit_run *r = &c->p->runs[h->c0];
    if (c->p->ua >= 0)
        return label_before(c->ua, &c->la, r->i + (r->op == '-'));
    return label_before(c->ub, &c->lb, r->j + (r->op == '+'));
}

/* Calls f for each line of the hunk: op, side (0 a, 1 b) and index. */
typedef void line_fn(out_ctx *c, char op, int side, uint32_t idx, void *arg);

static void hunk_lines(out_ctx *c, const hunk *h, line_fn *f, void *arg)
{
    const edit_run *r = c->p->runs;
    for (uint32_t k = 0; k < h->pre; k++)
        f(c, ' ', 0, h->a0 + k, arg);
    for (size_t q = h->c0; q <= h->c1; q++)
        for (uint32_t k = 0; k < r[q].len; k++) {
            if (r[q].op == '+')
                f(c, '+', 1, r[q].j + k, arg);
            else
                f(c, r[q].op, 0, r[q].i + k, arg);
        }
    const edit_run *last = &r[h->c1];
    uint32_t ai = last->i + (last->op == '+' ? 0 : last->len);
    for (uint32_t k = 0; k < h->post; k++)
        f(c, ' ', 0, ai + k, arg);
}

static const side *side_of(const out_ctx *c, int s)
{
    return s ? &c->d->b : &c->d->a;
}

static const dline *line_at(const out_ctx *c, int s, uint32_t idx)
{
    return &(s ? c->ub : c->ua)->v[idx];
}

/* ---- unified */

typedef struct ucount {
    ptx_buf *body;
    uint32_t na, nb;
} ucount;

static void unified_line(out_ctx *c, char op, int s, uint32_t idx, void *arg)
{
    ucount *u = arg;
    c->text.n = 0;
    pd_dline_text(side_of(c, s), line_at(c, s, idx), &c->text);
    for (size_t b = 0, e; b < c->text.n; b = e + 1) {
        e = b;
        while (e < c->text.n && c->text.p[e] != '\n')
            e++;
        ptx_buf_putc(u->body, op);
        ptx_buf_put(u->body, c->text.p + b, e - b);
        ptx_buf_putc(u->body, '\n');
        u->na += op != '+';
        u->nb += op != '-';
    }
}

/* Source line of the hunk's first line on one side; for an empty side,
   that of the line before (0 if none), as diff -u does. */
static uint32_t start_line(const out_ctx *c, int s, uint32_t idx, uint32_t n)
{
    const unit *u = s ? c->ub : c->ua;
    if (n && idx < u->n)
        return pd_side_line(side_of(c, s), &u->v[idx]);
    return idx > 0 && idx <= u->n ? pd_side_line(side_of(c, s), &u->v[idx - 1])
                                  : 0;
}

static void hunk_title(out_ctx *c, const hunk *h, ptx_buf *out)
{
    const pair *p = c->p;
    const char *name = p->ua == 0 || p->ub == 0 ? "" : p->info.name;
    if (p->info.status == PTX_DIFF_ADDED || p->info.status == PTX_DIFF_REMOVED) {
        ptx_buf_printf(out, " %s: function %s", name,
                       p->info.status == PTX_DIFF_ADDED ? "added" : "removed");
        return;
    }
    const dline *l = hunk_label(c, h);
    if (*name)
        ptx_buf_printf(out, " %s", name);
    if (l) {
        ptx_str s = ptx_tok_str(side_of(c, p->ua < 0)->m, l->s->u.label.name);
        ptx_buf_printf(out, " (%.*s)", (int)s.n, s.p);
    }
}

static void init_ctx(out_ctx *c, const ptx_diff *d, const pair *p)
{
    memset(c, 0, sizeof *c);
    c->d = d, c->p = p;
    c->ua = pd_pair_unit(d, p, 0), c->ub = pd_pair_unit(d, p, 1);
    c->la.last = c->lb.last = -1;
}

/* Which hunks of a pair to print: module-level hunks before the first
   function go first and the rest last, so the output follows the files. */
typedef struct hfilter {
    uint32_t before;    /* only hunks starting before this line of a, */
    uint32_t from;      /* ... and at or after this one */
} hfilter;

static void unified_pair(const ptx_diff *d, const pair *p, hfilter f,
                         ptx_buf *out)
{
    out_ctx c;
    init_ctx(&c, d, p);
    ptx_buf body = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &body, &c.text, NULL);
    hunk h;
    for (size_t k = 0; next_hunk(p, k, d->context, &h); k = h.c1 + 1) {
        ucount u = { &body, 0, 0 };
        body.n = 0;
        hunk_lines(&c, &h, unified_line, &u);
        uint32_t la = start_line(&c, 0, h.a0, u.na);
        if (la < f.from || la >= f.before)
            continue;
        ptx_buf_printf(out, "@@ -%u,%u +%u,%u @@", la, u.na,
                       start_line(&c, 1, h.b0, u.nb), u.nb);
        hunk_title(&c, &h, out);
        ptx_buf_putc(out, '\n');
        ptx_buf_put(out, body.p, body.n);
    }
    ptx_free_bufs(&ob);
}

void pd_unified_hunks(const ptx_diff *d, const pair *p, ptx_buf *out)
{
    const hfilter all = { UINT32_MAX, 0 };
    unified_pair(d, p, all, out);
}

static void print_unified(const ptx_diff *d, ptx_buf *out)
{
    if (d->same)
        return;
    ptx_buf_printf(out, "--- %s\n+++ %s\n", d->a.m->filename, d->b.m->filename);
    uint32_t first_fn = UINT32_MAX;
    if (d->a.n > 1)
        first_fn = pd_side_line(&d->a, &d->a.units[1].v[0]);
    const hfilter all = { UINT32_MAX, 0 }, early = { first_fn, 0 },
                  late = { UINT32_MAX, first_fn };
    for (size_t i = 0; i < d->n; i++) {
        const pair *p = &d->pairs[i];
        if (p->info.status != PTX_DIFF_SAME)
            unified_pair(d, p, p->ua == 0 ? early : all, out);
    }
    if (d->n && d->pairs[0].ua == 0 && d->pairs[0].info.status != PTX_DIFF_SAME)
        unified_pair(d, &d->pairs[0], late, out);
}

/* ---- --stat */

static void stat_counts(const ptx_diff_unit *u, ptx_buf *out)
{
    if (u->status == PTX_DIFF_ADDED || u->status == PTX_DIFF_REMOVED) {
        ptx_buf_printf(out, "function %s, %u statements",
                       u->status == PTX_DIFF_ADDED ? "added" : "removed",
                       u->status == PTX_DIFF_ADDED ? u->added : u->removed);
        return;
    }
    const char *sep = "";
    if (u->added)
        ptx_buf_printf(out, "%s%u added", sep, u->added), sep = ", ";
    if (u->removed)
        ptx_buf_printf(out, "%s%u removed", sep, u->removed), sep = ", ";
    if (u->changed)
        ptx_buf_printf(out, "%s%u changed", sep, u->changed);
}

static void print_stat(const ptx_diff *d, ptx_buf *out)
{
    size_t width = 0, ndiff = 0;
    uint32_t add = 0, rem = 0, chg = 0;
    for (size_t i = 0; i < d->n; i++) {
        const ptx_diff_unit *u = &d->pairs[i].info;
        if (u->status != PTX_DIFF_SAME && strlen(u->name) > width)
            width = strlen(u->name);
    }
    for (size_t i = 0; i < d->n; i++) {
        const ptx_diff_unit *u = &d->pairs[i].info;
        if (u->status == PTX_DIFF_SAME)
            continue;
        ndiff++, add += u->added, rem += u->removed, chg += u->changed;
        ptx_buf_printf(out, " %-*s | ", (int)width, u->name);
        stat_counts(u, out);
        ptx_buf_putc(out, '\n');
    }
    if (ndiff)
        ptx_buf_printf(out, " %zu of %zu units differ: %u statements added, "
                       "%u removed, %u changed\n", ndiff, d->n, add, rem, chg);
}

/* ---- --json */

typedef struct jctx {
    ptx_buf *out;
    int first;
} jctx;

static void json_line(out_ctx *c, char op, int s, uint32_t idx, void *arg)
{
    jctx *j = arg;
    const dline *l = line_at(c, s, idx);
    c->text.n = 0;
    pd_dline_text(side_of(c, s), l, &c->text);
    ptx_buf_printf(j->out, "%s{\"op\":\"%c\",\"%s\":%u", j->first ? "" : ",",
                   op, s ? "b_line" : "a_line", pd_side_line(side_of(c, s), l));
    j->first = 0;
    ptx_buf_puts(j->out, ",\"text\":");
    json_string_n(j->out, c->text.p, c->text.n ? c->text.n - 1 : 0);
    ptx_buf_putc(j->out, '}');
}

void pd_json_hunks(const ptx_diff *d, const pair *p, ptx_buf *out)
{
    out_ctx c;
    init_ctx(&c, d, p);
    ptx_buf scratch = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &scratch, &c.text, NULL);
    hunk h;
    const char *sep = "";
    for (size_t k = 0; next_hunk(p, k, d->context, &h); k = h.c1 + 1) {
        ucount u = { &scratch, 0, 0 };
        scratch.n = 0;
        hunk_lines(&c, &h, unified_line, &u);   /* for the line counts */
        ptx_buf_printf(out, "%s{\"a_start\":%u,\"a_count\":%u,\"b_start\":%u,"
                       "\"b_count\":%u,\"label\":", sep,
                       start_line(&c, 0, h.a0, u.na), u.na,
                       start_line(&c, 1, h.b0, u.nb), u.nb);
        const dline *l = hunk_label(&c, &h);
        if (l) {
            ptx_str s = ptx_tok_str(side_of(&c, p->ua < 0)->m,
                                    l->s->u.label.name);
            json_string_n(out, s.p, s.n);
        } else {
            ptx_buf_puts(out, "null");
        }
        ptx_buf_puts(out, ",\"lines\":[");
        jctx j = { out, 1 };
        hunk_lines(&c, &h, json_line, &j);
        ptx_buf_puts(out, "]}");
        sep = ",";
    }
    ptx_free_bufs(&ob);
}

static void print_json(const ptx_diff *d, ptx_buf *out)
{
    static const char *const status[] = { "same", "changed", "added",
                                          "removed" };
    uint32_t add = 0, rem = 0, chg = 0, ndiff = 0;
    ptx_buf_puts(out, "{\"a\":");
    json_string(out, d->a.m->filename);
    ptx_buf_puts(out, ",\"b\":");
    json_string(out, d->b.m->filename);
    ptx_buf_printf(out, ",\"same\":%s,\"units\":[", d->same ? "true" : "false");
    for (size_t i = 0; i < d->n; i++) {
        const pair *p = &d->pairs[i];
        const ptx_diff_unit *u = &p->info;
        ndiff += u->status != PTX_DIFF_SAME;
        add += u->added, rem += u->removed, chg += u->changed;
        ptx_buf_puts(out, i ? ",{\"name\":" : "{\"name\":");
        json_string(out, u->name);
        ptx_buf_printf(out, ",\"status\":\"%s\",\"added\":%u,\"removed\":%u,"
                       "\"changed\":%u,\"hunks\":[", status[u->status],
                       u->added, u->removed, u->changed);
        if (u->status != PTX_DIFF_SAME)
            pd_json_hunks(d, p, out);
        ptx_buf_puts(out, "]}");
    }
    ptx_buf_printf(out, "],\"totals\":{\"units\":%zu,\"differing\":%u,"
                   "\"added\":%u,\"removed\":%u,\"changed\":%u}}\n",
                   d->n, ndiff, add, rem, chg);
}

/* ---- the public printers, under ptx_protect */

typedef struct print_call {
    void (*print)(const ptx_diff *, ptx_buf *);
    const ptx_diff *d;
    ptx_buf *out;
} print_call;

static void print_diff(void *ud)
{
    print_call *c = ud;
    c->print(c->d, c->out);
}

static int protected_print(void (*print)(const ptx_diff *, ptx_buf *), const ptx_diff *d,
                           ptx_buf *out)
{
    print_call c = { print, d, out };
    return ptx_protect_buf(out, print_diff, &c);
}

int ptx_diff_print_unified(const ptx_diff *d, ptx_buf *out)
{
    return protected_print(print_unified, d, out);
}

int ptx_diff_print_stat(const ptx_diff *d, ptx_buf *out)
{
    return protected_print(print_stat, d, out);
}

int ptx_diff_print_json(const ptx_diff *d, ptx_buf *out)
{
    return protected_print(print_json, d, out);
}
