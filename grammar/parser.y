/*
 * parser.y - PTX grammar (bison, pure, with token-index locations).
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
}

%define api.pure full
%define api.prefix {ptx_yy}
%define api.location.type {ptx_loc}
%define parse.error custom
/* Canonical LR without default reductions: a syntax error is detected in
   the state where it happens and the expected-token list is exact.  With
   LALR's default reductions it came from a later or merged state
   ("unexpected integer, expecting end of file" at the top level; "')' or
   ']' or '}'" for a missing comma).  Costs ~2% instructions and 44 KB of
   tables; LAC (parse.lac full) would cost ~14%. */
%define lr.type canonical-lr
%define lr.default-reduction accepting
%locations
%param {ptx_parser *P}

%code {
static int ptx_yylex(PTX_YYSTYPE *lval, ptx_loc *lloc, ptx_parser *P);
static void ptx_yyerror(ptx_loc *lloc, ptx_parser *P, const char *msg);

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                   \
    do {                                                              \
        (Cur) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0);            \
    } while (0)

#define NEW(T) ((T *)ptx_arena_alloc(P->m->arena, sizeof(T)))
#define APPEND(l, x)                                                  \
    do {                                                              \
        __typeof__((l).tail) x_ = (x);                                \
        if ((l).tail) (l).tail->next = x_; else (l).head = x_;        \
        (l).tail = x_;                                                \
    } while (0)
#define ONE(l, x) ((l).head = (l).tail = (x))
#define CHECK(x) do { if (!(x)) YYABORT; } while (0)

static ptx_expr *mk_expr(ptx_parser *P, int kind, uint32_t tok, ptx_expr *a,
                      ptx_expr *b, ptx_expr *c);
static ptx_stmt *stmt(ptx_parser *P, int kind, uint32_t first);
static ptx_stmt *dir_stmt(ptx_parser *P, int kind, uint32_t dir,
                          ptx_expr *args, uint32_t semi);
static ptx_expr *leaf(ptx_parser *P, uint32_t tok);
static ptx_stmt *instr(ptx_parser *P, uint32_t at, uint32_t bang,
                       uint32_t pred, uint32_t op, ptx_expr *operands,
                       uint32_t semi);
static ptx_expr *last(ptx_expr *e);
static void split_opcode(ptx_parser *P, ptx_instr *in);
}

%union {
    uint32_t tok;
    ptx_expr *expr;
    struct { ptx_expr *head, *tail; } elist;
    ptx_stmt *stmt;
    struct { ptx_stmt *head, *tail; } slist;
    ptx_spec *spec;
    struct { ptx_spec *head, *tail; } splist;
    ptx_declarator *decl;
    struct { ptx_declarator *head, *tail; } dlist;
    struct { ptx_dim *head, *tail; } dims;
    ptx_param *param;
    struct { ptx_param *head, *tail; } plist;
    ptx_param_list *params;
    ptx_fdir *fdir;
    struct { ptx_fdir *head, *tail; } fdlist;
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
%token <tok> ',' ';' ':' '{' '}' '(' ')' '[' ']' '<' '>' '+' '-' '*' '/'
%token <tok> '%' '!' '~' '&' '|' '^' '?' '=' '@'

%right '='
%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <slist> items stmts section_items
%type <stmt> item top_decl stmt instr label_stmt loc pragma section_item
%type <stmt> version target address_size file alias section data_line
%type <elist> exprlist exprlist_opt target_names fdir_args_ne
%type <elist> data_args name_list strings fdir_args attr_list
%type <expr> expr data_arg loc_attr attr
%type <spec> spec
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
%type <func> func_rest proto_rest
%type <tok> semi_opt

%%

module
    : items                     { P->m->items = $1.head; }
    ;

items
    : %empty                    { $$.head = $$.tail = NULL; }
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
    : VERSION FLOAT             { $$ = dir_stmt(P, PTX_S_VERSION, $1, leaf(P, $2), PTX_NOTOK); }
    | VERSION INT               { $$ = dir_stmt(P, PTX_S_VERSION, $1, leaf(P, $2), PTX_NOTOK); }
    ;

target
    : TARGET target_names       { $$ = dir_stmt(P, PTX_S_TARGET, $1, $2.head, PTX_NOTOK); }
    ;

target_names
    : WORD                      { ONE($$, leaf(P, $1)); }
    | target_names ',' WORD     { $$ = $1; $$.tail->sep = $2; APPEND($$, leaf(P, $3)); }
    ;

address_size
    : ADDRESS_SIZE INT          { $$ = dir_stmt(P, PTX_S_ADDRESS_SIZE, $1, leaf(P, $2), PTX_NOTOK); }
    ;

file
    : FILE_ INT STRING          {
            ptx_expr *n = leaf(P, $2);
            n->next = leaf(P, $3);
            $$ = dir_stmt(P, PTX_S_FILE, $1, n, PTX_NOTOK);
        }
    | file ',' INT              {
            $$ = $1;
            ptx_expr *t = last($$->u.dir.args);
            t->sep = $2; t->next = leaf(P, $3);
        }
    ;

/* .loc file line col [, function_name label[+off]] [, inlined_at f l c] */
loc
    : LOC INT INT INT           {
            ptx_expr *a = leaf(P, $2), *b = leaf(P, $3), *c = leaf(P, $4);
            a->next = b; b->next = c;
            $$ = dir_stmt(P, PTX_S_LOC, $1, a, PTX_NOTOK);
        }
    | loc ',' WORD loc_attr     {
            $$ = $1;
            ptx_expr *t = last($$->u.dir.args), *k = leaf(P, $3);
            t->sep = $2; t->next = k; k->next = $4;
        }
    ;

loc_attr
    : WORD                      { $$ = leaf(P, $1); }
    | WORD '+' INT              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, leaf(P, $1), leaf(P, $3), NULL)); }
    | INT INT INT               {
            $$ = leaf(P, $1); $$->next = leaf(P, $2); $$->next->next = leaf(P, $3);
        }
    ;

