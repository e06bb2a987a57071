/*
 * parser.y - PTX grammar (bison, pure).
 *
 * Every terminal's value is its token index, so nodes keep each token they
 * consume (keywords, brackets, commas, semicolons) and the exact emitter can
 * print them back with their trivia.
 */
%code requires {
#include "front/parser_state.h"
}

%code top {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* The stacks, past their first YYINITDEPTH entries, grow in the module's
   arena and go with it, not with malloc: running out of memory in an
   action unwinds past yyparse (util/alloc.h), which would leak a stack
   of its own. */
#define YYSTACK_ALLOC(n) ptx_arena_alloc_filled(P->m->arena, (n))
#define YYSTACK_ALLOC_MAXIMUM ((size_t)PTX_MAX_INPUT)
}

%define api.pure full
%define api.prefix {ptx_yy}
%define parse.error custom
/* Canonical LR with default reductions only in consistent states (one
   reduction, nothing to shift): a syntax error is detected in the state
   where it happens and the expected-token list is exact.  With LALR's
   default reductions it came from a later or merged state ("unexpected
   integer, expecting end of file" at the top level; "')' or ']' or '}'"
   for a missing comma).  A consistent state reduces without looking at
   the lookahead, which can only postpone an error by that reduction: on
   10440 truncated or corrupted corpus files (6652 of them errors) the
   diagnostics are byte-identical to those without any default reduction
   (tools/diag_compare.py), with 1% fewer instructions.  LAC (parse.lac
   full) would cost ~14%. */
%define lr.type canonical-lr
%define lr.default-reduction consistent
/* Raw token numbers: the lexer's table (ptx_yylex) gives bison's symbol
   numbers directly, so the parser does not translate the lookahead again
   on every action (~3% of instructions).  Raw tokens cannot be character
   literals, hence COMMA "','" and so on; the quoted alias is what error
   messages show. */
%define api.token.raw
/* No %locations: no action uses one, and a syntax error is reported at
   the lookahead, which is always the last token lexed (lookahead_tok).
   Bison's location stack cost ~4% of the parse: a copy on every shift,
   YYLLOC_DEFAULT and a copy on every reduction. */
%param {ptx_parser *P}

%code {
/* inline: yyparse calls it once per token */
static inline __attribute__((always_inline))
int ptx_yylex(PTX_YYSTYPE *lval, ptx_parser *P);
static void ptx_yyerror(ptx_parser *P, const char *msg);

#define NEW(T) ((T *)ptx_arena_alloc(P->m->arena, sizeof(T)))
/* A list under construction is its last element, whose `next` points back
   to the first (a circular list): one pointer per value on bison's stack,
   where a {head, tail} pair was 16 bytes copied on every action.  CLOSE
   breaks the circle when the list is complete and gives its head. */
#define ONE(l, x)                                                     \
    do {                                                              \
        __typeof__(l) x_ = (x);                                       \
        x_->next = x_;                                                \
        (l) = x_;                                                     \
    } while (0)
#define APPEND(l, x)                                                  \
    do {                                                              \
        __typeof__(l) x_ = (x);                                       \
        SPLICE(l, x_, x_);                                            \
    } while (0)
/* the linked nodes from first to last, at the end of l */
#define SPLICE(l, first, last)                                        \
    do {                                                              \
        __typeof__(l) f_ = (first), z_ = (last);                      \
        if (l) { z_->next = (l)->next; (l)->next = f_; }              \
        else z_->next = f_;                                           \
        (l) = z_;                                                     \
    } while (0)
#define CLOSE(l)                                                      \
    __extension__({                                                   \
        __typeof__(l) t_ = (l), h_ = NULL;                            \
        if (t_) { h_ = t_->next; t_->next = NULL; }                   \
        h_;                                                           \
    })
#define CHECK(x) do { if (!(x)) YYABORT; } while (0)
/* a section's data line: `.b8 1, 2` with its ';' or PTX_NOTOK */
#define DATA_LINE(out, items, dir, args, semi)                        \
    do {                                                              \
        (out) = (items);                                              \
        APPEND((out), dir_stmt(P, PTX_S_DATA, (dir), (args), (semi))); \
    } while (0)

/* node builders: src/front/nodes.c */
#define mk_expr(...) ptx_node_expr(__VA_ARGS__)
#define leaf(...) ptx_node_leaf(__VA_ARGS__)
/* a leaf of the kind the rule knows, without looking at the token */
#define leafk(...) ptx_node_leafk(__VA_ARGS__)
#define spec(...) ptx_node_spec(__VA_ARGS__)
#define last(...) ptx_node_last(__VA_ARGS__)
#define stmt(...) ptx_node_stmt(__VA_ARGS__)
#define dir_stmt(...) ptx_node_dir(__VA_ARGS__)
#define instr(...) ptx_node_instr(__VA_ARGS__)
#define func_stmt(...) ptx_node_func(__VA_ARGS__)
#define mk_block(...) ptx_node_block(__VA_ARGS__)
#define body_piece(...) ptx_node_body_piece(__VA_ARGS__)
#define open_var(...) ptx_node_open_var(__VA_ARGS__)
#define init_piece(...) ptx_node_init_piece(__VA_ARGS__)
#define int_run(...) ptx_node_int_run(__VA_ARGS__)
#define label(...) ptx_node_label(__VA_ARGS__)
}

