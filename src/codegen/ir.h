/*
 * codegen/ir.h - the code generator's own tree ("Python-side IR").
 *
 * pyptx-codegen works in three steps:
 *
 *     PTX AST (ptx/ast.h) --cg_build--> cg_module --layer above--> cg_module
 *                                                  --cg_print--> Python text
 *
 * The IR describes the *Python program* to be printed, not PTX: every
 * statement node is one Python statement (or block) that, when the
 * generated file is traced by pyptx 0.1.1, records exactly the PTX of the
 * source statements it stands for (src/codegen/DESIGN.md says which pyptx
 * call gives which PTX text).  A layer above (the readable-output passes)
 * may rewrite the IR between building and printing: replace a run of
 * statements by a node of its own kind, and rename symbols.  Codegen knows
 * nothing of that layer's kinds: it offers extension kinds (CG_S_EXT,
 * CG_O_EXT) that print through the layer's constant tables (cg_ext,
 * cg_layer), and one opaque pointer for the layer's state per module and
 * per kernel.
 *
 * Three rules make passes safe and simple:
 *
 *  1. Names by identity.  Operands, labels, declarations and even raw
 *     carried text (cg_text pieces) refer to registers, labels, parameters
 *     and body variables through a cg_symid, an index into the kernel's
 *     symbol table.  Only the table holds spellings, so renaming a symbol
 *     is one assignment (sym->ptx and/or sym->py) and every use follows.
 *
 *  2. One printer per kind.  Every statement kind prints through its row of
 *     a constant table (print.c; an extension node through the row of the
 *     layer's table it points to), so how a node prints never depends on
 *     which rewrites ran before.  An extension node's printer must record,
 *     when traced, exactly the PTX of the statements the node replaced.
 *
 *  3. Lists are plain singly linked lists (`next`).  cg_body() says which
 *     statements own a nested list, and cg_splice() replaces a run of a
 *     list by one node; passes use these two and no rules of their own.
 *
 * All nodes and strings live in the module's arenas (cg_alloc / cg_strdup;
 * statements in one of their own, cg_stmt_new);
 * cg_module_free releases everything at once.  Strings are NUL-terminated
 * copies, so a pass may point them at new text freely.
 */
#ifndef PTX_CODEGEN_IR_H
#define PTX_CODEGEN_IR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ptx/ast.h"
#include "ptx/codegen.h"
#include "ptx/ptx.h"
#include "util/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Options, statistics, passes.                                        */

/* The options are the public ones (include/ptx/codegen.h): --name,
   --rename-kernels, --jobs and a stats pointer (may be NULL); what selects
   the layer above is that layer's to read. */
typedef ptx_codegen_options cg_options;
typedef ptx_codegen_stats cg_stats;

typedef struct cg_module cg_module;
typedef struct cg_kernel cg_kernel;
typedef struct cg_open cg_open;

/* ------------------------------------------------------------------ */
/* Symbols.                                                            */

typedef uint32_t cg_symid;
#define CG_NOSYM UINT32_MAX

typedef enum cg_sym_kind {
    CG_SYM_REG,      /* scalar register: %p, %SP              -> py name   */
    CG_SYM_REGARRAY, /* register range %r<N>: element i is    -> py[i]     */
    CG_SYM_LABEL,    /* $L__BB0_1                             -> "str"     */
    CG_SYM_PARAM,    /* entry parameter                       -> "str"     */
    CG_SYM_VAR       /* variable declared in the body (.shared, .local ...) */
} cg_sym_kind;

/* Every name a kernel body declares.  `ptx` is the PTX spelling (for a
   register array the base, "%r": element i is printed "%r" + i); `py` the
   Python name the generated code binds it to (registers only; labels,
   params and variables appear in Python as string literals of `ptx`).
   Renaming = assigning `ptx` (changes the traced PTX, allowed in readable
   mode as a bijection) and/or `py` (Python only).  A pass that renames
   must keep names unique among the kernel's symbols of the same scope and
   must not produce reserved Python names (cg_py_reserved). */