pragma
    : PRAGMA strings ';'        { $$ = dir_stmt(P, PTX_S_PRAGMA, $1, $2.head, $3); }
    ;

strings
    : STRING                    { ONE($$, leaf(P, $1)); }
    | strings ',' STRING        { $$ = $1; $$.tail->sep = $2; APPEND($$, leaf(P, $3)); }
    ;

alias
    : ALIAS WORD ',' WORD ';'   {
            ptx_expr *a = leaf(P, $2);
            a->sep = $3;
            a->next = leaf(P, $4);
            $$ = dir_stmt(P, PTX_S_ALIAS, $1, a, $5);
        }
    ;

/* ---- debug sections */

section
    : SECTION DOTNAME '{' section_items '}' {
            $$ = stmt(P, PTX_S_SECTION, $1);
            $$->u.section.dir = $1;
            $$->u.section.name = $2;
            $$->u.section.body.lbrace = $3;
            $$->u.section.body.stmts = $4.head;
            $$->u.section.body.rbrace = $5;
        }
    ;

section_items
    : %empty                    { $$.head = $$.tail = NULL; }
    | section_items section_item { $$ = $1; APPEND($$, $2); }
    ;

section_item
    : label_stmt
    | data_line
    ;

data_line
    : DOTNAME data_args semi_opt { $$ = dir_stmt(P, PTX_S_DATA, $1, $2.head, $3); }
    ;

data_args
    : data_arg                  { ONE($$, $1); }
    | data_args ',' data_arg    { $$ = $1; $$.tail->sep = $2; APPEND($$, $3); }
    ;

/* `.b32 .debug_loc+66`: a section name, optionally plus an offset */
data_arg
    : expr
    | DOTNAME                   { $$ = leaf(P, $1); }
    | DOTNAME '+' INT           { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, leaf(P, $1), leaf(P, $3), NULL)); }
    ;

semi_opt
    : %empty                    { $$ = PTX_NOTOK; }
    | ';'
    ;

/* ---- declarations */

top_decl
    : specs declarators ';'     {
            $$ = stmt(P, PTX_S_VAR, $1.head->tok);
            $$->u.var.specs = $1.head;
            $$->u.var.decls = $2.head;
            $$->u.var.semi = $3;
        }
    | specs func_rest           {
            $2->specs = $1.head;
            $$ = stmt(P, PTX_S_FUNC, $1.head->tok);
            $$->u.func = *$2;
        }
    | func_rest                 {
            $$ = stmt(P, PTX_S_FUNC, $1->kw);
            $$->u.func = *$1;
        }
    ;

