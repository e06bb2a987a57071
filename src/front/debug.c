/*
 * debug.c - which statements are debug data (front/debug.h).
 *
 * Labels are found by name in a small open-addressing table of the
 * body's label names: one entry per name, so that two labels of one name
 * (in sibling blocks) are kept or dropped together, as a reference to the
 * name could be to either.
 */
#include <stdlib.h>
#include <string.h>
#include "front/debug.h"
#include "util/alloc.h"
#include "util/buf.h"

int ptx_debug_stmt(const ptx_module *m, const ptx_stmt *s)
{
    static const char prefix[] = ".debug_";
    switch (s->kind) {
    case PTX_S_LOC: case PTX_S_FILE: case PTX_S_DWARF:
        return 1;
    case PTX_S_SECTION: {
        ptx_str n = ptx_tok_str(m, s->u.section.name);
        return n.n >= sizeof prefix - 1 && memcmp(n.p, prefix, sizeof prefix - 1) == 0;
    }
    default:
        return 0;
    }
}

typedef struct lname {
    ptx_str name;
    int used;
} lname;

typedef struct lstmt {
    const ptx_stmt *s;
    uint32_t name;      /* index into names */
} lstmt;

typedef struct ltable {
    const ptx_module *m;
    ptx_buf names;      /* lname[] */
    ptx_buf stmts;      /* lstmt[], in source order */
    ptx_buf slots;      /* uint32_t[]: 1 + index into names; 0: empty */
    size_t mask;
} ltable;

static uint64_t hash(ptx_str s)
{
    uint64_t h = 1469598103934665603ull;
    for (uint32_t i = 0; i < s.n; i++)
        h = (h ^ (unsigned char)s.p[i]) * 1099511628211ull;
    return h;
}

static lname *names(const ltable *t)
{
    return (lname *)t->names.p;
}

static uint32_t *slots(const ltable *t)
{
    return (uint32_t *)t->slots.p;
}

/* The slot of name s: its entry's, or the empty one it would take. */
static uint32_t *find(const ltable *t, ptx_str s)
{
    for (size_t i = hash(s) & t->mask;; i = (i + 1) & t->mask) {
        uint32_t k = slots(t)[i];
        if (!k)
            return &slots(t)[i];
        ptx_str n = names(t)[k - 1].name;
        if (n.n == s.n && memcmp(n.p, s.p, s.n) == 0)
            return &slots(t)[i];
    }
}

static void collect(ltable *t, const ptx_stmt *s)
{
    for (; s; s = s->next) {
        if (ptx_debug_stmt(t->m, s))
            continue;
        if (s->kind == PTX_S_LABEL) {
            lstmt l = { s, 0 };
            ptx_buf_put(&t->stmts, (const char *)&l, sizeof l);
        } else if (s->kind == PTX_S_BLOCK) {
            collect(t, s->u.block.stmts);
        } else if (s->kind == PTX_S_SECTION) {
            collect(t, s->u.section.body.stmts);
        }
    }
}

/* One table entry per distinct name, each label statement pointing at
   its name's. */
static void index_names(ltable *t)
{
    size_t n = t->stmts.n / sizeof(lstmt), cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    /* (ptx_buf: the library's one policy for memory that runs out) */
    memset(ptx_buf_room(&t->slots, cap * sizeof(uint32_t)), 0, cap * sizeof(uint32_t));
    t->mask = cap - 1;
    lstmt *v = (lstmt *)t->stmts.p;
    for (size_t i = 0; i < n; i++) {
        ptx_str s = ptx_tok_str(t->m, v[i].s->u.label.name);
        uint32_t *k = find(t, s);
        if (!*k) {
            lname e = { s, 0 };
            ptx_buf_put(&t->names, (const char *)&e, sizeof e);
            *k = (uint32_t)(t->names.n / sizeof e);
        }
        v[i].name = *k - 1;
    }
}

/* Marks the names that a token of a statement other than a label or
   debug data spells; `end` is the token after the list's last statement. */
static void mark(ltable *t, const ptx_stmt *s, ptx_tok end)
{
    for (; s; s = s->next) {
        ptx_tok stop = s->next ? s->next->first : end;
        if (ptx_debug_stmt(t->m, s) || s->kind == PTX_S_LABEL)
            continue;
        if (s->kind == PTX_S_BLOCK) {
            mark(t, s->u.block.stmts, s->u.block.rbrace);
            continue;
        }
        if (s->kind == PTX_S_SECTION) {
            mark(t, s->u.section.body.stmts, s->u.section.body.rbrace);
            continue;
        }
        for (ptx_tok k = s->first; k < stop; k++) {
            if (t->m->toks[k].kind != PTX_T_WORD)
                continue;
            uint32_t *e = find(t, ptx_tok_str(t->m, k));
            if (*e)
                names(t)[*e - 1].used = 1;
        }
    }
}

size_t ptx_debug_labels(const ptx_module *m, const ptx_block *body, ptx_buf *out)
{
    ltable t = { m, { 0 }, { 0 }, { 0 }, 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &t.slots, &t.names, &t.stmts, NULL);
    size_t found = 0;
    collect(&t, body->stmts);
    if (t.stmts.n) {
        index_names(&t);
        mark(&t, body->stmts, body->rbrace);
        const lstmt *v = (const lstmt *)t.stmts.p;
        for (size_t i = 0; i < t.stmts.n / sizeof *v; i++)
            if (!names(&t)[v[i].name].used) {
                ptx_buf_put(out, (const char *)&v[i].s, sizeof v[i].s);
                found++;
            }
    }
    ptx_free_bufs(&ob);
    return found;
}
