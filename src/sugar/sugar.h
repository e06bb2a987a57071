/*
 * sugar/sugar.h - the --sugar passes and what they share.
 *
 * Every pass is an IR-to-IR rewrite over codegen/ir.h, one file per pass
 * (src/sugar/<name>.c), run kernel by kernel by the driver (driver.c).
 * Passes never reorder PTX: a sugar node prints Python that, when traced by
 * pyptx 0.1.1, records exactly the statements it replaced, up to the
 * renaming that sugar mode allows.  Every pass is linear in the size of
 * the kernel.  See src/sugar/NOTES.md for what pyptx emits for each idiom.
 *
 * The shared parts: free names (free.c), structural keys for pattern
 * matching (key.c), and copying and comparing IR (util.c).
 */
#ifndef PTX_SUGAR_H
#define PTX_SUGAR_H

#include <string.h>
#include "codegen/ir.h"
#include "sugar/nodes.h"

/* One pass: a row of the table in driver.c.  `kernel` rewrites one
   kernel's IR and returns how many rewrites it made; the driver calls it
   for every kernel pyptx can express, in table order, and adds the counts
   to the statistics. */
typedef struct cg_pass {
    const char *name;   /* command-line name: --sugar=name */
    const char *help;   /* one line for --help and the manual */
    uint32_t (*kernel)(cg_module *m, cg_kernel *k);
} cg_pass;

extern const cg_pass cg_passes[];
extern const unsigned cg_npasses;

/* The passes selected by o->sugar (driver.c): cg_passes_begin once (it
   attaches the state, nodes.h), then cg_passes_run on each kernel pyptx
   can express; on a kernel, rows run in table order. */
void cg_passes_begin(cg_module *m, const cg_options *o);
/* layer.c: what codegen asks of sugar while it prints.  pieces.c: the
   module's Python a piece at a time (ptx_codegen_pieces with sugar): 1,
   or 0 where the whole module must be taken. */
extern const cg_layer sg_layer;
int sg_codegen_pieces(const char *name, const char *src, size_t size, size_t piece,
                      const ptx_codegen_options *o, ptx_buf *out);
/* cg_passes_begin in two steps, for a module rewritten a piece at a time
   (pieces.c): the state, once; then the preludes of each piece's kernels
   [from, to), before any row runs on them. */
void cg_passes_state(cg_module *m, const cg_options *o);
void cg_passes_prelude(cg_module *m, const cg_options *o, uint32_t from, uint32_t to);
void cg_passes_run(cg_module *m, const cg_options *o, cg_kernel *k);

/* The passes, in the order they run: X(name, help).  Order matters:
   "wait" folds spin loops before "loops" would raise their back edges,
   "expr" runs before "repeat" so that address chains become one
   expression each rather than being rolled as parallel copies with odd
   strides; "calls" runs after the other idioms, on the instructions none
   took; "outline" after those, because it compares copies as the nodes
   that will be printed (their deep keys); "alias" last, because it only
   moves where a name is bound, which every pass before it reads as the
   statement it was. */
#define SG_PASSES(X) \
    X(comments, "drop blank and comment-only source lines (_raw(\"\"), _raw(\"//\"))") \
    X(names, "readable names: C++ mangled kernels, params, symbols; tid for %tid.x") \
    X(labels, "nvcc labels $L__BB3_7 -> BB7") \
    X(decls, "declarations as pyptx code writes them: at first use, init=, from_, global_ptrs") \
    X(compare, "setp into the predicate pool as comparisons: p0 = a < b") \
    X(pipeline, "the ring update of ptx.pipeline(n).advance() -> that call") \
    X(mma, "tcgen05.mma with the predicate pyptx sets up for it -> ptx.tcgen05.mma") \
    X(wait, "mbarrier try_wait spin-loop blocks -> one helper call each") \
    X(ifs, "the branches of ptx.if_ / ptx.else_ as those blocks") \
    X(range, "the loops ptx.range_ emits -> for i in ptx.range_(start, stop, step)") \
    X(loops, "label ... @p bra label  ->  with ptx.loop(...)") \
    X(kloop, "the unrolled loop and tail of ptx.kloop -> that call, the body a function") \
    X(slices, "long register lists as comprehensions over the array") \
    X(expr, "integer temporaries folded into one expression (ptx.expr())") \
    X(preds, "a comparison read only by the next statement -> pred=(a < b), ptx.if_(a < b)") \
    X(repeat, "repeated blocks rolled into for i in range(N)") \
    X(calls, "instructions a typed wrapper emits as that wrapper: ptx.add(s32, ...)") \
    X(inits, "mbarrier.init of consecutive slots -> ptx.mbarrier.array(bar, off, n).init_all(count)") \
    X(group, "declarations in a row that allocate alike -> one line: a, b = reg.scalar(f32), ...") \
    X(outline, "a block repeated with other operands -> a local helper and one call per copy") \
    X(alias, "a special register's name bound in its mov: ptx.mov(u32, tid := r[1], ...)")

