/*
 * sugar/expr.c - pass "expr": chains of single-use integer temporaries
 * become one Python expression.
 *
 *     shl.b32 %r187, %r20, 13;
 *     add.s32 %r190, %r187, %r140;    ->  with ptx.expr(): ptx.inst.shl.b32(r[191],
 *     shl.b32 %r191, %r190, 1;              ptx.inst.add.s32(r[190], ptx.inst.shl.b32(
 *                                           r[187], r[20], 13), r[140]), 1)
 *
 * ptx.inst.<op>(dst, ...) returns dst, and Python evaluates arguments left
 * to right, so a nested call emits its instruction just before its
 * parent's: a chain is folded only where the source order is exactly that
 * post-order (nothing moves; every instruction keeps its modifiers and its
 * destination register).  The outermost instruction is written with a
 * pyptx operator (`r[k] = a + b`) only where pyptx 0.1.1 emits exactly that
 * instruction: RegArray.__setitem__ renames the operator's fresh
 * temporary to %rk and drops its declaration; the table below follows
 * reg.py (_emit_int_add ... ) for the operand dtypes, and it is not used in
 * a kernel that declares a scalar named like pyptx's temporaries (%rN,
 * %rdN), whose declaration __setitem__ could remove.  ptx.expr() groups
 * chains of two or more instructions (it records the same instructions).
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

#define MAXCHAIN 6
#define MAXOPS 8

typedef struct enode enode;
struct enode {
    cg_stmt *inst;
    enode *kid[MAXOPS];     /* operand position -> folded child */
    const char *opsym;      /* top only: Python operator, or NULL */
    unsigned size;          /* instructions in the tree */
};

typedef struct ctx {
    cg_module *m;
    cg_kernel *k;
    uint32_t *base;         /* sym -> first counter */
    uint16_t *uses, *defs;
    int no_overload;
    int ok32, ok64;         /* reg.array(..., name="%r"/"%rd") bumps pyptx's
                               temporary counter past the array */
    sg_scratch list, folds; /* the current list's */
    sg_scratch counts;      /* uses, defs */
    enode pool[MAXCHAIN];   /* the tree being tried (most are dropped) */
    unsigned npool;
} ctx;

/* What the pass asks of an opcode word, worked out once per word of the
   module (sg_st(m)->expr_words, by sg_word_id): most statements are asked
   about, and most opcodes are not arithmetic. */
struct sg_expr_word {
    uint8_t known, is;      /* is: arith_word */
    uint64_t rows;          /* the overload rows whose opcode and modifiers
                               are the word's (bit i: overloads[i]) */
};

/* The width of an integer type b16 ... s64, else 0 (asked of every
   operand of every arithmetic instruction: no strcmp). */
static int kind_bits(const char *t)
{
    if (!t || (t[0] != 'b' && t[0] != 'u' && t[0] != 's') || t[1] < '0' || t[1] > '9' ||
        t[2] < '0' || t[2] > '9' || t[3])
        return 0;
    int w = (t[1] - '0') * 10 + (t[2] - '0');
    return w == 16 || w == 32 || w == 64 ? w : 0;
}

static int int_type(const char *t)
{
    return kind_bits(t) != 0;
}

/* An integer operation pyptx's operators or a chain may stand for, by its
   opcode and modifiers alone. */
static int arith_word(const char *op, const char **mods, uint32_t nmods)
{
    static const char *const ops[] = { "add", "sub", "mul", "mad", "shl", "shr", "and",
                                       "or", "xor", "not", "neg", "cvt", "min", "max",
                                       "bfe", "bfi", "rem", "div", "abs", "popc", "clz",
                                       "brev" };
    if (!strchr("asmnxocbrdp", op[0]))   /* the first letters above */
        return 0;
    int ok = 0;
    for (unsigned i = 0; i < sizeof ops / sizeof *ops && !ok; i++)
        ok = ops[i][0] == op[0] && !strcmp(op, ops[i]);
    if (!ok)
        return 0;
    unsigned ntypes = 0;
    for (uint32_t i = 0; i < nmods; i++) {
        const char *md = mods[i];
        if (md[0] == 'f' || !strncmp(md, "bf", 2) || !strcmp(md, "pred") ||
            !strncmp(md, "rn", 2) || !strncmp(md, "rz", 2) || !strncmp(md, "rm", 2) ||
            !strncmp(md, "rp", 2) || !strcmp(md, "sat") || !strcmp(md, "cc"))
            return 0;
        if (int_type(md))
            ntypes++;
    }
    return ntypes > 0;
}

