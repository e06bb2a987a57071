/*
 * ptx/ast.h - the syntax tree of a PTX module.
 *
 * The tree is lossless: every byte of the input belongs to exactly one
 * token, either as the token's spelling or as the "trivia" (whitespace and
 * comments) in front of it.  Nodes refer to tokens by index; a token keeps
 * only its offset, length and kind, and its leading trivia is the gap
 * between the previous token's end and its own start.  Printing every token
 * a node owns, in field order, with its trivia reproduces the input exactly
 * (see ptx_emit_exact); printing the same fields with fixed spacing gives the
 * canonical form (ptx_emit_canonical).
 *
 * Lists (statements, operands, parameters, ...) are singly linked through
 * `next`.  Every node lives in the module's arena and is freed with it.
 */
#ifndef PTX_AST_H
#define PTX_AST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Index of a token in ptx_module.toks; PTX_NOTOK where a field is absent. */
typedef uint32_t ptx_tok;
#define PTX_NOTOK UINT32_MAX

/* Token kinds.  Single-character punctuation uses its ASCII code. */
typedef enum ptx_token_kind {
    PTX_T_EOF = 0,
    PTX_T_WORD = 256,   /* identifier, register, label or dotted opcode:
                           ld.global.u32, %tid.x, $L__BB0_1, sm_90a */
    PTX_T_DOTNAME,      /* .reg .b32 .align .shared::cta .debug_info */
    PTX_T_INT,          /* 12 0x1F 017 0b101 12U */
    PTX_T_FLOAT,        /* 1.5 1e3 0f3F800000 0d3FF0000000000000 */
    PTX_T_STRING,       /* "..." */
    PTX_T_DWARF,        /* @@DWARF line (up to, not including, newline) */
    PTX_T_PREPROC,      /* #... preprocessor line */
    /* directive keywords that shape the grammar */
    PTX_T_VERSION, PTX_T_TARGET, PTX_T_ADDRESS_SIZE, PTX_T_FILE, PTX_T_LOC,
    PTX_T_SECTION, PTX_T_ENTRY, PTX_T_FUNC, PTX_T_CALLPROTOTYPE,
    PTX_T_CALLTARGETS, PTX_T_BRANCHTARGETS, PTX_T_PRAGMA, PTX_T_ALIAS,
    /* multi-character operators */
    PTX_T_SHL, PTX_T_SHR, PTX_T_LE, PTX_T_GE, PTX_T_EQ, PTX_T_NE,
    PTX_T_ANDAND, PTX_T_OROR,
    PTX_T_KIND_END
} ptx_token_kind;

typedef struct ptx_token {
    uint32_t start; /* byte offset of the spelling */
    uint32_t len;   /* spelling length in bytes */
    uint32_t kind;  /* ptx_token_kind */
} ptx_token;

/* A view into the source buffer. */
typedef struct ptx_str {
    const char *p;
    uint32_t n;
} ptx_str;

/* ------------------------------------------------------------------ */
/* Expressions: operands, initializers, directive arguments.           */

/* The leaves (a token alone) come first: the printer tells them by
   kind <= PTX_E_DOTNAME. */
typedef enum ptx_expr_kind {
    PTX_E_NAME,    /* tok: register, symbol, label, special register, _  */
    PTX_E_INT,     /* tok */
    PTX_E_FLOAT,   /* tok */
    PTX_E_STRING,  /* tok */
    PTX_E_DOTNAME, /* tok: .debug_abbrev in section data, .managed in attrs */
    PTX_E_UNARY,   /* tok = operator (- ! ~ +), a = operand */
    PTX_E_BINARY,  /* a tok b; tok = operator (+ - * / % << >> & | ^ ...) */
    PTX_E_COND,    /* a tok('?') b close(':') c */
    PTX_E_PAREN,   /* tok '(' list a ... close ')': (x+1), call lists (a, b) */
    PTX_E_VECTOR,  /* tok '{' list a ... close '}' */
    PTX_E_ADDRESS, /* tok '[' list a ... close ']' */
    PTX_E_CALL,    /* tok = name, open '(' list a ... close ')': generic(x) */
    PTX_E_CAST     /* tok '(' open = DOTNAME close ')' a: (.s64) x */
} ptx_expr_kind;

