/*
 * yylex.h - the parser's yylex: the inlined re2c scanner (lexer.c), the
 * token array, the bracket depth and the fused tokens.
 *
 * The scanner runs ahead of the parser by up to LEX_BATCH tokens, in a
 * loop of its own (lex_batch) that keeps its position in registers, and
 * the parser reads the token array as a parallel parse's piece does.
 * Lexing one token per yylex call cost ~20 more instructions a token: the
 * scanner's state and the array's end went through memory between every
 * two parser actions.  Nothing the user sees changes: the lexer stops at a
 * lexical error, which is reported when the parser reaches it, as before,
 * and the tokens lexed past a syntax error are freed with the module.
 * (The bracket depth is counted as the parser reads the tokens: counted
 * here, it cost more than it saved.)
 *
 * Included once, by grammar/parser.y, after bison's own definitions (it
 * uses the token numbers and PTX_YYSTYPE).
 */

/* The lexer's kind (ptx_token_kind or the ASCII code of a punctuation
   character) -> bison's symbol number (raw tokens), and what the token
   does to the bracket depth, or what fused token it may start: RUN_STEP
   for ',' (lex_run), INSTR_STEP for a WORD or '@' (lex_stmts), so that
   other tokens test for neither.  One lookup per token; kinds missing
   here are never returned by the lexer. */