/* Rows with a first step that runs on every kernel before any row runs on
   any (the driver otherwise runs all rows kernel by kernel): "names" gives
   the kernels their Python function names there, which every Python name
   a row picks, in any kernel, must avoid (sg_py_name_free). */
#define SG_PRELUDES(X) X(names, sg_name_kernels)
uint32_t sg_name_kernels(cg_module *m, cg_kernel *k);

/* Rows that raise constructs whose trace takes fresh labels ($_else_N,
   $_loop_N, $_mbar_wait_N: free.c); sg_fix_pyptx_labels runs on the
   kernels where one of them rewrote something. */
#define SG_FRESH_LABEL_ROWS(X) X(ifs) X(range) X(wait) X(kloop)

#define SG_DECLARE(name, help) uint32_t sugar_##name(cg_module *m, cg_kernel *k);
SG_PASSES(SG_DECLARE)
#undef SG_DECLARE
/* The label s jumps back to, as ptx.loop would raise it, or CG_NOSYM
   (loops.c).  Asked of every statement by three passes: the test that
   rejects nearly all of them is inline. */
cg_symid sg_bra_back_edge(const cg_stmt *s);
static inline cg_symid sg_back_edge(const cg_stmt *s)
{
    return s && s->kind == CG_S_INST && s->u.inst.op[0] == 'b' ? sg_bra_back_edge(s)
                                                                : CG_NOSYM;
}
/* driver.c: pass `name` runs on this module (a pass that leaves work to a
   later one asks). */
int sg_runs(const cg_module *m, const char *name);
/* compare.c: if the top-level statements a[0..n) hold a predicate pool
   that "compare" could rewrite (but for where declarations stand), where
   its last predicate is taken, in half steps (2t: before statement t,
   by reg.scalar; 2t + 1: within t, by a comparison), and the pool; else
   UINT32_MAX.  first: per symbol, the statement that first names it (the
   declarations after the pool's are made after that).  decls.c places
   declarations by it. */
uint32_t sg_pool_last(cg_module *m, cg_kernel *k, cg_stmt **a, unsigned n, const uint32_t *first,
                      cg_symid *pool_sym);
/* compare.c: may sg_pool_last find such a pool in a[0..n) (and so read
   `first`)?  Asked first: nvcc's pools never qualify. */
int sg_pool_may_qualify(cg_module *m, cg_kernel *k, cg_stmt **a, unsigned n);
/* compare.c: the comparison `a OP b` of a SG_S_CMP node, as an operator
   operand (preds.c nests it into the guard that reads it). */
cg_opnd *sg_cmp_oper(cg_module *m, const cg_stmt *s);
/* Part of "decls" (merge.c): declarations merged with their first writer;
   refs: per symbol, how many statements name it, which only the implicit
   scalars' merges read (NULL where k has none: sg_any_fresh_reg). */
uint32_t sg_merge_decls(cg_module *m, cg_kernel *k, const uint32_t *refs);
/* What the other passes ask of a merged declaration (alloc.c).
   s is a merged `x = a OP b` (*e: the SG_O_OPER) / `x = reg.from_(src, T)`. */
int sg_alloc_oper(const cg_stmt *s, cg_symid *x, const cg_opnd **e);
int sg_alloc_from(const cg_stmt *s, cg_symid *x, const cg_opnd **src);
/* ... a merged `x = smem.load(T, addr)`. */
int sg_alloc_load(const cg_stmt *s, cg_symid *x, const cg_opnd **addr);
/* ... a merged `x = reg.scalar(T, init=V)` (*v: V, an int, a float, a
   str or a call); the setter writes V as another operand of the same
   value (mma.c: a call that gives an int bit for bit). */
int sg_alloc_init(const cg_stmt *s, cg_symid *x, const cg_opnd **v);
void sg_alloc_set_init(cg_stmt *s, const cg_opnd *v);
/* Part of "decls" (smem.c): shared declarations -> smem.alloc/mbarrier. */
uint32_t sg_smem_decls(cg_module *m, cg_kernel *k);
/* Part of "names" (specials.c): registers that hold %tid.x ... -> tid.
   The walk that finds them also hands `str` (with ctx; may be NULL)
   every CG_O_STR operand of every instruction, in order: names.c finds
   the module symbols a body names in the same walk. */
typedef void (*sg_opnd_fn)(void *ctx, cg_opnd *o);
uint32_t sg_name_specials(cg_module *m, cg_kernel *k, sg_opnd_fn str, void *ctx);

/* Passes that keep per-register tables skip kernels declaring more
   registers than this (no real kernel comes near it). */
#define SG_MAX_TRACKED_REGS (1u << 22)

/* ---- free names (free.c) ---------------------------------------------
   Each test is a hash lookup, so a pass may try many candidates. */

