/*
 * sugar/repeat_lists.c - pass "repeat": the registers a rolled copy
 * allocates that later code reads, kept in a Python list as a person
 * keeps them:
 *
 *     f4 = reg.scalar(f32)                 out = []
 *     ptx.mul(f32, f4, f0, f0)             for i in range(4):
 *     f5 = reg.scalar(f32)                     f4 = reg.scalar(f32)
 *     ptx.mul(f32, f5, f1, f1)      ->         ptx.mul(f32, f4, v[i], v[i])
 *     ...                                      out.append(f4)
 *     ptx.st(f32, ..., [f4, f5, f6, f7])   ptx.st(f32, ..., out)
 *     ptx.add(f32, f8, f8, f6)             ptx.add(f32, f8, f8, out[2])
 *
 * Why it is exact (pyptx 0.1.1, reg.py scalar): reg.scalar(T) takes the
 * register's PTX name from the kernel's counter when it runs, whatever
 * Python name then holds the Reg; a list holds the Reg objects and
 * appending emits nothing, so the loop allocates and emits exactly what
 * the copies did, and out[c] is the Reg that pass c allocated.  A Python
 * list operand prints `{a, b, ...}` (ptx.py _op: a VectorOperand), so the
 * list stands for a vector of all its registers, in order.  The loop's
 * body names the first copy's register itself, as before.
 *
 * Later copies that read one element per copy (f0, f1, ... above, read
 * by pass i as v[i]) roll too: the leaf is the element base + stride*i of
 * the same list (rl_list_step, rl_element).
 *
 * A read becomes an element only where it prints from an operand the
 * rewrite reaches: an instruction's (nodes that keep instructions and
 * print from them, expressions and comparisons, included) or a Python
 * node's own operands.  A merged declaration prints from operands of its
 * own (merge.c), and raw text from text: a register read there, or
 * anywhere outside the list the copies stand in, keeps the copies as they
 * are (rl_listable).  Predicates are never listed (a guard prints pred=p
 * from the register itself).
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/repeat.h"
#include "util/alloc.h"
#include "util/buf.h"

/* What one recorded register is: the list that holds it, at which index. */
typedef struct elemrec {
    uint32_t list, index;
} elemrec;

static uint32_t *zeroed(roller *r, sg_scratch *b)
{
    return sg_scratch_get(b, (r->k->nsyms + 1) * sizeof(uint32_t));
}

/* Kinds whose printed operands the rewrite reaches (the rest print from
   parts of their own, or from text). */
static int reached(unsigned kind)
{
    static const uint16_t kinds[] = { CG_S_INST, CG_S_LABEL, CG_S_REG, CG_S_BIND, CG_S_VAR,
                                      CG_S_PRAGMA, CG_S_SCOPE, CG_S_COMMENT, SG_S_FOR,
                                      SG_S_WITH, SG_S_LOOP, SG_S_EXPR, SG_S_CMP, SG_S_ASSIGN };
    for (unsigned i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i] == kind)
            return 1;
    return 0;
}

static int count_odd(void *ctx, cg_stmt **link)
{
    roller *r = ctx;
    if (reached((*link)->kind))
        return SG_VISIT_ON;
    cg_stmt one = **link;   /* it, what it holds and keeps, not what follows */
    one.next = NULL;
    sg_count_refs(&one, r->odd);
    return SG_VISIT_SKIP;
}

int rl_listable(roller *r, cg_stmt **head, cg_symid sym)
{
    const char *type = r->k->syms[sym].type;
    if (!type || !strcmp(type, "pred") || (r->elem && r->elem[sym]))
        return 0;   /* (an element already: a loop's body rolled again, whose
                       own list reads it) */
    if (!r->odd) {
        r->odd = zeroed(r, &r->oddb);
        sg_visit_stmts(&r->k->body, count_odd, r);
    }
    if (r->counted != head) {
        r->inlist = zeroed(r, &r->inlistb);
        sg_count_refs(*head, r->inlist);
        r->counted = head;
    }
    return !r->odd[sym] && r->inlist[sym] == r->refs[sym];
}