/* Lists are circular while they are built: see ONE, APPEND and CLOSE. */
%union {
    uint32_t tok;
    ptx_fused fused;
    ptx_expr *expr;
    ptx_expr *elist;
    ptx_stmt *stmt;
    ptx_stmt *slist;
    ptx_spec *splist;
    ptx_declarator *decl;
    ptx_declarator *dlist;
    ptx_dim *dims;
    ptx_param *param;
    ptx_param *plist;
    ptx_param_list *params;
    ptx_fdir *fdir;
    ptx_fdir *fdlist;
    ptx_block *block;
    ptx_func *func;
}

%token <tok> WORD "identifier" DOTNAME "directive" INT "integer"
%token <tok> FLOAT "float" STRING "string" DWARF "@@DWARF line"
%token <tok> PREPROC "preprocessor line"
%token <tok> VERSION ".version" TARGET ".target"
%token <tok> ADDRESS_SIZE ".address_size" FILE_ ".file" LOC ".loc"
%token <tok> SECTION ".section" ENTRY ".entry" FUNC ".func"
%token <tok> CALLPROTOTYPE ".callprototype" CALLTARGETS ".calltargets"
%token <tok> BRANCHTARGETS ".branchtargets" PRAGMA ".pragma" ALIAS ".alias"
%token <tok> SHL "<<" SHR ">>" LE "<=" GE ">=" EQ "==" NE "!="
%token <tok> ANDAND "&&" OROR "||"
%token <tok> COMMA "','" SEMI "';'" COLON "':'" LBRACE "'{'" RBRACE "'}'"
%token <tok> LPAREN "'('" RPAREN "')'" LBRACK "'['" RBRACK "']'"
%token <tok> LT "'<'" GT "'>'" PLUS "'+'" MINUS "'-'" STAR "'*'"
%token <tok> SLASH "'/'" PERCENT "'%'" BANG "'!'" TILDE "'~'" AMP "'&'"
%token <tok> PIPE "'|'" CARET "'^'" QUEST "'?'" ASSIGN "'='" AT "'@'"
/* Never in a text: yylex gives one first where a piece of a module is
   parsed on its own (ptx_parse_piece), to say where the piece starts:
   among the module's items, in a function's body after a statement, or
   in a variable's initializer after a ','.  ptx_yyerror never names
   them. */
%token <tok> PIECE_TOP "start of a piece" PIECE_BODY "start of a piece in a body"
%token <tok> PIECE_INIT "start of a piece in an initializer"
/* Fused tokens, never in a text either: several tokens that yylex gives
   as one where the parser would take them the same way a token at a time
   (yylex.h says where).  RUN: a ',' in an initializer and the `INT ','`
   pairs after it but the last ',', what `exprlist COMMA INT` reduces a
   pair at a time (a library's tables have hundreds of thousands of
   values).  INSTR: a run of instructions whose operands are names,
   numbers, simple addresses or vectors (nodes.c says which), and the
   labels between them, what `stmts` takes a statement at a time (nearly
   all of library PTX's instructions), built by yylex as a circular list
   (see ONE).  A parse with fused tokens that fails is run again without
   (parse.c), and that parse says what is wrong. */
%token <fused> RUN "integers"
%token <slist> INSTR "instruction"