specs
    : spec                      { ONE($$, $1); }
    | specs spec                { $$ = $1; APPEND($$, $2); }
    ;

spec
    : DOTNAME                   { $$ = NEW(ptx_spec); $$->tok = $1; }
    | DOTNAME INT               { $$ = NEW(ptx_spec); $$->tok = $1; $$->arg = leaf(P, $2); }
    | DOTNAME '(' attr_list ')' {
            $$ = NEW(ptx_spec); $$->tok = $1;
            CHECK($$->arg = mk_expr(P, PTX_E_PAREN, $2, $3.head, NULL, NULL));
            $$->arg->close = $4;
        }
    ;

attr_list
    : attr                      { ONE($$, $1); }
    | attr_list ',' attr        { $$ = $1; $$.tail->sep = $2; APPEND($$, $3); }
    ;

attr
    : DOTNAME                   { $$ = leaf(P, $1); }
    | INT                       { $$ = leaf(P, $1); }
    | DOTNAME '(' attr_list ')' {
            CHECK($$ = mk_expr(P, PTX_E_CALL, $1, $3.head, NULL, NULL));
            $$->open = $2; $$->close = $4;
        }
    ;

declarators
    : declarator                { ONE($$, $1); }
    | declarators ',' declarator { $$ = $1; $$.tail->sep = $2; APPEND($$, $3); }
    ;

declarator
    : WORD dims                 {
            $$ = NEW(ptx_declarator);
            $$->name = $1; $$->lt = $$->count = $$->gt = PTX_NOTOK;
            $$->dims = $2.head; $$->eq = $$->sep = PTX_NOTOK;
        }
    | WORD '<' INT '>'          {
            $$ = NEW(ptx_declarator);
            $$->name = $1; $$->lt = $2; $$->count = $3; $$->gt = $4;
            $$->eq = $$->sep = PTX_NOTOK;
        }
    | WORD dims '=' expr        {
            $$ = NEW(ptx_declarator);
            $$->name = $1; $$->lt = $$->count = $$->gt = PTX_NOTOK;
            $$->dims = $2.head; $$->eq = $3; $$->init = $4; $$->sep = PTX_NOTOK;
        }
    ;

dims
    : %empty                    { $$.head = $$.tail = NULL; }
    | dims '[' ']'              {
            $$ = $1; ptx_dim *d = NEW(ptx_dim);
            d->lbrack = $2; d->rbrack = $3; APPEND($$, d);
        }
    | dims '[' expr ']'         {
            $$ = $1; ptx_dim *d = NEW(ptx_dim);
            d->lbrack = $2; d->size = $3; d->rbrack = $4; APPEND($$, d);
        }
    ;

/* ---- functions */

func_rest
    : ENTRY WORD params_opt fdirs block {
            $$ = NEW(ptx_func); $$->label = $$->colon = PTX_NOTOK;
            $$->kw = $1; $$->name = $2; $$->params = $3; $$->dirs = $4.head;
            $$->body = $5; $$->semi = PTX_NOTOK;
        }
    | ENTRY WORD params_opt fdirs ';' {
            $$ = NEW(ptx_func); $$->label = $$->colon = PTX_NOTOK;
            $$->kw = $1; $$->name = $2; $$->params = $3; $$->dirs = $4.head;
            $$->semi = $5;
        }
    | FUNC params_opt WORD params_opt fdirs block {
            $$ = NEW(ptx_func); $$->label = $$->colon = PTX_NOTOK;
            $$->kw = $1; $$->ret = $2; $$->name = $3; $$->params = $4;
            $$->dirs = $5.head; $$->body = $6; $$->semi = PTX_NOTOK;
        }
    | FUNC params_opt WORD params_opt fdirs ';' {
            $$ = NEW(ptx_func); $$->label = $$->colon = PTX_NOTOK;
            $$->kw = $1; $$->ret = $2; $$->name = $3; $$->params = $4;
            $$->dirs = $5.head; $$->semi = $6;
        }
    ;

