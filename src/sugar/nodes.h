/*
 * sugar/nodes.h - the nodes the sugar passes add to codegen's IR, and the
 * state they keep per module and per kernel.
 *
 * Codegen knows none of them: a sugar statement is a codegen extension
 * statement (ir.h: CG_S_EXT) whose kind sugar numbers from CG_S_EXT up, so
 * that a pass may switch on s->kind, and whose row in sg_exts[] (layer.c)
 * prints it; a sugar operand is an extension operand (CG_O_EXT up), which
 * codegen prints through sg_layer.print_opnd.  Both lists are X-macros,
 * so that the kinds and their rows cannot drift apart.
 */
#ifndef PTX_SUGAR_NODES_H
#define PTX_SUGAR_NODES_H

#include "codegen/ir.h"

/* Statement kinds: X(KIND, printer, nests a body). */
#define SG_STMT_KINDS(X)                                                     \
    X(LOOP, sg_print_loop, 1)   /* with ptx.loop("L", pred=guard): body */   \
    X(WAIT, sg_print_wait, 0)   /* an mbarrier try_wait spin loop folded    \
                                   into one call */                         \
    X(FOR, sg_print_for, 1)     /* for <var> in range(count): body */        \
    X(EXPR, sg_print_expr, 0)   /* integer expression chain, r[k] = a OP b */\
    X(PY, sg_print_py, 1)       /* any other Python lines (text, body) */    \
    X(WITH, sg_print_with, 1)   /* with <name>(<args>): body - ptx.if_ ... */\
    X(CMP, sg_print_cmp, 0)     /* pI = a < b */                             \
    X(ALIAS, sg_print_alias, 0) /* tid = r[2] (records nothing) */           \
    X(ALLOC, sg_print_alloc, 0) /* a declaration merged with what first      \
                                   writes the register: reg.scalar(T,      \
                                   init=V), reg.from_(src, T),             \
                                   ptx.global_ptrs(...) (merge.c) */

#define SG_KIND(k, print, nests) SG_S_##k,
enum { SG_S_FIRST_ = CG_S_EXT - 1, SG_STMT_KINDS(SG_KIND) SG_S_END };
#undef SG_KIND
#define SG_PRINTER(k, print, nests)                                          \
    void print(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);
SG_STMT_KINDS(SG_PRINTER)
#undef SG_PRINTER

/* The rows of the kinds above, in their order (layer.c). */
extern const cg_ext sg_exts[SG_S_END - CG_S_EXT];

/* Operand kinds, numbered from CG_O_EXT (layer.c prints them). */
enum {
    SG_O_PY = CG_O_EXT, /* Python expression text made by a pass, as is */
    SG_O_DYN,     /* a = the offset (CG_O_INT): [r] with r = dyn_smem +
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
    SG_O_AFFINE   /* base + stride*var, var a Python loop's variable (text:
                     its name), a and b the CG_O_INT base and stride (the
                     stride not 0); sym != CG_NOSYM: that register array's
                     element sym[base + stride*var] (repeat.c) */
};

/* The payload of every sugar statement.  Which fields mean what is up to
   the pass that made the node and its printer; the common meaning is: */
typedef struct sg_sugar {
    cg_stmt *orig;         /* WAIT, FOR, EXPR, ALLOC, CMP, WITH (if_): the
                              statements replaced, never printed (passes
                              look through the node at them); NULL where
                              they live on in the body (u.ext.body) */
    cg_symid label;        /* LOOP: the loop label */
    cg_opnd *args;         /* LOOP: the pred; WAIT: call arguments */
    const char *name;      /* FOR: the loop variable; PY: text; WAIT: the
                              helper's name */
    uint32_t count;        /* FOR: range(count) */
    void *data;            /* pass-private */
} sg_sugar;

static inline sg_sugar *sg_u(const cg_stmt *s)
{
    return (sg_sugar *)s->u.ext.node;
}

/* a OP b of an SG_O_OPER, without the parentheses it takes as an operand
   (layer.c) */
void sg_print_oper(const cg_module *, const cg_kernel *, const cg_opnd *, ptx_buf *);
/* An instruction a typed wrapper prints (cg_inst.hook: 1 + the wrapper's
   row, hook_data: its form, calls.c). */
void sg_print_call(const cg_module *, const cg_kernel *, const cg_stmt *, int, ptx_buf *);

/* A new sugar statement of kind `kind` (SG_S_*). */
cg_stmt *sg_node_new(cg_module *m, unsigned kind, ptx_tok first);
/* Statement s becomes a new node of kind `kind` in place (so that the
   links to it stay valid), its old fields gone. */
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
    /* "calls" (calls.c): what a typed wrapper prints from an opcode word's
       modifiers, worked out by the pass once per word, so that printing a
       million calls does not match them again */
    struct sg_form *forms;
    uint32_t nforms, capforms;
    struct sg_word_fits *word_fits;   /* and what each opcode word fits */
} sg_state;

/* Per kernel (k->layer). */
typedef struct sg_kstate {
    uint8_t fresh_labels;    /* driver.c: a row that raises constructs whose
                                trace makes fresh labels rewrote here */
    uint8_t p0_named;        /* compare.c: 0 not looked yet, 1 the predicate
                                pool's %p0 is named, 2 it is not (no pass
                                between its two asks changes that) */
} sg_kstate;

static inline sg_state *sg_st(const cg_module *m)
{
    return (sg_state *)m->layer_state;
}

static inline sg_kstate *sg_kst(const cg_kernel *k)
{
    return (sg_kstate *)k->layer;
}

#endif