%right ASSIGN
%right QUEST COLON
%left OROR
%left ANDAND
%left PIPE
%left CARET
%left AMP
%left EQ NE
%left LT GT LE GE
%left SHL SHR
%left PLUS MINUS
%left STAR SLASH PERCENT
%precedence UNARY

%type <slist> items stmts section_items
%type <stmt> rest
%type <stmt> item top_decl stmt label_stmt loc pragma
%type <stmt> version target address_size file alias section
%type <elist> exprlist target_names fdir_args_ne
%type <elist> data_args data_comma name_list strings fdir_args attr_list
%type <expr> expr cexpr data_one loc_attr attr
%type <splist> specs
%type <decl> declarator
%type <dlist> declarators
%type <dims> dims
%type <param> param
%type <plist> param_seq
%type <params> param_list params_opt
%type <fdir> fdir
%type <fdlist> fdirs
%type <block> block
%type <func> func_rest func_head proto_rest
%type <stmt> open_func open_var
%type <tok> init_on

%%

/* A piece of a module (ptx_parse_piece) may end in a function's body,
   after a statement (open_func, or a body from its start), and may start
   there (PIECE_BODY).  A body's piece of a function is a block without
   its braces: PIECE_BODY's statements a block without '{', and the
   function that a piece opens has a body without '}'.  Likewise a piece
   may end in a variable's initializer, a list of values, after a ','
   (open_var), and start there (PIECE_INIT): the variable a piece opens
   has an initializer without '}', and the initializer's rest is a
   variable without specifiers, name or '{'.  The printers then print the
   pieces' texts one after another as they print the whole, and what a
   piece is made of, the grammar has checked: items, a body's statements
   or an initializer's values, joined where one piece ends and the next
   starts. */
module
    : items                     { P->m->items = CLOSE($1); }
    | PIECE_TOP rest            { P->m->items = $2; }
    | PIECE_BODY stmts          { P->m->items = body_piece(P, CLOSE($2), PTX_NOTOK); }
    | PIECE_BODY stmts RBRACE rest {
            ptx_stmt *b = body_piece(P, CLOSE($2), $3);
            b->next = $4;
            P->m->items = b;
        }
    | PIECE_INIT exprlist COMMA {
            $2->sep = $3;
            CHECK(P->m->items = init_piece(P, CLOSE($2), PTX_NOTOK, PTX_NOTOK));
        }
    | PIECE_INIT exprlist RBRACE SEMI rest {
            ptx_stmt *v;
            CHECK(v = init_piece(P, CLOSE($2), $3, $4));
            v->next = $5;
            P->m->items = v;
        }
    ;

/* a piece's items, and the function or variable it may leave open */
rest
    : items                     { $$ = CLOSE($1); }
    | items open_func           { APPEND($1, $2); $$ = CLOSE($1); }
    | items open_var            { APPEND($1, $2); $$ = CLOSE($1); }
    ;

/* a variable of one declarator whose initializer the piece does not close */
open_var
    : specs WORD dims ASSIGN init_on LBRACE exprlist COMMA {
            $7->sep = $8;
            CHECK($$ = open_var(P, CLOSE($1), $2, CLOSE($3), $4, $6, CLOSE($7)));
        }
    ;

/* a function whose body the piece does not close */
open_func
    : func_head LBRACE stmts    { $1->body = mk_block(P, $2, CLOSE($3), PTX_NOTOK); $$ = func_stmt(P, NULL, $1); }
    | specs func_head LBRACE stmts {
            $2->body = mk_block(P, $3, CLOSE($4), PTX_NOTOK);
            $$ = func_stmt(P, CLOSE($1), $2);
        }
    ;

items
    : %empty                    { $$ = NULL; }
    | items item                { $$ = $1; APPEND($$, $2); }
    ;

item
    : version | target | address_size | file | alias | section | pragma
    | loc
    | DWARF                     { $$ = stmt(P, PTX_S_DWARF, $1); $$->u.tok = $1; }
    | PREPROC                   { $$ = stmt(P, PTX_S_PREPROC, $1); $$->u.tok = $1; }
    | top_decl
    ;

/* ---- line directives (no ';': they end where the next statement starts) */