typedef struct cg_sym {
    uint8_t kind;        /* cg_sym_kind */
    uint8_t is_pred;     /* register of type .pred (operand `a|b`, guards) */
    uint8_t alias;       /* a Python name for an element of another register
                            (tid = r[2]), declared by nothing */
    uint8_t implicit;    /* declared without name=: pyptx allocates this
                            very name */
    uint16_t scope;      /* 0 = kernel top level; n = n-th nested block */
    uint8_t elem0;       /* an operand the build made names element 0 (so
                            a rewrite may skip looking for one) */
    const char *ptx;
    const char *py;
    const char *type;    /* registers/vars: pyptx type name "b32"; may be a
                            non-pyptx type ("v4.b32") for raw declarations */
    uint32_t count;      /* CG_SYM_REGARRAY: N of %r<N> */
    uint32_t uses;       /* number of references (for passes) */
} cg_sym;

/* A register or register array: printed as its Python name, where every
   other symbol is a "str" of its PTX spelling. */
static inline int cg_sym_is_reg(const cg_sym *s)
{
    return s->kind == CG_SYM_REG || s->kind == CG_SYM_REGARRAY;
}

/* ------------------------------------------------------------------ */
/* Text with symbol references.                                        */

/* Carried PTX text (raw statements, string operands) is stored as pieces:
   literal bytes, or a reference to a symbol (+ array index) printed with
   the symbol's current PTX spelling.  So even `_raw(...)` lines follow a
   rename. */
typedef struct cg_piece {
    const char *p;       /* literal bytes (sym == CG_NOSYM) */
    uint32_t n;
    cg_symid sym;        /* or a symbol reference */
    int32_t index;       /* array element, or -1 */
} cg_piece;

typedef struct cg_text {
    cg_piece *v;
    uint32_t n;
} cg_text;

/* ------------------------------------------------------------------ */
/* Operands (Python expressions passed to ptx.inst.*).                  */

typedef enum cg_opnd_kind {
    CG_O_SYM,     /* sym, index: r[5] / x (registers), "L" (labels, params,
                     variables: a str operand pyptx prints verbatim) */
    CG_O_SPECIAL, /* text = PTX name: ptx.special.tid.x() for the known
                     ones (table in names.c), else ptx.sreg("%smid") */
    CG_O_INT,     /* text = decimal spelling, optional leading '-': 123, -8 */
    CG_O_STR,     /* text as a Python str (immediates pyptx would respell:
                     0x1F, 1.5, 0f3F800000; sink _; PTX expressions) */
    CG_O_NOT,     /* ~a           -> !%p */
    CG_O_PIPE,    /* a | b (pred) or PipeRef(a, b) */
    CG_O_VEC,     /* [e0, e1, ...] -> {..} ; elements in `elems` */
    CG_O_TUPLE,   /* (e0, e1,)     -> (..) */
    CG_O_ADDR,    /* ptx.addr(a[, b]): a = base, b = offset (CG_O_SYM,
                     CG_O_INT or CG_O_STR for "+-8"); NULL = no offset */
    CG_O_TMA,     /* ptx._make_tma_address(a, (e0, e1)) -> [a, {e0, e1}] */
    CG_O_EXT      /* this kind and those above it are the layer above's
                     (numbered by it): cg_layer.print_opnd prints them.
                     Their children are the fields every walk follows
                     (sym, index, text, a, b, elems), so a walk that knows
                     no such kind still sees what one names */
} cg_opnd_kind;

typedef struct cg_opnd cg_opnd;
struct cg_opnd {
    uint8_t kind;        /* cg_opnd_kind */
    cg_symid sym;        /* CG_O_SYM */
    int32_t index;       /* CG_O_SYM: array element or -1 */
    cg_text text;        /* CG_O_SPECIAL/INT/PY: one literal piece;
                            CG_O_STR: pieces (may reference symbols) */
    cg_opnd *a, *b;      /* NOT: a; PIPE: a|b; ADDR/TMA: base a, offset b */
    cg_opnd *elems;      /* VEC, TUPLE, TMA coordinates: linked by next */
    cg_opnd *next;       /* next operand of the instruction / list */
};

/* ------------------------------------------------------------------ */
/* Statements.                                                         */

