/*
 * yylex.h - the parser's yylex: the inlined re2c scanner (lexer.c), the
 * token array and the bracket depth.  Included once, by grammar/parser.y, after bison's own
 * definitions (it uses the token numbers and PTX_YYSTYPE).
 */

/* The lexer's kind (ptx_token_kind or the ASCII code of a punctuation
   character) -> bison's symbol number (raw tokens), and what the token
   does to the bracket depth.  One lookup per token; kinds missing here
   are never returned by the lexer. */
static const struct { uint8_t sym; int8_t depth; } lex_map[PTX_T_KIND_END] = {
    [PTX_T_EOF] = { PTX_YYEOF, 0 },
    [','] = { COMMA, 0 }, [';'] = { SEMI, 0 }, [':'] = { COLON, 0 },
    ['{'] = { LBRACE, 1 }, ['}'] = { RBRACE, -1 },
    ['('] = { LPAREN, 1 }, [')'] = { RPAREN, -1 },
    ['['] = { LBRACK, 1 }, [']'] = { RBRACK, -1 },
    ['<'] = { LT, 0 }, ['>'] = { GT, 0 }, ['+'] = { PLUS, 0 },
    ['-'] = { MINUS, 0 }, ['*'] = { STAR, 0 }, ['/'] = { SLASH, 0 },
    ['%'] = { PERCENT, 0 }, ['!'] = { BANG, 0 }, ['~'] = { TILDE, 0 },
    ['&'] = { AMP, 0 }, ['|'] = { PIPE, 0 }, ['^'] = { CARET, 0 },
    ['?'] = { QUEST, 0 }, ['='] = { ASSIGN, 0 }, ['@'] = { AT, 0 },
    [PTX_T_WORD] = { WORD, 0 }, [PTX_T_DOTNAME] = { DOTNAME, 0 },
    [PTX_T_INT] = { INT, 0 }, [PTX_T_FLOAT] = { FLOAT, 0 },
    [PTX_T_STRING] = { STRING, 0 }, [PTX_T_DWARF] = { DWARF, 0 },
    [PTX_T_PREPROC] = { PREPROC, 0 }, [PTX_T_VERSION] = { VERSION, 0 },
    [PTX_T_TARGET] = { TARGET, 0 }, [PTX_T_ADDRESS_SIZE] = { ADDRESS_SIZE, 0 },
    [PTX_T_FILE] = { FILE_, 0 }, [PTX_T_LOC] = { LOC, 0 },
    [PTX_T_SECTION] = { SECTION, 0 }, [PTX_T_ENTRY] = { ENTRY, 0 },
    [PTX_T_FUNC] = { FUNC, 0 }, [PTX_T_CALLPROTOTYPE] = { CALLPROTOTYPE, 0 },
    [PTX_T_CALLTARGETS] = { CALLTARGETS, 0 },
    [PTX_T_BRANCHTARGETS] = { BRANCHTARGETS, 0 },
    [PTX_T_PRAGMA] = { PRAGMA, 0 }, [PTX_T_ALIAS] = { ALIAS, 0 },
    [PTX_T_SHL] = { SHL, 0 }, [PTX_T_SHR] = { SHR, 0 }, [PTX_T_LE] = { LE, 0 },
    [PTX_T_GE] = { GE, 0 }, [PTX_T_EQ] = { EQ, 0 }, [PTX_T_NE] = { NE, 0 },
    [PTX_T_ANDAND] = { ANDAND, 0 }, [PTX_T_OROR] = { OROR, 0 },
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

/* Out of line: only on a lexical error. */
static int lex_error(ptx_parser *P, uint32_t start)
{
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

static int too_deep(ptx_parser *P, uint32_t start)
{
    snprintf(P->errbuf, sizeof P->errbuf,
             "brackets nested deeper than %d", PTX_MAX_DEPTH);
    P->err = P->errbuf;
    P->err_offset = start;
    return PTX_YYerror;
}

/* A piece of a parallel parse ends where the next piece's first token
   stands: the end of the piece's input, as the last piece's EOF token is. */
static int prelexed_token(ptx_parser *P, uint32_t *i)
{
    *i = P->next;
    if (P->next == P->end)
        return PTX_T_EOF;
    return (int)P->m->toks[P->next++].kind;
}

static inline int ptx_yylex(PTX_YYSTYPE *lval, ptx_parser *P)
{
    uint32_t i;
    int kind;
    if (__builtin_expect(P->prelexed, 0)) {
        kind = prelexed_token(P, &i);
    } else {
        uint32_t start, len;
        kind = lex_token(&P->lx, &start, &len);
        if (kind < 0)
            return lex_error(P, start);
        if (P->m->ntoks == P->cap && !grow_tokens(P))
            return PTX_YYerror;
        i = P->m->ntoks++;
        P->m->toks[i] = (ptx_token){ start, len, (uint32_t)kind };
    }
    lval->tok = i;
    /* closing brackets may take the depth below 0 (the parser rejects
       them); only a deeper opening one can pass the limit */
    int step = lex_map[kind].depth;
    if (step) {
        P->depth += step;
        if (P->depth > PTX_MAX_DEPTH)
            return too_deep(P, P->m->toks[i].start);
    }
    return lex_map[kind].sym;
}
