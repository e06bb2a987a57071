/*
 * sugar/repeat.c - pass "repeat": runs of near-identical statement
 * blocks that differ only by constant strides become Python loops:
 *
 *     add.s32 %r101, %r111, 221208;           for i in range(3):
 *     mbarrier.init.shared::cta.b64 [%r101], 4;    ptx.inst.add.s32(r[101 + 2*i], r[111], 221208 + 8*i)
 *     add.s32 %r103, %r111, 221216;   ->         ptx.inst.mbarrier.init.shared__cta.b64(ptx.addr(r[101 + 2*i]), 4)
 *     ...
 *
 * A block is g consecutive statements (1 <= g <= 16) repeated c times:
 * instructions, and in a kernel written in pyptx (one with a register
 * pyptx allocated itself, as outline asks) the expressions "expr" made of
 * them, whose copy in the loop's body gets the varying operands of its
 * instructions (expr.c, sg_expr_copy: `for i in range(6): px += step`).
 * In compiler output they stay as they are: there they are a library
 * module's unrolled address arithmetic, whose rolling made --sugar a
 * tenth slower on the largest modules, where its time is held to twice
 * plain codegen's;
 * every register index or decimal immediate that differs between the
 * copies must be an arithmetic progression base + stride*i, everything
 * else (opcodes, modifiers, operand shapes, other operands) identical.
 * The loop only re-emits the same calls in the same order: Python ints
 * print as decimal, r[k] prints %rk, so the traced text is the source
 * text.  A run is rolled when it saves at least 2 lines.  Labels, raw
 * statements and blocks end a run.
 *
 * A copy may also allocate registers of its own, as a Python loop body
 * that calls reg.scalar(T) does on every pass: a scalar that pyptx names
 * itself (decls.c: implicit) may differ from copy to copy where each copy
 * declares its own and names it nowhere outside itself (or where later
 * code reads it, through a Python list: repeat_lists.c); the copies'
 * registers then pair one to one, in the order they are declared.  The
 * body declares the first copy's, and pyptx's counter gives each pass the
 * next copy's name, since nothing else allocates between the copies.  A
 * read of such a register where the key holds operands exactly (an
 * assignment's) is a hole all the same (sg_key.pin_holes), so that a copy
 * reading the first copy's register there is seen; and a register the
 * second copy names differently from the first varies in every copy, even
 * where a later copy comes back to the first one's (a list's element).
 * Statements are keyed once (key.c,
 * register indices and integers as holes) and a run grows copy by copy
 * while it matches, so the pass is linear for a fixed block size.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/repeat.h"
#include "util/alloc.h"
#include "util/buf.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MAXG 16
#define MAXLEAF 512

/* A scalar register pyptx names itself: one that a copy may allocate. */
static int fresh_scalar(const cg_kernel *k, cg_symid sym)
{
    const cg_sym *y = &k->syms[sym];
    return y->kind == CG_SYM_REG && y->implicit && y->type;
}

/* Registers of an array vary by index, integers by value, scalars pyptx
   names itself by copy (copy_allocs); the rest of a statement must be the
   same in every copy. */
static sg_leaf stride_leaf(const sg_key *key, const cg_opnd *o)
{
    if (o->kind == CG_O_INT)
        return SG_LEAF_WILD;
    if (o->index >= 0)
        return SG_LEAF_WILD_SYM;
    return fresh_scalar(key->k, o->sym) ? SG_LEAF_WILD : SG_LEAF_EXACT;
}

/* A merged declaration that a loop may hold (sg_alloc_rolls): 1, and
   *x the register each copy declares, one pyptx names itself (x =
   reg.from_(...), x = a + b), or CG_NOSYM (a += b); else 0. */
static int alloc_rolls(const cg_kernel *k, const cg_stmt *s, cg_symid *x)
{
    return sg_alloc_rolls(s, x) && (*x == CG_NOSYM || fresh_scalar(k, *x));
}

/* A scope of instructions only (nvcc's `{ cvt.rn.bf16.f32 ... }`) rolls
   like one compound statement; an expression, in a kernel written in
   pyptx (roller.exprs). */