typedef enum cg_stmt_kind {
    /* made by cg_build */
    CG_S_INST,     /* ptx.inst.<op>.<mods>(ops..., pred=guard) */
    CG_S_LABEL,    /* ptx.label("L") */
    CG_S_REG,      /* x = reg.array(b32, 5, name="%r") / reg.scalar(...) */
    CG_S_BIND,     /* x = RegArray("%r", 5, b32) / Reg("%x", b32): binds a
                      Python name to a register declared by a CG_S_RAW */
    CG_S_VAR,      /* ptx.var("shared", f32, "tile", size=.., align=..) */
    CG_S_PRAGMA,   /* ptx.pragma("nounroll") */
    CG_S_RAW,      /* _raw("text") with a Python comment giving `why` */
    CG_S_SCOPE,    /* with ptx.scope(): body */
    CG_S_COMMENT,  /* "# text" in Python only; records nothing */
    CG_S_EXT,      /* this kind and those above it are the layer above's
                      (numbered by it, so that it may switch on `kind`):
                      u.ext, printed by the row u.ext.ext */
} cg_stmt_kind;

typedef struct cg_stmt cg_stmt;

/* A printer: statement s at Python indentation level `depth`. */
typedef void (*cg_print_hook)(const cg_module *m, const cg_kernel *k,
                              const cg_stmt *s, int depth, ptx_buf *out);

/* A kind of statement the layer above defines: a row of a constant table
   of that layer, which every node of the kind points to, so that codegen
   prints and walks the node without knowing what it is. */
typedef struct cg_ext {
    const char *name;      /* for diagnostics and tests */
    cg_print_hook print;   /* prints the node (its body too) */
    size_t size;           /* bytes of the node's payload (u.ext.node), for
                              a copy */
    uint8_t nests;         /* u.ext.body is a nested list of the node's
                              (cg_body), printed by `print` */
} cg_ext;

/* An opcode word as ptx.inst needs it, shared by every instruction that
   spells it (read-only: a pass that changes an instruction's opcode gives
   it new arrays). */
typedef struct cg_opcode {
    const char *op;
    const char **mods;
    uint32_t nmods;
    const char *path;      /* the ptx.inst attributes: "ld.global_.v4.u32" */
    uint32_t pathlen;
    uint64_t op_bit;       /* cg_op_bit(op) */
    uint64_t word_bit;     /* cg_word_bit of the word, dots and all */
} cg_opcode;

/* A hash of the text k[0..n), eight bytes at a time (the maps' keys;
   sugar's names, a library module's mangled ones a hundred bytes long);
   its high bits are the best mixed. */
static inline uint64_t cg_text_hash(const char *k, size_t n)
{
    const uint64_t mul = 0x9e3779b97f4a7c15ull;
    uint64_t h = n * mul, w;
    for (; n >= 8; k += 8, n -= 8) {
        memcpy(&w, k, 8);
        h = (h ^ w) * mul;
        h ^= h >> 29;
    }
    w = 0;
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)(unsigned char)k[i] << (8 * i);
    return (h ^ w) * mul;
}

/* A bit for the text p[0..n) in a kernel's `ops` or `words`. */
static inline uint64_t cg_word_bit(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
    return 1ull << (h >> 58);
}

/* A bit for opcode op (no dots: "mbarrier") in a kernel's `ops`. */
static inline uint64_t cg_op_bit(const char *op)
{
    return cg_word_bit(op, strlen(op));
}

typedef struct cg_inst {
    const char *op;        /* PTX opcode, no dots: "ld" */
    const char **mods;     /* PTX modifiers, no dots: "global", "v4" */
    uint32_t nmods;
    uint8_t hook;          /* 0, or the layer above prints it
                              (cg_layer.print_inst), which reads the value
                              and hook_data as it defines (in the padding,
                              so plain mode pays nothing) */
    cg_opnd *ops;          /* linked by next */
    cg_opnd *guard;        /* @%p -> CG_O_SYM; @!%p -> CG_O_NOT; or NULL */
    const char *path;      /* the ptx.inst attribute names joined with '.'
                              ("and_", "shared__cta", "_2d"), from the
                              opcode cache; a pass that changes op/mods
                              sets path = NULL and the printer mangles
                              op/mods itself */
    uint32_t pathlen;
    uint32_t hook_data;    /* the layer's, with `hook` (in the padding
                              too) */
} cg_inst;