static uint64_t word_rows(const cg_stmt *s);

static const struct sg_expr_word *word_of(ctx *c, const cg_stmt *s)
{
    const cg_inst *in = &s->u.inst;
    uint32_t id = sg_word_id(c->m, in);
    sg_state *st = sg_st(c->m);
    st->expr_words = sg_word_array(c->m, st->expr_words, &st->nexpr_words, id,
                                   sizeof *st->expr_words);
    struct sg_expr_word *w = &st->expr_words[id];
    if (!w->known) {
        w->known = 1;
        w->is = (uint8_t)arith_word(in->op, in->mods, in->nmods);
        w->rows = w->is ? word_rows(s) : 0;
    }
    return w;
}

/* s's word, where s is an integer operation that may fold, else NULL. */
static const struct sg_expr_word *arith_inst(ctx *c, const cg_stmt *s)
{
    if (!s || s->kind != CG_S_INST || s->u.inst.guard)
        return NULL;
    const cg_inst *in = &s->u.inst;
    const struct sg_expr_word *w = word_of(c, s);
    const cg_opnd *d = in->ops;
    return w->is && d && d->kind == CG_O_SYM && sg_nops(d) <= MAXOPS ? w : NULL;
}

/* ---- use/def counts -------------------------------------------------- */

static uint32_t slot(const ctx *c, cg_symid s, int32_t idx)
{
    const cg_sym *y = &c->k->syms[s];
    if (y->kind == CG_SYM_REGARRAY)
        return idx >= 0 && (uint32_t)idx < y->count ? c->base[s] + (uint32_t)idx : UINT32_MAX;
    if (y->kind == CG_SYM_REG)
        return c->base[s];
    return UINT32_MAX;
}

static void bump(uint16_t *v, uint32_t i)
{
    if (i != UINT32_MAX && v[i] < 60000)
        v[i]++;
}

static int count_one(void *cx, cg_opnd *o)
{
    ctx *c = cx;
    if (o->kind == CG_O_SYM)
        bump(c->uses, slot(c, o->sym, o->index));
    for (uint32_t i = 0, n = sg_text_names(o) ? o->text.n : 0; i < n; i++)
        if (o->text.v[i].sym != CG_NOSYM) {
            uint32_t sl = slot(c, o->text.v[i].sym, o->text.v[i].index);
            bump(c->uses, sl);
            bump(c->uses, sl);   /* raw text: never a temp */
        }
    return SG_VISIT_ON;
}

static void count_opnd(ctx *c, const cg_opnd *o)
{
    sg_visit_opnds(o, count_one, c);
}

/* pyptx names an operator's temporary %r<counter> / %rd<counter>; only
   when the kernel declares %r<N> / %rd<N> through reg.array (a top-level
   CG_S_REG) is the counter past every source register, so the temporary
   can neither be the destination (__setitem__ would then keep its .reg)
   nor a source name.  Asked of the top-level statements by the walk that
   counts uses (one walk for both). */
static void note_array(ctx *c, const cg_stmt *s)
{
    if (s->kind == CG_S_REG && c->k->syms[s->u.reg].kind == CG_SYM_REGARRAY) {
        if (!strcmp(c->k->syms[s->u.reg].ptx, "%r"))
            c->ok32 = 1;
        if (!strcmp(c->k->syms[s->u.reg].ptx, "%rd"))
            c->ok64 = 1;
    }
}

/* Uses and definitions of every register, looking through the sugar
   nodes made before this pass (loops, wait calls) at what they record;
   top: s is the kernel's body (note_array). */