static int rollable(const roller *r, const cg_stmt *s)
{
    const cg_kernel *k = r->k;
    if (s->kind == CG_S_INST || sg_key_sugar(s))
        return 1;
    if (s->kind == SG_S_EXPR)
        return r->exprs;
    if (s->kind == CG_S_REG)
        return fresh_scalar(k, s->u.reg);
    cg_symid x;
    if (s->kind == SG_S_ALLOC)
        return alloc_rolls(k, s, &x);
    if (s->kind != CG_S_SCOPE || !sg_body(s))
        return 0;
    for (const cg_stmt *t = sg_body(s); t; t = t->next)
        if (t->kind != CG_S_INST)
            return 0;
    return 1;
}

static void leaf_value(leaf *l)
{
    l->ok = 1;
    if (l->o->kind == CG_O_SYM) {
        l->v = l->o->index;
        return;
    }
    if (!sg_text_int(&l->o->text, &l->v) || l->v > (1LL << 52) || l->v < -(1LL << 52))
        l->ok = 0;   /* not a number, or a huge constant: kept literal */
}

/* What two statements of one shape share: the opcode word of each
   instruction, hashed to 32 bits, which vector code compares (0: never
   rolled).  Equal shapes have equal sketches; the converse need not hold.
   (Not the operand count, which an opcode word nearly always fixes:
   counting every statement's operands was a tenth of the pass.) */
static uint32_t sketch(const roller *r, const cg_stmt *s)
{
    const cg_kernel *k = r->k;
    uint64_t h = 0x9e3779b97f4a7c15ull;
    if (s->kind == CG_S_INST) {   /* most statements (rollable, all of them) */
        h = (h ^ (uintptr_t)s->u.inst.path) * 0x100000001b3ull;
        return (uint32_t)(h ^ h >> 32) | 1;
    }
    if (!rollable(r, s))
        return 0;
    if (s->kind == CG_S_REG)   /* a declaration: its type */
        for (const char *t = k->syms[s->u.reg].type; *t; t++)
            h = (h ^ (uint8_t)*t) * 0x100000001b3ull;
    if (sg_key_sugar(s) || s->kind == SG_S_ALLOC)   /* a rolled loop, a call, a merged
                                                       declaration: its kind and name */
        return ((h ^ s->kind) * 0x100000001b3ull ^ (uintptr_t)(sg_name(s) ? sg_name(s)[0] : 0)) | 1;
    if (s->kind == SG_S_EXPR)   /* an expression: as its top instruction */
        h = (h ^ (uintptr_t)sg_expr_word(s)) * 0x100000001b3ull;
    const cg_stmt *t = s->kind == CG_S_SCOPE ? sg_body(s)
                       : s->kind == CG_S_REG || s->kind == SG_S_EXPR ? NULL : s;
    for (; t; t = s->kind == CG_S_SCOPE ? t->next : NULL)
        h = (h ^ (uintptr_t)t->u.inst.path) * 0x100000001b3ull;
    return (uint32_t)(h ^ h >> 32) | 1;
}

/* Bit p of `bits` (n bits, the rest of the last word 0): a[p] == b[p],
   not 0; sixteen at a time on x86-64, since it is asked of every
   statement sixteen times (the compiler does not vectorize the loop by
   itself).  a and b are readable PAIR_PAD items past n, where a pair is
   never equal (0 in b: the sketches' zeros after the list), so that the
   last sixteen need no loop of their own: most lists are short. */
enum { PAIR_PAD = 16 };
static void pair_bits(const uint32_t *restrict a, const uint32_t *restrict b,
                      uint64_t *restrict bits, unsigned n)
{
    memset(bits, 0, (n + 63) / 64 * sizeof *bits);
    unsigned p = 0;
#if defined(__SSE2__)
    for (; p < n; p += 16) {
        __m128i r[4];
        for (unsigned j = 0; j < 4; j++) {   /* all ones where equal and not 0 */
            __m128i x = _mm_loadu_si128((const __m128i *)(a + p + 4 * j));
            __m128i y = _mm_loadu_si128((const __m128i *)(b + p + 4 * j));
            r[j] = _mm_andnot_si128(_mm_cmpeq_epi32(x, _mm_setzero_si128()),
                                    _mm_cmpeq_epi32(x, y));
        }
        __m128i bytes = _mm_packs_epi16(_mm_packs_epi32(r[0], r[1]), _mm_packs_epi32(r[2], r[3]));
        bits[p / 64] |= (uint64_t)(uint16_t)_mm_movemask_epi8(bytes) << (p % 64);
    }
#endif
    for (; p < n; p++)
        bits[p / 64] |= (uint64_t)(a[p] == b[p] && a[p]) << (p % 64);
}

