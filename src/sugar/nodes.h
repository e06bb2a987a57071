/*
 * sugar/nodes.h - the nodes the sugar passes add to codegen's IR, and the
 * state they keep per module and per kernel.
 *
 * Codegen knows none of them: a sugar statement is a codegen extension
 * statement (ir.h: CG_S_EXT) whose kind sugar numbers from CG_S_EXT up, so
 * that a pass may switch on s->kind, and whose row in sg_kinds[] (layer.c)
 * prints it; a sugar operand is an extension operand (CG_O_EXT up), which
 * codegen prints through sg_layer.print_opnd.  The statement kinds are an
 * X-macro, so that the kinds, their payloads and their rows cannot drift
 * apart.
 */
#ifndef PTX_SUGAR_NODES_H
#define PTX_SUGAR_NODES_H

#include <stddef.h>
#include "codegen/ir.h"

/* The payload of each statement kind (u.ext.node).  Each holds the
   statements it replaced where it keeps them (`orig`: never printed;
   passes look through the node at them, and at the operands it prints). */
typedef struct sg_loop {     /* with ptx.loop("L", pred=guard): body */
    cg_symid label;
    cg_opnd *pred;           /* the back edge's guard, or NULL (bra.uni) */
    uint8_t flat;            /* loops.c: the body holds no back edge and no
                                list of its own, nothing to raise in it */
} sg_loop;

typedef struct sg_wait {     /* helper(args...): an mbarrier try_wait spin
                                block folded into one call (wait.c) */
    const char *helper;      /* "ptx.mbarrier.wait" or a local helper */
    cg_opnd *args;
    cg_stmt *orig;
} sg_wait;

typedef struct sg_for {      /* for var in range(count): body (repeat.c), or
                                for var in ptx.range_(range...) (range.c) */
    const char *var;
    uint32_t count;
    cg_opnd *range;          /* start, stop[, step]; NULL: range(count) */
    cg_opnd *count_by;       /* what range() prints for count where a helper
                                passes it (outline.c), or NULL */
    cg_stmt *orig;
    cg_stmt *rolled;         /* repeat.c: the loop made before it in the same
                                list, which is rolled again (NULL after) */
} sg_for;

typedef struct sg_expr {     /* an integer expression chain, r[k] = a OP b */
    const struct enode *tree; /* expr.c */
    cg_stmt *orig;
} sg_expr;

/* [targets =] value: a Python statement a pass builds from parts: an
   assignment (`d = ptx.wgmma.make_descriptor(...)`, `a, b = x, x`), or a
   call made for what it emits (`ptx.kloop(n, body=fn)`).  The targets and
   the value are one list, so that the walks that know no kind (references,
   retargets, keys) see every operand it prints.  pynodes.c prints it. */
typedef struct sg_assign {
    cg_opnd *ops;            /* the targets (CG_O_SYM, SG_O_NAME, SG_O_INDEX),
                                then the value: one operand, or several (a
                                tuple), by next */
    uint32_t ntargets;       /* 0: the value is a statement */
    cg_stmt *orig;
} sg_assign;

typedef struct sg_def {      /* def name(params):  nonlocal ...;  body */
    const char *name;
    cg_opnd *params;         /* SG_O_NAME, or SG_O_KW for one with a
                                default, by next */
    cg_opnd *nonlocals;      /* the enclosing function's names it assigns
                                (CG_O_SYM, SG_O_NAME), by next, or NULL */
    cg_stmt *orig;
} sg_def;

typedef struct sg_smem {     /* x = smem.alloc(T, shape[, align=A], name="x"),
                                x = smem.mbarrier(N, name="x") (smem.c) */
    cg_symid var;
    uint8_t mbarrier;        /* smem.mbarrier, else smem.alloc */
    const char *dtype;       /* alloc: b8, or tile.c's element type */
    const char *size;        /* the declared count (rows 0) */
    uint64_t rows, cols;     /* tile.c's 2-D shape, or 0 */
    uint64_t align;          /* alloc: other than pyptx's 128, or 0 */
    cg_stmt *orig;           /* the .shared declaration */
} sg_smem;

typedef struct sg_with {     /* with call(cond): body - ptx.if_, ptx.else_ */
    const char *call;
    cg_opnd *cond;           /* or NULL */
    cg_stmt *orig;           /* ptx.if_'s branches, or NULL */
} sg_with;

typedef struct sg_cmp {      /* p = a < b */
    cg_symid pred;
    cg_stmt *setp;
} sg_cmp;

typedef struct sg_alias {    /* tid = r[2]: records nothing */
    cg_symid name;
    cg_opnd *elem;
} sg_alias;