static void count_stmts(ctx *c, cg_stmt *s, int top)
{
    for (; s; s = s->next) {
        cg_stmt **body = cg_body(s);
        if (top)
            note_array(c, s);
        if (s->kind == CG_S_INST) {
            const cg_opnd *d = s->u.inst.ops;
            if (d && d->kind == CG_O_SYM) {
                bump(c->defs, slot(c, d->sym, d->index));
                count_opnd(c, d->next);
            } else {
                count_opnd(c, d);
            }
        } else if (s->kind == CG_S_RAW) {
            for (uint32_t i = 0; i < s->u.raw.text.n; i++)
                if (s->u.raw.text.v[i].sym != CG_NOSYM) {
                    uint32_t sl = slot(c, s->u.raw.text.v[i].sym, s->u.raw.text.v[i].index);
                    bump(c->uses, sl);
                    bump(c->uses, sl);
                }
        } else if (s->kind >= CG_S_EXT && sg_orig(s)) {
            count_stmts(c, sg_orig(s), 0);   /* besides the body, if any */
        } else if (s->kind == SG_S_DEF) {
            continue;   /* a definition records nothing where it stands:
                           its calls are counted through their orig */
        }
        /* a guard, or a loop's predicate */
        const cg_opnd *g = s->kind == CG_S_INST ? s->u.inst.guard
                           : s->kind == SG_S_LOOP ? sg_loop_of(s)->pred : NULL;
        if (g) {
            cg_opnd one = *g;
            one.next = NULL;
            count_opnd(c, &one);
        }
        if (body)
            count_stmts(c, *body, 0);
    }
}

/* ---- operator table (pyptx 0.1.1 reg.py) ------------------------------- */

static const char *opnd_type(const ctx *c, const cg_opnd *o, const enode *kid)
{
    if (kid)
        o = kid->inst->u.inst.ops;
    if (o->kind != CG_O_SYM)
        return NULL;
    const cg_sym *y = &c->k->syms[o->sym];
    if (y->kind != CG_SYM_REG && y->kind != CG_SYM_REGARRAY)
        return NULL;
    return y->type;
}

/* pyptx 0.1.1's integer operators (reg.py _emit_int_*; NOTES.md has the
   table by dtype): the instruction each one emits, by the width of the
   left operand and what the right operand is.  OUT rows are `r[k] = a op
   b` (a fresh temporary that RegArray.__setitem__ renames to r[k]); IN
   rows are `a op= b`, which writes a in place (`r[k] op= b` too: the
   setitem that follows is a no-op for the same register), so they need
   no temporary at all.  A row applies when the instruction has exactly
   these modifiers.  There is no `|=`: Reg has no __ior__. */
enum { RHS_SAME,     /* an int, or a register of the left's width */
       RHS_INT,      /* an int */
       RHS_ANYREG,   /* an integer register */
       RHS_ANY };    /* an int or an integer register */
enum { LHS_ANY, LHS_S32, LHS_NOT_S32 };
enum { OUT, IN };

typedef struct overload_row {
    const char *pat, *sym;      /* the instruction (sg_inst_match), the operator */
    uint8_t form, width, rhs, lhs;
} overload_row;