/* Bits over 128 positions, a word and the next (or the one before). */
typedef unsigned __int128 bits128;

/* Bit p: bits p .. p + len - 1 of x are all set (1 <= len <= 64), by
   doubling the length checked. */
static bits128 all_of(bits128 x, unsigned len)
{
    unsigned have = 1;
    for (; 2 * have <= len; have *= 2)
        x &= x >> have;
    return have < len ? x & x >> (len - have) : x;
}

/* Bit p: one of bits p - len + 1 .. p of x is set (1 <= len <= 64). */
static bits128 any_of(bits128 x, unsigned len)
{
    unsigned have = 1;
    for (; 2 * have <= len; have *= 2)
        x |= x << have;
    return have < len ? x | x << (len - have) : x;
}

/* Marks (bit i of cand, n bits) the statements that some roll could
   take, the only ones worth keying (keying every statement of a big
   module was most of this pass's work).  A roll of c copies of g
   statements that saves the 2 lines best_run asks for pairs every
   statement of its first c - 1 copies with the one g further on, same
   shape and so same sketch: positions p .. p + L - 1 with sk[p] ==
   sk[p + g], L = (c - 1) * g >= g and c * g - (g + 1) >= 2, i.e. L >= 3.
   So only the statements of such runs of pairs (and the g after them)
   are marked; the others keep shape 0, which best_run would reject
   anyway: no roll it could choose is lost.  Such a run fits in the n - g
   pairs only where g <= n / 2 and g <= n - 3, which bounds g for a short
   list (most are).  A run [p, q) of at least min pairs marks p .. q - 1 +
   g, which is what its windows of min pairs mark together: each window
   start s (pairs s .. s + min - 1 all equal) marks s .. s + min - 1 + g.
   So a word of 64 positions is done with shifts, without a branch per
   run (a loop over runs was a third of the pass, on mispredicted
   branches): the starts from the word and the next, the marks from the
   starts of the word and the one before (min + g <= 32). */
static void mark_candidates(const uint32_t *sk, unsigned n, uint64_t *cand, uint64_t *bits)
{
    unsigned words = (n + 63) / 64;
    for (unsigned g = 1; g <= MAXG && 2 * g <= n && g + 3 <= n; g++) {
        unsigned min = g > 3 ? g : 3, np = n - g, pw = (np + 63) / 64;
        pair_bits(sk, sk + g, bits, np);
        uint64_t before = 0;   /* the starts of the word before */
        for (unsigned w = 0; w < words; w++) {
            uint64_t lo = w < pw ? bits[w] : 0, hi = w + 1 < pw ? bits[w + 1] : 0;
            if (!(lo | before))   /* (no start here, none before: no mark) */
                continue;
            uint64_t starts = (uint64_t)all_of((bits128)hi << 64 | lo, min);
            cand[w] |= (uint64_t)(any_of((bits128)starts << 64 | before, min + g) >> 64);
            before = starts;
        }
    }
}

/* Keys statement s into *it; its leaves are appended to r->leaves (the
   pointers are set once the list is done: the buffer may move). */
