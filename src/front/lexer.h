/* lexer.h - the re2c scanner's interface (grammar/lexer.re). */
#ifndef PTX_FRONT_LEXER_H
#define PTX_FRONT_LEXER_H

#include <stdint.h>
#include "ptx/ast.h"

typedef struct ptx_lexer {
    const unsigned char *src; /* start of the input */
    const unsigned char *cur; /* next byte to scan */
    const unsigned char *lim; /* src + size; *lim == 0 is the sentinel */
    const char *err;          /* message when ptx_lex returns -1 */
} ptx_lexer;

/* Scan the next token.  Returns its ptx_token_kind (PTX_T_EOF at the end),
   or -1 on a lexical error (lx->err says why; *start is where). */
int ptx_lex(ptx_lexer *lx, uint32_t *start, uint32_t *len);

#endif