typedef struct sg_alloc {    /* a declaration merged with what first writes
                                the register: reg.scalar(T, init=V),
                                reg.from_(src, T), ptx.global_ptrs(...) */
    struct alloc *a;         /* alloc.h */
    const char *init;        /* a rolled copy's: a->init, then src */
    cg_opnd *src;
    cg_stmt *orig;
} sg_alloc;

/* Statement kinds: X(KIND, payload, printer, nests a body, and the fields
   that walks which know no kind read: the statements replaced, the
   operands printed, a symbol named, a name and a count for keys). */
#define SG_NO 0
#define SG_AT(t, f) (uint8_t)(offsetof(t, f) + 1)
#define SG_STMT_KINDS(X)                                                     \
    X(LOOP, sg_loop, sg_print_loop, 1, SG_NO, SG_AT(sg_loop, pred),         \
      SG_AT(sg_loop, label), SG_NO, SG_NO)                                   \
    X(WAIT, sg_wait, sg_print_wait, 0, SG_AT(sg_wait, orig),                \
      SG_AT(sg_wait, args), SG_NO, SG_AT(sg_wait, helper), SG_NO)           \
    X(FOR, sg_for, sg_print_for, 1, SG_AT(sg_for, orig), SG_AT(sg_for, range), \
      SG_NO, SG_AT(sg_for, var), SG_AT(sg_for, count))                      \
    X(EXPR, sg_expr, sg_print_expr, 0, SG_AT(sg_expr, orig), SG_NO, SG_NO,  \
      SG_NO, SG_NO)                                                          \
    X(WITH, sg_with, sg_print_with, 1, SG_AT(sg_with, orig),                \
      SG_AT(sg_with, cond), SG_NO, SG_AT(sg_with, call), SG_NO)                           \
    X(CMP, sg_cmp, sg_print_cmp, 0, SG_AT(sg_cmp, setp), SG_NO,             \
      SG_AT(sg_cmp, pred), SG_NO, SG_NO)                                     \
    X(ALIAS, sg_alias, sg_print_alias, 0, SG_NO, SG_AT(sg_alias, elem),     \
      SG_AT(sg_alias, name), SG_NO, SG_NO)                                   \
    X(ALLOC, sg_alloc, sg_print_alloc, 0, SG_AT(sg_alloc, orig),            \
      SG_AT(sg_alloc, src), SG_NO, SG_AT(sg_alloc, init), SG_NO)            \
    X(SMEM, sg_smem, sg_print_smem, 0, SG_AT(sg_smem, orig), SG_NO, SG_NO,  \
      SG_NO, SG_NO)                                                          \
    X(ASSIGN, sg_assign, sg_print_assign, 0, SG_AT(sg_assign, orig),        \
      SG_AT(sg_assign, ops), SG_NO, SG_NO, SG_NO)                            \
    X(DEF, sg_def, sg_print_def, 1, SG_AT(sg_def, orig),                    \
      SG_AT(sg_def, nonlocals), SG_NO, SG_AT(sg_def, name), SG_NO)

#define SG_KIND(k, ...) SG_S_##k,
enum { SG_S_FIRST_ = CG_S_EXT - 1, SG_STMT_KINDS(SG_KIND) SG_S_END };
#undef SG_KIND
#define SG_PRINTER(k, type, print, ...)                                      \
    void print(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);
SG_STMT_KINDS(SG_PRINTER)
#undef SG_PRINTER
/* The payload of s, which is of that kind. */
#define SG_OF(k, type, ...)                                                  \
    static inline type *type##_of(const cg_stmt *s) { return (type *)s->u.ext.node; }
SG_STMT_KINDS(SG_OF)
#undef SG_OF

/* A kind's row: codegen's (first, so that u.ext.ext points to the row),
   and where the fields above lie in the payload (1 + offset, 0: none). */
typedef struct sg_kind {
    cg_ext ext;
    uint8_t orig, args, sym, name, count;
} sg_kind;
extern const sg_kind sg_kinds[SG_S_END - CG_S_EXT];

static inline void *sg_field(const cg_stmt *s, uint8_t at)
{
    return at ? (char *)s->u.ext.node + at - 1 : NULL;
}
static inline const sg_kind *sg_kind_of(const cg_stmt *s)
{
    return (const sg_kind *)s->u.ext.ext;
}
/* The statements sugar node s replaced, its operands, the symbol it names
   (a loop's label, a comparison's predicate, an alias), its name and
   count: NULL, CG_NOSYM or 0 where its kind has none. */