/* The record of register operand o, or NULL if no list holds it. */
static const elemrec *elem_of(const roller *r, const cg_opnd *o)
{
    if (!r->elem || o->kind != CG_O_SYM || o->index >= 0 || !r->elem[o->sym])
        return NULL;
    return (const elemrec *)r->elems.p + r->elem[o->sym] - 1;
}

int rl_list_step(roller *r, const cg_opnd *a, const cg_opnd *y, const cg_opnd *b, unsigned c)
{
    const elemrec *ea = elem_of(r, a), *ey = elem_of(r, y), *eb = elem_of(r, b);
    if (!ea || !ey || !eb || ea->list != ey->list || ea->list != eb->list)
        return 0;
    long long step = (long long)ey->index - ea->index;
    return step && (long long)eb->index == ea->index + (long long)c * step;
}

/* list[index]: an SG_O_ITEM standing for register operand reg. */
static cg_opnd *item_opnd(roller *r, const reglist *l, cg_opnd *index, const cg_opnd *reg)
{
    cg_opnd *o = cg_opnd_new(r->m, SG_O_ITEM);
    o->a = sg_copy_opnd(r->m, l->name);
    o->b = index;
    o->elems = sg_copy_opnd(r->m, reg);
    return o;
}

cg_opnd *rl_element(roller *r, const char *var, const cg_opnd *a, const cg_opnd *y)
{
    const elemrec *ea = elem_of(r, a), *ey = elem_of(r, y);
    if (!ea || !ey || ea == ey)
        return NULL;
    cg_opnd *at = cg_opnd_new(r->m, SG_O_AFFINE);
    at->sym = CG_NOSYM;
    at->text = sg_lit(r->m, var, strlen(var));
    at->a = sg_int_opnd(r->m, ea->index);
    at->b = sg_int_opnd(r->m, (long long)ey->index - ea->index);
    return item_opnd(r, (const reglist *)r->lists.p + ea->list, at, a);
}

/* Is some copy's register of declaration j read outside its copy? */
static int read_after(const roller *r, const item *it, unsigned g, unsigned c, unsigned j)
{
    for (unsigned q = 0; q < c; q++) {
        cg_symid x = it[q * g + j].decl;
        if (r->refs[x] != rp_uses_in(&it[q * g], g, x))
            return 1;
    }
    return 0;
}

int rl_list_cost(const roller *r, const item *it, unsigned g, unsigned c)
{
    unsigned lists = 0, decls = 0;
    for (unsigned j = 0; j < g; j++) {
        decls += it[j].decl != CG_NOSYM;
        lists += it[j].decl != CG_NOSYM && read_after(r, it, g, c, j);
    }
    return lists && decls == g ? -1 : (int)(2 * lists);
}

/* A list for declaration j, named `name`: recorded, `out = []` put
   before the loop, `out.append(t)` at the end of its body (tail). */
static void make_list(roller *r, cg_stmt *node, cg_stmt **tail, const item *it, unsigned g,
                      unsigned c, unsigned j, const char *name)
{
    reglist l = { sg_name_opnd(r->m, name), node, c };
    ptx_buf_put(&r->lists, (const char *)&l, sizeof l);
    if (!r->elem)
        r->elem = zeroed(r, &r->elemb);
    for (unsigned q = 0; q < c; q++) {
        elemrec e = { (uint32_t)(r->lists.n / sizeof l) - 1, q };
        ptx_buf_put(&r->elems, (const char *)&e, sizeof e);
        r->elem[it[q * g + j].decl] = (uint32_t)(r->elems.n / sizeof e);
    }
    cg_opnd *call = sg_call_opnd(r->m, "append", sg_name_opnd(r->m, name),
                                 sg_sym_opnd(r->m, it[j].decl));
    *tail = sg_assign_new(r->m, node->first, NULL, call);
    r->refs[it[j].decl]++;   /* a use: the body, rolled again, keeps it */
    cg_stmt *pre = sg_assign_new(r->m, node->first, sg_name_opnd(r->m, name),
                                 cg_opnd_new(r->m, CG_O_VEC));
    cg_stmt **at = &r->pre;
    while (*at)
        at = &(*at)->next;
    *at = pre;
}