version
    : VERSION FLOAT             { $$ = dir_stmt(P, PTX_S_VERSION, $1, leafk(P, $2, PTX_E_FLOAT), PTX_NOTOK); }
    | VERSION INT               { $$ = dir_stmt(P, PTX_S_VERSION, $1, leafk(P, $2, PTX_E_INT), PTX_NOTOK); }
    ;

target
    : TARGET target_names       { $$ = dir_stmt(P, PTX_S_TARGET, $1, CLOSE($2), PTX_NOTOK); }
    ;

target_names
    : WORD                      { ONE($$, leafk(P, $1, PTX_E_NAME)); }
    | target_names COMMA WORD   { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_NAME)); }
    ;

address_size
    : ADDRESS_SIZE INT          { $$ = dir_stmt(P, PTX_S_ADDRESS_SIZE, $1, leafk(P, $2, PTX_E_INT), PTX_NOTOK); }
    ;

file
    : FILE_ INT STRING          {
            ptx_expr *n = leaf(P, $2);
            n->next = leaf(P, $3);
            $$ = dir_stmt(P, PTX_S_FILE, $1, n, PTX_NOTOK);
        }
    | file COMMA INT            {
            $$ = $1;
            ptx_expr *t = last($$->u.dir.args);
            t->sep = $2; t->next = leaf(P, $3);
        }
    ;

/* .loc file line col [, function_name label[+off]] [, inlined_at f l c] */
loc
    : LOC INT INT INT           {
            ptx_expr *a = leafk(P, $2, PTX_E_INT), *b = leafk(P, $3, PTX_E_INT);
            ptx_expr *c = leafk(P, $4, PTX_E_INT);
            a->next = b; b->next = c;
            $$ = dir_stmt(P, PTX_S_LOC, $1, a, PTX_NOTOK);
        }
    | loc COMMA WORD loc_attr   {
            $$ = $1;
            ptx_expr *t = last($$->u.dir.args), *k = leafk(P, $3, PTX_E_NAME);
            t->sep = $2; t->next = k; k->next = $4;
        }
    ;

loc_attr
    : WORD                      { $$ = leafk(P, $1, PTX_E_NAME); }
    | WORD PLUS INT             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, leafk(P, $1, PTX_E_NAME), leafk(P, $3, PTX_E_INT), NULL)); }
    | INT INT INT               {
            $$ = leaf(P, $1); $$->next = leaf(P, $2); $$->next->next = leaf(P, $3);
        }
    ;

pragma
    : PRAGMA strings SEMI       { $$ = dir_stmt(P, PTX_S_PRAGMA, $1, CLOSE($2), $3); }
    ;

strings
    : STRING                    { ONE($$, leafk(P, $1, PTX_E_STRING)); }
    | strings COMMA STRING      { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_STRING)); }
    ;

alias
    : ALIAS WORD COMMA WORD SEMI {
            ptx_expr *a = leaf(P, $2);
            a->sep = $3;
            a->next = leaf(P, $4);
            $$ = dir_stmt(P, PTX_S_ALIAS, $1, a, $5);
        }
    ;

/* ---- debug sections */

section
    : SECTION DOTNAME LBRACE section_items RBRACE {
            $$ = stmt(P, PTX_S_SECTION, $1);
            $$->u.section.dir = $1;
            $$->u.section.name = $2;
            $$->u.section.body.lbrace = $3;
            $$->u.section.body.stmts = CLOSE($4);
            $$->u.section.body.rbrace = $5;
        }
    ;

/* Data lines are alternatives of the list itself, with and without ';':
   nvcc -G writes one line per DWARF byte, and every reduction saved here
   is saved a million times on such a file.  The commonest lines, a lone
   integer or name (`.b8 2`, `.b64 $L__tmp1`), are one reduction each; the
   lookahead tells them from the head of a list or of an expression
   (canonical LR: no conflict), which is why data_args never is a lone
   INT or WORD. */
