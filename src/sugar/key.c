/*
 * sugar/key.c - structural keys: one serializer for every pattern matcher.
 *
 * A matcher that looks for repeated or known shapes (repeat: blocks that
 * differ by strides; wait: spin loops that differ by their barrier;
 * outline: blocks that differ by registers and ints) needs "equal up to
 * these holes".  sg_key_stmt writes a statement as a string,
 * asking the matcher about each leaf operand (a symbol or an integer) how
 * much of it the string holds; two statements match exactly when their
 * strings are equal, and the holes come out in the same order for both,
 * so the matcher can pair them up.
 *
 * A deep key (key->deep: outline, which compares what the copies print)
 * writes every sugar node by what it prints, and leaves out a guard that
 * prints as pred=V (sg_guard_slot) and a Python loop's count
 * (sg_count_slot), which outline compares itself; other
 * matchers see a sugar node only where sg_key_sugar says it prints from
 * its name, count, args and body, and any other as itself.
 *
 * Grammar (the brackets keep concatenations unambiguous):
 *   stmt    [<kind> ...]      with INST: opcode|guard|operands, the opcode
 *                             as the address of its path (one per word)
 *   operand (<kind> ...)      children (a, b, elements) nested inside
 *   leaf    s<id>:<index>  s'<spelling>:<index>  ?  ?<id>  i<value>
 * where a number is five bytes (put_num), not digits.
 */
#include <stdint.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/buf.h"

/* Keys are built for every statement of a list (a library module's
   repeated code keys a third of its statements): no printf, and no
   decimal digits either.  A number is its tag, with the high bit set
   where it is negative, then four bytes of its magnitude: five bytes
   each, which no other number's bytes can be read as. */
static void put_num(ptx_buf *b, char tag, int64_t v)
{
    char *w = ptx_buf_room(b, 5);
    uint32_t u = (uint32_t)(v < 0 ? -v : v);
    w[0] = (char)(v < 0 ? (unsigned char)tag | 0x80 : (unsigned char)tag);
    memcpy(w + 1, &u, 4);
    b->n += 5;
}

static int pinned(const sg_key *key, const cg_opnd *o);

static void put_leaf(sg_key *key, const cg_opnd *o)
{
    ptx_buf *b = &key->b;
    switch (key->leaf(key, o)) {
    case SG_LEAF_EXACT:
        if (o->kind == CG_O_SYM) {
            put_num(b, 's', o->sym);
            put_num(b, ':', o->index);
            if (!pinned(key, o))
                return;
            break;   /* held, and a hole as well */
        }
        sg_text_key(&o->text, b);
        return;
    case SG_LEAF_SPELLED:
        ptx_buf_puts(b, "s'");
        ptx_buf_puts(b, key->k->syms[o->sym].ptx);
        put_num(b, ':', o->index);
        return;
    case SG_LEAF_WILD_SYM:
        put_num(b, '?', o->sym);
        break;
    case SG_LEAF_WILD:
        ptx_buf_putc(b, '?');
        break;
    }
    key->holes = cg_grow(key->m, key->holes, key->nholes, &key->capholes,
                         sizeof *key->holes);
    key->holes[key->nholes++] = (cg_opnd *)o;
}

static void put_opnds(sg_key *key, const cg_opnd *o);
static void put_exact(sg_key *key, const cg_opnd *o);

/* The operands below o, with o as their context (key->up). */
static void put_below(sg_key *key, const cg_opnd *o, const cg_opnd *list)
{
    const cg_opnd *up = key->up;
    key->up = o;
    put_opnds(key, list);
    key->up = up;
}

void sg_key_opnd(sg_key *key, const cg_opnd *o)
{
    put_num(&key->b, '(', o->kind);
    if (o->kind == CG_O_SYM || o->kind == CG_O_INT) {
        put_leaf(key, o);
    } else if (o->kind == SG_O_CONCAT) {
        put_exact(key, o->elems);   /* a slice's ranges: no loop variable */
    } else if (o->kind == SG_O_ITEM) {
        /* a list's element: the list exactly, the index as any int (a
           loop or a helper may pass it); list and index name the register
           (elems), which the key leaves out */
        put_exact(key, o->a);
        if (o->b)
            put_below(key, o, o->b);
    } else if (o->kind == SG_O_AFFINE) {
        /* a rolled loop's index: its variable and stride exactly, its
           base a leaf (a loop around it makes that affine in its own
           variable: base + 4*j + 256*i) */
        put_num(&key->b, 's', o->sym);
        sg_text_key(&o->text, &key->b);
        put_below(key, o, o->a);
        ptx_buf_putc(&key->b, '*');
        sg_text_key(&o->b->text, &key->b);
    } else {
        if (o->sym != CG_NOSYM)     /* SG_O_COMP's array, SG_O_NAME's symbol */
            put_num(&key->b, 's', o->sym);
        sg_text_key(&o->text, &key->b);
        put_below(key, o, o->a);
        put_below(key, o, o->b);
        put_below(key, o, o->elems);
    }
    ptx_buf_putc(&key->b, ')');
}

