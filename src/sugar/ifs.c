/*
 * sugar/ifs.c - pass "ifs": the branches ptx.if_ and ptx.else_ emit become
 * those blocks again.
 *
 *     ptx.bra("$_else_0", pred=~p0)            with ptx.if_(p0):
 *     ...then...                                   ...then...
 *     ptx.bra("$_endif_1")              ->     with ptx.else_():
 *     ptx.label("$_else_0")                        ...else...
 *     ...else...
 *     ptx.label("$_endif_1")
 *
 * pyptx 0.1.1 (ptx.py if_/else_): on entry `@!P bra ELSE;` (`@P bra ELSE;`
 * for if_(~P)); on exit `bra END; ELSE: END:`, where else_ takes END away
 * again and puts it after its own body.  Both labels are fresh
 * ($_else_N, $_endif_M: local names, renamed consistently), so the shape
 * is recognized whatever the labels are called, provided nothing else
 * names them.  An empty else is the plain if_ (ELSE: END: adjacent).
 * Bodies nest; each list is walked once.  The labels pyptx makes must not
 * meet a label of the kernel spelled the same (sg_fix_pyptx_labels).  An
 * else_ takes the labels on top of a stack that each if_ pushes: no else_
 * is made after a then-branch holding an if_ without one (unmatched_if).
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

typedef struct ifs {
    cg_module *m;
    cg_kernel *k;
    uint32_t *refs;      /* per symbol: how many statements name it */
} ifs;

/* A branch to a label named twice in all (here and where it stands). */
static cg_symid branch_to_private(const ifs *c, const cg_stmt *s, int guarded)
{
    if (!sg_inst_match(s, "bra", 1 | SG_ANY_GUARD) || !!s->u.inst.guard != guarded)
        return CG_NOSYM;
    const cg_opnd *t = s->u.inst.ops;
    if (t->kind != CG_O_SYM || t->index >= 0 || c->k->syms[t->sym].kind != CG_SYM_LABEL ||
        c->refs[t->sym] != 2 || sg_ptx_pinned(c->m, c->k->syms[t->sym].ptx))
        return CG_NOSYM;
    return t->sym;
}

static int is_label(const cg_stmt *s, cg_symid l)
{
    return s && s->kind == CG_S_LABEL && s->u.label == l;
}

/* The statement before `end` in the list from `from` (NULL: end == from),
   or `end` not found: *found 0. */
static cg_stmt *before(cg_stmt *from, const cg_stmt *end, int *found)
{
    cg_stmt *prev = NULL;
    for (cg_stmt *t = from; t; prev = t, t = t->next)
        if (t == end) {
            *found = 1;
            return prev;
        }
    *found = 0;
    return NULL;
}

static cg_stmt *find_label(cg_stmt *from, cg_symid l)
{
    for (cg_stmt *t = from; t; t = t->next)
        if (is_label(t, l))
            return t;
    return NULL;
}

static cg_stmt *with_node(ifs *c, const char *call, cg_opnd *arg, cg_stmt *body,
                          ptx_tok first)
{
    cg_stmt *w = sg_node_new(c->m, SG_S_WITH, first);
    sg_with_of(w)->call = call;
    sg_with_of(w)->cond = arg;
    *cg_body(w) = body;
    return w;
}

/* `@!P bra ELSE; then; bra END; ELSE: else; END:` at *link as if_ (and
   else_) nodes; 0 if the statements there are not that shape. */
static int raise_if(ifs *c, cg_stmt **link)
{
    cg_stmt *br = *link;
    cg_symid els = branch_to_private(c, br, 1), end;
    cg_stmt *lel = els == CG_NOSYM ? NULL : find_label(br->next, els);
    if (!lel)
        return 0;
    int found;
    cg_stmt *bend = before(br->next, lel, &found), *then_last = NULL;
    if (!bend || bend == br || (end = branch_to_private(c, bend, 0)) == CG_NOSYM)
        return 0;
    cg_stmt *lend = find_label(lel->next, end);
    if (!lend)
        return 0;
    if (bend != br->next)
        then_last = before(br->next, bend, &found);
    cg_stmt *else_last = lend == lel->next ? NULL : before(lel->next, lend, &found);
    /* the predicate: @!P bra is if_(P), @P bra is if_(~P) */
    cg_opnd *g = sg_copy_opnd(c->m, br->u.inst.guard), *arg;
    if (g->kind == CG_O_NOT) {
        arg = g->a;
    } else {
        arg = cg_opnd_new(c->m, CG_O_NOT);
        arg->a = g;
    }
    cg_stmt *then = then_last ? br->next : NULL, *els_body = else_last ? lel->next : NULL;
    cg_stmt *node = with_node(c, "ptx.if_", arg, then, br->first), *after = lend->next;
    if (then_last)
        then_last->next = NULL;
    if (else_last)
        else_last->next = NULL;
    /* orig: what the node stands for besides its bodies */
    br->next = bend;
    bend->next = lel;
    lel->next = lend;
    lend->next = NULL;
    sg_with_of(node)->orig = br;
    c->refs[els] = c->refs[end] = 0;   /* gone from the kernel */
    *link = node;
    if (els_body) {
        node->next = with_node(c, "ptx.else_", NULL, els_body, lel->first);
        node->next->next = after;
    } else {
        node->next = after;
    }
    return 1;
}