typedef struct ptx_expr ptx_expr;
struct ptx_expr {
    uint16_t kind;   /* ptx_expr_kind */
    uint16_t depth;  /* height of this subtree (bounded by PTX_MAX_DEPTH) */
    ptx_tok tok;     /* leaf token, operator, opening bracket or call name */
    ptx_tok open;    /* PTX_E_CALL: '('; PTX_E_CAST: the type DOTNAME */
    ptx_tok close;   /* closing bracket; ':' of ?: */
    ptx_tok sep;     /* in a list: the ',' after this element, or PTX_NOTOK
                        (the last element, or juxtaposed arguments such as
                        .loc 1 2 3) */
    ptx_expr *a, *b, *c; /* operands; for bracketed kinds `a` is the list */
    ptx_expr *next;      /* next element of the enclosing list */
};

/* ------------------------------------------------------------------ */
/* Declarations.                                                       */

/* One dotted specifier of a declaration or parameter: .global .align 16
   .v4 .b32 .ptr .attribute(.managed). */
typedef struct ptx_spec ptx_spec;
struct ptx_spec {
    ptx_tok tok;      /* the DOTNAME */
    ptx_expr *arg;    /* .align 16 -> INT; .attribute(...) -> PAREN; or NULL */
    ptx_spec *next;
};

/* Array dimension [N] or []. */
typedef struct ptx_dim ptx_dim;
struct ptx_dim {
    ptx_tok lbrack;
    ptx_expr *size;   /* NULL for [] */
    ptx_tok rbrack;
    ptx_dim *next;
};

/* name, name<N>, name[4][8], name = init; in a comma list. */
typedef struct ptx_declarator ptx_declarator;
struct ptx_declarator {
    ptx_tok name;
    ptx_tok lt, count, gt; /* %r<N> register range, else PTX_NOTOK */
    ptx_dim *dims;
    ptx_tok eq;            /* '=' or PTX_NOTOK */
    ptx_expr *init;
    ptx_tok sep;           /* ',' after it, or PTX_NOTOK */
    ptx_declarator *next;
};

/* A parameter: specs and one declarator, plus the ',' after it. */
typedef struct ptx_param ptx_param;
struct ptx_param {
    ptx_spec *specs;
    ptx_declarator *decl;
    ptx_tok sep;
    ptx_param *next;
};

typedef struct ptx_param_list {
    ptx_tok lparen;
    ptx_param *params;     /* may be NULL: () */
    ptx_tok rparen;
} ptx_param_list;

/* ------------------------------------------------------------------ */
/* Statements: module items and function-body items.                   */

typedef enum ptx_stmt_kind {
    PTX_S_VERSION,       /* dir: .version 8.3 */
    PTX_S_TARGET,        /* dir: .target sm_90a, debug */
    PTX_S_ADDRESS_SIZE,  /* dir: .address_size 64 */
    PTX_S_FILE,          /* dir: .file 1 "a.cu", 1700000000, 1234 */
    PTX_S_LOC,           /* dir: .loc 1 2 3, function_name f, inlined_at 1 4 5 */
    PTX_S_PRAGMA,        /* dir: .pragma "nounroll"; */
    PTX_S_ALIAS,         /* dir: .alias a, b; */
    PTX_S_DATA,          /* dir: section data line .b8 1, 2, 3 */
    PTX_S_CALLTARGETS,   /* dir with label: t: .calltargets f, g; */
    PTX_S_BRANCHTARGETS, /* dir with label: t: .branchtargets L1, L2; */
    PTX_S_SECTION,       /* section: .section .debug_info { ... } */
    PTX_S_DWARF,         /* tok: @@DWARF ... */
    PTX_S_PREPROC,       /* tok: #... */
    PTX_S_VAR,           /* var: .reg .b32 %r<4>;  .global .u32 x = 1; */
    PTX_S_FUNC,          /* func: .entry/.func declaration or definition */
    PTX_S_CALLPROTOTYPE, /* func with label: p: .callprototype (...) _ (...); */
    PTX_S_LABEL,         /* label: $L__BB0_1: */
    PTX_S_INSTR,         /* instr */
    PTX_S_BLOCK          /* block: { ... } */
} ptx_stmt_kind;

