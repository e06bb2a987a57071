/*
 * sugar/loops.c - pass "loops": a label L followed, in the same statement
 * list, by a back edge to L becomes
 *
 *     with ptx.loop("L", pred=p[1]):     # L: ... @%p1 bra L;
 *     with ptx.loop("L", pred=~p[1]):    # L: ... @!%p1 bra L;
 *     with ptx.loop("L"):                # L: ... bra.uni L;   (persistent)
 *
 * pyptx 0.1.1 ptx.loop emits exactly `L:` on entry and, on exit,
 * `@[!]P bra L;` (no .uni) when pred is given, `bra.uni L;` otherwise, so
 * only those two back-edge spellings are raised (`@p bra.uni L` and a bare
 * `bra L` stay as they are).  The back edge is the last branch to L in
 * the list, so other branches to L (continue-like) stay inside the body.
 * Loops nest: the body is processed recursively.  Nothing moves.
 *
 * Linear per list: one walk records each label's last back edge (tables
 * indexed by symbol, stamped per list so they need no clearing) and what
 * each statement is to this pass (an item: a label, a back edge, a
 * declaration, a statement owning a list, or nothing); the loops of the
 * list are then raised from the items alone, without a second walk over
 * the statements (a library module's lists hold hundreds of thousands), and
 * only then are the nested lists (loop bodies among them) processed, so
 * that their walks cannot overwrite what this list's walk still needs. */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

/* What a statement of a list is to this pass. */
enum { IT_OTHER, IT_LABEL, IT_EDGE, IT_DECL, IT_BODY };

typedef struct item {
    cg_stmt *s;
    cg_symid to;         /* IT_EDGE: its label; IT_DECL: its register */
    uint8_t what;        /* IT_* */
} item;

typedef struct loops {
    cg_module *m;
    cg_kernel *k;
    uint32_t *stamp;     /* per symbol: the list whose back edges `last` holds */
    uint32_t *last;      /* per symbol: its last back edge's item in that list */
    uint32_t lists;      /* lists seen (the stamp of the current one) */
    sg_scratch items;    /* item: those of the lists being walked, each
                            call's after its caller's */
} loops;

/* The register a back edge's guard names (CG_NOSYM: none). */
static cg_symid guard_sym(const cg_opnd *g)
{
    if (g && g->kind == CG_O_NOT)
        g = g->a;
    return g && g->kind == CG_O_SYM ? g->sym : CG_NOSYM;
}

/* `@P bra L` (no modifier) or `bra.uni L`, with one operand: asked of
   every bra of a module, so spelled out rather than matched against the
   patterns "bra" and "bra.uni". */
cg_symid sg_bra_back_edge(const cg_stmt *s)
{
    if (!sg_inst_is(s, "bra"))
        return CG_NOSYM;
    const cg_inst *in = &s->u.inst;
    const cg_opnd *g = in->guard, *t = in->ops;
    if (g ? in->nmods != 0 : in->nmods != 1 || strcmp(in->mods[0], "uni"))
        return CG_NOSYM;
    if (!t || t->next || t->kind != CG_O_SYM || t->index >= 0 || (g && guard_sym(g) == CG_NOSYM))
        return CG_NOSYM;
    return t->sym;
}

static item *items_at(const loops *c, size_t off)
{
    return (item *)(c->items.p + off);
}

/* The loop that the label of item i opens (up to its last back edge, if
   that comes after it) as a SG_S_LOOP at *link, the label's place; NULL if
   there is none (so for a label defined again after its loop).  A body
   that declares the guard's register stays as it is: ptx.loop reads pred=
   at its head, before the body has bound the Python name (PTX
   declarations hold for the whole block, wherever they stand).  *end:
   the back edge's item. */