static void make_item(roller *r, cg_stmt *s, item *it)
{
    it->decl = CG_NOSYM;
    it->expr = s->kind == SG_S_EXPR;
    if (!rollable(r, s))
        return;
    r->key.b.n = 0;
    r->key.nholes = 0;
    if (s->kind == CG_S_REG) {   /* the type only: the register pairs by copy */
        ptx_buf_printf(&r->key.b, "[reg %s]", r->k->syms[s->u.reg].type);
        it->decl = s->u.reg;
    } else {
        sg_key_stmt(&r->key, s);
        if (s->kind == SG_S_ALLOC)   /* its register pairs by copy, as a REG's */
            alloc_rolls(r->k, s, &it->decl);
    }
    if (r->key.nholes > MAXLEAF)
        return;
    cg_mslot *slot = cg_map_put(r->m, &r->shapes, r->key.b.p, r->key.b.n);
    if (slot->val < 0) {
        slot->k = cg_strndup(r->m, r->key.b.p, r->key.b.n);
        slot->val = (int32_t)r->shapes.n;
    }
    it->shape = (uint32_t)slot->val;
    it->nleaves = r->key.nholes;
    ptx_buf_reserve(&r->leaves, it->nleaves * sizeof(leaf));
    leaf *l = (leaf *)(r->leaves.p + r->leaves.n);
    it->scalars = 0;
    for (unsigned q = 0; q < it->nleaves; q++) {
        l[q].o = r->key.holes[q];
        leaf_value(&l[q]);
        it->scalars |= l[q].o->kind == CG_O_SYM && l[q].o->index < 0;
    }
    it->leaves = (leaf *)(uintptr_t)r->leaves.n;   /* an offset for now */
    r->leaves.n += it->nleaves * sizeof(leaf);
}

/* ---- finding runs ---------------------------------------------------- */

typedef struct run {
    unsigned g, c;
} run;

/* Can copy r of a block whose first two copies are x and y (same
   shapes) follow them: every leaf x + r * (y - x), or the same text where
   a value is not known?  r == 1 checks y itself against x. */
static int leaves_follow(const item *x, const item *y, const item *z, unsigned r)
{
    for (unsigned q = 0; q < x->nleaves; q++) {
        const leaf *a = &x->leaves[q], *b = &y->leaves[q], *c = &z->leaves[q];
        if (!a->ok || !b->ok || !c->ok) {
            if (!sg_opnd_equal(a->o, c->o) || !sg_opnd_equal(a->o, b->o))
                return 0;
        } else if (c->v - a->v != (long long)r * (b->v - a->v)) {
            return 0;
        }
    }
    return 1;
}

/* The uses of register x among the leaves of the g items from `at`. */
uint32_t rp_uses_in(const item *at, unsigned g, cg_symid x)
{
    uint32_t n = 0;
    for (unsigned j = 0; j < g; j++)
        for (unsigned q = 0; q < at[j].nleaves; q++)
            n += at[j].leaves[q].o->kind == CG_O_SYM && at[j].leaves[q].o->sym == x;
    return n;
}

/* Is register x, which copy `at` declares, named nowhere outside the
   copy, or else read only where its list's element may stand? */
static int own_or_listed(roller *r, cg_stmt **head, const item *at, unsigned g, cg_symid x)
{
    if (!r->refs)   /* no fresh scalar: no copy allocates (sugar_repeat) */
        return 0;
    return r->refs[x] == rp_uses_in(at, g, x) || rl_listable(r, head, x);
}

/* The registers the copy at `at` declares, paired with the first copy's
   (x: the first copy, z: copy c; declarations stand where they do in
   both, the shapes being equal): each one's uses all within its copy,
   (or read after the run, through a list: repeat_lists.c), and every
   scalar leaf of copy c either the first copy's own register where that
   one is not the copy's, its pair, or the element of a list that the
   first copy's is, c steps further (y: copy 1). */
static int copy_allocs(roller *r, cg_stmt **head, const item *x, const item *y, const item *z,
                       unsigned g, unsigned c)
{
    for (unsigned j = 0; j < g; j++) {
        if (x[j].decl == CG_NOSYM)
            continue;
        if (x[j].decl == z[j].decl || !own_or_listed(r, head, x, g, x[j].decl) ||
            !own_or_listed(r, head, z, g, z[j].decl))
            return 0;
    }
    for (unsigned j = 0; j < g; j++)
        for (unsigned q = 0; q < x[j].nleaves; q++) {
            const cg_opnd *a = x[j].leaves[q].o, *b = z[j].leaves[q].o;
            if (a->kind != CG_O_SYM || a->index >= 0)
                continue;
            cg_symid want = a->sym;
            for (unsigned d = 0; d < g; d++)
                if (x[d].decl == a->sym)
                    want = z[d].decl;
            for (unsigned d = 0; d < g && want == a->sym; d++)
                if (z[d].decl == b->sym)
                    return 0;    /* the copy's own, where the first names another */
            const cg_opnd *yo = y[j].leaves[q].o;
            /* a register the second copy does not share varies: copy c
               must name the element c steps on, even where it comes back
               to the first copy's (out[0], out[1], ... out[0]) */
            int varies = want == a->sym && yo->sym != a->sym;
            if ((varies || b->sym != want) && !rl_list_step(r, a, yo, b, c))
                return 0;
        }
    return 1;
}