typedef struct cg_var {
    const char *space;     /* "shared", "shared::cta" (printed with __) */
    const char *type;      /* pyptx type name */
    cg_symid sym;          /* CG_SYM_VAR */
    const char *size;      /* decimal text or NULL */
    const char *align;     /* decimal text or NULL */
    const char *linking;   /* "extern" ... or NULL */
} cg_var;

struct cg_stmt {
    uint8_t kind;          /* cg_stmt_kind */
    ptx_tok first;         /* source location (first token), or PTX_NOTOK */
    cg_stmt *next;
    union {
        cg_inst inst;
        cg_symid label;                    /* CG_S_LABEL */
        cg_symid reg;                      /* CG_S_REG, CG_S_BIND */
        cg_var var;                        /* CG_S_VAR */
        ptx_str pragma;                    /* CG_S_PRAGMA: string content */
        struct {
            cg_text text;                  /* exact PTX, newline-free or not */
            const char *why;               /* comment, or NULL (blank/comment
                                              lines of the source) */
        } raw;                             /* CG_S_RAW */
        cg_stmt *body;                     /* CG_S_SCOPE */
        const char *comment;               /* CG_S_COMMENT */
        struct {
            const cg_ext *ext;             /* the kind's row */
            void *node;                    /* the layer's payload */
            cg_stmt *body;                 /* a nested list (ext->nests) */
        } ext;                             /* kind >= CG_S_EXT */
    } u;
};

/* ------------------------------------------------------------------ */
/* Kernels and the module.                                             */

/* raw_params=[(TYPESTR, NAME), ...]: NAME is the parameter's symbol (its
   PTX spelling is printed), `rest` non-empty when the name carries extra
   source text (DESIGN.md 3.2, the name trick: "x[2][3]"). */
typedef struct cg_param cg_param;
struct cg_param {
    const char *typestr;   /* "u64", "b8.align64.array128" */
    const char *pre;       /* source text before the name (".ptr .global "),
                              or "" */
    cg_symid sym;
    const char *rest;      /* text after the name, or "" */
    cg_param *next;
};

/* raw_directives=[(NAME, (V, ...))]: values are decimal ints or strings */
typedef struct cg_dir cg_dir;
struct cg_dir {
    const char *name;      /* "maxntid" */
    const char **vals;     /* spellings */
    uint8_t *is_int;       /* per value: print as int */
    uint32_t nvals;
    cg_dir *next;
};

struct cg_kernel {
    const char *ptx_name;    /* the .entry name: never renamed */
    const char *py_name;     /* Python function name */
    int decorated;           /* 1: @kernel(...) def name():
                                0: def _kN(): ... _kN.__name__ = ...  */
    const char *unsupported; /* reason pyptx 0.1.1 cannot express the entry
                                (then it is carried as raw module text and
                                listed in UNSUPPORTED), or NULL */
    cg_param *params;
    int has_params;          /* the source has a parameter list */
    const char *note;        /* comments of the entry header (pyptx writes
                                the header itself): printed as Python
                                comments above the kernel, or NULL */
    cg_dir *dirs;
    cg_stmt *body;
    cg_sym *syms;            /* the symbol table, indexed by cg_symid */
    uint32_t nsyms, capsyms;
    const ptx_stmt *src;     /* the PTX_S_FUNC */
    struct cg_map *pynames;  /* Python names in use (cg_py_name) */
    struct cg_map *pysuffix; /* base name -> the next suffix to try (all
                                below it are taken: names are never freed) */
    uint64_t ops;            /* cg_op_bit of the opcode of every instruction
                                built (more bits may be set): a pass that
                                looks for an opcode skips a kernel without
                                its bit, walking none of its statements */
    uint64_t words;          /* the same for the whole opcode word of every
                                unguarded instruction built ("bra",
                                "bra.uni"; nvcc's `@%p1 bra` sets none) */
    uint32_t max_vec;        /* the most elements of a vector operand the
                                build made ({%r1, ..., %r8}: 8) */
    cg_stmt **special_reads; /* the instructions built with an operand (not
                                the guard) naming a special register
                                (%tid.x), in the order of the source: a
                                layer above that looks for them reads these
                                few, not every statement (for a kernel
                                printed a part at a time, its part's) */
    uint32_t nspecial_reads, capspecial_reads;
    uint32_t trivia_dropped; /* lines of trivia (cg_text_trivia) the build
                                left out (cg_module.drop_trivia) */
    uint8_t stray_fresh_like; /* an operand names `$_...` that nothing
                                declares: a spelling pyptx's fresh labels
                                ($_else_N ...) may meet, which no rename
                                reaches */
    void *layer;             /* the layer above's state for this kernel, or
                                NULL */
};