/* Does the list hold, at any depth, an if_ with no else_ after it?  pyptx's
   if_ pushes its labels on a stack that only else_ pops, and else_ takes
   the top: after such an if_ inside a then-branch, the enclosing if_'s
   else_ would take the inner if_'s labels. */
static int if_alone(void *ctx, cg_stmt **link)
{
    (void)ctx;
    return sg_with_is(*link, "ptx.if_") && !sg_with_is((*link)->next, "ptx.else_")
           ? SG_VISIT_STOP : SG_VISIT_ON;
}

static int unmatched_if(const cg_stmt *s)
{
    return sg_visit_list(s, if_alone, NULL);
}

static cg_stmt *last_of(cg_stmt *s)
{
    while (s->next)
        s = s->next;
    return s;
}

/* The if_ and else_ at *link back into the statements they stand for
   (raise_if's orig: `@!P bra ELSE`, `bra END`, `ELSE:`, `END:`), their
   bodies as raised. */
static void lower_if_else(ifs *c, cg_stmt **link)
{
    cg_stmt *node = *link, *els = node->next, *after = els->next;
    cg_stmt *br = sg_with_of(node)->orig, *bend = br->next, *lel = bend->next, *lend = lel->next;
    *link = br;
    br->next = sg_body(node) ? sg_body(node) : bend;
    if (sg_body(node))
        last_of(sg_body(node))->next = bend;
    lel->next = sg_body(els);             /* (an else_ is made only with a body) */
    last_of(sg_body(els))->next = lend;
    lend->next = after;
    c->refs[lel->u.label] = c->refs[lend->u.label] = 2;
}

/* One walk: a raised if_ (and else_) is passed over after its bodies,
   which raise_list takes in turn; then a pair whose then-branch holds an
   if_ without else_ is lowered again. */
static uint32_t raise_list(ifs *c, cg_stmt **head)
{
    uint32_t made = 0;
    for (cg_stmt **link = head; *link; link = &(*link)->next) {
        int raised = raise_if(c, link);
        cg_stmt **body = cg_body(*link);
        if (body)
            made += raise_list(c, body);
        if (raised && sg_with_is((*link)->next, "ptx.else_") &&
            unmatched_if(*body)) {
            lower_if_else(c, link);
            raised = 0;
        }
        made += (uint32_t)raised;
    }
    return made;
}

void sg_print_with(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out)
{
    sg_indent(out, depth);
    ptx_buf_printf(out, "with %s(", sg_with_of(s)->call);
    if (sg_with_of(s)->cond && sg_with_of(s)->cond->kind == SG_O_OPER)   /* preds.c: if_(a < b) */
        sg_print_oper(m, k, sg_with_of(s)->cond, out);
    else if (sg_with_of(s)->cond)
        cg_print_opnd(m, k, sg_with_of(s)->cond, out);
    ptx_buf_puts(out, "):\n");
    cg_print_stmts(m, k, s->u.ext.body, depth + 1, out);
}

/* Does some list hold the `bra END` that every shape raise_if takes ends
   its then-branch with (unguarded, no modifier: nvcc writes bra.uni)?
   If not, nothing is raised and the count over every operand is saved. */
static int is_plain_bra(void *ctx, cg_stmt **link)
{
    (void)ctx;
    return sg_inst_match(*link, "bra", SG_ANY_OPS) ? SG_VISIT_STOP : SG_VISIT_ON;
}

static int plain_bra(const cg_stmt *s)
{
    return sg_visit_list(s, is_plain_bra, NULL);
}

uint32_t sugar_ifs(cg_module *m, cg_kernel *k)
{
    ifs c = { .m = m, .k = k };
    sg_scratch sc = { 0 };
    uint32_t made = 0;
    if (!(k->words & cg_word_bit("bra", 3)) || !plain_bra(k->body))
        return 0;   /* (the bit spares nvcc's kernels a walk: an unguarded
                       branch is bra.uni there) */
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    c.refs = sg_kernel_refs(&sc, k);
    if (!sg_pyptx_label_pinned(m, k, c.refs))
        made = raise_list(&c, &k->body);
    ptx_free_bufs(&ob);
    return made;
}
