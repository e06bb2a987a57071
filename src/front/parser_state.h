/* parser_state.h - what the bison parser shares with its driver. */
#ifndef PTX_FRONT_PARSER_STATE_H
#define PTX_FRONT_PARSER_STATE_H

#include "ptx/ptx.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "front/lexer.h"


/* What is parsed: a whole module, or a piece of one (ptx_parse_piece)
   that starts among its items, in a function's body or in a variable's
   initializer (as enum ptx_piece_at says, plus one). */
typedef enum ptx_start {
    PTX_START_MODULE, PTX_START_TOP, PTX_START_BODY, PTX_START_INIT
} ptx_start;

/* The value of RUN, a fused token (yylex.h): toks[tok] is a ',' and n
   integers follow, each with a ',' after it.  (INSTR's is the statements
   it stands for, built: ptx_node_run.) */
typedef struct ptx_fused {
    uint32_t tok, n;
} ptx_fused;

/* init_base when the parser is not in a variable's initializer */
enum { PTX_NO_INIT = 0x7fffffff };

typedef struct ptx_parser {
    ptx_module *m;
    ptx_lexer lx;
    uint32_t cap;          /* capacity of m->toks */
    int depth;             /* open brackets of any kind */
    int init_base;         /* depth outside the initializer being parsed,
                              or PTX_NO_INIT: a ',' deeper is in it */
    int start;             /* a piece's start (ptx_start), which yylex
                              gives as a token before the text's first */
    int prelexed;          /* 1: read m->toks[next..end) instead of lexing
                              (a piece of a parallel parse, parse_jobs.c) */
    int whole_opcodes;     /* 1: opcodes not split (ptx_parse_piece) */
    uint32_t next, end;
    /* the parser reads toks[next..lexed), the tokens lexed ahead of it
       (yylex.h); toks is m->toks, kept here for one load less a token */
    ptx_token *toks;
    uint32_t lexed;
    uint32_t first;        /* the first token this parse reads */
    int fuse;              /* 1: yylex may give fused tokens ... */
    int fused;             /* ... and has given one */
    int lex_in_table;      /* lexing an initializer's INT ',' pairs */
    int lex_failed;        /* lexing stopped at a lexical error ... */
    uint32_t lex_err_at;   /* ... at this offset, reported once reached */
    const char *err;       /* first error message (static or in errbuf) */
    size_t err_offset;
    char errbuf[256];
} ptx_parser;

int ptx_yyparse(ptx_parser *P);

/* Parses m->src in pieces of at least min_piece bytes on up to `jobs`
   threads (parse_jobs.c), into m->toks, m->items and m->arena: the number
   of pieces (1 where the text has no cut: lexed, then parsed, on one).
   0, leaving m as it was, where the module is too small to cut or the
   pieces do not parse: then the serial parse runs, and says what is wrong
   if anything is. */
unsigned ptx_parse_pieces(ptx_module *m, unsigned jobs, size_t min_piece);

/* ptx_parse_buffer_jobs with the smallest piece given (PTX_MIN_PART for
   the library's callers; tests cut small modules); *split (if non-NULL)
   says whether two pieces or more were parsed on their own. */
ptx_module *ptx_parse_split(const char *name, const char *data, size_t size,
                            unsigned jobs, size_t min_piece, int *split,
                            ptx_diag *diag);

/* ptx_parse_buffer without fused tokens (yylex.h): the parse a token at
   a time, which tests compare with the parse that fuses. */
ptx_module *ptx_parse_unfused(const char *name, const char *data, size_t size,
                              ptx_diag *diag);

/* Node builders for the grammar's actions (nodes.c).  Those that can fail
   (nesting deeper than PTX_MAX_DEPTH) set P->err and return NULL. */
ptx_expr *ptx_node_expr(ptx_parser *P, int kind, uint32_t tok, ptx_expr *a,
                        ptx_expr *b, ptx_expr *c);
/* A leaf whose kind the grammar rule already knows (WORD: PTX_E_NAME, ...);
   inline: the parser builds one for most operands. */