/* A new PTX spelling for a local symbol: a word that occurs nowhere in
   the source and that no pass has given yet (the harness checks a module
   with one bijection, so this is module-wide). */
int sg_ptx_name_free(cg_module *m, const char *name);
/* Records `name` (arena or source text) as a spelling given. */
void sg_ptx_claim(cg_module *m, const char *name);
/* Gives symbol s of k the spelling base, or base_2, base_3 ... (the first
   one free as a PTX name and, if py_too, as a Python name of k); 0 if
   none is found or s must keep its spelling (sg_ptx_pinned). */
int sg_rename_ptx(cg_module *m, cg_kernel *k, cg_symid s, const char *base,
                  int py_too);
/* Gives symbol s of k the spelling `name`, which sg_ptx_name_free found
   free (and s, not pinned): sg_rename_ptx without its lookups. */
void sg_ptx_give(cg_module *m, cg_kernel *k, cg_symid s, const char *name);
/* sg_ptx_name_free and, where free, sg_ptx_give, in one lookup: 1 if it
   gave symbol s (not pinned) the spelling `name`. */
int sg_ptx_take(cg_module *m, cg_kernel *k, cg_symid s, const char *name);
/* A hint: name is about to be asked about (its slot in the module's
   words, a cache miss each, is fetched now). */
void sg_ptx_prefetch(cg_module *m, const char *name);
/* 1 if the module text outside kernels (debug sections) names `ptx`: a
   symbol spelled so must not be renamed. */
int sg_ptx_pinned(cg_module *m, const char *ptx);
/* 1 if a label of k named in refs (sg_count_refs) is spelled like one
   pyptx invents ($_else_N, $_mbar_wait_N ...) and must keep its spelling
   (sg_ptx_pinned), or an operand names a `$_...` that nothing declares
   (no rename reaches it): then a pass makes no construct that invents
   labels. */
int sg_pyptx_label_pinned(cg_module *m, const cg_kernel *k, const uint32_t *refs);
/* After the passes: a label of k that the raised constructs' fresh labels
   would meet when traced (same spelling) is given another (driver.c). */
void sg_fix_pyptx_labels(cg_module *m, cg_kernel *k);
/* A Python name not used by kernel k, nor a kernel function's name. */
int sg_py_name_free(const cg_module *m, const cg_kernel *k, const char *name);
/* base, base_2, base_3 ... free in Python in k, claimed; or NULL. */
const char *sg_py_fresh(cg_module *m, cg_kernel *k, const char *base);
/* Claims a Python name in k (helpers, loop variables, aliases), so that
   later passes do not reuse it. */
void sg_py_reserve(cg_module *m, const cg_kernel *k, const char *name);
/* A kernel function's Python name, given by the "names" prelude. */
void sg_py_function(cg_module *m, const char *py);
/* In pieces (pieces.c): the state's maps made, ahead of the pieces'
   names (keep: what allocates what outlives a piece); then, after each
   piece's build, the names it brought (its kernels from k0, raw segments
   from s0, opcode words from o0), which set sg_state.clash where an
   answer given before would have been another in the whole module. */
void sg_ahead_begin(cg_module *m, cg_module *keep);
void sg_learn(cg_module *m, uint32_t k0, uint32_t s0, uint32_t o0);

/* ---- structural keys (key.c) -----------------------------------------
   One serializer for every pattern matcher: statements written as a
   string that is equal for two statements exactly when they match.  The
   matcher says, leaf by leaf (symbol and integer operands), how much of
   the leaf the key holds: */
typedef enum sg_leaf {
    SG_LEAF_EXACT,     /* the symbol's identity and index, the int's value */
    SG_LEAF_SPELLED,   /* the symbol's spelling and index (names local to
                          the pattern, which differ by identity) */
    SG_LEAF_WILD,      /* only its kind: a hole the pattern fills */
    SG_LEAF_WILD_SYM   /* the symbol's identity, not its index */
} sg_leaf;

typedef struct sg_key {
    const cg_kernel *k;
    sg_leaf (*leaf)(const struct sg_key *key, const cg_opnd *o);
    void *ctx;                /* the matcher's */
    ptx_buf b;                /* the key */
    cg_opnd **holes;          /* wild leaves, in key order (arena) */
    uint32_t nholes, capholes;
    cg_module *m;
    uint8_t deep;             /* every sugar node by what it prints (outline:
                                 the statements a block repeats); otherwise
                                 sg_key_sugar's alone, the rest only itself */
    uint8_t pin_holes;        /* a symbol put_exact holds that the matcher
                                 would leave wild is a hole too (repeat: a
                                 copy's own register read there pins it) */
    uint8_t by_print;         /* a merged declaration that a loop may hold
                                 (sg_alloc_rolls) by what it prints
                                 (repeat), not only itself */
    sg_leaf (*asked)(const struct sg_key *key, const cg_opnd *o);
                              /* the matcher's leaf, while put_exact holds */
    const cg_opnd *up;        /* while the leaf is asked: the operand that
                                 holds it (SG_O_AFFINE, SG_O_DESC ...), or
                                 sg_key_operator, or NULL */
} sg_key;
/* A guard an instruction prints as `pred=V`, V a register or its negation,
   or none: a deep key leaves it out, for outline, which passes pred=None
   where a copy has none, compares these itself. */