section_items
    : %empty                    { $$ = NULL; }
    | section_items label_stmt  { $$ = $1; APPEND($$, $2); }
    | section_items DOTNAME INT      { DATA_LINE($$, $1, $2, leafk(P, $3, PTX_E_INT), PTX_NOTOK); }
    | section_items DOTNAME INT SEMI { DATA_LINE($$, $1, $2, leafk(P, $3, PTX_E_INT), $4); }
    | section_items DOTNAME WORD     { DATA_LINE($$, $1, $2, leafk(P, $3, PTX_E_NAME), PTX_NOTOK); }
    | section_items DOTNAME WORD SEMI { DATA_LINE($$, $1, $2, leafk(P, $3, PTX_E_NAME), $4); }
    | section_items DOTNAME data_args { DATA_LINE($$, $1, $2, CLOSE($3), PTX_NOTOK); }
    | section_items DOTNAME data_args SEMI { DATA_LINE($$, $1, $2, CLOSE($3), $4); }
    ;

/* A data list but a lone INT or WORD.  DWARF strings are long lists of
   byte values (`.b8 95,90,78,...`): each integer is one reduction, with
   the ',' after it. */
data_args
    : data_one                  { ONE($$, $1); }
    | data_comma INT            { $$ = $1; APPEND($$, leafk(P, $2, PTX_E_INT)); }
    | data_comma WORD           { $$ = $1; APPEND($$, leafk(P, $2, PTX_E_NAME)); }
    | data_comma data_one       { $$ = $1; APPEND($$, $2); }
    ;

/* the elements so far, up to the ',' after the last one */
data_comma
    : INT COMMA                 { ONE($$, leafk(P, $1, PTX_E_INT)); $$->sep = $2; }
    | WORD COMMA                { ONE($$, leafk(P, $1, PTX_E_NAME)); $$->sep = $2; }
    | data_one COMMA            { ONE($$, $1); $$->sep = $2; }
    | data_comma INT COMMA      { $$ = $1; APPEND($$, leafk(P, $2, PTX_E_INT)); $$->sep = $3; }
    | data_comma WORD COMMA     { $$ = $1; APPEND($$, leafk(P, $2, PTX_E_NAME)); $$->sep = $3; }
    | data_comma data_one COMMA { $$ = $1; APPEND($$, $2); $$->sep = $3; }
    ;

/* an element other than a lone INT or WORD; `.b32 .debug_loc+66` is a
   section name, optionally plus an offset */
data_one
    : FLOAT                     { $$ = leafk(P, $1, PTX_E_FLOAT); }
    | STRING                    { $$ = leafk(P, $1, PTX_E_STRING); }
    | cexpr
    | DOTNAME                   { $$ = leafk(P, $1, PTX_E_DOTNAME); }
    | DOTNAME PLUS INT          { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, leafk(P, $1, PTX_E_DOTNAME), leafk(P, $3, PTX_E_INT), NULL)); }
    ;


/* ---- declarations */

top_decl
    : specs declarators SEMI    {
            ptx_spec *s = CLOSE($1);
            $$ = stmt(P, PTX_S_VAR, s->tok);
            $$->u.var.specs = s;
            $$->u.var.decls = CLOSE($2);
            $$->u.var.semi = $3;
        }
    | specs func_rest           { $$ = func_stmt(P, CLOSE($1), $2); }
    | func_rest                 { $$ = func_stmt(P, NULL, $1); }
    ;

/* Each specifier is reduced straight into the list (no `spec` symbol):
   one reduction per specifier instead of two.  A list is never followed
   by INT or '(', so `.align 16` and `.attribute(...)` do not conflict. */
specs
    : DOTNAME                   { ONE($$, spec(P, $1, NULL)); }
    | DOTNAME INT               { ONE($$, spec(P, $1, leafk(P, $2, PTX_E_INT))); }
    | DOTNAME LPAREN attr_list RPAREN {
            ptx_expr *a;
            CHECK(a = mk_expr(P, PTX_E_PAREN, $2, CLOSE($3), NULL, NULL));
            a->close = $4;
            ONE($$, spec(P, $1, a));
        }
    | specs DOTNAME             { $$ = $1; APPEND($$, spec(P, $2, NULL)); }
    | specs DOTNAME INT         { $$ = $1; APPEND($$, spec(P, $2, leafk(P, $3, PTX_E_INT))); }
    | specs DOTNAME LPAREN attr_list RPAREN {
            ptx_expr *a;
            CHECK(a = mk_expr(P, PTX_E_PAREN, $3, CLOSE($4), NULL, NULL));
            a->close = $5;
            $$ = $1; APPEND($$, spec(P, $2, a));
        }
    ;