enum { RUN_STEP = 2, INSTR_STEP = 3 };
static const struct { uint8_t sym; int8_t depth; } lex_map[PTX_T_KIND_END] = {
    [PTX_T_EOF] = { PTX_YYEOF, 0 },
    [','] = { COMMA, RUN_STEP }, [';'] = { SEMI, 0 }, [':'] = { COLON, 0 },
    ['{'] = { LBRACE, 1 }, ['}'] = { RBRACE, -1 },
    ['('] = { LPAREN, 1 }, [')'] = { RPAREN, -1 },
    ['['] = { LBRACK, 1 }, [']'] = { RBRACK, -1 },
    ['<'] = { LT, 0 }, ['>'] = { GT, 0 }, ['+'] = { PLUS, 0 },
    ['-'] = { MINUS, 0 }, ['*'] = { STAR, 0 }, ['/'] = { SLASH, 0 },
    ['%'] = { PERCENT, 0 }, ['!'] = { BANG, 0 }, ['~'] = { TILDE, 0 },
    ['&'] = { AMP, 0 }, ['|'] = { PIPE, 0 }, ['^'] = { CARET, 0 },
    ['?'] = { QUEST, 0 }, ['='] = { ASSIGN, 0 }, ['@'] = { AT, INSTR_STEP },
    [PTX_T_WORD] = { WORD, INSTR_STEP }, [PTX_T_DOTNAME] = { DOTNAME, 0 },
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

/* Tokens lexed ahead of the parser: enough that the loop's entry and exit
   are amortised, few enough that they are still in cache when parsed.
   A run of statements (lex_stmts) that starts fewer than FUSE_AHEAD
   tokens before the last lexed has another batch lexed first: an
   instruction cut by a batch's end would be given a token at a time (one
   a batch, 5% of library PTX's instructions). */
enum { LEX_BATCH = 256, FUSE_AHEAD = 64 };

/* Room for at least `need` tokens. */
static int grow_tokens(ptx_parser *P, uint32_t need)
{
    uint32_t cap = P->cap ? P->cap : 1024;
    while (cap < need)
        cap *= 2;
    ptx_token *t = ptx_realloc(P->m->toks, (size_t)cap * sizeof *t);
    if (!t) {
        P->err = PTX_OUT_OF_MEMORY;
        return 0;
    }
    P->m->toks = P->toks = t;
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

/* Up to LEX_BATCH more tokens after those lexed so far, at P->lexed: 0,
   or PTX_YYerror when out of memory.  A lexical error ends the lexing
   (lex_failed), to be reported when the parser gets there. */
static __attribute__((noinline)) int lex_batch(ptx_parser *P)
{
    uint32_t n = P->lexed, stop = n + LEX_BATCH;
    if (P->cap < stop && !grow_tokens(P, stop))
        return PTX_YYerror;
    ptx_lexer lx = P->lx;
    ptx_token *t = P->toks + n, *end = P->toks + stop;
    if (P->lex_in_table) {
        t = lex_int_run(&lx, t, end);
        if (end - t < 2)
            goto full;
        P->lex_in_table = 0;
    }
    do {
        uint32_t start, len;
        int kind = lex_token(&lx, &start, &len);
        if (kind < 0) {  /* reported when the parser gets there */
            P->lex_failed = 1;
            P->lex_err_at = start;
            break;
        }
        *t++ = (ptx_token){ start, len, (uint32_t)kind };
        if (kind == PTX_T_WORD) {
            t = lex_after_word(&lx, t, end);
        } else if (kind == '{' && table_opens(P->toks, t - 1)) {
            t = lex_int_run(&lx, t, end);
            if (end - t < 2) {  /* the table goes on in the next batch */
                P->lex_in_table = 1;
                break;
            }
        } else if (kind == PTX_T_EOF) {
            break;
        }
    } while (t < end);
full:
    P->lx = lx;
    P->m->ntoks = P->lexed = (uint32_t)(t - P->toks);
    return 0;
}

/* The parser has read every token lexed so far: lex up to LEX_BATCH more
   (-1), or say what yylex returns instead.  A piece of a parallel parse
   has all its tokens already, and ends where the next piece's first
   token stands: the end of its input, as the last piece's EOF token is.
   A piece of a module parsed on its own says where it starts first. */
static __attribute__((noinline)) int lex_more(ptx_parser *P, PTX_YYSTYPE *lval)
{
    if (P->start != PTX_START_MODULE) {  /* a piece's, before its first token */
        static const int start_token[] = {
            [PTX_START_TOP] = PIECE_TOP, [PTX_START_BODY] = PIECE_BODY,
            [PTX_START_INIT] = PIECE_INIT,
        };
        int start = start_token[P->start];
        P->start = PTX_START_MODULE;
        lval->tok = PTX_NOTOK;
        return start;
    }
    if (P->prelexed) {
        lval->tok = P->end;
        return PTX_YYEOF;
    }
    if (P->lex_failed)
        return lex_error(P, P->lex_err_at);
    if (lex_batch(P) != 0)
        return PTX_YYerror;
    return P->lexed > P->next ? -1 : lex_error(P, P->lex_err_at);
}

/* Whether more tokens can be lexed after P->lexed: a fused token that
   would end past them asks for them first (lex_stmts), rather than
   stopping where a batch happened to end. */
static inline int lex_can_go_on(const ptx_parser *P)
{
    return !P->prelexed && !P->lex_failed &&
           !(P->lexed && P->toks[P->lexed - 1].kind == PTX_T_EOF);
}

/* Fused tokens (parser.y): where the parser would take several tokens
   the same way one at a time, yylex gives them as one, and the parser
   does one action where it did one for each token.  Each shape is one
   the grammar takes in its context, and a fused parse that fails is run
   again without them (parse.c), so that a text means and reports the
   same either way.  Shapes end at the tokens lexed so far (or the
   piece's end): the rest is given a token at a time. */

/* A ',' in an initializer, toks[i]: with the `INT ','` pairs after it but
   the last ',', RUN.  Every ',' in an initializer follows an element of
   an `exprlist`, where RUN is what `COMMA INT` would be, and an integer
   followed by ',' is an element. */
static __attribute__((noinline)) int lex_run(ptx_parser *P, PTX_YYSTYPE *lval,
                                             uint32_t i)
{
    const ptx_token *t = P->toks;
    uint32_t j = i, lim = P->lexed;
    if (!P->fuse)
        return COMMA;
    while (j + 2 < lim && t[j + 1].kind == PTX_T_INT && t[j + 2].kind == ',')
        j += 2;
    if (j == i)
        return COMMA;
    lval->fused = (ptx_fused){ i, (j - i) / 2 };
    P->next = j;
    P->fused = 1;
    return RUN;
}

/* The kinds after which a statement starts: the end of one (';', a
   label's ':', a line directive's last INT), or of a block's brackets. */
static const uint8_t stmt_after[PTX_T_KIND_END] = {
    [';'] = 1, [':'] = 1, ['{'] = 1, ['}'] = 1, [PTX_T_INT] = 1,
};

/* A WORD or '@' after the end of a statement, toks[i]: with the
   statements it starts, INSTR (what `stmts` takes a statement at a time),
   built (ptx_node_run): instructions whose operands have the commonest
   shapes, and labels `WORD ':'` before one (not before anything else:
   `WORD ':'` also starts a .callprototype, and labels stand in a debug
   section's data).  A run of statements costs the parser one shift and
   one reduction where each statement cost two or more.  Elsewhere, the
   same shape is not a text the grammar takes (a name followed by a name,
   '[', '{', ':' or ';'), and the parse without fused tokens says so.  Not
   where a bracket would nest too deep, which the parse a token at a time
   reports. */
static __attribute__((noinline)) int lex_stmts(ptx_parser *P, PTX_YYSTYPE *lval,
                                               uint32_t i, int sym)
{
    if (!P->fuse || i == P->first || !stmt_after[P->toks[i - 1].kind] ||
        P->depth >= PTX_MAX_DEPTH)
        return sym;
    if (P->lexed - i < FUSE_AHEAD && lex_can_go_on(P))
        lex_batch(P);   /* (out of memory: P->err, returned below) */
    uint32_t end;
    ptx_stmt *run = ptx_node_run(P, i, P->lexed, &end);
    if (P->err)
        return PTX_YYerror;
    if (!run)
        return sym;
    lval->slist = run;
    P->next = end;
    P->fused = 1;
    return INSTR;
}

static inline int ptx_yylex(PTX_YYSTYPE *lval, ptx_parser *P)
{
    if (__builtin_expect(P->next == P->lexed, 0)) {
        int r = lex_more(P, lval);
        if (r >= 0)
            return r;
    }
    uint32_t i = P->next++;
    int kind = (int)P->toks[i].kind;
    lval->tok = i;
    /* closing brackets may take the depth below 0 (the parser rejects
       them); only a deeper opening one can pass the limit */
    int step = lex_map[kind].depth;
    if (step) {
        if (step == RUN_STEP)
            return P->depth > P->init_base ? lex_run(P, lval, i) : COMMA;
        if (step == INSTR_STEP)
            return lex_stmts(P, lval, i, lex_map[kind].sym);
        P->depth += step;
        if (P->depth > PTX_MAX_DEPTH)
            return too_deep(P, P->toks[i].start);
    }
    return lex_map[kind].sym;
}