proto_rest
    : CALLPROTOTYPE params_opt WORD params_opt fdirs ';' {
            $$ = NEW(ptx_func);
            $$->kw = $1; $$->ret = $2; $$->name = $3; $$->params = $4;
            $$->dirs = $5.head; $$->semi = $6;
        }
    ;

params_opt
    : %empty                    { $$ = NULL; }
    | param_list
    ;

param_list
    : '(' ')'                   { $$ = NEW(ptx_param_list); $$->lparen = $1; $$->rparen = $2; }
    | '(' param_seq ')'         {
            $$ = NEW(ptx_param_list);
            $$->lparen = $1; $$->params = $2.head; $$->rparen = $3;
        }
    ;

param_seq
    : param                     { ONE($$, $1); }
    | param_seq ',' param       { $$ = $1; $$.tail->sep = $2; APPEND($$, $3); }
    ;

param
    : specs declarator          {
            $$ = NEW(ptx_param); $$->specs = $1.head; $$->decl = $2; $$->sep = PTX_NOTOK;
        }
    ;

fdirs
    : %empty                    { $$.head = $$.tail = NULL; }
    | fdirs fdir                { $$ = $1; APPEND($$, $2); }
    ;

fdir
    : DOTNAME fdir_args         {
            $$ = NEW(ptx_fdir); $$->dir = $1; $$->args = $2.head; $$->semi = PTX_NOTOK;
        }
    | PRAGMA strings ';'        {
            $$ = NEW(ptx_fdir); $$->dir = $1; $$->args = $2.head; $$->semi = $3;
        }
    ;

fdir_args
    : %empty                    { $$.head = $$.tail = NULL; }
    | fdir_args_ne
    ;

fdir_args_ne
    : INT                       { ONE($$, leaf(P, $1)); }
    | fdir_args_ne ',' INT      { $$ = $1; $$.tail->sep = $2; APPEND($$, leaf(P, $3)); }
    ;

/* ---- bodies */

block
    : '{' stmts '}'             {
            $$ = NEW(ptx_block); $$->lbrace = $1; $$->stmts = $2.head; $$->rbrace = $3;
        }
    ;

stmts
    : %empty                    { $$.head = $$.tail = NULL; }
    | stmts stmt                { $$ = $1; APPEND($$, $2); }
    ;

stmt
    : specs declarators ';'     {
            $$ = stmt(P, PTX_S_VAR, $1.head->tok);
            $$->u.var.specs = $1.head;
            $$->u.var.decls = $2.head;
            $$->u.var.semi = $3;
        }
    | label_stmt
    | WORD ':' proto_rest       {
            $3->label = $1; $3->colon = $2;
            $$ = stmt(P, PTX_S_CALLPROTOTYPE, $1);
            $$->u.func = *$3;
        }
    | WORD ':' CALLTARGETS name_list ';' {
            $$ = dir_stmt(P, PTX_S_CALLTARGETS, $3, $4.head, $5);
            $$->first = $1; $$->u.dir.label = $1; $$->u.dir.colon = $2;
        }
    | WORD ':' BRANCHTARGETS name_list ';' {
            $$ = dir_stmt(P, PTX_S_BRANCHTARGETS, $3, $4.head, $5);
            $$->first = $1; $$->u.dir.label = $1; $$->u.dir.colon = $2;
        }
    | instr
    | block                     { $$ = stmt(P, PTX_S_BLOCK, $1->lbrace); $$->u.block = *$1; }
    | loc
    | pragma
    | DWARF                     { $$ = stmt(P, PTX_S_DWARF, $1); $$->u.tok = $1; }
    | PREPROC                   { $$ = stmt(P, PTX_S_PREPROC, $1); $$->u.tok = $1; }
    ;

label_stmt
    : WORD ':'                  {
            $$ = stmt(P, PTX_S_LABEL, $1);
            $$->u.label.name = $1; $$->u.label.colon = $2;
        }
    ;

name_list
    : WORD                      { ONE($$, leaf(P, $1)); }
    | name_list ',' WORD        { $$ = $1; $$.tail->sep = $2; APPEND($$, leaf(P, $3)); }
    ;

/* Operand-less instructions have their own rule so that the common case
   needs no empty-list reduction. */