attr_list
    : attr                      { ONE($$, $1); }
    | attr_list COMMA attr      { $$ = $1; $$->sep = $2; APPEND($$, $3); }
    ;

attr
    : DOTNAME                   { $$ = leafk(P, $1, PTX_E_DOTNAME); }
    | INT                       { $$ = leafk(P, $1, PTX_E_INT); }
    | DOTNAME LPAREN attr_list RPAREN {
            CHECK($$ = mk_expr(P, PTX_E_CALL, $1, CLOSE($3), NULL, NULL));
            $$->open = $2; $$->close = $4;
        }
    ;

declarators
    : declarator                { ONE($$, $1); }
    | declarators COMMA declarator { $$ = $1; $$->sep = $2; APPEND($$, $3); }
    ;

declarator
    : WORD dims                 {
            $$ = NEW(ptx_declarator);
            $$->name = $1; $$->lt = $$->count = $$->gt = PTX_NOTOK;
            $$->dims = CLOSE($2); $$->eq = $$->sep = PTX_NOTOK;
        }
    | WORD LT INT GT            {
            $$ = NEW(ptx_declarator);
            $$->name = $1; $$->lt = $2; $$->count = $3; $$->gt = $4;
            $$->eq = $$->sep = PTX_NOTOK;
        }
    | WORD dims ASSIGN init_on expr {
            $$ = NEW(ptx_declarator);
            $$->name = $1; $$->lt = $$->count = $$->gt = PTX_NOTOK;
            $$->dims = CLOSE($2); $$->eq = $3; $$->init = $5; $$->sep = PTX_NOTOK;
            P->init_base = PTX_NO_INIT;
        }
    ;

/* An initializer starts: the ',' deeper than here are its own (yylex.h).
   Reduced before the token after '=' is read, in a state of its own. */
init_on
    : %empty                    { P->init_base = P->depth; $$ = PTX_NOTOK; }
    ;

dims
    : %empty                    { $$ = NULL; }
    | dims LBRACK RBRACK        {
            $$ = $1; ptx_dim *d = NEW(ptx_dim);
            d->lbrack = $2; d->rbrack = $3; APPEND($$, d);
        }
    | dims LBRACK expr RBRACK   {
            $$ = $1; ptx_dim *d = NEW(ptx_dim);
            d->lbrack = $2; d->size = $3; d->rbrack = $4; APPEND($$, d);
        }
    ;

/* ---- functions */

func_rest
    : func_head block           { $$ = $1; $$->body = $2; }
    | func_head SEMI            { $$ = $1; $$->semi = $2; }
    ;

func_head
    : ENTRY WORD params_opt fdirs {
            $$ = NEW(ptx_func); $$->label = $$->colon = $$->semi = PTX_NOTOK;
            $$->kw = $1; $$->name = $2; $$->params = $3; $$->dirs = CLOSE($4);
        }
    | FUNC params_opt WORD params_opt fdirs {
            $$ = NEW(ptx_func); $$->label = $$->colon = $$->semi = PTX_NOTOK;
            $$->kw = $1; $$->ret = $2; $$->name = $3; $$->params = $4;
            $$->dirs = CLOSE($5);
        }
    ;

proto_rest
    : CALLPROTOTYPE params_opt WORD params_opt fdirs SEMI {
            $$ = NEW(ptx_func);
            $$->kw = $1; $$->ret = $2; $$->name = $3; $$->params = $4;
            $$->dirs = CLOSE($5); $$->semi = $6;
        }
    ;

params_opt
    : %empty                    { $$ = NULL; }
    | param_list
    ;

param_list
    : LPAREN RPAREN             { $$ = NEW(ptx_param_list); $$->lparen = $1; $$->rparen = $2; }
    | LPAREN param_seq RPAREN   {
            $$ = NEW(ptx_param_list);
            $$->lparen = $1; $$->params = CLOSE($2); $$->rparen = $3;
        }
    ;

param_seq
    : param                     { ONE($$, $1); }
    | param_seq COMMA param     { $$ = $1; $$->sep = $2; APPEND($$, $3); }
    ;

param
    : specs declarator          {
            $$ = NEW(ptx_param); $$->specs = CLOSE($1); $$->decl = $2; $$->sep = PTX_NOTOK;
        }
    ;

fdirs
    : %empty                    { $$ = NULL; }
    | fdirs fdir                { $$ = $1; APPEND($$, $2); }
    ;