int rl_make_lists(roller *r, cg_stmt *node, const item *it, unsigned g, unsigned c)
{
    const char *names[16] = { 0 };
    if (g > sizeof names / sizeof *names)
        return 0;
    for (unsigned j = 0; j < g; j++)   /* every name first: nothing recorded for a loop not made */
        if (it[j].decl != CG_NOSYM && read_after(r, it, g, c, j) &&
            !(names[j] = sg_py_fresh(r->m, r->k, "out")))
            return 0;
    cg_stmt **tail = cg_body(node);
    while (*tail)
        tail = &(*tail)->next;
    for (unsigned j = 0; j < g; j++)
        if (names[j]) {
            make_list(r, node, tail, it, g, c, j, names[j]);
            tail = &(*tail)->next;
        }
    return 1;
}

/* ---- the reads -------------------------------------------------------- */

typedef struct rewrite {
    roller *r;
    uint32_t from;          /* the first element recorded for this list */
    const cg_stmt *owner;   /* the loop whose body is walked, or NULL */
} rewrite;

/* The list o's register stands in, where a read may take its place:
   recorded for this list, and not its own loop's first register. */
static const reglist *list_of(const rewrite *w, const cg_opnd *o, uint32_t *index)
{
    const elemrec *e = elem_of(w->r, o);
    if (!e || (uint32_t)(e - (const elemrec *)w->r->elems.p) < w->from)
        return NULL;
    const reglist *l = (const reglist *)w->r->lists.p + e->list;
    *index = e->index;
    return l->owner == w->owner ? NULL : l;
}

/* A vector of every register of one list, in order: that list. */
static const reglist *whole_list(const rewrite *w, const cg_opnd *v)
{
    const reglist *l = NULL;
    uint32_t n = 0, index;
    for (const cg_opnd *e = v->elems; e; e = e->next, n++) {
        const reglist *at = list_of(w, e, &index);
        if (!at || (l && at != l) || index != n)
            return NULL;
        l = at;
    }
    return l && n == l->n ? l : NULL;
}

static int rewrite_opnd(void *ctx, cg_opnd *o)
{
    const rewrite *w = ctx;
    const reglist *l;
    uint32_t index;
    cg_opnd *by, *next = o->next;
    if (o->kind == CG_O_VEC && (l = whole_list(w, o)) != NULL) {
        by = item_opnd(w->r, l, NULL, NULL);
        by->elems = o->elems;
    } else if ((l = list_of(w, o, &index)) != NULL) {
        by = item_opnd(w->r, l, sg_int_opnd(w->r->m, index), o);
    } else {
        return SG_VISIT_ON;
    }
    *o = *by;
    o->next = next;
    return SG_VISIT_SKIP;
}

static int owns_list(const rewrite *w, const cg_stmt *s)
{
    if (s->kind != SG_S_FOR)
        return 0;
    const reglist *l = (const reglist *)w->r->lists.p;
    for (size_t i = w->r->lists.n / sizeof *l; i-- > 0;)
        if (l[i].owner == s)
            return 1;
    return 0;
}

/* The statements from s, what they print from, and the lists they own;
   a list's own loop is walked as its owner, without the copies it keeps. */
static void rewrite_stmts(rewrite *w, cg_stmt *s)
{
    for (; s; s = s->next) {
        const cg_stmt *up = w->owner;
        if (owns_list(w, s)) {
            w->owner = s;
            rewrite_stmts(w, sg_body(s));
            w->owner = up;
            continue;
        }
        sg_visit_stmt_opnds(s, rewrite_opnd, w);
        if (s->kind >= CG_S_EXT)
            rewrite_stmts(w, sg_orig(s));
        rewrite_stmts(w, sg_body(s));
    }
}

void rl_rewrite_reads(roller *r, cg_stmt **head, uint32_t from)
{
    rewrite w = { r, from, NULL };
    rewrite_stmts(&w, *head);
}

uint32_t rl_nelems(const roller *r)
{
    return (uint32_t)(r->elems.n / sizeof(elemrec));
}

void rl_own(roller *r, ptx_bufs *o)
{
    ptx_own_bufs(o, &r->oddb, &r->inlistb, &r->elemb, &r->lists, &r->elems, NULL);
}