static inline int sg_guard_slot(const cg_opnd *g)
{
    const cg_opnd *r = g && g->kind == CG_O_NOT ? g->a : g;
    return !g || (r->kind == CG_O_SYM && r->index < 0);
}
/* A Python loop's count, range(count): a deep key leaves it out too. */
static inline int sg_count_slot(const cg_stmt *s)
{
    return s->kind == SG_S_FOR && !sg_for_of(s)->range;
}
/* key->up of an operand a node prints as an operator's (`d = l + r`,
   `p = a < b`) without an SG_O_OPER of its own (expr.c, compare.c). */
extern const cg_opnd sg_key_operator;

/* s is a sugar node that prints from its name, count, args and body
   alone, so that two with equal keys print alike (sg_key_stmt keys those;
   any other sugar node matches only itself). */
int sg_key_sugar(const cg_stmt *s);
/* Appends statement s (and a scope's or such a node's body) to key->b;
   wild leaves are appended to key->holes. */
void sg_key_stmt(sg_key *key, const cg_stmt *s);
/* Parts of a key, for a node whose key its own file writes: operand o
   (not those after it), an instruction's opcode. */
void sg_key_opnd(sg_key *key, const cg_opnd *o);
void sg_key_op(sg_key *key, const cg_inst *in);
/* A declaration's or label's symbol, asked about like an operand. */
void sg_key_sym(sg_key *key, cg_symid sym);
/* expr.c: an expression node's key, its instructions in print order;
   alloc.c: a merged declaration's, what it prints from. */
void sg_key_expr(sg_key *key, const cg_stmt *s);
void sg_key_alloc(sg_key *key, const cg_stmt *s);
/* expr.c, for a loop body ("repeat"): expression node s's top opcode word
   (ir.h's path: one string per word in the module); and a copy of s
   whose every operand that sg_key_expr keys is subst(ctx, o), called in
   that key's order.  A varying int of `d = l OP r` is parenthesized, so
   that Python applies the operator to the whole (r[3] = r[1] + (4 + 8*i)). */
const char *sg_expr_word(const cg_stmt *s);
typedef cg_opnd *(*sg_subst_fn)(void *ctx, cg_opnd *o);
cg_stmt *sg_expr_copy(cg_module *m, const cg_stmt *s, sg_subst_fn subst, void *ctx);
/* What a statement binds as a Python name where it stands (`x = ...`,
   `x += ...`): SG_BINDS, SG_AUGMENTS, or 0, *sym the register.  expr.c,
   alloc.c: an expression, a merged declaration. */
enum { SG_BINDS = 1, SG_AUGMENTS };
int sg_expr_binds(const cg_stmt *s, cg_symid *sym);
/* a merged declaration binds up to max registers into syms; the count */
unsigned sg_alloc_binds(const cg_stmt *s, cg_symid *syms, unsigned max, int *how);
/* s is a merged declaration that prints from the one register it
   declares, *x, and its source alone (x = reg.from_(src, T),
   reg.scalar(T, init=V), smem.load(T, addr), a OP b), or from its source
   alone (a OP= b: *x CG_NOSYM): a loop body may hold a copy of it,
   sg_alloc_copy's, with another source; keyed by sg_key_alloc, the
   register's leaf (where it declares one) first, then the source's. */
int sg_alloc_rolls(const cg_stmt *s, cg_symid *x);
const cg_opnd *sg_alloc_src(const cg_stmt *s);
cg_stmt *sg_alloc_copy(cg_module *m, const cg_stmt *s, cg_opnd *src);

/* ---- IR helpers (util.c) ---------------------------------------------- */

cg_stmt *sg_copy_stmt(cg_module *m, const cg_stmt *s);   /* shallow, next=NULL */
cg_opnd *sg_copy_opnd(cg_module *m, const cg_opnd *o);   /* deep, next=NULL */
/* A deep copy of the list from s: statements, their operands, the lists
   they own and the statements sugar nodes replaced; a node's private data
   (a merge's, an expression's tree) stays shared. */