fdir
    : DOTNAME fdir_args         {
            $$ = NEW(ptx_fdir); $$->dir = $1; $$->args = CLOSE($2); $$->semi = PTX_NOTOK;
        }
    | PRAGMA strings SEMI       {
            $$ = NEW(ptx_fdir); $$->dir = $1; $$->args = CLOSE($2); $$->semi = $3;
        }
    ;

fdir_args
    : %empty                    { $$ = NULL; }
    | fdir_args_ne
    ;

fdir_args_ne
    : INT                       { ONE($$, leafk(P, $1, PTX_E_INT)); }
    | fdir_args_ne COMMA INT    { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_INT)); }
    ;

/* ---- bodies */

block
    : LBRACE stmts RBRACE       { $$ = mk_block(P, $1, CLOSE($2), $3); }
    ;

/* Instructions are alternatives of the list itself (no `instr` or
   `stmt` symbol): one reduction per instruction.  Operand-less ones have
   their own alternative so that the common case needs no empty-list
   reduction. */
stmts
    : %empty                    { $$ = NULL; }
    | stmts stmt                { $$ = $1; APPEND($$, $2); }
    | stmts WORD SEMI           { $$ = $1; APPEND($$, instr(P, PTX_NOTOK, PTX_NOTOK, PTX_NOTOK, $2, NULL, $3)); }
    | stmts WORD exprlist SEMI  { $$ = $1; APPEND($$, instr(P, PTX_NOTOK, PTX_NOTOK, PTX_NOTOK, $2, CLOSE($3), $4)); }
    | stmts AT WORD WORD SEMI   { $$ = $1; APPEND($$, instr(P, $2, PTX_NOTOK, $3, $4, NULL, $5)); }
    | stmts AT WORD WORD exprlist SEMI { $$ = $1; APPEND($$, instr(P, $2, PTX_NOTOK, $3, $4, CLOSE($5), $6)); }
    | stmts AT BANG WORD WORD SEMI { $$ = $1; APPEND($$, instr(P, $2, $3, $4, $5, NULL, $6)); }
    | stmts AT BANG WORD WORD exprlist SEMI { $$ = $1; APPEND($$, instr(P, $2, $3, $4, $5, CLOSE($6), $7)); }
    | stmts INSTR               { $$ = $1; SPLICE($$, $2->next, $2); }
    ;

/* every other body statement */
stmt
    : specs declarators SEMI    {
            ptx_spec *s = CLOSE($1);
            $$ = stmt(P, PTX_S_VAR, s->tok);
            $$->u.var.specs = s;
            $$->u.var.decls = CLOSE($2);
            $$->u.var.semi = $3;
        }
    | label_stmt
    | WORD COLON proto_rest     {
            $3->label = $1; $3->colon = $2;
            $$ = stmt(P, PTX_S_CALLPROTOTYPE, $1);
            $$->u.func = *$3;
        }
    | WORD COLON CALLTARGETS name_list SEMI {
            $$ = dir_stmt(P, PTX_S_CALLTARGETS, $3, CLOSE($4), $5);
            $$->first = $1; $$->u.dir.label = $1; $$->u.dir.colon = $2;
        }
    | WORD COLON BRANCHTARGETS name_list SEMI {
            $$ = dir_stmt(P, PTX_S_BRANCHTARGETS, $3, CLOSE($4), $5);
            $$->first = $1; $$->u.dir.label = $1; $$->u.dir.colon = $2;
        }
    | block                     { $$ = stmt(P, PTX_S_BLOCK, $1->lbrace); $$->u.block = *$1; }
    | loc
    | pragma
    | DWARF                     { $$ = stmt(P, PTX_S_DWARF, $1); $$->u.tok = $1; }
    | PREPROC                   { $$ = stmt(P, PTX_S_PREPROC, $1); $$->u.tok = $1; }
    ;

label_stmt
    : WORD COLON                { $$ = label(P, $1, $2); }
    ;

name_list
    : WORD                      { ONE($$, leafk(P, $1, PTX_E_NAME)); }
    | name_list COMMA WORD      { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_NAME)); }
    ;

/* ---- expressions */