static const overload_row overloads[] = {
    { "add.s64", "+", OUT, 64, RHS_SAME, LHS_ANY },
    { "add.s32", "+", OUT, 32, RHS_SAME, LHS_S32 },
    { "add.u32", "+", OUT, 32, RHS_SAME, LHS_NOT_S32 },
    { "sub.s64", "-", OUT, 64, RHS_SAME, LHS_ANY },
    { "sub.s32", "-", OUT, 32, RHS_ANY, LHS_ANY },
    { "mul.lo.u64", "*", OUT, 64, RHS_SAME, LHS_ANY },
    { "mul.lo.s32", "*", OUT, 32, RHS_INT, LHS_ANY },
    { "mul.lo.u32", "*", OUT, 32, RHS_ANYREG, LHS_ANY },
    { "shl.b64", "<<", OUT, 64, RHS_ANY, LHS_ANY },
    { "shl.b32", "<<", OUT, 32, RHS_ANY, LHS_ANY },
    { "shr.u64", ">>", OUT, 64, RHS_ANY, LHS_ANY },
    { "shr.u32", ">>", OUT, 32, RHS_ANY, LHS_ANY },
    { "and.b64", "&", OUT, 64, RHS_SAME, LHS_ANY },
    { "and.b32", "&", OUT, 32, RHS_ANY, LHS_ANY },
    { "or.b64", "|", OUT, 64, RHS_SAME, LHS_ANY },
    { "or.b32", "|", OUT, 32, RHS_ANY, LHS_ANY },
    { "xor.b64", "^", OUT, 64, RHS_SAME, LHS_ANY },
    { "xor.b32", "^", OUT, 32, RHS_ANY, LHS_ANY },
    { "add.s64", "+=", IN, 64, RHS_SAME, LHS_ANY },
    { "add.s32", "+=", IN, 32, RHS_ANY, LHS_S32 },
    { "add.u32", "+=", IN, 32, RHS_ANY, LHS_NOT_S32 },
    { "sub.s64", "-=", IN, 64, RHS_SAME, LHS_ANY },
    { "sub.s32", "-=", IN, 32, RHS_ANY, LHS_ANY },
    { "mul.lo.u64", "*=", IN, 64, RHS_SAME, LHS_ANY },
    { "mul.lo.s32", "*=", IN, 32, RHS_INT, LHS_ANY },
    { "mul.lo.u32", "*=", IN, 32, RHS_ANYREG, LHS_ANY },
    { "shl.b64", "<<=", IN, 64, RHS_ANY, LHS_ANY },
    { "shl.b32", "<<=", IN, 32, RHS_ANY, LHS_ANY },
    { "shr.u64", ">>=", IN, 64, RHS_ANY, LHS_ANY },
    { "shr.u32", ">>=", IN, 32, RHS_ANY, LHS_ANY },
    { "and.b64", "&=", IN, 64, RHS_SAME, LHS_ANY },
    { "and.b32", "&=", IN, 32, RHS_ANY, LHS_ANY },
    { "xor.b64", "^=", IN, 64, RHS_SAME, LHS_ANY },
    { "xor.b32", "^=", IN, 32, RHS_ANY, LHS_ANY },
};

_Static_assert(sizeof overloads / sizeof *overloads <= 64, "word_memo.rows: a bit per row");

/* Row w is for in's opcode and modifiers. */
static int row_word(const overload_row *w, const cg_stmt *s)
{
    return sg_inst_match(s, w->pat, SG_ANY_OPS | SG_ANY_GUARD);
}

static uint64_t word_rows(const cg_stmt *s)
{
    uint64_t rows = 0;
    for (unsigned i = 0; i < sizeof overloads / sizeof *overloads; i++)
        rows |= (uint64_t)row_word(&overloads[i], s) << i;
    return rows;
}

/* ... and applies to operands of these types (row_word holds). */
static int row_fits(const overload_row *w, int form, const char *lt, int lb, int r_int, int rb)
{
    if (w->form != form || w->width != lb)
        return 0;
    if ((w->lhs == LHS_S32 && strcmp(lt, "s32")) ||
        (w->lhs == LHS_NOT_S32 && !strcmp(lt, "s32")))
        return 0;
    switch (w->rhs) {
    case RHS_SAME: return r_int || rb == lb;
    case RHS_INT: return r_int;
    case RHS_ANYREG: return !r_int;
    default: return 1;
    }
}


/* Python operator that emits exactly instruction s (`+` for r[k] = a + b,
   `+=` for a += b), or NULL; rows: those of s's word. */
static const char *overload(ctx *c, const enode *e, uint64_t rows)
{
    const cg_stmt *s = e->inst;
    if (!rows || sg_nops(s->u.inst.ops) != 3)
        return NULL;     /* (no row for the opcode word: mad, cvt, ...) */
    const cg_opnd *d = s->u.inst.ops, *l = d->next, *r = l->next;
    const cg_sym *dy = &c->k->syms[d->sym];
    /* in place: the destination is the left operand itself */
    int form = !e->kid[1] && sg_same_reg(d, l) && cg_sym_is_reg(dy) ? IN : OUT;
    if (form == OUT && (c->no_overload || dy->kind != CG_SYM_REGARRAY || d->index < 0))
        return NULL;
    const char *lt = opnd_type(c, l, e->kid[1]);
    if (!lt)
        return NULL;
    int lb = kind_bits(lt);
    if (form == OUT && (lb != 32 || !c->ok32) && (lb != 64 || !c->ok64))
        return NULL;
    /* right operand: int, or a register of a given width class */
    int r_int = r->kind == CG_O_INT && !e->kid[2];
    const char *rt = r_int ? NULL : opnd_type(c, r, e->kid[2]);
    int rb = rt ? kind_bits(rt) : 0;
    if (!r_int && !rb)
        return NULL;      /* pred, float, special, string ... */
    for (; rows; rows &= rows - 1) {
        const overload_row *w = &overloads[__builtin_ctzll(rows)];
        if (row_fits(w, form, lt, lb, r_int, rb))
            return w->sym;
    }
    return NULL;
}