cg_stmt *sg_copy_list(cg_module *m, const cg_stmt *s);
/* pynodes.c: Python built from parts.  An operand of kind `kind` with
   text (SG_O_NAME, SG_O_FLOAT), an SG_O_NAME, a CG_O_SYM naming symbol
   sym as a whole, an SG_O_NAME of sym's Python name, an SG_O_CALL of callee (on obj where not
   NULL) with args (by next, SG_O_KW last), an SG_O_KW, an SG_O_INDEX
   obj[index...], an operand of kind `kind` over a and b (SG_O_REPEAT,
   SG_O_TAKEN); v[0..n) linked into a list; an SG_S_ASSIGN of value to
   targets (NULL: a statement), new or in place of the run from *link to
   last (kept as its orig), and its value; an SG_S_DEF of name(params)
   with nonlocals and body.  Operand texts are copied; a definition's
   name is not. */
cg_opnd *sg_text_opnd(cg_module *m, unsigned kind, const char *text);
cg_opnd *sg_name_opnd(cg_module *m, const char *name);
cg_opnd *sg_sym_opnd(cg_module *m, cg_symid sym);
cg_opnd *sg_sym_name_opnd(cg_module *m, cg_symid sym);
cg_opnd *sg_call_opnd(cg_module *m, const char *callee, cg_opnd *obj, cg_opnd *args);
cg_opnd *sg_kw_opnd(cg_module *m, const char *kw, cg_opnd *value);
cg_opnd *sg_index_opnd(cg_module *m, cg_opnd *obj, cg_opnd *index);
/* o as a pyptx operator's operand: in parentheses (SG_O_PAREN) where it
   prints as more than one term (base + stride*i), so that Python works it
   out as an int first: x + (4 + 8*i), not (x + 4) + 8*i. */
cg_opnd *sg_operand_opnd(cg_module *m, cg_opnd *o);
cg_opnd *sg_pair_opnd(cg_module *m, unsigned kind, cg_opnd *a, cg_opnd *b);
cg_opnd *sg_opnd_list(cg_opnd *const *v, unsigned n);
cg_stmt *sg_assign_new(cg_module *m, ptx_tok first, cg_opnd *targets, cg_opnd *value);
cg_stmt *sg_assign_splice(cg_module *m, cg_stmt **link, cg_stmt *last, cg_opnd *targets,
                          cg_opnd *value);
cg_opnd *sg_assign_value(const cg_stmt *s);
cg_stmt *sg_def_new(cg_module *m, ptx_tok first, const char *name, cg_opnd *params,
                    cg_opnd *nonlocals, cg_stmt *body);
/* The operands above printed (1), or 0 for another kind. */
int sg_print_pyopnd(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out);
cg_opnd *sg_int_opnd(cg_module *m, long long v);         /* CG_O_INT */
size_t sg_decimal(char *buf, long long v);   /* v in decimal into buf[24]: its length */
int sg_opnd_equal(const cg_opnd *a, const cg_opnd *b);   /* same Python/PTX */
cg_text sg_lit(cg_module *m, const char *p, size_t n);   /* copied */
/* Appends t with each symbol piece as "{sym:index}": a key under which
   texts that differ only in their symbols' spellings still compare equal. */
void sg_text_key(const cg_text *t, ptx_buf *b);
/* Literal text of a one-piece (or all-literal) cg_text into buf; 0 if it
   references a symbol or does not fit. */
int sg_text_lit(const cg_text *t, char *buf, size_t cap);
/* s is an instruction with opcode op (called for every statement by
   several passes: the first byte decides most). */
static inline int sg_inst_is(const cg_stmt *s, const char *op)
{
    return s && s->kind == CG_S_INST && s->u.inst.op[0] == op[0] &&
           !strcmp(s->u.inst.op, op);
}
/* The one opcode matcher: s is an instruction spelled as pattern `pat`,
   "op.mod.mod" (ld.shared.u32): the opcode and every modifier in order, a
   segment "*" any one modifier, "word*" one that begins with word, a last
   "**" any further ones; `shape` is the operand count, or SG_ANY_OPS, and
   SG_ANY_GUARD where a guard may stand (unguarded otherwise).  Rejects on
   the first byte, so a pass may ask it of every statement. */
#define SG_ANY_OPS 0x100u
#define SG_ANY_GUARD 0x200u
int sg_inst_match(const cg_stmt *s, const char *pat, unsigned shape);
/* s's operands where sg_inst_match(s, pat, shape), else NULL. */
static inline cg_opnd *sg_inst_ops(const cg_stmt *s, const char *pat, unsigned shape)
{
    return sg_inst_match(s, pat, shape) ? s->u.inst.ops : NULL;
}
/* s is a `with CALL(...):` block (ifs.c: ptx.if_, ptx.else_). */
static inline int sg_with_is(const cg_stmt *s, const char *call)
{
    return s && s->kind == SG_S_WITH && !strcmp(sg_with_of(s)->call, call);
}
unsigned sg_nops(const cg_opnd *o);
/* The i-th operand of an instruction, or NULL. */
static inline const cg_opnd *sg_op(const cg_inst *in, unsigned i)
{
    const cg_opnd *o = in->ops;
    while (o && i--)
        o = o->next;
    return o;
}
/* Memory a pass reuses list after list (a kernel's lists are processed one
   at a time), so that big modules do not fill the arena with arrays that
   are dead once their list is done. */