/* A list element that is a single token is reduced straight into the
   list, and the list reduces the compound kinds (cexpr) itself: one
   reduction per operand instead of two (`expr: WORD`, then the list).
   A bare operand is an `expr` only where an operator follows it, which
   the lookahead tells apart (canonical LR: no conflict). */
exprlist
    : WORD                      { ONE($$, leafk(P, $1, PTX_E_NAME)); }
    | INT                       { ONE($$, leafk(P, $1, PTX_E_INT)); }
    | FLOAT                     { ONE($$, leafk(P, $1, PTX_E_FLOAT)); }
    | STRING                    { ONE($$, leafk(P, $1, PTX_E_STRING)); }
    | cexpr                     { ONE($$, $1); }
    | exprlist COMMA WORD       { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_NAME)); }
    | exprlist COMMA INT        { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_INT)); }
    | exprlist COMMA FLOAT      { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_FLOAT)); }
    | exprlist COMMA STRING     { $$ = $1; $$->sep = $2; APPEND($$, leafk(P, $3, PTX_E_STRING)); }
    | exprlist COMMA cexpr      { $$ = $1; $$->sep = $2; APPEND($$, $3); }
    | exprlist RUN              { $$ = int_run(P, $1, $2); }
    ;

expr
    : WORD                      { $$ = leafk(P, $1, PTX_E_NAME); }
    | INT                       { $$ = leafk(P, $1, PTX_E_INT); }
    | FLOAT                     { $$ = leafk(P, $1, PTX_E_FLOAT); }
    | STRING                    { $$ = leafk(P, $1, PTX_E_STRING); }
    | cexpr
    ;

/* Everything but a single token.  Empty brackets are alternatives of
   their own rather than an optional list (one reduction less). */
cexpr
    : LBRACE RBRACE             { CHECK($$ = mk_expr(P, PTX_E_VECTOR, $1, NULL, NULL, NULL)); $$->close = $2; }
    | LBRACE exprlist RBRACE    { CHECK($$ = mk_expr(P, PTX_E_VECTOR, $1, CLOSE($2), NULL, NULL)); $$->close = $3; }
    | LBRACK exprlist RBRACK    { CHECK($$ = mk_expr(P, PTX_E_ADDRESS, $1, CLOSE($2), NULL, NULL)); $$->close = $3; }
    | LPAREN RPAREN             { CHECK($$ = mk_expr(P, PTX_E_PAREN, $1, NULL, NULL, NULL)); $$->close = $2; }
    | LPAREN exprlist RPAREN    { CHECK($$ = mk_expr(P, PTX_E_PAREN, $1, CLOSE($2), NULL, NULL)); $$->close = $3; }
    | WORD LPAREN RPAREN        {
            CHECK($$ = mk_expr(P, PTX_E_CALL, $1, NULL, NULL, NULL));
            $$->open = $2; $$->close = $3;
        }
    | WORD LPAREN exprlist RPAREN {
            CHECK($$ = mk_expr(P, PTX_E_CALL, $1, CLOSE($3), NULL, NULL));
            $$->open = $2; $$->close = $4;
        }
    | MINUS expr %prec UNARY    { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | PLUS expr %prec UNARY     { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | BANG expr %prec UNARY     { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | TILDE expr %prec UNARY    { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | LPAREN DOTNAME RPAREN expr %prec UNARY {
            CHECK($$ = mk_expr(P, PTX_E_CAST, $1, $4, NULL, NULL));
            $$->open = $2; $$->close = $3;
        }
    | expr PLUS expr            { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr MINUS expr           { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr STAR expr            { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr SLASH expr           { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr PERCENT expr         { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr SHL expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr SHR expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr LT expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr GT expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr LE expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr GE expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr EQ expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr NE expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr AMP expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr CARET expr           { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr PIPE expr            { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr ANDAND expr          { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr OROR expr            { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr ASSIGN expr          { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr QUEST expr COLON expr {
            CHECK($$ = mk_expr(P, PTX_E_COND, $2, $1, $3, $5)); $$->close = $4;
        }
    ;

%%


/* The scanner, inlined into ptx_yylex (see grammar/lexer.re). */
#define PTX_LEX_INLINE
#include "lexer.c"

/* ptx_yylex: the token array and the bracket depth */
#include "front/yylex.h"

/* ptx_yyerror and yyreport_syntax_error */
#include "front/syntax_error.h"