/* Copy c of the block it[s..s+g) (starting at it[s + c*g]) matches. */
static int copy_matches(roller *r, cg_stmt **head, const item *it, unsigned s, unsigned g,
                        unsigned c)
{
    int allocs = 0;
    for (unsigned j = 0; j < g; j++) {
        const item *x = &it[s + j], *y = &it[s + g + j], *z = &it[s + c * g + j];
        if (z->shape != x->shape || !leaves_follow(x, y, z, c))
            return 0;
        allocs |= x->decl != CG_NOSYM || x->scalars;
    }
    return !allocs || copy_allocs(r, head, &it[s], &it[s + g], &it[s + c * g], g, c);
}

/* Two copies of a block with expressions that are the same, leaf for leaf
   (but the registers each copy allocates, which copy_matches paired, and
   which leaf_value gives one value, -1): outline, which sees a third copy
   that differs elsewhere (another guard, another operand), makes one
   helper of all of them, which reads as the source did, where a loop over
   the first two would keep the third as it is (tests/idiomatic/
   gemm_ampere.py's _block). */
static int twins_for_outline(const item *x, unsigned g)
{
    int exprs = 0;
    for (unsigned j = 0; j < g; j++) {
        const item *a = &x[j], *b = &x[g + j];
        exprs |= a->expr;
        for (unsigned q = 0; q < a->nleaves; q++) {
            const leaf *u = &a->leaves[q], *v = &b->leaves[q];
            if (u->ok && v->ok ? u->v != v->v : !sg_opnd_equal(u->o, v->o))
                return 0;
        }
    }
    return exprs;
}

/* The longest roll at s (g statements, c copies) that saves the most
   lines; g == 0 if none.  Copies are added while they match, so the work
   is proportional to what the run covers. */
static run best_run(roller *r, cg_stmt **head, const item *it, unsigned n, unsigned s)
{
    run best = { 0, 0 };
    long bestsave = 1;
    for (unsigned g = 1; g <= MAXG && s + 2 * g <= n; g++) {
        if (!it[s + g - 1].shape)
            break;
        unsigned c = 1;
        while (s + (c + 1) * g <= n && copy_matches(r, head, it, s, g, c))
            c++;
        if (c == 2 && twins_for_outline(&it[s], g))
            continue;
        int lists = c >= 2 ? rl_list_cost(r, &it[s], g, c) : 0;
        long save = (long)c * g - (long)(g + 1) - lists;
        if (c >= 2 && lists >= 0 && save > bestsave) {
            bestsave = save;
            best.g = g;
            best.c = c;
        }
    }
    return best;
}

/* ---- building the loop ------------------------------------------------ */

/* v in decimal (|v| <= 2^53: leaf_value keeps larger constants literal).
   A rolled loop writes one such number per varying leaf: no printf. */
static void put_decimal(ptx_buf *b, long long v)
{
    char tmp[24];
    ptx_buf_put(b, tmp, sg_decimal(tmp, v));
}

void sg_affine(ptx_buf *b, const char *var, long long base, long long stride)
{
    if (base)
        put_decimal(b, base);
    if (stride) {
        long long as = stride < 0 ? -stride : stride;
        if (base)
            ptx_buf_puts(b, stride < 0 ? " - " : " + ");
        else if (stride < 0)
            ptx_buf_puts(b, "-");
        if (as != 1) {
            put_decimal(b, as);
            ptx_buf_putc(b, '*');
        }
        ptx_buf_puts(b, var);
    } else if (!base) {
        ptx_buf_puts(b, "0");
    }
}

typedef struct tmpl {
    roller *r;
    const char *var;    /* the loop's variable */
    const item *x, *y;  /* the first two copies of the statement */
    unsigned q;         /* next leaf */
} tmpl;

static cg_opnd *subst_list(tmpl *t, cg_opnd *o);

/* Operand o of the first copy, with a leaf that varies written as an
   affine expression of the loop variable. */
