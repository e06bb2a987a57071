/* parser_state.h - what the bison parser shares with its driver. */
#ifndef PTX_FRONT_PARSER_STATE_H
#define PTX_FRONT_PARSER_STATE_H

#include "ptx/ptx.h"
#include "front/arena.h"
#include "front/lexer.h"

typedef struct ptx_parser {
    ptx_module *m;
    ptx_lexer lx;
    uint32_t cap;          /* capacity of m->toks */
    int depth;             /* open brackets of any kind */
    const char *err;       /* first error message (static or in errbuf) */
    size_t err_offset;
    char errbuf[256];
} ptx_parser;

/* A grammar symbol's location is the index of its first token; line and
   column are derived from the token's offset only when needed.  One word
   keeps bison's location stack cheap. */
typedef uint32_t ptx_loc;

int ptx_yyparse(ptx_parser *P);

#endif