const char *sg_fresh_operator(const cg_kernel *k, const cg_stmt *s)
{
    if (s->kind != CG_S_INST || s->u.inst.guard || sg_nops(s->u.inst.ops) != 3)
        return NULL;
    const cg_opnd *d = s->u.inst.ops, *l = d->next, *r = l->next;
    if (d->kind != CG_O_SYM || l->kind != CG_O_SYM || (r->kind != CG_O_INT && r->kind != CG_O_SYM))
        return NULL;
    const cg_sym *dy = &k->syms[d->sym], *ly = &k->syms[l->sym];
    const cg_sym *ry = r->kind == CG_O_SYM ? &k->syms[r->sym] : NULL;
    if (!cg_sym_is_reg(dy) || !cg_sym_is_reg(ly) || !dy->type || !ly->type ||
        strcmp(dy->type, ly->type) || (ry && (!cg_sym_is_reg(ry) || !ry->type)))
        return NULL;      /* the result takes the left operand's dtype */
    int lb = kind_bits(ly->type), rb = ry ? kind_bits(ry->type) : 0;
    if (!lb || (ry && !rb))
        return NULL;
    for (unsigned i = 0; i < sizeof overloads / sizeof *overloads; i++)
        if (row_word(&overloads[i], s) &&
            row_fits(&overloads[i], OUT, ly->type, lb, !ry, rb))
            return overloads[i].sym;
    return NULL;
}

/* ---- folding ------------------------------------------------------------ */

static int single_temp(const ctx *c, const cg_opnd *o)
{
    if (o->kind != CG_O_SYM)
        return 0;
    const cg_sym *y = &c->k->syms[o->sym];
    if (!int_type(y->type))
        return 0;
    uint32_t sl = slot(c, o->sym, o->index);
    return sl != UINT32_MAX && c->uses[sl] == 1 && c->defs[sl] == 1;
}

/* Does an operand left of operand i emit when Python evaluates it (an
   operator merge.c nested there)?  Then a child folded at i would emit
   after it, where the source has it before: the nested operator's
   instructions stood right before the instruction, after every child. */
static int left_emits(const cg_opnd *const *ops, unsigned i)
{
    for (unsigned j = 1; j < i; j++) {
        cg_opnd one = *ops[j];
        one.next = NULL;
        if (sg_opnds_emit(&one))
            return 1;
    }
    return 0;
}

/* Does d write (as its destination) a register that s reads: fold's first
   test, which most pairs of statements fail. */
static int writes_operand(const cg_stmt *d, const cg_stmt *s)
{
    const cg_opnd *dd = d->kind == CG_S_INST ? d->u.inst.ops : NULL;
    if (!dd || dd->kind != CG_O_SYM)
        return 0;
    for (const cg_opnd *o = s->u.inst.ops->next; o; o = o->next)
        if (o->kind == CG_O_SYM && o->sym == dd->sym && o->index == dd->index)
            return 1;
    return 0;
}

/* Fold into a[b] the temporaries defined right before it; *start gets the
   first statement of the tree.  Returns the tree. */
static enode *fold(ctx *c, cg_stmt **a, unsigned lo, unsigned b, unsigned *start,
                   unsigned budget)
{
    enode *e = &c->pool[c->npool++];   /* the budget bounds the tree */
    memset(e, 0, sizeof *e);
    e->inst = a[b];
    e->size = 1;
    unsigned pos = b, n = 0;
    const cg_opnd *ops[MAXOPS];   /* (arith_inst: at most MAXOPS) */
    for (const cg_opnd *o = a[b]->u.inst.ops; o && n < MAXOPS; o = o->next)
        ops[n++] = o;
    for (unsigned i = n; i-- > 1;) {
        const cg_opnd *o = ops[i];
        if (pos == lo || e->size >= budget || o->kind != CG_O_SYM)
            continue;
        /* the statement before writes o (the cheap test first), no operand
           left of o emits, o is a temporary used once, and that statement
           folds */
        cg_stmt *d = a[pos - 1];
        const cg_opnd *dd = d->kind == CG_S_INST ? d->u.inst.ops : NULL;
        if (!dd || dd->kind != CG_O_SYM || dd->sym != o->sym || dd->index != o->index ||
            left_emits(ops, i) || !single_temp(c, o) || !arith_inst(c, d))
            continue;
        unsigned st;
        enode *kid = fold(c, a, lo, pos - 1, &st, budget - e->size);
        e->kid[i] = kid;
        e->size += kid->size;
        pos = st;
    }
    *start = pos;
    return e;
}