static inline ptx_expr *ptx_node_leafk(ptx_parser *P, uint32_t tok, int kind)
{
    ptx_expr *e = (ptx_expr *)ptx_arena_alloc_filled(P->m->arena, sizeof *e);
    *e = (ptx_expr){ .kind = (uint16_t)kind, .depth = 1, .tok = tok,
                     .open = PTX_NOTOK, .close = PTX_NOTOK, .sep = PTX_NOTOK };
    return e;
}
/* A leaf of the kind its token says. */
static inline ptx_expr *ptx_node_leaf(ptx_parser *P, uint32_t tok)
{
    static const uint16_t kind_of[PTX_T_KIND_END - PTX_T_WORD] = {
        [PTX_T_WORD - PTX_T_WORD] = PTX_E_NAME,
        [PTX_T_DOTNAME - PTX_T_WORD] = PTX_E_DOTNAME,
        [PTX_T_INT - PTX_T_WORD] = PTX_E_INT,
        [PTX_T_FLOAT - PTX_T_WORD] = PTX_E_FLOAT,
        [PTX_T_STRING - PTX_T_WORD] = PTX_E_STRING,
    };
    return ptx_node_leafk(P, tok, kind_of[P->m->toks[tok].kind - PTX_T_WORD]);
}
ptx_spec *ptx_node_spec(ptx_parser *P, uint32_t tok, ptx_expr *arg);
ptx_expr *ptx_node_last(ptx_expr *e);
/* A list under construction (its last element, see parser.y's APPEND)
   with a RUN's integers appended; its new last element. */
ptx_expr *ptx_node_int_run(ptx_parser *P, ptx_expr *list, ptx_fused r);
/* The run of statements from toks[i] that an INSTR token is (yylex.h,
   lex_stmts), built as the rules of `stmts` build them: a circular list
   (its last statement), and *end the index past it; NULL where the run
   is empty, or where a builder failed (P->err says so). */
ptx_stmt *ptx_node_run(ptx_parser *P, uint32_t i, uint32_t lim, uint32_t *end);
ptx_stmt *ptx_node_label(ptx_parser *P, uint32_t name, uint32_t colon);
ptx_stmt *ptx_node_stmt(ptx_parser *P, int kind, uint32_t first);
ptx_stmt *ptx_node_dir(ptx_parser *P, int kind, uint32_t dir,
                       ptx_expr *args, uint32_t semi);
/* A function's statement, its linking specifiers (or NULL) in front. */
ptx_stmt *ptx_node_func(ptx_parser *P, ptx_spec *specs, ptx_func *f);
ptx_block *ptx_node_block(ptx_parser *P, uint32_t lbrace, ptx_stmt *stmts,
                          uint32_t rbrace);
/* The statements a piece takes from a function's body (and its '}', or
   PTX_NOTOK) as a block without '{'; NULL where there are none. */
ptx_stmt *ptx_node_body_piece(ptx_parser *P, ptx_stmt *stmts, uint32_t rbrace);
/* A variable whose initializer, a list of values after '{', the piece
   leaves open; and the rest of one, which a piece starts with: values,
   the '}' and ';' or PTX_NOTOK (grammar/parser.y, `module`). */
ptx_stmt *ptx_node_open_var(ptx_parser *P, ptx_spec *specs, uint32_t name,
                            ptx_dim *dims, uint32_t eq, uint32_t lbrace,
                            ptx_expr *values);
ptx_stmt *ptx_node_init_piece(ptx_parser *P, ptx_expr *values, uint32_t rbrace,
                              uint32_t semi);
ptx_stmt *ptx_node_instr(ptx_parser *P, uint32_t at, uint32_t bang,
                         uint32_t pred, uint32_t op, ptx_expr *operands,
                         uint32_t semi);

/* For syntax error messages (nodes.c): whether a DOTNAME is a specifier or
   directive the grammar knows; the first token on token t's line. */
int ptx_known_dotname(ptx_str s);
uint32_t ptx_line_start_token(const ptx_module *m, uint32_t t);

#endif