static inline cg_stmt *sg_orig(const cg_stmt *s)
{
    cg_stmt **p = sg_field(s, sg_kind_of(s)->orig);
    return p ? *p : NULL;
}
static inline cg_opnd **sg_argsp(const cg_stmt *s)
{
    return sg_field(s, sg_kind_of(s)->args);
}
static inline cg_opnd *sg_args(const cg_stmt *s)
{
    cg_opnd **p = sg_argsp(s);
    return p ? *p : NULL;
}
static inline cg_symid sg_sym(const cg_stmt *s)
{
    cg_symid *p = sg_field(s, sg_kind_of(s)->sym);
    return p ? *p : CG_NOSYM;
}
static inline const char *sg_name(const cg_stmt *s)
{
    const char **p = sg_field(s, sg_kind_of(s)->name);
    return p ? *p : NULL;
}
static inline uint32_t sg_count(const cg_stmt *s)
{
    uint32_t *p = sg_field(s, sg_kind_of(s)->count);
    return p ? *p : 0;
}

/* Operand kinds, numbered from CG_O_EXT (layer.c prints them). */
enum {
    SG_O_DYN = CG_O_EXT, /* a = the offset (CG_O_INT): [r] with r = dyn_smem +
                     offset, as pyptx materializes an allocation in dynamic
                     shared memory (smem.c); _dyn_smem_addr(off), or where
                     pyptx takes the allocation itself, _dyn_smem(off) */
    SG_O_SLOT,    /* text = an mbarrier array's name, b = CG_O_INT byte
                     offset, a = the stage register: [r] with r = name +
                     offset + 8 * stage as pyptx's barrier slot .at(stage)
                     computes it (smem.c); _slot_addr(...), or where pyptx
                     takes the slot itself, ptx.mbarrier.array(...).at(..) */
    SG_O_DESC,    /* ptx.wgmma.make_descriptor(a, ...): a = the base
                     (SG_O_DYN, a name, a register), elems = five CG_O_INT:
                     leading and stride byte offsets, swizzle, base_offset,
                     addr_byte_offset (desc.c) */
    SG_O_OPER,    /* (a OP b): text = a pyptx operator (+, <<, &, ...) whose
                     result pyptx allocates (merge.c) */
    SG_O_NAME,    /* a Python name a pass chose (a local function, its
                     parameter): text; or, where sym is not CG_NOSYM, that
                     symbol's Python name (an allocation's); pynodes.c
                     prints these and the kinds after them */
    SG_O_CALL,    /* [a.]text(elems): text the callee (a dotted name from a
                     pass's table, or an SG_O_NAME's), a the object whose
                     method it is (or NULL), elems the arguments by next,
                     keyword arguments last (SG_O_KW) */
    SG_O_KW,      /* text=a: a keyword argument, or a parameter's default */
    SG_O_INDEX,   /* a[elems]: one index, or several (x[row, col]) */
    SG_O_REPEAT,  /* [a for _ in range(b)], b a CG_O_INT */
    SG_O_COMP,    /* [x[k] for k in range(elems)]: x the register array sym,
                     elems one to three CG_O_INT (range's arguments) */
    SG_O_CONCAT,  /* elems joined by +: a register list written as
                     SG_O_COMPs and CG_O_VECs (slices.c) */
    SG_O_FLOAT,   /* a Python float literal: text its spelling (0.0, 1e-05) */
    SG_O_TAKEN,   /* address a where a pyptx helper takes it and makes the
                     register itself: an SG_O_DYN as the allocation
                     (sg_print_addr_arg) */
    SG_O_PAREN,   /* (a): a sum as an operator's operand (outline's loops) */
    SG_O_ITEM,    /* a[b]: an element of a Python list a pass made (repeat:
                     the registers a rolled loop allocates and later code
                     reads), a the list (SG_O_NAME), b the index (CG_O_INT,
                     or an SG_O_AFFINE of a loop's variable), or NULL: the
                     whole list, where the registers stand as a vector;
                     elems the registers it stands for (CG_O_SYM: never
                     printed, but walks and references see them) */
    SG_O_AFFINE,  /* base + stride*var, var a Python loop's variable (text:
                     its name), a the base (CG_O_INT, or the SG_O_AFFINE
                     index of a loop inside: 4*j + 256*i), b the CG_O_INT
                     stride (not 0); sym != CG_NOSYM: that register array's
                     element sym[base + stride*var] (repeat.c) */
    SG_O_WALRUS   /* sym := a: the name sym bound to register a where an
                     instruction writes it (alias.c) */
};

/* a OP b of an SG_O_OPER, without the parentheses it takes as an operand
   (layer.c) */
void sg_print_oper(const cg_module *, const cg_kernel *, const cg_opnd *, ptx_buf *);
/* An instruction a typed wrapper prints (cg_inst.hook: 1 + the wrapper's
   row, hook_data: its form, calls.c). */
void sg_print_call(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);

/* A new sugar statement of kind `kind` (SG_S_*); an alias is also noted
   for alias.c (sg_state.alias_nodes), as sg_copy_stmt notes a copy. */
