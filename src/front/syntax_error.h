/*
 * syntax_error.h - how the parser reports a syntax error: ptx_yyerror and
 * bison's yyreport_syntax_error (parse.error custom), which name the
 * expected tokens most likely forgotten, an unknown directive, and where.
 *
 * Included once, by grammar/parser.y, after bison's own definitions (it
 * uses yypcontext_t, the symbol numbers and ptx_parser).
 */

/* A piece of a parallel parse that fails says no more: the serial parse
   that follows says what is wrong (and the tokens after the piece may be
   being copied meanwhile).  Nor does a parse that was given fused tokens:
   the parse without them that follows does (parse.c). */
static int piece_error(ptx_parser *P)
{
    if (!P->prelexed && !P->fused)
        return 0;
    P->err = "syntax error";
    return 1;
}

/* The lookahead token, where a syntax error is reported: the last token
   the parser read (the lookahead is always read when an error is found,
   and when the stack overflows it is the last token read).  The lexer
   may have run further ahead (yylex.h), so the tokens counted here are
   those read: P->next.  A piece of a parallel parse never reports an
   error (piece_error). */
static uint32_t lookahead_tok(const ptx_parser *P)
{
    return P->next ? P->next - 1 : 0;
}

static void ptx_yyerror(ptx_parser *P, const char *msg)
{
    if (P->err)
        return; /* the lexer already said what went wrong */
    if (piece_error(P))
        return;
    /* Bison's stack (YYMAXDEPTH) only overflows on right-recursive
       expressions (- - - x, a = b = ..., a ? b : c ? ...) nested far deeper
       than PTX_MAX_DEPTH: say so rather than "memory exhausted". */
    if (strcmp(msg, "memory exhausted") == 0)
        snprintf(P->errbuf, sizeof P->errbuf,
                 "expression nested deeper than %d", PTX_MAX_DEPTH);
    else
        snprintf(P->errbuf, sizeof P->errbuf, "%s", msg);
    P->err = P->errbuf;
    uint32_t at = lookahead_tok(P);
    P->err_offset = at < P->next ? P->m->toks[at].start : 0;
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
    if (piece_error(P))
        return 0;
    enum { MAX = 4 };
    yysymbol_kind_t exp[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, exp, YYNTOKENS);
    if (n < 0)
        return n == YYENOMEM ? 2 : 0;
    /* a module's first state also expects the pieces' start tokens, which
       no text has (the list is the one the state after it gives), and
       states expect fused tokens, which a parse that reports has none of */
    int kept = 0;
    for (int j = 0; j < n; j++)
        if (exp[j] != YYSYMBOL_PIECE_TOP && exp[j] != YYSYMBOL_PIECE_BODY &&
            exp[j] != YYSYMBOL_PIECE_INIT && exp[j] != YYSYMBOL_RUN &&
            exp[j] != YYSYMBOL_INSTR)
            exp[kept++] = exp[j];
    n = kept;
    yysymbol_kind_t tok = yypcontext_token(ctx);
    ptx_module *m = P->m;
    uint32_t at = lookahead_tok(P);
    P->err_offset = at < P->next ? m->toks[at].start : 0;
    uint32_t lasttok = at;

    /* an unknown directive starting the line: say that */
    if (P->next) {
        uint32_t first = ptx_line_start_token(m, lasttok);
        if (m->toks[first].kind == PTX_T_DOTNAME &&
            !ptx_known_dotname(ptx_tok_str(m, first))) {
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
            YYSYMBOL_COMMA, YYSYMBOL_SEMI,
            YYSYMBOL_RPAREN, YYSYMBOL_RBRACK,
            YYSYMBOL_RBRACE,
        };
        int k = 0, word = 0, dot = 0, at_sign = 0, intlit = 0;
        for (int j = 0; j < n; j++) {
            word |= exp[j] == YYSYMBOL_WORD;
            dot |= exp[j] == YYSYMBOL_DOTNAME;
            at_sign |= exp[j] == YYSYMBOL_AT;
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
         tok == YYSYMBOL_FLOAT) && P->next) {
        ptx_str sp = ptx_tok_str(m, lasttok);
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