/* The tree tried in the pool, kept in the arena. */
/* Does the top operator write its left operand in place (`a += b`)? */
static int in_place(const enode *e)
{
    return e->opsym[strlen(e->opsym) - 1] == '=';
}

static enode *keep(cg_module *m, const enode *e)
{
    enode *k = cg_alloc(m, sizeof *k);
    *k = *e;
    for (unsigned i = 0; i < MAXOPS; i++)
        if (e->kid[i])
            k->kid[i] = keep(m, e->kid[i]);
    return k;
}

/* ---- printing -------------------------------------------------------- */

static void text_of(const cg_module *m, const cg_kernel *k, const enode *e, ptx_buf *out,
                    int top);

/* Operand o of e's instruction, position i: a folded child's text, or the
   operand itself. */
static void text_opnd(const cg_module *m, const cg_kernel *k, const enode *e, unsigned i,
                      const cg_opnd *o, ptx_buf *out)
{
    if (i < MAXOPS && e->kid[i]) {
        text_of(m, k, e->kid[i], out, 0);
        return;
    }
    cg_print_opnd(m, k, o, out);
}

/* The top of a chain as a pyptx operator: `d = a OP b` or `d OP= b`. */
static void text_operator(const cg_module *m, const cg_kernel *k, const enode *e, ptx_buf *out)
{
    const cg_opnd *d = e->inst->u.inst.ops, *l = d->next, *r = l->next;
    cg_print_opnd(m, k, d, out);
    if (!in_place(e)) {
        ptx_buf_puts(out, " = ");
        text_opnd(m, k, e, 1, l, out);
    }
    ptx_buf_putc(out, ' ');
    ptx_buf_puts(out, e->opsym);
    ptx_buf_putc(out, ' ');
    text_opnd(m, k, e, 2, r, out);
}

/* The instruction's call as print_inst writes it, each folded operand's
   position holding its child's call (ptx.inst.<op> returns the
   destination): written straight into `out`, since every expression of
   a big module is printed. */
static void text_of(const cg_module *m, const cg_kernel *k, const enode *e, ptx_buf *out,
                    int top)
{
    const cg_stmt *s = e->inst;
    if (top && e->opsym) {
        text_operator(m, k, e, out);
        return;
    }
    if (s->u.inst.path && !s->u.inst.hook) {   /* ptx.inst.<path>( */
        ptx_buf_put(out, "ptx.inst.", 9);
        ptx_buf_put(out, s->u.inst.path, s->u.inst.pathlen);
        ptx_buf_putc(out, '(');
    } else {
        cg_stmt head = *s;                 /* ptx.inst.<path>()\n, by the */
        head.next = NULL;                  /* printer of instructions */
        head.u.inst.ops = head.u.inst.guard = NULL;
        cg_print_stmts(m, k, &head, 0, out);
        out->n -= 2;                       /* then the operands before ")" */
    }
    unsigned i = 0;
    for (const cg_opnd *o = s->u.inst.ops; o; o = o->next, i++) {
        if (i)
            ptx_buf_put(out, ", ", 2);
        text_opnd(m, k, e, i, o, out);
    }
    if (s->u.inst.guard) {
        ptx_buf_puts(out, s->u.inst.ops ? ", pred=" : "pred=");
        cg_print_opnd(m, k, s->u.inst.guard, out);
    }
    ptx_buf_putc(out, ')');
}

void sg_print_expr(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                  ptx_buf *out)
{
    const enode *e = sg_expr_of(s)->tree;
    sg_indent(out, depth);
    if (e->size >= 2)
        ptx_buf_puts(out, "with ptx.expr(): ");
    text_of(m, k, e, out, 1);
    ptx_buf_putc(out, '\n');
}