typedef ptx_buf sg_scratch;
/* n zeroed bytes, valid until the next call on s (free: ptx_buf_free). */
void *sg_scratch_get(sg_scratch *s, size_t n);
/* An instruction's opcode word as PTX spells it ("mul.wide.u32"). */
void sg_put_word(ptx_buf *b, const cg_inst *in);
/* The module's opcode words, numbered by their text ("mul.wide.u32"),
   for a pass's facts about a word: kept once per module, since a module
   rewritten in pieces builds each piece's instructions with op and mods
   arrays of its own (within a kernel, instructions that spell one word
   share them: ir.h).  The memo (sg_state.word_memo) answers for those
   arrays, direct-mapped, for every pass: it lives as long as they do, the
   module's, or in pieces a piece's (pieces.c forgets it with the piece:
   sg_words_forget). */
enum { SG_WORD_MEMO = 512 };
typedef struct sg_word_seen {
    const char *op;
    const char **mods;
    uint32_t nmods, id;       /* id + 1; 0: empty */
} sg_word_seen;
typedef struct sg_word_memo {
    sg_word_seen v[SG_WORD_MEMO];
} sg_word_memo;
/* The memo's entry for in's arrays (where it is, or would go). */
static inline sg_word_seen *sg_word_seen_at(sg_word_memo *memo, const cg_inst *in)
{
    uintptr_t h = (uintptr_t)in->op * 31 + (uintptr_t)in->mods + in->nmods;
    return &memo->v[(h ^ h >> 9 ^ h >> 18) % SG_WORD_MEMO];
}
uint32_t sg_word_id_slow(cg_module *m, const cg_inst *in);
static inline uint32_t sg_word_id(cg_module *m, const cg_inst *in)
{
    sg_word_memo *memo = sg_st(m)->word_memo;
    const sg_word_seen *w = memo ? sg_word_seen_at(memo, in) : NULL;
    if (w && w->id && w->op == in->op && w->mods == in->mods && w->nmods == in->nmods)
        return w->id - 1;   /* asked of most statements by some passes: inline */
    return sg_word_id_slow(m, in);
}
/* The memo emptied: the arrays it answered for are about to be freed. */
void sg_words_forget(cg_module *m);
/* An array v of *cap items of `size` bytes by word number, grown (the new
   items zeroed, in sg_keep) to hold item `id`. */
void *sg_word_array_grow(cg_module *m, void *v, uint32_t *cap, uint32_t id, size_t size);
static inline void *sg_word_array(cg_module *m, void *v, uint32_t *cap, uint32_t id, size_t size)
{
    return id < *cap ? v : sg_word_array_grow(m, v, cap, id, size);
}
/* Every operand naming a register element that `map` gives another
   symbol for (CG_NOSYM: none) names that symbol instead, everywhere below
   s: instructions, and what sugar nodes hold (not an alias's own
   register).  specials.c and compare.c use it for their aliases. */
typedef cg_symid (*sg_retarget_fn)(void *ctx, cg_symid sym, int32_t index);
void sg_retarget(cg_stmt *s, sg_retarget_fn map, void *ctx);
/* refs[sym] += how many times the statements from s name sym: operands,
   guards, labels, what sugar nodes hold (their `orig` too); a symbol in
   carried text counts twice, so that it never looks private. */
void sg_count_refs(const cg_stmt *s, uint32_t *refs);
/* sg_count_refs of k's statements into a zeroed array in sc (per symbol,
   and one more): what most passes ask first. */
uint32_t *sg_kernel_refs(sg_scratch *sc, const cg_kernel *k);
/* Takes back what sg_count_refs(s, refs) added (a pass that counts one
   run of statements at a time into one array). */
void sg_uncount_refs(const cg_stmt *s, uint32_t *refs);
/* The same for statement s alone, not the list it owns (cg_body), for a
   pass that retargets as it walks. */
void sg_retarget_one(cg_stmt *s, sg_retarget_fn map, void *ctx);
/* The statements of list `head`, in order, in s (*n set). */
cg_stmt **sg_list_array(sg_scratch *s, cg_stmt *head, unsigned *n);
/* The same, appended to what s holds from byte `at` on (s->n: the end of
   them), for a walk that recurses into the lists the statements own and
   then comes back to the array: the byte offset of the array (its
   address may change as inner lists are appended; the caller sets s->n
   back to `at` when done).  A pass that looks at a list's statements
   more than once reads them from the array: the loads of an array's
   statements go out together, where following the links waits for each
   one (statements are spread over the arena). */
size_t sg_list_push(sg_scratch *s, size_t at, cg_stmt *head, unsigned *n);
static inline cg_stmt **sg_list_at(const sg_scratch *s, size_t off)
{
    return (cg_stmt **)(s->p + off);
}
/* An operand where pyptx itself makes the address (_make_address: the
   mbarrier helpers, TMA): a SG_O_DYN as the allocation, _dyn_smem(off);
   anything else as cg_print_opnd prints it. */