static void put_opnds(sg_key *key, const cg_opnd *o)
{
    for (; o; o = o->next)
        sg_key_opnd(key, o);
}

const cg_opnd sg_key_operator = { .kind = SG_O_OPER };

/* Operand o, as an operator's. */
static void put_operand(sg_key *key, const cg_opnd *o)
{
    const cg_opnd *up = key->up;
    key->up = &sg_key_operator;
    sg_key_opnd(key, o);
    key->up = up;
}

static sg_leaf exact_leaf(const sg_key *key, const cg_opnd *o)
{
    (void)key, (void)o;
    return SG_LEAF_EXACT;
}

/* Is symbol leaf o, which put_exact holds, one the matcher would have
   left wild, and asked for as a hole all the same (key->pin_holes)? */
static int pinned(const sg_key *key, const cg_opnd *o)
{
    if (!key->pin_holes || key->leaf != exact_leaf)
        return 0;
    sg_leaf l = key->asked(key, o);
    return l != SG_LEAF_EXACT && l != SG_LEAF_SPELLED;
}

/* Operands whose leaves the key holds exactly, whatever the matcher says:
   what a pass built in Python (an assignment, a slice) matches only the
   same, as its text did; no roll of one with holes has been checked
   against pyptx. */
static void put_exact(sg_key *key, const cg_opnd *o)
{
    sg_leaf (*leaf)(const sg_key *, const cg_opnd *) = key->leaf;
    if (leaf != exact_leaf)
        key->asked = leaf;
    key->leaf = exact_leaf;
    put_opnds(key, o);
    key->leaf = leaf;
}

void sg_key_sym(sg_key *key, cg_symid sym)
{
    cg_opnd o = { .kind = CG_O_SYM, .sym = sym, .index = -1 };
    sg_leaf l = key->leaf(key, &o);
    if (l == SG_LEAF_EXACT || l == SG_LEAF_SPELLED) {
        put_leaf(key, &o);
        return;
    }
    cg_opnd *hole = cg_alloc(key->m, sizeof *hole);   /* a hole outlives the call */
    *hole = o;
    put_leaf(key, hole);
}

/* The statements of the list s owns (cg_body), each with its own. */
static void put_body(sg_key *key, const cg_stmt *s)
{
    for (const cg_stmt *t = sg_body(s); t; t = t->next)
        sg_key_stmt(key, t);
}

int sg_key_sugar(const cg_stmt *s)
{
    /* FOR: range(count) or ptx.range_(args); WAIT: a call of its args;
       ALLOC: merge.c names the ones that print from args; ASSIGN: its
       operands */
    return s->kind == SG_S_ASSIGN ||
           ((s->kind == SG_S_FOR || s->kind == SG_S_WAIT || s->kind == SG_S_ALLOC) &&
            sg_name(s) != NULL);
}

/* A call or loop that prints from its name, count, arguments and body
   alone ("repeat" rolls them); other sugar nodes match only themselves. */
static void put_sugar(sg_key *key, const cg_stmt *s)
{
    ptx_buf_printf(&key->b, "%s#%u(", sg_name(s), sg_count(s));
    put_opnds(key, sg_args(s));
    ptx_buf_putc(&key->b, ')');
    put_body(key, s);
}

void sg_key_op(sg_key *key, const cg_inst *in)
{
    ptx_buf *b = &key->b;
    if (in->path) {   /* one string per opcode word in the module (ir.h) */
        char *w = ptx_buf_room(b, 1 + sizeof in->path);
        *w = 'w';
        memcpy(w + 1, &in->path, sizeof in->path);   /* keys are bytes */
        b->n += 1 + sizeof in->path;
    } else {
        sg_put_word(b, in);
    }
    if (key->deep)    /* a typed wrapper prints it ("calls") */
        put_num(b, 'h', in->hook);
}

/* Sugar kinds a deep key writes by what they print; the others (a loop
   with its label, a shared allocation, a local function) match only
   themselves. */