static cg_opnd *subst_one(tmpl *t, cg_opnd *o)
{
    if (t->q < t->x->nleaves && o == t->x->leaves[t->q].o) {
        const leaf *a = &t->x->leaves[t->q], *b = &t->y->leaves[t->q];
        cg_opnd *elem = rl_element(t->r, t->var, a->o, b->o);
        t->q++;
        if (elem)
            return elem;
        if (!a->ok || !b->ok || a->v == b->v)
            return sg_copy_opnd(t->r->m, o);
        cg_opnd *c = cg_opnd_new(t->r->m, SG_O_AFFINE);
        if (o->kind == CG_O_SYM)
            c->sym = o->sym;
        c->text = sg_lit(t->r->m, t->var, strlen(t->var));
        c->a = sg_int_opnd(t->r->m, a->v);
        c->b = sg_int_opnd(t->r->m, b->v - a->v);
        return c;
    }
    cg_opnd *c = cg_alloc(t->r->m, sizeof *c);
    *c = *o;
    c->next = NULL;
    c->a = subst_list(t, o->a);
    c->b = subst_list(t, o->b);
    c->elems = subst_list(t, o->elems);
    return c;
}

static cg_opnd *subst_fn(void *t, cg_opnd *o)
{
    return subst_one(t, o);
}

static cg_opnd *subst_list(tmpl *t, cg_opnd *o)
{
    cg_opnd *head = NULL, **tail = &head;
    for (; o; o = o->next, tail = &(*tail)->next)
        *tail = subst_one(t, o);
    return head;
}

/* The loop body's copy of statement s0 (in key order, as the leaves). */
static cg_stmt *template_stmt(tmpl *t, cg_stmt *s0)
{
    cg_symid x;
    if (sg_alloc_rolls(s0, &x)) {
        /* key.c's order: the register's leaf, the first copy's register
           declared anew, then the source's */
        t->q += x != CG_NOSYM;
        return sg_alloc_copy(t->r->m, s0, subst_one(t, (cg_opnd *)sg_alloc_src(s0)));
    }
    if (s0->kind == SG_S_EXPR)
        return sg_expr_copy(t->r->m, s0, subst_fn, t);
    cg_stmt *c = sg_copy_stmt(t->r->m, s0);
    if (s0->kind == CG_S_REG)   /* the first copy's register, declared anew */
        return c;
    if (sg_key_sugar(s0) || s0->kind == CG_S_SCOPE) {   /* args, then body: key.c's order */
        if (s0->kind != CG_S_SCOPE)
            *sg_argsp(c) = subst_list(t, sg_args(s0));
        cg_stmt **tail = cg_body(c);
        for (cg_stmt *a = sg_body(s0); a; a = a->next, tail = &(*tail)->next)
            *tail = template_stmt(t, a);
        return c;
    }
    if (s0->u.inst.guard)
        c->u.inst.guard = subst_one(t, s0->u.inst.guard);
    c->u.inst.ops = subst_list(t, s0->u.inst.ops);
    return c;
}

void sg_print_for(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                  ptx_buf *out)
{
    sg_indent(out, depth);
    if (sg_for_of(s)->range) {                /* range.c: ptx.range_(start, stop[, step]) */
        ptx_buf_printf(out, "for %s in ptx.range_(", sg_for_of(s)->var);
        for (const cg_opnd *a = sg_for_of(s)->range; a; a = a->next) {
            cg_opnd one = *a;
            one.next = NULL;
            cg_print_opnd(m, k, &one, out);
            ptx_buf_puts(out, a->next ? ", " : "):\n");
        }
    } else if (sg_for_of(s)->count_by) {
        ptx_buf_printf(out, "for %s in range(", sg_for_of(s)->var);
        cg_print_opnd(m, k, sg_for_of(s)->count_by, out);
        ptx_buf_puts(out, "):\n");
    } else {
        ptx_buf_printf(out, "for %s in range(%u):\n", sg_for_of(s)->var, sg_for_of(s)->count);
    }
    cg_print_stmts(m, k, s->u.ext.body, depth + 1, out);
}

const char *const sg_loop_vars[SG_NLOOP_VARS] = { "i", "j", "n", "_i", "_j", "_k" };

/* The loop variables (bit i: sg_loop_vars[i]) of the loops among the g
   statements from s, or within them: one walk for all of them. */