void sg_print_addr_arg(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out);
/* smem.c: SG_S_SMEM node s prints in the 511 bytes the pass allows a
   declaration (longer ones stay PTX declarations). */
int sg_smem_fits(const cg_module *m, const cg_kernel *k, const cg_stmt *s);
/* Part of "decls" (tile.c): 2-D element access x[row, col] of what
   sg_smem_decls declared. */
uint32_t sg_smem_tiles(cg_module *m, cg_kernel *k);
/* Part of "decls" (smem.c): dyn_smem addresses materialized for one
   instruction -> SG_O_DYN operands. */
uint32_t sg_dyn_operands(cg_module *m, cg_kernel *k);
/* Part of "decls" (desc.c): wgmma descriptors -> make_descriptor. */
uint32_t sg_wgmma_descriptors(cg_module *m, cg_kernel *k);
/* expr.c: the operator (`+`, `<<` ...) whose fresh result pyptx would
   write with exactly instruction s, `d = l OP r` with d of l's dtype, or
   NULL.  (Whether d is the register pyptx would allocate there is the
   caller's question: decls.c asks it of implicit declarations.) */
const char *sg_fresh_operator(const cg_kernel *k, const cg_stmt *s);
/* calls.c: a typed wrapper will print instruction in, and its operand i
   is an address pyptx makes itself (an allocation there emits nothing
   when Python evaluates the argument, only inside the wrapper). */
int sg_wrapper_takes_address(const cg_kernel *k, const cg_inst *in, unsigned i);
/* calls.c: "calls" will print instruction in as a typed wrapper. */
int sg_has_wrapper(const cg_kernel *k, const cg_inst *in);
/* calls.c: the typed wrapper that prints in ("ptx.mbarrier.init"), or NULL. */
const char *sg_wrapper_call(const cg_inst *in);
/* names.c: the N of a parameter named KERNEL_param_N (KERNEL not empty,
   N up to 7 digits, as nvcc and Triton name them), or NULL. */
const char *sg_param_number(const char *name);
/* Does Python emit PTX when it evaluates operand o itself (a nested
   operator, a dynamic address, a descriptor, a helper's call)? */
static inline int sg_opnd_emits(const cg_opnd *o)
{
    return o->kind == SG_O_DYN || o->kind == SG_O_SLOT || o->kind == SG_O_DESC ||
           o->kind == SG_O_OPER || o->kind == SG_O_CALL;
}
/* ---- the operand visitor -------------------------------------------
   The one walk over operand trees: fn(ctx, o) on every operand of the list
   from o and below each (a, b, elems), each before those below it, in
   the order they print.  fn answers SG_VISIT_ON, SG_VISIT_SKIP (not below
   this one) or SG_VISIT_STOP (no more: the walk returns 1).  Inline, so
   that a pass's walk, which may meet every operand of a kernel, calls its
   own function directly. */
enum { SG_VISIT_ON, SG_VISIT_SKIP, SG_VISIT_STOP };
typedef int (*sg_visit_fn)(void *ctx, cg_opnd *o);
static inline int sg_visit_opnds(const cg_opnd *o, sg_visit_fn fn, void *ctx);
/* The same for operand o alone (not those after it). */
static inline int sg_visit_opnd(const cg_opnd *o, sg_visit_fn fn, void *ctx)
{
    int r = fn(ctx, (cg_opnd *)o);
    if (r != SG_VISIT_ON)
        return r == SG_VISIT_STOP;
    /* (most operands are leaves: no call for them) */
    return (o->a && sg_visit_opnds(o->a, fn, ctx)) || (o->b && sg_visit_opnds(o->b, fn, ctx)) ||
           (o->elems && sg_visit_opnds(o->elems, fn, ctx));
}
static inline int sg_visit_opnds(const cg_opnd *o, sg_visit_fn fn, void *ctx)
{
    for (; o; o = o->next)
        if (sg_visit_opnd(o, fn, ctx))
            return 1;
    return 0;
}
/* ---- the statement visitor ------------------------------------------
   The one walk over statement lists: fn(ctx, link) on each statement of
   the list at *head, and then on those of the list it owns (cg_body:
   taken after fn, which may have put a node in its place), in print
   order.  fn answers SG_VISIT_ON, SG_VISIT_SKIP (not into this one's
   list), SG_VISIT_STOP (no more: the walk returns 1) or SG_VISIT_GONE
   (fn unlinked the statement: *link is the next one, visited next). */