/* What a raw segment of _MODULE holds, named in its comment ("module
   header, .func / declarations"): a kind per item kind (build_module.c
   maps them), a kernel pyptx cannot express, an .entry's linkage before
   it, and comments. */
#define CG_SEG_KINDS(X)                                                  \
    X(HEADER, "module header") X(FILE, ".file")                         \
    X(SECTION, "debug .section") X(VARS, "module variables")            \
    X(FUNCS, ".func / declarations") X(DWARF, "@@DWARF")                \
    X(PREPROC, "preprocessor lines") X(ALIAS, ".alias")                 \
    X(PROTO, ".callprototype") X(PRAGMA, ".pragma") X(LOC, ".loc")      \
    X(ENTRY_HERE, "entry pyptx cannot express")                          \
    X(ENTRY_NEXT, "linkage of the next .entry") X(COMMENTS, "comments")
#define CG_SEG_ENUM(e, s) CG_SEG_##e,
enum { CG_SEG_KINDS(CG_SEG_ENUM) CG_SEG_NKINDS };
#undef CG_SEG_ENUM
extern const char *const cg_seg_kind_names[CG_SEG_NKINDS];

/* _MODULE segment: source text between kernels, or a kernel. */
typedef struct cg_seg {
    const char *p;           /* raw text (kernel < 0) */
    size_t n;
    int32_t kernel;          /* index into kernels, or -1 */
    uint8_t nkinds, kinds[15]; /* raw text: what it holds (CG_SEG_*), in
                                order of first appearance, for its comment */
} cg_seg;

struct cg_module {
    const ptx_module *src;
    const cg_options *opt;
    ptx_arena *arena;
    ptx_arena *stmts;        /* the statements alone (cg_stmt_new): a walk
                                over a list reads consecutive memory, not
                                one statement among its operands and
                                strings (a rewrite walks every list of a
                                kernel many times) */
    const char *arch;        /* @kernel(arch=...) */
    const char *vmajor, *vminor; /* version=(M, m) */
    int version_ints;        /* print them as ints, else strings */
    uint8_t have_version, have_target; /* their first directive found */
    cg_kernel *kernels;
    uint32_t nkernels, capkernels;
    cg_seg *segs;
    uint32_t nsegs, capsegs;
    /* the raw segment being made (build_module.c): where it begins, and
       the kinds of item met in it (bit per kind), in order of first
       appearance */
    size_t seg_pos;
    uint32_t seg_seen;
    uint8_t seg_n, seg_order[15];
    uint32_t types_used;     /* bit i = cg_types[i] imported */
    const char *srcname;     /* for the header comment */
    /* cache: opcode word ("ld.global.v4.u32") -> index into opcodes_v,
       -2 = not a ptx.inst call.  Kernels repeat a few dozen opcode words
       thousands of times: each is split and mangled once. */
    struct cg_map *opcodes;
    struct cg_opcode *opcodes_v;
    uint32_t nopcodes, capopcodes;
    struct cg_map *pyfns;    /* the kernels' Python function names */
    /* Built in pieces for a layer above that asks (sugar's free names):
       each opcode word's op, once (copied, in opcodes_v with no other
       field, the rest going with its piece), by its text */
    struct cg_map *ops_kept;
    uint8_t drop_trivia;     /* the build leaves out the _raw lines of
                                trivia (cg_text_trivia), counting them in
                                cg_kernel.trivia_dropped: a layer above
                                that would drop them anyway says so, and
                                they cost neither memory nor a walk */
    uint8_t text_ascii;      /* built in pieces by a layer above that says
                                so: no byte of the text is >= 0x80 (the
                                whole module's tree is read instead) */
    /* the layer above (NULL: none): how it prints its kinds and what
       it adds to the file's head, and its state */
    const struct cg_layer *layer;
    void *layer_state;
};