static unsigned vars_in(const cg_stmt *s, unsigned g)
{
    unsigned used = 0;
    for (; s && g--; s = s->next) {
        if (s->kind == SG_S_FOR && sg_for_of(s)->var)
            for (unsigned i = 0; i < SG_NLOOP_VARS; i++)
                used |= (unsigned)!strcmp(sg_for_of(s)->var, sg_loop_vars[i]) << i;
        cg_stmt **body = cg_body((cg_stmt *)s);
        if (body)
            used |= vars_in(*body, ~0u);
    }
    return used;
}

static int var_outside(const roller *r, const char *name)
{
    for (unsigned i = 0; i < r->nouter; i++)
        if (!strcmp(r->outer[i], name))
            return 1;
    return 0;
}

/* The first loop variable that no loop inside the block or around it
   uses; NULL if none. */
static const char *block_var(roller *r, const cg_stmt *first, unsigned g)
{
    unsigned inside = vars_in(first, g);
    for (unsigned i = 0; i < SG_NLOOP_VARS; i++)
        if ((sg_loop_vars[i] == r->var || sg_py_name_free(r->m, r->k, sg_loop_vars[i])) &&
            !(inside >> i & 1) && !var_outside(r, sg_loop_vars[i]))
            return sg_loop_vars[i];
    return NULL;
}

static cg_stmt *make_loop(roller *r, const item *it, cg_stmt **a, unsigned s, run run)
{
    const char *var = block_var(r, a[s], run.g);
    if (!var)
        return NULL;
    for (unsigned i = 0; i < SG_NLOOP_VARS; i++)
        r->made_vars |= (unsigned)(sg_loop_vars[i] == var) << i;
    cg_stmt *node = sg_node_new(r->m, SG_S_FOR, a[s]->first);
    sg_for_of(node)->var = var;
    sg_for_of(node)->count = run.c;
    cg_stmt **bt = cg_body(node);
    for (unsigned j = 0; j < run.g; j++, bt = &(*bt)->next) {
        tmpl t = { .r = r, .var = var, .x = &it[s + j], .y = &it[s + run.g + j] };
        *bt = template_stmt(&t, a[s + j]);
    }
    return rl_make_lists(r, node, &it[s], run.g, run.c) ? node : NULL;
}

static uint32_t roll_list(roller *r, cg_stmt **head, size_t at);

/* The list of loop s's body, with s's variable among the outer ones (its
   statements' array in r->list from byte `at` on: sg_list_push). */
static uint32_t roll_body(roller *r, cg_stmt *s, cg_stmt **body, size_t at)
{
    int push = s->kind == SG_S_FOR && sg_for_of(s)->var &&
               r->nouter < sizeof r->outer / sizeof *r->outer;
    if (push)
        r->outer[r->nouter++] = sg_for_of(s)->var;
    uint32_t n = roll_list(r, body, at);
    r->nouter -= (unsigned)push;
    return n;
}

/* The items of the n statements a[] (r->items): the candidates keyed,
   the others shape 0; NULL where no roll can be (the common case). */
static item *key_list(roller *r, cg_stmt **a, unsigned n)
{
    size_t words = (n + 63) / 64;
    uint64_t *bits = sg_scratch_get(&r->sketches, 2 * words * sizeof *bits +
                                               (n + PAIR_PAD) * sizeof(uint32_t));
    uint64_t *cand = bits + words;
    uint32_t *sk = (uint32_t *)(cand + words);   /* then PAIR_PAD zeros */
    unsigned shaped = 0;
    for (unsigned i = 0; i < n; i++)
        shaped += (sk[i] = sketch(r, a[i])) != 0;
    if (shaped < 4)   /* a roll takes c * g >= g + 3 of them (mark_candidates):
                         nvcc's small scopes have fewer */
        return NULL;
    item *it = sg_scratch_get(&r->items, n * sizeof *it);
    r->leaves.n = 0;
    ptx_buf_reserve(&r->leaves, sizeof(leaf));   /* never a NULL base below */
    mark_candidates(sk, n, cand, bits);
    for (unsigned w = 0; w < words; w++)
        for (uint64_t b = cand[w]; b; b &= b - 1) {
            unsigned i = w * 64 + (unsigned)__builtin_ctzll(b);
            make_item(r, a[i], &it[i]);
        }
    for (unsigned i = 0; i < n; i++)
        it[i].leaves = (leaf *)(r->leaves.p + (uintptr_t)it[i].leaves);
    return it;
}

