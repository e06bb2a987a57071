/*
 * sugar/key.c - structural keys: one serializer for every pattern matcher.
 *
 * A matcher that looks for repeated or known shapes (repeat: blocks that
 * differ by strides; wait: spin loops that differ by their barrier) needs
 * "equal up to these holes".  sg_key_stmt writes a statement as a string,
 * asking the matcher about each leaf operand (a symbol or an integer) how
 * much of it the string holds; two statements match exactly when their
 * strings are equal, and the holes come out in the same order for both,
 * so the matcher can pair them up.
 *
 * Grammar (the brackets keep concatenations unambiguous):
 *   stmt    [<kind> ...]      with INST: opcode|guard|operands, the opcode
 *                             as the address of its path (one per word)
 *   operand (<kind> ...)      children (a, b, elements) nested inside
 *   leaf    s<id>:<index>  s'<spelling>:<index>  ?  ?<id>  i<value>
 */
#include <stdint.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

/* Keys are built for every statement of a list: no printf. */
static void put_num(ptx_buf *b, char tag, int64_t v)
{
    char *w = ptx_buf_room(b, 24);
    *w++ = tag;
    if (v < 0) {
        *w++ = '-';
        v = -v;
    }
    w = cg_put_digits(w, (uint32_t)v, 0);
    b->n = (size_t)(w - b->p);
}

static void put_leaf(sg_key *key, const cg_opnd *o)
{
    ptx_buf *b = &key->b;
    switch (key->leaf(key, o)) {
    case SG_LEAF_EXACT:
        if (o->kind == CG_O_SYM) {
            put_num(b, 's', o->sym);
            put_num(b, ':', o->index);
        } else
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

static void put_exact(sg_key *key, const cg_opnd *o);

static void put_opnds(sg_key *key, const cg_opnd *o)
{
    for (; o; o = o->next) {
        put_num(&key->b, '(', o->kind);
        if (o->kind == CG_O_SYM || o->kind == CG_O_INT) {
            put_leaf(key, o);
        } else if (o->kind == SG_O_CONCAT) {
            put_exact(key, o->elems);   /* a slice's ranges: no loop variable */
        } else if (o->kind == SG_O_AFFINE) {
            /* a rolled loop's index: its variable and stride exactly, its
               base a leaf (a loop around it makes that affine in its own
               variable: base + 4*j + 256*i) */
            put_num(&key->b, 's', o->sym);
            sg_text_key(&o->text, &key->b);
            put_opnds(key, o->a);
            ptx_buf_putc(&key->b, '*');
            sg_text_key(&o->b->text, &key->b);
        } else {
            if (o->sym != CG_NOSYM)     /* SG_O_COMP's array, SG_O_NAME's symbol */
                put_num(&key->b, 's', o->sym);
            sg_text_key(&o->text, &key->b);
            put_opnds(key, o->a);
            put_opnds(key, o->b);
            put_opnds(key, o->elems);
        }
        ptx_buf_putc(&key->b, ')');
    }
}

static sg_leaf exact_leaf(const sg_key *key, const cg_opnd *o)
{
    (void)key, (void)o;
    return SG_LEAF_EXACT;
}

/* Operands whose leaves the key holds exactly, whatever the matcher says:
   what a pass built in Python (an assignment, a slice) matches only the
   same, as its text did; no roll of one with holes has been checked
   against pyptx. */
static void put_exact(sg_key *key, const cg_opnd *o)
{
    sg_leaf (*leaf)(const sg_key *, const cg_opnd *) = key->leaf;
    key->leaf = exact_leaf;
    put_opnds(key, o);
    key->leaf = leaf;
}

/* A declaration's or label's symbol, asked about like an operand. */
static void put_sym(sg_key *key, cg_symid sym)
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

void sg_key_stmt(sg_key *key, const cg_stmt *s)
{
    ptx_buf *b = &key->b;
    put_num(b, '[', s->kind);
    switch (s->kind) {
    case CG_S_INST: {
        const cg_inst *in = &s->u.inst;
        if (in->path) {   /* one string per opcode word in the module (ir.h) */
            char *w = ptx_buf_room(b, 1 + sizeof in->path);
            *w = 'w';
            memcpy(w + 1, &in->path, sizeof in->path);   /* keys are bytes */
            b->n += 1 + sizeof in->path;
        } else {
            ptx_buf_puts(b, in->op);
            for (uint32_t i = 0; i < in->nmods; i++) {
                ptx_buf_putc(b, '.');
                ptx_buf_puts(b, in->mods[i]);
            }
        }
        ptx_buf_putc(b, '|');
        if (in->guard) {
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
        put_sym(key, s->u.label);
        break;
    case CG_S_REG: case CG_S_BIND: {
        const cg_sym *y = &key->k->syms[s->u.reg];
        ptx_buf_printf(b, "%d %s %u ", y->kind, y->type ? y->type : "", y->count);
        put_sym(key, s->u.reg);
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
    case SG_S_ASSIGN:
        put_num(b, '=', sg_assign_of(s)->ntargets);
        put_exact(key, sg_args(s));
        break;
    case SG_S_FOR: case SG_S_WAIT: case SG_S_ALLOC:
        if (sg_key_sugar(s)) {
            put_sugar(key, s);
            break;
        }
        /* fall through */
    default:
        /* no matcher looks into other kinds: each matches only itself */
        ptx_buf_printf(b, "@%p", (const void *)s);
        break;
    }
    ptx_buf_putc(b, ']');
}