/* e's instruction as text_of prints it: the opcode, a top operator's
   symbol, the operands in order with a folded child's key in its place,
   the guard. */
static void key_node(sg_key *key, const enode *e, int top)
{
    const cg_inst *in = &e->inst->u.inst;
    sg_key_op(key, in);
    if (top && e->opsym)
        ptx_buf_puts(&key->b, e->opsym);
    unsigned i = 0;
    for (const cg_opnd *o = in->ops; o; o = o->next, i++) {
        if (i < MAXOPS && e->kid[i]) {
            ptx_buf_putc(&key->b, '<');
            key_node(key, e->kid[i], 0);
            ptx_buf_putc(&key->b, '>');
        } else {
            key->up = top && e->opsym && i ? &sg_key_operator : NULL;   /* d = l OP r */
            sg_key_opnd(key, o);
            key->up = NULL;
        }
    }
    if (in->guard) {
        ptx_buf_putc(&key->b, '|');
        sg_key_opnd(key, in->guard);
    }
}

void sg_key_expr(sg_key *key, const cg_stmt *s)
{
    key_node(key, sg_expr_of(s)->tree, 1);
}

const char *sg_expr_word(const cg_stmt *s)
{
    return sg_expr_of(s)->tree->inst->u.inst.path;
}

typedef struct copying {
    cg_module *m;
    sg_subst_fn subst;
    void *ctx;
    cg_stmt **tail;   /* the copy's instructions, children first, as an
                         expression's orig holds them: the walks that reach
                         a node's operands through its orig (references,
                         repeat_lists.c's reads) reach the copy's */
} copying;

/* e, its instruction copied with its operands as subst gives them, in
   key_node's order (a folded child's operand stays: the child prints in
   its place). */
static enode *copy_node(copying *cp, const enode *e, int top)
{
    cg_module *m = cp->m;
    enode *c = cg_alloc(m, sizeof *c);
    *c = *e;
    cg_stmt *s = sg_copy_stmt(m, e->inst);
    int out_form = top && e->opsym && !in_place(e);
    cg_opnd *head = NULL, **tail = &head;
    unsigned i = 0;
    for (const cg_opnd *o = e->inst->u.inst.ops; o; o = o->next, i++, tail = &(*tail)->next) {
        if (i < MAXOPS && e->kid[i]) {
            c->kid[i] = copy_node(cp, e->kid[i], 0);
            *tail = sg_copy_opnd(m, o);
            continue;
        }
        *tail = cp->subst(cp->ctx, (cg_opnd *)o);
        if (out_form && i)
            *tail = sg_operand_opnd(m, *tail);
    }
    s->u.inst.ops = head;
    if (e->inst->u.inst.guard)
        s->u.inst.guard = cp->subst(cp->ctx, e->inst->u.inst.guard);
    c->inst = s;
    *cp->tail = s;
    cp->tail = &s->next;
    return c;
}

cg_stmt *sg_expr_copy(cg_module *m, const cg_stmt *s, sg_subst_fn subst, void *ctx)
{
    cg_stmt *c = sg_node_new(m, SG_S_EXPR, s->first);
    copying cp = { m, subst, ctx, &sg_expr_of(c)->orig };
    sg_expr_of(c)->tree = copy_node(&cp, sg_expr_of(s)->tree, 1);
    return c;
}

int sg_expr_binds(const cg_stmt *s, cg_symid *sym)
{
    const enode *e = sg_expr_of(s)->tree;
    const cg_opnd *d = e->inst->u.inst.ops;
    if (!e->opsym || !d || d->kind != CG_O_SYM || d->index >= 0)
        return 0;   /* a call, or an element: r[5] = ... binds no name */
    *sym = d->sym;
    return in_place(e) ? SG_AUGMENTS : SG_BINDS;
}

/* ---- the pass ------------------------------------------------------------ */

/* A chain of two written with an operator, `x += ptx.inst.mul.wide.u32(t,
   a, 4)` in ptx.expr(), reads better as the two statements pyptx's
   documentation writes, `ptx.mul(u32, t, a, 4, mode="wide")` and `x += t`,
   where the inner instruction has a typed wrapper: one line more, and the
   DSL's own helper. */
