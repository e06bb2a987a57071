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
 * Linear per list, with no array: one walk records each label's last
 * back edge (tables indexed by symbol, stamped per list so they need no
 * clearing), a second raises the loops of this list, and only then are
 * the nested lists (loop bodies among them) processed, so that their
 * walks cannot overwrite what this list's walk still needs. */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

typedef struct loops {
    cg_module *m;
    cg_kernel *k;
    uint32_t *stamp;     /* per symbol: the list whose back edges `last` holds */
    cg_stmt **last;      /* per symbol: its last back edge in that list */
    uint32_t *passed;    /* per symbol: the list whose walk went past it */
    uint32_t lists;      /* lists seen (the stamp of the current one) */
    sg_scratch bodies;   /* cg_stmt **: the lists inside the lists being
                            walked, each call's after its caller's */
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

/* Walking past s in list `list`: if it is the last back edge of its
   label, a label met from now on no longer has a loop ahead of it.
   1 if s is a back edge. */
static int pass_by(loops *c, const cg_stmt *s, uint32_t list)
{
    cg_symid t = sg_back_edge(s);
    if (t != CG_NOSYM && c->stamp[t] == list && c->last[t] == s)
        c->passed[t] = list;
    return t != CG_NOSYM;
}

/* The loop that label *link opens (up to its last back edge, if that is
   still ahead) as a SG_S_LOOP in its place; 0 if there is none.  A body
   that declares the guard's register stays as it is: ptx.loop reads
   pred= at its head, before the body has bound the Python name (PTX
   declarations hold for the whole block, wherever they stand). */
static int raise_at(loops *c, cg_stmt **link, uint32_t list)
{
    cg_stmt *s = *link;
    cg_symid l = s->u.label;
    if (c->stamp[l] != list || c->passed[l] == list)
        return 0;
    cg_stmt *be = c->last[l], *before = s, *t;
    cg_symid g = guard_sym(be->u.inst.guard);
    int binds_guard = 0;
    for (t = s->next; t && t != be; t = t->next) {
        before = t;
        binds_guard |= (t->kind == CG_S_REG || t->kind == CG_S_BIND) && t->u.reg == g;
    }
    if (!t || binds_guard)
        return 0;   /* !t: the back edge stands before, a label defined twice */
    int flat = 1;   /* (most loop bodies: their walk is spared) */
    for (t = s->next; t != be; t = t->next)
        flat &= !pass_by(c, t, list) && !cg_body(t);
    c->passed[l] = list;   /* its own back edge, for a second definition */
    cg_stmt *node = sg_node_new(c->m, SG_S_LOOP, s->first);
    sg_loop_of(node)->label = l;
    sg_loop_of(node)->pred = be->u.inst.guard;
    sg_loop_of(node)->flat = (uint8_t)flat;
    cg_splice(link, be, node);
    /* the body: what lies strictly between the label and the back edge */
    if (before != s) {
        before->next = NULL;
        *cg_body(node) = s->next;
    }
    return 1;
}

static uint32_t raise_list(loops *c, cg_stmt **head)
{
    uint32_t list = ++c->lists, made = 0, edges = 0;
    size_t from = c->bodies.n;   /* this list's lists inside, kept as it goes */
    for (cg_stmt *s = *head; s; s = s->next) {
        cg_symid t = sg_back_edge(s);
        if (t != CG_NOSYM) {
            c->stamp[t] = list;
            c->last[t] = s;
            edges++;
        }
        cg_stmt **body = cg_body(s);
        if (body) {
            *(cg_stmt ***)ptx_buf_room(&c->bodies, sizeof body) = body;
            c->bodies.n += sizeof body;
        }
    }
    /* most lists (nvcc's `{ cvt ... }` scopes) have neither a back edge
       to raise nor a list inside: one walk is all they need */
    for (cg_stmt **link = head; edges && *link; link = &(*link)->next) {
        if ((*link)->kind == CG_S_LABEL && raise_at(c, link, list))
            made++;
        else
            pass_by(c, *link, list);
    }
    size_t to = c->bodies.n;
    if (!made)   /* the list as the first walk saw it: its lists inside */
        for (size_t at = from; at < to; at += sizeof(cg_stmt **))
            made += raise_list(c, *(cg_stmt ***)(c->bodies.p + at));
    else         /* the loops raised hold some of them now */
        for (cg_stmt *s = *head; s; s = s->next) {
            cg_stmt **body = cg_body(s);
            if (body && !(s->kind == SG_S_LOOP && sg_loop_of(s)->flat))
                made += raise_list(c, body);
        }
    c->bodies.n = from;
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
    ptx_own_bufs(&ob, &tables, &c.bodies, NULL);
    c.stamp = sg_scratch_get(&tables, n * (2 * sizeof *c.stamp + sizeof *c.last));
    c.passed = c.stamp + n;
    c.last = (cg_stmt **)(c.passed + n);
    uint32_t made = raise_list(&c, &k->body);
    ptx_free_bufs(&ob);
    return made;
}