static uint32_t roll_list(roller *r, cg_stmt **head, size_t at)
{
    uint32_t rolled = 0;
    unsigned n;
    size_t off = sg_list_push(&r->list, at, *head, &n), end = r->list.n;
    for (unsigned i = 0; i < n; i++) {   /* the lists inside first */
        cg_stmt *s = sg_list_at(&r->list, off)[i], **body = cg_body(s);
        if (body)
            rolled += roll_body(r, s, body, end);
    }
    r->list.n = end;
    cg_stmt **a = sg_list_at(&r->list, off);
    item *it = n < 3 ? NULL : key_list(r, a, n);
    if (!it)
        return rolled;
    cg_stmt **link = head, *made = NULL;
    uint32_t elems = rl_nelems(r);
    for (unsigned s = 0; s < n;) {
        run run = it[s].shape ? best_run(r, head, it, n, s) : (struct run){ 0, 0 };
        if (!run.g) {
            link = &a[s]->next;
            s++;
            continue;
        }
        r->pre = NULL;
        cg_stmt *node = make_loop(r, it, a, s, run);
        if (!node) {
            link = &a[s]->next;
            s++;
            continue;
        }
        sg_for_of(node)->orig = cg_splice(link, a[s + run.g * run.c - 1], node);
        if (r->pre) {   /* out = [] ... before the loop */
            cg_stmt *last = r->pre;
            while (last->next)
                last = last->next;
            last->next = node;
            *link = r->pre;
        }
        link = &node->next;
        s += run.g * run.c;
        rolled++;
        sg_for_of(node)->rolled = made;   /* chained: rolled again below */
        made = node;
    }
    if (rl_nelems(r) != elems)
        rl_rewrite_reads(r, head, elems);
    /* a new loop's body may repeat again inside (the scratch is free now,
       this list's array too) */
    for (cg_stmt *l = made, *next; l; l = next) {
        next = sg_for_of(l)->rolled;
        sg_for_of(l)->rolled = NULL;
        rolled += roll_body(r, l, cg_body(l), at);
    }
    return rolled;
}

static const char *loop_var(cg_module *m, cg_kernel *k)
{
    for (unsigned i = 0; i < SG_NLOOP_VARS; i++)
        if (sg_py_name_free(m, k, sg_loop_vars[i]))
            return sg_loop_vars[i];
    return NULL;
}

uint32_t sugar_repeat(cg_module *m, cg_kernel *k)
{
    roller r = { .m = m, .k = k, .var = loop_var(m, k),
                 .key = { .k = k, .leaf = stride_leaf, .m = m, .pin_holes = 1,
                          .by_print = 1 } };
    if (!r.var)
        return 0;
    /* the counts serve copies that allocate (copy_allocs), which a kernel
       without a fresh scalar has none of (compiler output: a walk over
       every statement saved) */
    sg_scratch refs = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &refs, &r.key.b, &r.list, &r.items, &r.leaves, &r.sketches, NULL);
    ptx_bufs ob_lists;
    rl_own(&r, &ob_lists);
    for (uint32_t i = 0; i < k->nsyms && !r.refs; i++)
        if (fresh_scalar(k, i)) {
            uint32_t *uses = sg_scratch_get(&refs, (k->nsyms + 1) * sizeof *uses);
            sg_count_refs(k->body, uses);
            r.refs = uses;
        }
    r.exprs = sg_any_fresh_reg(k);
    uint32_t n = roll_list(&r, &k->body, 0);
    ptx_free_bufs(&ob_lists);
    ptx_free_bufs(&ob);
    if (n) {   /* the variables the loops use (outer loops may use others):
                  this pass's, and those of range's loops where it made any */
        unsigned used = r.made_vars | (sg_kst(k)->fors ? vars_in(k->body, ~0u) : 0);
        for (unsigned i = 0; i < SG_NLOOP_VARS; i++)
            if (sg_loop_vars[i] == r.var || (used >> i & 1))
                sg_py_reserve(m, k, sg_loop_vars[i]);
    }
    return n;
}