typedef struct ptx_stmt ptx_stmt;

typedef struct ptx_dir {
    ptx_tok label, colon;  /* .calltargets / .branchtargets only */
    ptx_tok dir;           /* the directive keyword or data type DOTNAME */
    ptx_expr *args;        /* arguments, linked, each with its separator */
    ptx_tok semi;          /* ';' or PTX_NOTOK for line directives */
} ptx_dir;

typedef struct ptx_block {
    ptx_tok lbrace;
    ptx_stmt *stmts;
    ptx_tok rbrace;
} ptx_block;

typedef struct ptx_section {
    ptx_tok dir;       /* .section */
    ptx_tok name;      /* .debug_info */
    ptx_block body;    /* items: PTX_S_LABEL and PTX_S_DATA */
} ptx_section;

typedef struct ptx_var {
    ptx_spec *specs;
    ptx_declarator *decls;
    ptx_tok semi;
} ptx_var;

/* A function performance/attribute directive after the header:
   .maxntid 128, 1, 1   .noreturn   .pragma "x"; */
typedef struct ptx_fdir ptx_fdir;
struct ptx_fdir {
    ptx_tok dir;
    ptx_expr *args;
    ptx_tok semi;      /* only for .pragma */
    ptx_fdir *next;
};

typedef struct ptx_func {
    ptx_tok label, colon;    /* .callprototype only */
    ptx_spec *specs;         /* linking: .visible .extern .weak */
    ptx_tok kw;              /* .entry / .func / .callprototype */
    ptx_param_list *ret;     /* return parameters, or NULL */
    ptx_tok name;
    ptx_param_list *params;  /* NULL when the header has no list */
    ptx_fdir *dirs;
    ptx_block *body;         /* NULL for a declaration */
    ptx_tok semi;            /* ';' ending a declaration */
} ptx_func;

typedef struct ptx_label {
    ptx_tok name, colon;
} ptx_label;

typedef struct ptx_instr {
    ptx_tok at, bang, pred;  /* @!%p guard; PTX_NOTOK where absent */
    ptx_tok op;              /* the dotted opcode word */
    ptx_str opcode;          /* "ld" */
    uint32_t nmods;
    ptx_str *mods;           /* "global", "v4", "shared::cta" (no dots) */
    ptx_expr *operands;
    ptx_tok semi;
} ptx_instr;

struct ptx_stmt {
    uint32_t kind;           /* ptx_stmt_kind */
    ptx_tok first;           /* first token: its location is the node's */
    ptx_stmt *next;
    union {
        ptx_dir dir;
        ptx_section section;
        ptx_tok tok;
        ptx_var var;
        ptx_func func;
        ptx_label label;
        ptx_instr instr;
        ptx_block block;
    } u;
};

/* ------------------------------------------------------------------ */

typedef struct ptx_arena ptx_arena;

typedef struct ptx_module {
    const char *filename;
    const char *src;     /* the input, NUL-terminated, owned by the module */
    size_t size;
    ptx_token *toks;     /* toks[ntoks-1] is PTX_T_EOF: its trivia ends the file */
    uint32_t ntoks;
    ptx_stmt *items;
    ptx_arena *arena;
} ptx_module;

/* Spelling of a token. */
static inline ptx_str ptx_tok_str(const ptx_module *m, ptx_tok t)
{
    ptx_str s = { m->src + m->toks[t].start, m->toks[t].len };
    return s;
}

/* Offset where the trivia in front of token t begins. */
static inline uint32_t ptx_tok_lead(const ptx_module *m, ptx_tok t)
{
    return t == 0 ? 0 : m->toks[t - 1].start + m->toks[t - 1].len;
}

#ifdef __cplusplus
}
#endif
#endif