cg_stmt *sg_node_new(cg_module *m, unsigned kind, ptx_tok first);
/* Statement s becomes a new node of kind `kind` in place (so that the
   links to it stay valid), its old fields gone.  Never an alias: the
   node noted would be the one whose fields s takes. */
void sg_node_become(cg_module *m, cg_stmt *s, unsigned kind);

/* ---- state ------------------------------------------------------------ */

/* Per module (m->layer_state). */
typedef struct sg_state {
    uint32_t passes;         /* the passes that run (bit i: pass i), so that
                                a pass may leave work to a later one only
                                where that one runs */
    uint8_t uses_smem;       /* smem.* calls made: import smem */
    uint8_t uses_dyn;        /* SG_O_DYN made: define _dyn_smem* */
    uint8_t uses_slot;       /* SG_O_SLOT made: define _slot_addr */
    /* free.c, made on first use: the names of the module and every
       spelling a pass has given (a new PTX name must be none of them), and
       the words of the module text outside kernels (debug sections), which
       name kernel symbols that must keep their spelling */
    struct cg_map *ptxwords, *rawwords;
    struct cg_map *ptxnext;  /* base spelling -> the first suffix not known
                                to be taken */
    struct cg_map *pynext;   /* the same for Python names, by the
                                module-wide ones (pyfns) alone */
    uint8_t in_prelude;      /* driver.c: a prelude runs (free.c: it does not
                                see the names rows gave) */
    /* A module rewritten a piece at a time (pieces.c), ahead of the names
       of the pieces still to come (free.c says how it stays exact): */
    uint8_t ahead;           /* 1: in pieces */
    uint8_t clash;           /* a name a piece learned was answered free
                                before: the pieces' output is not the
                                whole module's */
    struct cg_map *preptxnext; /* ptxnext for the preludes alone */
    uint64_t *bb_taken;      /* labels.c: bit v, BB<v> known taken to the
                                rows (it stays so): asked once a number */
    uint32_t nbb_taken;      /* (words of bb_taken, in sg_keep) */
    struct sg_hashes {       /* free.c: hashes of the spellings answered not */
        uint64_t *v;         /* pinned (open addressing, 0 empty) */
        uint32_t n, cap;
    } pinasked;
    uint64_t *pinlog;        /* ... as they are answered, in order: the set */
    uint32_t npinlog, cappinlog, pinlogged;   /* takes them (up to
                                pinlogged) only once a piece brings module
                                text to look up, which most modules never do */
    struct cg_map *pyasked;  /* Python names answered free or given to a
                                kernel function (tagged as ptxwords) */
    struct cg_module *keep;  /* allocates what outlives a piece (sg_keep) */
    struct cg_stmt **alias_nodes; /* the SG_S_ALIAS nodes made or copied
                                since the kernel's rows began (util.c), which
                                alias.c folds instead of walking the kernel */
    uint32_t naliases, capaliases;
    /* "calls" (calls.c): what a typed wrapper prints from an opcode word's
       modifiers, worked out by the pass once per word, so that printing a
       million calls does not match them again */
    struct sg_form *forms;
    uint32_t nforms, capforms;
    struct sg_word_fits *word_fits;   /* and what each opcode word fits */
    /* the module's opcode words by text (sg_word_id), in sg_keep, and the
       memo of the instructions' arrays that spell them */
    struct cg_map *words;
    uint32_t nwords;
    struct sg_word_memo *word_memo;
    /* "expr" (expr.c): what it asks of each word (by sg_word_id) */
    struct sg_expr_word *expr_words;
    uint32_t nexpr_words;
} sg_state;

typedef struct sg_hashes sg_hashes;

/* Per kernel (k->layer). */
typedef struct sg_kstate {
    uint8_t fresh_labels;    /* driver.c: a row that raises constructs whose
                                trace makes fresh labels rewrote here */
    uint8_t fors;            /* range.c made loops (SG_S_FOR), whose
                                variables repeat.c must then look up */
    uint8_t cmps;            /* compare.c made comparisons (SG_S_CMP), the
                                only ones preds.c nests */
    uint8_t p0_named;        /* compare.c: 0 not looked yet, 1 the predicate
                                pool's %p0 is named, 2 it is not (no pass
                                between its two asks changes that) */
} sg_kstate;

static inline sg_state *sg_st(const cg_module *m)
{
    return (sg_state *)m->layer_state;
}

/* The module to allocate module-wide state from (maps, their keys): in
   pieces, a copy whose arena outlives the piece being rewritten. */
static inline struct cg_module *sg_keep(struct cg_module *m)
{
    return sg_st(m)->keep ? sg_st(m)->keep : m;
}

static inline sg_kstate *sg_kst(const cg_kernel *k)
{
    return (sg_kstate *)k->layer;
}

#endif