instr
    : WORD ';'                  { $$ = instr(P, PTX_NOTOK, PTX_NOTOK, PTX_NOTOK, $1, NULL, $2); }
    | WORD exprlist ';'         { $$ = instr(P, PTX_NOTOK, PTX_NOTOK, PTX_NOTOK, $1, $2.head, $3); }
    | '@' WORD WORD ';'         { $$ = instr(P, $1, PTX_NOTOK, $2, $3, NULL, $4); }
    | '@' WORD WORD exprlist ';' { $$ = instr(P, $1, PTX_NOTOK, $2, $3, $4.head, $5); }
    | '@' '!' WORD WORD ';'     { $$ = instr(P, $1, $2, $3, $4, NULL, $5); }
    | '@' '!' WORD WORD exprlist ';' { $$ = instr(P, $1, $2, $3, $4, $5.head, $6); }
    ;

/* ---- expressions */

exprlist_opt
    : %empty                    { $$.head = $$.tail = NULL; }
    | exprlist
    ;

exprlist
    : expr                      { ONE($$, $1); }
    | exprlist ',' expr         { $$ = $1; $$.tail->sep = $2; APPEND($$, $3); }
    ;

/* Leaves and brackets are alternatives of expr itself rather than of a
   separate `primary`: one reduction less per operand. */