static int typed_kid(const ctx *c, const enode *e)
{
    for (unsigned i = 0; i < MAXOPS; i++)
        if (e->kid[i])
            return sg_has_wrapper(c->k, &e->kid[i]->inst->u.inst);
    return 0;
}

static uint32_t fold_list(ctx *c, cg_stmt **head, size_t at)
{
    uint32_t made = 0, inner;
    unsigned n;
    size_t off = sg_list_push(&c->list, at, *head, &n), past = c->list.n;
    for (unsigned i = 0; i < n; i++) {   /* the lists inside first */
        cg_stmt **body = cg_body(sg_list_at(&c->list, off)[i]);
        if (body)
            made += fold_list(c, body, past);
    }
    c->list.n = past;
    inner = made;
    cg_stmt **a = sg_list_at(&c->list, off);
    if (!n)
        return made;
    /* right to left: the latest consumer takes the longest chain */
    cg_stmt **repl = sg_scratch_get(&c->folds, n * (sizeof *repl + sizeof(unsigned)));
    unsigned *end = (unsigned *)(repl + n);   /* repl[i]: node starting at i */
    for (unsigned b = n; b-- > 0;) {
        const struct sg_expr_word *w = arith_inst(c, a[b]);
        if (!w)
            continue;
        uint64_t rows = w->rows;   /* (fold's word_of may move the words) */
        if (!rows && (!b || !writes_operand(a[b - 1], a[b])))
            continue;   /* no operator, and nothing to fold: as it is */
        unsigned start;
        c->npool = 0;
        enode *e = fold(c, a, 0, b, &start, MAXCHAIN);
        e->opsym = overload(c, e, rows);
        if (e->size == 2 && e->opsym && typed_kid(c, e)) {   /* the wrapper, then `x += t` */
            c->npool = 0;
            e = fold(c, a, 0, b, &start, 1);
            e->opsym = overload(c, e, rows);
        }
        if (e->size < 2 && !e->opsym)
            continue;
        cg_stmt *node = sg_node_new(c->m, SG_S_EXPR, a[start]->first);
        sg_expr_of(node)->tree = keep(c->m, e);
        repl[start] = node;
        end[start] = b;
        made++;
        b = start;   /* loop decrements */
    }
    if (made == inner)
        return made;   /* nothing folded here: no relinking */
    cg_stmt **link = head;
    for (unsigned i = 0; i < n;) {
        if (repl[i]) {
            sg_expr_of(repl[i])->orig = cg_splice(link, a[end[i]], repl[i]);
            link = &repl[i]->next;
            i = end[i] + 1;
        } else {
            link = &a[i]->next;
            i++;
        }
    }
    return made;
}

static int temp_like(const char *p)
{
    /* %r<digits> or %rd<digits>: names pyptx's operators allocate */
    if (strncmp(p, "%r", 2))
        return 0;
    p += 2;
    if (*p == 'd')
        p++;
    if (!*p)
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return 1;
}

uint32_t sugar_expr(cg_module *m, cg_kernel *k)
{
    ctx c = { .m = m, .k = k };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &c.counts, &c.list, &c.folds, NULL);
    uint64_t total = 0;
    c.base = cg_alloc(m, (k->nsyms + 1) * sizeof *c.base);
    for (uint32_t i = 0; i < k->nsyms; i++) {
        c.base[i] = (uint32_t)total;
        const cg_sym *y = &k->syms[i];
        if (y->kind == CG_SYM_REGARRAY)
            total += y->count;
        else if (y->kind == CG_SYM_REG)
            total += 1;
        if (y->kind == CG_SYM_REG && !y->alias && y->ptx && temp_like(y->ptx))
            c.no_overload = 1;
    }
    /* use/def counts are kept per register; a declared range far
       beyond what any kernel uses (%r<99999999999>) is left alone
       rather than allocated */
    uint32_t made = 0;
    if (total <= SG_MAX_TRACKED_REGS) {
        c.uses = sg_scratch_get(&c.counts, 2 * (total + 1) * sizeof *c.uses);
        c.defs = c.uses + total + 1;
        count_stmts(&c, k->body, 1);
        made = fold_list(&c, &k->body, 0);
    }
    ptx_free_bufs(&ob);
    return made;
}