/* ------------------------------------------------------------------ */
/* Building, printing, helpers.                                        */

/* Build the IR from a parsed module.  Returns 0, or -1 with *err filled
   (for example --name with several entries). */
int cg_build(const ptx_module *pm, const cg_options *o, cg_module **out,
             ptx_diag *err);
/* The same a piece at a time (a module translated in pieces): a module
   with no items yet; then each piece pm of the module's text `text`, which
   begins at byte `at` of it, built, its kernels appended to m->kernels
   (their IR allocated in `ir` where it is not NULL, so that it can be
   freed once they are printed); then the end of the text, `size`.  A
   piece may end inside an entry's body: that kernel is then left to
   `open` (build_open.c), and is built no further here. */
cg_module *cg_module_new(const cg_options *o, const char *filename);
void cg_build_items(cg_module *m, const ptx_module *pm, const char *text,
                    size_t at, ptx_arena *ir, cg_open *open);
void cg_build_end(cg_module *m, const char *text, size_t size);
/* A run of pieces built into a module of its own (codegen/pieces.c):
   `next` starts at byte `at` of the text, after what m has been built
   from, with m's .target and .version (cg_module_follow); its kernels
   printed, it is joined to m (cg_module_join), as if its pieces had been
   built into m: kernels, segments, types.  -1 where a kernel's name
   would not be the one m gives it (a name an earlier kernel took, or a
   _k<i> name, whose i counts m's kernels): nothing is joined, and the
   text has to be taken another way.  `next` must outlive m's use of the
   names. */
void cg_module_follow(cg_module *next, const cg_module *m, size_t at);
int cg_module_join(cg_module *m, const cg_module *next, const char *text);
void cg_module_free(cg_module *m);
/* The same as a ptx_own release (util/alloc.h). */
void cg_module_release(void *m);
/* The Python file is the head (imports, which name what the layer above
   used), each kernel pyptx can express, and the tail (KERNELS,
   UNSUPPORTED, _MODULE, module_ptx): cg_codegen (codegen.c) and
   cg_codegen_pieces (pieces.c) put them together. */
/* The head: `code` is the kernels as printed (readable output imports and
   defines what it names), or NULL where the head comes first (plain
   output's, the same in every file). */
void cg_print_head(const cg_module *m, const char *code, size_t n, ptx_buf *out);
void cg_print_kernel(const cg_module *m, const cg_kernel *k, ptx_buf *out);
/* A kernel printed a piece at a time (build_open.c): the lines before its
   body's, the body's statements with cg_print_list (where none printed
   anything, `pass`), the lines after. */
void cg_print_kernel_head(const cg_module *m, const cg_kernel *k, ptx_buf *out);
void cg_print_kernel_foot(const cg_module *m, const cg_kernel *k, ptx_buf *out);
void cg_print_tail(const cg_module *m, ptx_buf *out);

/* Which of the names the head may import or define (kernel, reg, ptx,
   smem, Reg, RegArray, PipeRef, _raw, _named, _dyn_smem, _dyn_smem_addr,
   _slot_addr, the pyptx types) the readable file's code names, found in
   its text (print_module.c): a bit each. */
typedef struct cg_uses {
    uint64_t bits;
} cg_uses;
/* Does the code name `name`?  1 where u is NULL (the plain head). */
int cg_uses_name(const cg_uses *u, const char *name);

/* The layer above: what codegen asks of it where it meets the layer's
   kinds, and what the layer adds to the generated file.  A constant
   struct of the layer's (m->layer), so that nothing is registered at run
   time and threads may print at once. */