static cg_stmt *raise_at(loops *c, const item *it, uint32_t i, cg_stmt **link, uint32_t list,
                         uint32_t *end)
{
    cg_symid l = it[i].s->u.label;
    if (c->stamp[l] != list || c->last[l] < i)
        return NULL;
    uint32_t e = c->last[l];
    cg_stmt *be = it[e].s;
    cg_symid g = guard_sym(be->u.inst.guard);
    for (uint32_t j = i + 1; j < e; j++)
        if (it[j].what == IT_DECL && it[j].to == g)
            return NULL;
    int flat = 1;   /* (most loop bodies: their walk is spared) */
    for (uint32_t j = i + 1; j < e; j++)
        flat &= it[j].what != IT_EDGE && it[j].what != IT_BODY;
    cg_stmt *node = sg_node_new(c->m, SG_S_LOOP, it[i].s->first);
    sg_loop_of(node)->label = l;
    sg_loop_of(node)->pred = be->u.inst.guard;
    sg_loop_of(node)->flat = (uint8_t)flat;
    cg_splice(link, be, node);
    /* the body: what lies strictly between the label and the back edge */
    if (e > i + 1) {
        it[e - 1].s->next = NULL;
        *cg_body(node) = it[i].s->next;
    }
    *end = e;
    return node;
}

/* The items of the list at *head (*n of them), after those of the lists
   being walked; how many back edges it has. */
static uint32_t walk_items(loops *c, cg_stmt **head, uint32_t list, uint32_t *n)
{
    uint32_t edges = 0, i = 0;
    for (cg_stmt *s = *head; s; s = s->next, i++) {
        item *it = (item *)ptx_buf_room(&c->items, sizeof(item));
        c->items.n += sizeof(item);
        cg_symid t = sg_back_edge(s);
        *it = (item){ s, t, IT_OTHER };
        if (t != CG_NOSYM) {
            it->what = IT_EDGE;
            c->stamp[t] = list;
            c->last[t] = i;
            edges++;
        } else if (s->kind == CG_S_LABEL) {
            it->what = IT_LABEL;
        } else if (s->kind == CG_S_REG || s->kind == CG_S_BIND) {
            *it = (item){ s, s->u.reg, IT_DECL };
        } else if (cg_body(s)) {
            it->what = IT_BODY;
        }
    }
    *n = i;
    return edges;
}

static uint32_t raise_list(loops *c, cg_stmt **head)
{
    uint32_t list = ++c->lists, made = 0, n;
    size_t off = c->items.n;   /* this list's items */
    uint32_t edges = walk_items(c, head, list, &n);
    /* most lists (nvcc's `{ cvt ... }` scopes) have neither a back edge
       to raise nor a list inside: one walk is all they need */
    cg_stmt **link = head;
    for (uint32_t i = 0, e; edges && i < n; i++) {
        item *it = items_at(c, off);
        cg_stmt *node = it[i].what == IT_LABEL ? raise_at(c, it, i, link, list, &e) : NULL;
        if (node) {
            it[i] = (item){ node, CG_NOSYM, sg_loop_of(node)->flat ? IT_OTHER : IT_BODY };
            for (uint32_t j = i + 1; j <= e; j++)   /* inside the loop now */
                it[j].what = IT_OTHER;
            link = &node->next;
            i = e;
            made++;
            continue;
        }
        link = &it[i].s->next;
    }
    /* the lists inside (a raised loop's body among them, unless flat) */
    for (uint32_t i = 0; i < n; i++) {
        item *it = items_at(c, off);   /* (the calls below may move them) */
        if (it[i].what == IT_BODY)
            made += raise_list(c, cg_body(it[i].s));
    }
    c->items.n = off;
    return made;
}

void sg_print_loop(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out)
{
    sg_indent(out, depth);
    ptx_buf_puts(out, "with ptx.loop(\"");
    cg_sym_ptx(k, sg_loop_of(s)->label, -1, out);
    ptx_buf_putc(out, '"');
    if (sg_loop_of(s)->pred) {
        ptx_buf_puts(out, ", pred=");
        cg_print_opnd(m, k, sg_loop_of(s)->pred, out);
    }
    ptx_buf_puts(out, "):\n");
    cg_print_stmts(m, k, s->u.ext.body, depth + 1, out); /* `pass` if empty */
}

uint32_t sugar_loops(cg_module *m, cg_kernel *k)
{
    loops c = { .m = m, .k = k };
    size_t n = k->nsyms + 1;
    sg_scratch tables = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &tables, &c.items, NULL);
    c.stamp = sg_scratch_get(&tables, 2 * n * sizeof *c.stamp);
    c.last = c.stamp + n;
    uint32_t made = raise_list(&c, &k->body);
    ptx_free_bufs(&ob);
    return made;
}