enum { SG_VISIT_GONE = SG_VISIT_STOP + 1 };
typedef int (*sg_stmt_fn)(void *ctx, cg_stmt **link);
static inline int sg_visit_stmts(cg_stmt **head, sg_stmt_fn fn, void *ctx)
{
    for (cg_stmt **link = head; *link;) {
        int r = fn(ctx, link);
        cg_stmt **body;
        if (r == SG_VISIT_STOP)
            return 1;
        if (r == SG_VISIT_GONE)
            continue;
        if (r == SG_VISIT_ON && (body = cg_body(*link)) && sg_visit_stmts(body, fn, ctx))
            return 1;
        link = &(*link)->next;
    }
    return 0;
}
/* What a simple rewriting walk carries: the kernel, its references
   (sg_kernel_refs, or NULL), and the count of rewrites. */
typedef struct sg_walk {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;
    uint32_t made;
} sg_walk;
/* The walk of a recognizer of a DSL helper (which takes fresh registers:
   none in k, nothing to do): fn over k's statements with an sg_walk, its
   refs counted; the rewrites. */
uint32_t sg_walk_fresh(cg_module *m, cg_kernel *k, sg_stmt_fn fn);
/* The list s owns (cg_body), or NULL. */
static inline cg_stmt *sg_body(const cg_stmt *s)
{
    cg_stmt **body = cg_body((cg_stmt *)s);
    return body ? *body : NULL;
}
/* The same from a list's first statement, for a walk that only reads. */
static inline int sg_visit_list(const cg_stmt *s, sg_stmt_fn fn, void *ctx)
{
    cg_stmt *head = (cg_stmt *)s;
    return sg_visit_stmts(&head, fn, ctx);
}
/* The operand visitor on what statement s alone holds: an instruction's
   operands and guard, raw text (as a CG_O_STR operand), a sugar node's
   operands (sg_args); returns 1 where fn stopped it. */
int sg_visit_stmt_opnds(const cg_stmt *s, sg_visit_fn fn, void *ctx);
/* Does evaluating an operand of list o (or one inside it) emit PTX? */
int sg_opnds_emit(const cg_opnd *o);
/* Does an operand of list o (or one inside it) name symbol sym (index:
   that element; SG_ANY_INDEX any)? */
#define SG_ANY_INDEX INT32_MIN
int sg_opnds_name(const cg_opnd *o, cg_symid sym, int32_t index);
/* util.c: the value of an int operand (decimal: ir.h) into *v; 0 if o is
   not one or does not fit. */
int sg_int_value(const cg_opnd *o, long long *v);
/* The same for text t (carried pieces: 0 where one names a symbol); *v is
   written wherever the text is read as a number, whole or not. */
int sg_text_int(const cg_text *t, long long *v);
/* Can o's text name symbols (carried source text)?  An int's is its
   digits: the operand walks skip reading it. */
static inline int sg_text_names(const cg_opnd *o)
{
    return o->kind != CG_O_INT && o->text.n;
}
/* o names register r as a whole (not an element of an array). */
/* o is the operator `a OP b` (SG_O_OPER) with OP spelled op ("+", "<<"). */
static inline int sg_oper_is(const cg_opnd *o, const char *op)
{
    size_t n = strlen(op);
    return o->kind == SG_O_OPER && o->text.n == 1 && o->text.v[0].n == n &&
           !memcmp(o->text.v[0].p, op, n);
}
static inline int sg_reg_is(const cg_opnd *o, cg_symid r)
{
    return o && o->kind == CG_O_SYM && o->sym == r && o->index < 0;
}
/* a and b name the same register (or array element). */
static inline int sg_same_reg(const cg_opnd *a, const cg_opnd *b)
{
    return a->kind == CG_O_SYM && b->kind == CG_O_SYM && a->sym == b->sym &&
           a->index == b->index;
}
/* s declares a scalar register of type `type` that pyptx would allocate
   itself right there (decls.c marks them implicit): what a DSL helper's
   fresh register looks like. */
int sg_fresh_decl(const cg_kernel *k, const cg_stmt *s, const char *type);
/* Does s, traced, declare a register where it stands: a declaration, an
   instruction with an operand pyptx computes into a register of its own
   (an operator, an address), or a node standing for statements, or
   holding them, among which one does? */
int sg_declares(const cg_stmt *s);
/* k has such a register at all: the recognizers of DSL helpers, which
   all take fresh registers, skip their walks where none is (compiler
   output: nvcc declares arrays). */
int sg_any_fresh_reg(const cg_kernel *k);
/* o is the decimal int v. */
int sg_int_is(const cg_opnd *o, long long v);
/* repeat.c: the Python loop variables the passes choose from, in order
   (repeat's rolled loops, outline's). */
#define SG_NLOOP_VARS 6
extern const char *const sg_loop_vars[SG_NLOOP_VARS];
/* repeat.c: `base + stride*var` as the loops print it (221184 + 8*i,
   4*i, 1 - i). */
void sg_affine(ptx_buf *b, const char *var, long long base, long long stride);
/* Python indentation. */
void sg_indent(ptx_buf *out, int depth);

#endif