static int deep_kind(unsigned kind)
{
    static const uint8_t kinds[] = { SG_S_WAIT, SG_S_FOR, SG_S_EXPR, SG_S_WITH,
                                     SG_S_CMP, SG_S_ALIAS, SG_S_ALLOC, SG_S_ASSIGN };
    for (unsigned i = 0; i < sizeof kinds; i++)
        if (kinds[i] == kind)
            return 1;
    return 0;
}

/* A sugar node as it prints: its name and count, what it assigns, its
   operands, its symbol, and its body; an expression's tree (expr.c) and a
   merged declaration (alloc.c) by their own files, which hold what they
   print; a comparison prints from the setp it stands for (orig), the
   others never from theirs. */
static void put_deep(sg_key *key, const cg_stmt *s)
{
    if (s->kind == SG_S_EXPR) {
        sg_key_expr(key, s);
        return;
    }
    if (s->kind == SG_S_ALLOC) {
        sg_key_alloc(key, s);
        return;
    }
    if (sg_name(s))
        ptx_buf_puts(&key->b, sg_name(s));
    if (sg_count_slot(s))          /* (a count outline compares itself) */
        ptx_buf_puts(&key->b, "#?");
    else
        put_num(&key->b, '#', sg_count(s));
    if (s->kind == SG_S_ASSIGN)   /* its targets, then its value */
        put_num(&key->b, '=', sg_assign_of(s)->ntargets);
    put_opnds(key, sg_args(s));
    if (sg_sym(s) != CG_NOSYM)
        sg_key_sym(key, sg_sym(s));
    if (s->kind == SG_S_CMP) {   /* p = a < b, from the setp */
        const cg_inst *setp = &sg_orig(s)->u.inst;
        sg_key_op(key, setp);
        for (const cg_opnd *o = setp->ops ? setp->ops->next : NULL; o; o = o->next)
            put_operand(key, o);
    }
    put_body(key, s);
}

void sg_key_stmt(sg_key *key, const cg_stmt *s)
{
    ptx_buf *b = &key->b;
    put_num(b, '[', s->kind);
    switch (s->kind) {
    case CG_S_INST: {
        const cg_inst *in = &s->u.inst;
        sg_key_op(key, in);
        ptx_buf_putc(b, '|');
        if (key->deep && sg_guard_slot(in->guard)) {
            ptx_buf_putc(b, '?');
        } else if (in->guard) {
            cg_opnd g = *in->guard;
            g.next = NULL;
            put_opnds(key, &g);
            /* the hole is the real guard's (or its child's), not the copy's */
            if (key->nholes && key->holes[key->nholes - 1] == &g)
                key->holes[key->nholes - 1] = in->guard;
        }
        ptx_buf_putc(b, '|');
        put_opnds(key, in->ops);
        break;
    }
    case CG_S_LABEL:
        sg_key_sym(key, s->u.label);
        break;
    case CG_S_REG: case CG_S_BIND: {
        const cg_sym *y = &key->k->syms[s->u.reg];
        /* (deep: the PTX name it prints, where pyptx does not pick it) */
        ptx_buf_printf(b, "%d %s %u %s ", y->kind, y->type ? y->type : "", y->count,
                       key->deep && (!y->implicit || s->kind == CG_S_BIND) ? y->ptx : "");
        sg_key_sym(key, s->u.reg);
        break;
    }
    case CG_S_RAW:
        /* trivia (blank and comment lines) record no PTX token */
        if (s->u.raw.why)
            sg_text_key(&s->u.raw.text, b);
        break;
    case CG_S_SCOPE:
        ptx_buf_putc(b, '{');
        put_body(key, s);
        ptx_buf_putc(b, '}');
        break;
    default:
        if (s->kind >= CG_S_EXT && key->deep && deep_kind(s->kind)) {
            put_deep(key, s);
        } else if (s->kind == SG_S_ASSIGN) {
            put_num(b, '=', sg_assign_of(s)->ntargets);
            put_exact(key, sg_args(s));
        } else if (s->kind >= CG_S_EXT && sg_key_sugar(s)) {
            put_sugar(key, s);
        } else if (key->by_print && sg_alloc_rolls(s, &(cg_symid){ 0 })) {
            sg_key_alloc(key, s);
        } else if (s->kind == SG_S_EXPR) {   /* what it prints (a loop may hold it) */
            sg_key_expr(key, s);
        } else {   /* no matcher looks into other kinds: each matches only itself */
            ptx_buf_printf(b, "@%p", (const void *)s);
        }
        break;
    }
    ptx_buf_putc(b, ']');
}