expr
    : WORD                      { $$ = leaf(P, $1); }
    | INT                       { $$ = leaf(P, $1); }
    | FLOAT                     { $$ = leaf(P, $1); }
    | STRING                    { $$ = leaf(P, $1); }
    | '{' exprlist_opt '}'      { CHECK($$ = mk_expr(P, PTX_E_VECTOR, $1, $2.head, NULL, NULL)); $$->close = $3; }
    | '[' exprlist ']'          { CHECK($$ = mk_expr(P, PTX_E_ADDRESS, $1, $2.head, NULL, NULL)); $$->close = $3; }
    | '(' exprlist_opt ')'      { CHECK($$ = mk_expr(P, PTX_E_PAREN, $1, $2.head, NULL, NULL)); $$->close = $3; }
    | WORD '(' exprlist_opt ')' {
            CHECK($$ = mk_expr(P, PTX_E_CALL, $1, $3.head, NULL, NULL));
            $$->open = $2; $$->close = $4;
        }
    | '-' expr %prec UNARY      { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | '+' expr %prec UNARY      { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | '!' expr %prec UNARY      { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | '~' expr %prec UNARY      { CHECK($$ = mk_expr(P, PTX_E_UNARY, $1, $2, NULL, NULL)); }
    | '(' DOTNAME ')' expr %prec UNARY {
            CHECK($$ = mk_expr(P, PTX_E_CAST, $1, $4, NULL, NULL));
            $$->open = $2; $$->close = $3;
        }
    | expr '+' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '-' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '*' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '/' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '%' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr SHL expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr SHR expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '<' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '>' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr LE expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr GE expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr EQ expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr NE expr              { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '&' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '^' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '|' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr ANDAND expr          { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr OROR expr            { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '=' expr             { CHECK($$ = mk_expr(P, PTX_E_BINARY, $2, $1, $3, NULL)); }
    | expr '?' expr ':' expr    {
            CHECK($$ = mk_expr(P, PTX_E_COND, $2, $1, $3, $5)); $$->close = $4;
        }
    ;

%%


/* Bison's token numbers for the lexer's kinds >= 256 (ptx_token_kind). */
static const int bison_token[PTX_T_KIND_END - PTX_T_WORD] = {
    WORD, DOTNAME, INT, FLOAT, STRING, DWARF, PREPROC,
    VERSION, TARGET, ADDRESS_SIZE, FILE_, LOC, SECTION, ENTRY, FUNC,
    CALLPROTOTYPE, CALLTARGETS, BRANCHTARGETS, PRAGMA, ALIAS,
    SHL, SHR, LE, GE, EQ, NE, ANDAND, OROR,
};

static int grow_tokens(ptx_parser *P)
{
    uint32_t cap = P->cap ? P->cap * 2 : 1024;
    ptx_token *t = realloc(P->m->toks, (size_t)cap * sizeof *t);
    if (!t) {
        P->err = "out of memory";
        return 0;
    }
    P->m->toks = t;
    P->cap = cap;
    return 1;
}

static int ptx_yylex(PTX_YYSTYPE *lval, ptx_loc *lloc, ptx_parser *P)
{
    uint32_t start, len;
    int kind = ptx_lex(&P->lx, &start, &len);
    if (kind < 0) {
        P->err = P->lx.err;
        P->err_offset = start;
        /* name the offending byte */
        unsigned char c = (unsigned char)P->m->src[start];
        if (start < P->m->size && c != 0 && (c < 0x20 || c >= 0x7f)) {
            snprintf(P->errbuf, sizeof P->errbuf, "%s (byte 0x%02x)", P->lx.err, c);
            P->err = P->errbuf;
        } else if (start < P->m->size && c != 0 && strcmp(P->lx.err, "unexpected character") == 0) {
            snprintf(P->errbuf, sizeof P->errbuf, "unexpected character '%c'", c);
            P->err = P->errbuf;
        }
        return PTX_YYerror;
    }
    if (P->m->ntoks == P->cap && !grow_tokens(P))
        return PTX_YYerror;
    uint32_t i = P->m->ntoks++;
    P->m->toks[i] = (ptx_token){ start, len, (uint32_t)kind };
    lval->tok = i;
    *lloc = i;
    switch (kind) {
    case '{': case '(': case '[':
        if (++P->depth > PTX_MAX_DEPTH) {
            snprintf(P->errbuf, sizeof P->errbuf,
                     "brackets nested deeper than %d", PTX_MAX_DEPTH);
            P->err = P->errbuf;
            P->err_offset = start;
            return PTX_YYerror;
        }
        break;
    case '}': case ')': case ']':
        P->depth--;
        break;
    }
    return kind < 256 ? kind : bison_token[kind - PTX_T_WORD];
}

static void ptx_yyerror(ptx_loc *lloc, ptx_parser *P, const char *msg)
{
    if (P->err)
        return; /* the lexer already said what went wrong */
    /* Bison's stack (YYMAXDEPTH) only overflows on right-recursive
       expressions (- - - x, a = b = ..., a ? b : c ? ...) nested far deeper
       than PTX_MAX_DEPTH: say so rather than "memory exhausted". */
    if (strcmp(msg, "memory exhausted") == 0)
        snprintf(P->errbuf, sizeof P->errbuf,
                 "expression nested deeper than %d", PTX_MAX_DEPTH);
    else
        snprintf(P->errbuf, sizeof P->errbuf, "%s", msg);
    P->err = P->errbuf;
    P->err_offset = P->m->ntoks ? P->m->toks[P->m->ntoks - 1].start : 0;
}

/* Declaration specifiers and directives the grammar takes as a DOTNAME; a
   syntax error in a statement that starts with any other DOTNAME is
   reported as an unknown directive. */
static int known_dotname(ptx_str s)
{
    static const char *const names[] = {
        "reg", "sreg", "const", "global", "local", "param", "shared", "tex",
        "visible", "extern", "weak", "common", "align", "ptr", "attribute",
        "managed", "unified", "texref", "samplerref", "surfref", "pred",
        "v2", "v4", "v8", "maxntid", "reqntid", "minnctapersm",
        "maxnctapersm", "maxnreg", "noreturn", "maxclusterrank",
        "reqnctapercluster", "explicitcluster", "blocksareclusters",
    };
    if (s.n < 2 || s.p[0] != '.')
        return 1;
    const char *p = s.p + 1;
    size_t n = s.n - 1;
    const char *colons = memchr(p, ':', n); /* .shared::cta */
    if (colons)
        n = (size_t)(colons - p);
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strlen(names[i]) == n && memcmp(names[i], p, n) == 0)
            return 1;
    /* fundamental types: .b8 .u32 .s64 .f16 .f16x2 .bf16 .e4m3 .tf32 ... */
    if (n >= 2 && strchr("bsufe", p[0]) && (p[1] >= '0' && p[1] <= '9'))
        return 1;
    if (n >= 3 && (memcmp(p, "bf", 2) == 0 || memcmp(p, "tf", 2) == 0) &&
        p[2] >= '0' && p[2] <= '9')
        return 1;
    return 0;
}

/* The first token on the line of token t. */
static uint32_t line_start_token(const ptx_module *m, uint32_t t)
{
    while (t > 0) {
        const char *p = m->src + m->toks[t - 1].start + m->toks[t - 1].len;
        const char *q = m->src + m->toks[t].start;
        if (memchr(p, '\n', (size_t)(q - p)))
            break;
        t--;
    }
    return t;
}

/* Bison's message lists the expected tokens only when there are at most
   four.  Where there are more, the ones most likely forgotten are named:
   the separators and closing brackets (',' ';' ')' ']' '}'), so that
   `ret` followed by `}` says "expecting ';'" and an unclosed body at the
   end of the file says "expecting '}'". */
static int yyreport_syntax_error(const yypcontext_t *ctx, ptx_parser *P)
{
    if (P->err)
        return 0; /* the lexer already said what went wrong */
    enum { MAX = 4 };
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    if (n < 0)
        return n == YYENOMEM ? 2 : 0;
    yysymbol_kind_t tok = yypcontext_token(ctx);
    ptx_module *m = P->m;
    P->err_offset = m->ntoks ? m->toks[m->ntoks - 1].start : 0;

    /* an unknown directive starting the line: say that */
    if (m->ntoks) {
        uint32_t first = line_start_token(m, m->ntoks - 1);
        if (m->toks[first].kind == PTX_T_DOTNAME &&
            !known_dotname(ptx_tok_str(m, first))) {
            ptx_str s = ptx_tok_str(m, first);
            snprintf(P->errbuf, sizeof P->errbuf,
                     "unknown directive '%.*s'", (int)(s.n > 64 ? 64 : s.n), s.p);
            P->err = P->errbuf;
            P->err_offset = m->toks[first].start;
            return 0;
        }
    }

    const char *what = NULL;
    if (n > MAX) {
        static const yysymbol_kind_t likely[] = {
            YYSYMBOL_31_ /* ',' */, YYSYMBOL_32_ /* ';' */,
            YYSYMBOL_37_ /* ')' */, YYSYMBOL_39_ /* ']' */,
            YYSYMBOL_35_ /* '}' */,
        };
        int k = 0, word = 0, dot = 0, at_sign = 0, intlit = 0;
        for (int j = 0; j < n; j++) {
            word |= exp[j] == YYSYMBOL_WORD;
            dot |= exp[j] == YYSYMBOL_DOTNAME;
            at_sign |= exp[j] == YYSYMBOL_54_;
            intlit |= exp[j] == YYSYMBOL_INT;
        }
        for (size_t i = 0; i < sizeof likely / sizeof *likely; i++)
            for (int j = 0; j < n; j++)
                if (exp[j] == likely[i] && likely[i] != tok) {
                    exp[k++] = likely[i];
                    break;
                }
        n = k;
        /* where a statement may start, say so */
        if (dot && at_sign && tok != YYSYMBOL_YYEOF)
            what = "a statement";
        else if (n == 0 && dot && !word)
            what = "a directive or declaration";
        else if (n == 0 && intlit && word)
            what = "an operand";
    }
    int len = snprintf(P->errbuf, sizeof P->errbuf, "syntax error");
    if (tok != YYSYMBOL_YYEMPTY)
        len += snprintf(P->errbuf + len, sizeof P->errbuf - (size_t)len,
                        ", unexpected %s", yysymbol_name(tok));
    /* and its spelling, where the kind alone does not say it */
    if ((tok == YYSYMBOL_WORD || tok == YYSYMBOL_DOTNAME || tok == YYSYMBOL_INT ||
         tok == YYSYMBOL_FLOAT) && m->ntoks) {
        ptx_str sp = ptx_tok_str(m, m->ntoks - 1);
        len += snprintf(P->errbuf + len, sizeof P->errbuf - (size_t)len,
                        " '%.*s%s'", (int)(sp.n > 40 ? 40 : sp.n), sp.p,
                        sp.n > 40 ? "..." : "");
    }
    for (int i = 0; i < n && len < (int)sizeof P->errbuf; i++)
        len += snprintf(P->errbuf + len, sizeof P->errbuf - (size_t)len,
                        "%s%s", i ? " or " : ", expecting ", yysymbol_name(exp[i]));
    if (what && len < (int)sizeof P->errbuf)
        snprintf(P->errbuf + len, sizeof P->errbuf - (size_t)len,
                 "%s%s", n ? " or " : ", expecting ", what);
    P->err = P->errbuf;
    return 0;
}

static ptx_expr *mk_expr(ptx_parser *P, int kind, uint32_t tok, ptx_expr *a,
                         ptx_expr *b, ptx_expr *c)
{
    ptx_expr *e = NEW(ptx_expr);
    e->kind = (uint16_t)kind;
    e->tok = tok;
    e->open = e->close = e->sep = PTX_NOTOK;
    e->a = a;
    e->b = b;
    e->c = c;
    unsigned d = 0;
    for (ptx_expr *k = a; k; k = k->next) /* a may be a list */
        if (k->depth > d) d = k->depth;
    if (b && b->depth > d) d = b->depth;
    if (c && c->depth > d) d = c->depth;
    if (d + 1 > PTX_MAX_DEPTH) {
        snprintf(P->errbuf, sizeof P->errbuf,
                 "expression nested deeper than %d", PTX_MAX_DEPTH);
        P->err = P->errbuf;
        P->err_offset = P->m->toks[tok].start;
        return NULL;
    }
    e->depth = (uint16_t)(d + 1);
    return e;
}

static ptx_expr *leaf(ptx_parser *P, uint32_t tok)
{
    static const uint16_t kind_of[PTX_T_KIND_END - PTX_T_WORD] = {
        [PTX_T_WORD - PTX_T_WORD] = PTX_E_NAME,
        [PTX_T_DOTNAME - PTX_T_WORD] = PTX_E_DOTNAME,
        [PTX_T_INT - PTX_T_WORD] = PTX_E_INT,
        [PTX_T_FLOAT - PTX_T_WORD] = PTX_E_FLOAT,
        [PTX_T_STRING - PTX_T_WORD] = PTX_E_STRING,
    };
    ptx_expr *e = NEW(ptx_expr);
    e->kind = kind_of[P->m->toks[tok].kind - PTX_T_WORD];
    e->depth = 1;
    e->tok = tok;
    e->open = e->close = e->sep = PTX_NOTOK;
    return e;
}

static ptx_expr *last(ptx_expr *e)
{
    while (e->next)
        e = e->next;
    return e;
}

static ptx_stmt *stmt(ptx_parser *P, int kind, uint32_t first)
{
    ptx_stmt *s = NEW(ptx_stmt);
    s->kind = (uint32_t)kind;
    s->first = first;
    return s;
}

static ptx_stmt *dir_stmt(ptx_parser *P, int kind, uint32_t dir,
                          ptx_expr *args, uint32_t semi)
{
    ptx_stmt *s = stmt(P, kind, dir);
    s->u.dir.label = s->u.dir.colon = PTX_NOTOK;
    s->u.dir.dir = dir;
    s->u.dir.args = args;
    s->u.dir.semi = semi;
    return s;
}

/* ld.global.v4.u32 -> opcode "ld", modifiers global, v4, u32 */
static void split_opcode(ptx_parser *P, ptx_instr *in)
{
    ptx_str w = ptx_tok_str(P->m, in->op);
    uint32_t n = 0, first = w.n;
    for (uint32_t i = 0; i < w.n; i++)
        if (w.p[i] == '.') {
            if (!n)
                first = i;
            n++;
        }
    in->opcode = (ptx_str){ w.p, first };
    if (!n)
        return;
    ptx_str *mods = ptx_arena_alloc(P->m->arena, n * sizeof *mods);
    uint32_t k = 0, start = first + 1;
    for (uint32_t i = start; i <= w.n; i++)
        if (i == w.n || w.p[i] == '.') {
            mods[k++] = (ptx_str){ w.p + start, i - start };
            start = i + 1;
        }
    in->mods = mods;
    in->nmods = n;
}

static ptx_stmt *instr(ptx_parser *P, uint32_t at, uint32_t bang,
                       uint32_t pred, uint32_t op, ptx_expr *operands,
                       uint32_t semi)
{
    ptx_stmt *s = stmt(P, PTX_S_INSTR, at != PTX_NOTOK ? at : op);
    ptx_instr *in = &s->u.instr;
    in->at = at;
    in->bang = bang;
    in->pred = pred;
    in->op = op;
    in->operands = operands;
    in->semi = semi;
    split_opcode(P, in);
    return s;
}