typedef struct cg_layer {
    /* an instruction with cg_inst.hook set */
    cg_print_hook print_inst;
    /* an operand of a kind >= CG_O_EXT; `bare`: as the sole argument of
       ptx.addr(...), where an expression needs no parentheses */
    void (*print_opnd)(const cg_module *m, const cg_kernel *k, const cg_opnd *o,
                       int bare, ptx_buf *out);
    /* names appended to `from pyptx import kernel, reg, ptx` (", smem"),
       and definitions after _raw's, for what the kernels use: those u
       names (cg_uses_name; u NULL: the plain head, which names all) */
    void (*head_imports)(const cg_module *m, const struct cg_uses *u, ptx_buf *out);
    void (*head_defs)(const cg_module *m, const struct cg_uses *u, ptx_buf *out);
    /* kernels are printed as a person writes them: every one decorated
       (@_named for those whose PTX name is no Python name), the @kernel
       arguments on one line where they fit */
    uint8_t readable;
} cg_layer;

/* Print a statement list at `depth` (used by hooks for bodies); `pass`
   where it prints nothing (cg_print_stmts), or nothing (cg_print_list). */
void cg_print_stmts(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                    int depth, ptx_buf *out);
void cg_print_list(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out);
/* The operand list o, joined by ", " (registers, most operands, without
   a call each). */
void cg_print_opnds(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out);
/* The operand o alone: neither it nor the layer's printer (print_opnd)
   looks at o->next, so a printer hands over an operand of a list as it
   stands. */
void cg_print_opnd(const cg_module *m, const cg_kernel *k, const cg_opnd *o,
                   ptx_buf *out);
/* Append the PTX spelling of text pieces / of a symbol (+ index). */
void cg_text_ptx(const cg_kernel *k, const cg_text *t, ptx_buf *out);
/* ... as a Python "..." literal of that spelling. */
void cg_text_str(const cg_kernel *k, const cg_text *t, ptx_buf *out);
void cg_sym_ptx(const cg_kernel *k, cg_symid s, int32_t index, ptx_buf *out);
/* 1 if text t is whitespace and // comments alone (a blank or comment
   line of the source, which plain mode keeps as _raw for byte identity). */
int cg_text_trivia(const cg_text *t);

/* Allocation in the module's arena. */
/* zeroed; inline, so that a node of constant size is cleared by a few
   stores rather than a call to memset */
static inline void *cg_alloc(cg_module *m, size_t n)
{
    return ptx_arena_alloc(m->arena, n);
}
char *cg_strndup(cg_module *m, const char *p, size_t n);
/* v (n elements of `size` bytes) with room for one more: the same array
   while n < *cap, else a copy in an array twice as large (*cap updated). */
void *cg_grow(cg_module *m, void *v, uint32_t n, uint32_t *cap, size_t size);
cg_stmt *cg_stmt_new(cg_module *m, cg_stmt_kind kind, ptx_tok first);
/* A statement of the layer's kind `kind` (>= CG_S_EXT) with the row
   `ext`, its payload ext->size zeroed bytes. */
cg_stmt *cg_ext_new(cg_module *m, unsigned kind, const cg_ext *ext, ptx_tok first);
cg_opnd *cg_opnd_new(cg_module *m, unsigned kind);
cg_symid cg_sym_add(cg_module *m, cg_kernel *k, cg_sym_kind kind,
                    const char *ptx, const char *type, uint32_t count,
                    uint16_t scope);

/* The nested statement list s owns (a scope's body, an extension node's
   whose row says it nests one), or NULL.  The one rule for every walk
   over the IR. */
static inline cg_stmt **cg_body(cg_stmt *s)
{
    if (s->kind == CG_S_SCOPE)
        return &s->u.body;
    return s->kind >= CG_S_EXT && s->u.ext.ext->nests ? &s->u.ext.body : NULL;
}

/* Replace the run *link .. last of a list by node (node->next takes
   last->next); returns the run, now ending at last. */
cg_stmt *cg_splice(cg_stmt **link, cg_stmt *last, cg_stmt *node);

/* A fresh Python identifier derived from `ptx` (DESIGN.md section 8),
   unique among the kernel's register Python names. */
const char *cg_py_name(cg_module *m, cg_kernel *k, const char *ptx);
/* 1 if `name` is a Python keyword or a name the generated file uses. */
int cg_py_reserved(const char *name, size_t n);

#ifdef __cplusplus
}
#endif
#endif
