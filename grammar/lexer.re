/*
 * lexer.re - PTX tokens (re2c).
 *
 * Whitespace and comments are trivia: they are skipped here and recovered
 * later as the gap between two tokens, so the tree stays lossless without
 * storing them.  The input must end with a NUL sentinel at src[size]; a NUL
 * inside the input is an error except inside comments.
 */
#include <string.h>
#include "front/lexer.h"

#define YYCTYPE unsigned char

/*!re2c
    re2c:api = default;
    re2c:define:YYCURSOR = cur;
    re2c:define:YYMARKER = mar;
    re2c:define:YYLIMIT = lim;
    re2c:yyfill:enable = 0;
    re2c:eof = 0;

    ws      = [ \t\r\f\v\n]+;
    idstart = [a-zA-Z_$];
    idchar  = [a-zA-Z0-9_$];
    ident   = idstart idchar* | "%" idchar+;
    part    = [a-zA-Z0-9_] [a-zA-Z0-9_$]* ("::" [a-zA-Z0-9_]+)*;
    word    = ident ("." part)*;
    dotname = "." [a-zA-Z_] idchar* ("::" [a-zA-Z0-9_]+)*;

    dec     = [1-9] [0-9]* | "0";
    hex     = "0" [xX] [0-9a-fA-F]+;
    oct     = "0" [0-7]+;
    bin     = "0" [bB] [01]+;
    int     = (dec | hex | oct | bin) "U"?;
    exp     = [eE] [+-]? [0-9]+;
    decflt  = [0-9]+ "." [0-9]* exp? | "." [0-9]+ exp? | [0-9]+ exp;
    hexflt  = "0" [fF] [0-9a-fA-F]{8} | "0" [dD] [0-9a-fA-F]{16};

    string  = "\"" ([^"\\\n\x00] | "\\" [^\n\x00])* "\"";
    bcomment = "/*" ([^*] | "*"+ [^*/])* "*"+ "/";
*/

/* Byte classes of an identifier-like word: W_ID idchar, W_PART the bytes
   of a `part`, W_START idstart (a word's first byte, as is '%' when an
   idchar follows). */
enum { W_ID = 1, W_PART = 2, W_START = 4 };
static const unsigned char word_class[256] = {
    ['a' ... 'z'] = W_ID | W_PART | W_START, ['A' ... 'Z'] = W_ID | W_PART | W_START,
    ['0' ... '9'] = W_ID | W_PART, ['_'] = W_ID | W_PART | W_START,
    ['$'] = W_ID | W_START,
};

/* The bytes of `ws`. */
static const unsigned char ws_byte[256] = {
    [' '] = 1, ['\t'] = 1, ['\r'] = 1, ['\f'] = 1, ['\v'] = 1, ['\n'] = 1,
};

/* p past the idchars from p, four a loop (a byte at a time cost a jump
   back for each): p[i + 1] is read only after p[i] is an idchar, so never
   past the NUL sentinel. */
static inline const unsigned char *skip_idchars(const unsigned char *p)
{
    for (;; p += 4) {
        if (!(word_class[p[0]] & W_ID))
            return p;
        if (!(word_class[p[1]] & W_ID))
            return p + 1;
        if (!(word_class[p[2]] & W_ID))
            return p + 2;
        if (!(word_class[p[3]] & W_ID))
            return p + 3;
    }
}

/* The rest of a `word` (see the definitions above) from p, just after its
   first idchar: the longest match, as the DFA would find it.  A loop over
   a table costs a third of the DFA's switch per byte, and words are most
   of the bytes of library PTX (mangled names hundreds of bytes long).
   p[1] and p[2] are read only after a '.' or "::" at p, so never past the
   NUL sentinel. */
static inline const unsigned char *scan_word(const unsigned char *p)
{
    p = skip_idchars(p);
    while (p[0] == '.' && (word_class[p[1]] & W_PART)) {    /* "." part */
        p = skip_idchars(p + 2);
        while (p[0] == ':' && p[1] == ':' && (word_class[p[2]] & W_PART)) {
            p += 3;
            while (word_class[*p] & W_PART)
                p++;
        }
    }
    return p;
}

/* The parser includes this file (PTX_LEX_INLINE defined) to get the
   scanner inlined into its yylex: no call, and *start and *len stay in
   registers.  The exported ptx_lex is compiled only in lexer.c's own
   object, for everyone else. */
static inline __attribute__((always_inline))
int lex_token(ptx_lexer *lx, uint32_t *start, uint32_t *len)
{
    const unsigned char *cur = lx->cur, *lim = lx->lim, *mar, *tok;
    int kind;

    for (;;) {
        /* A gap is skipped here: the DFA would take it as one more token
           to dispatch on, and gaps come between most tokens.  ws is the
           same set of bytes; the NUL sentinel is not in it. */
        while (ws_byte[*cur])
            cur++;
        tok = cur;
        /* A word (registers and opcodes: half the tokens of library PTX)
           without the DFA's dispatch: idstart and "%" idchar start a word
           and no other rule (see below).  Past an idchar after '%',
           scan_word(cur + 1) is where scan_word(cur + 2) is. */
        if ((word_class[*cur] & W_START) || (*cur == '%' && (word_class[cur[1]] & W_ID))) {
            cur = scan_word(cur + 1);
            kind = PTX_T_WORD;
            goto done;
        }
        /*!re2c
            $           { kind = PTX_T_EOF; goto done; }
            ws          { continue; }  /* newlines too: one pass per gap */
            "\xEF\xBB\xBF" { continue; }  /* a UTF-8 byte order mark is trivia */
            "//"        {
                /* the rest of the line, NULs included: memchr scans a
                   comment several bytes at a time, the DFA one */
                const unsigned char *nl = memchr(cur, '\n', (size_t)(lim - cur));
                cur = nl ? nl : lim;
                continue;
            }
            bcomment    { continue; }
            "/*"        { lx->err = "unterminated /* comment"; goto fail; }

            ".version"        { kind = PTX_T_VERSION; goto done; }
            ".target"         { kind = PTX_T_TARGET; goto done; }
            ".address_size"   { kind = PTX_T_ADDRESS_SIZE; goto done; }
            ".file"           { kind = PTX_T_FILE; goto done; }
            ".loc"            { kind = PTX_T_LOC; goto done; }
            ".section"        { kind = PTX_T_SECTION; goto done; }
            ".entry"          { kind = PTX_T_ENTRY; goto done; }
            ".func"           { kind = PTX_T_FUNC; goto done; }
            ".callprototype"  { kind = PTX_T_CALLPROTOTYPE; goto done; }
            ".calltargets"    { kind = PTX_T_CALLTARGETS; goto done; }
            ".branchtargets"  { kind = PTX_T_BRANCHTARGETS; goto done; }
            ".pragma"         { kind = PTX_T_PRAGMA; goto done; }
            ".alias"          { kind = PTX_T_ALIAS; goto done; }
            dotname           { kind = PTX_T_DOTNAME; goto done; }

            hexflt | decflt   { kind = PTX_T_FLOAT; goto done; }
            int               { kind = PTX_T_INT; goto done; }
            idstart | "%" idchar { cur = scan_word(cur); kind = PTX_T_WORD; goto done; }  /* (taken above) */
            string            { kind = PTX_T_STRING; goto done; }
            "\"" ([^"\\\n\x00] | "\\" [^\n\x00])* "\\"? [\x00] {
                /* (the sentinel at the end cannot match [\x00]: re2c checks
                   the limit there, so this is a NUL byte inside the input) */
                tok = cur - 1; lx->err = "NUL byte in a string"; goto fail; }
            "\""              { lx->err = "unterminated string"; goto fail; }
            "@@" [dD][wW][aA][rR][fF] [^\n\x00]* { kind = PTX_T_DWARF; goto done; }
            "#" [^\n\x00]*    { kind = PTX_T_PREPROC; goto done; }

            "<<"  { kind = PTX_T_SHL; goto done; }
            ">>"  { kind = PTX_T_SHR; goto done; }
            "<="  { kind = PTX_T_LE; goto done; }
            ">="  { kind = PTX_T_GE; goto done; }
            "=="  { kind = PTX_T_EQ; goto done; }
            "!="  { kind = PTX_T_NE; goto done; }
            "&&"  { kind = PTX_T_ANDAND; goto done; }
            "||"  { kind = PTX_T_OROR; goto done; }
            "{"   { kind = '{'; goto done; }  /* its own rule: lex_more's test
                                              for a table's '{' costs the
                                              other rules nothing */
            [,;:}()[\]<>+\-*/%!~&|^?=@] { kind = tok[0]; goto done; }

            [\x00]      { lx->err = "unexpected NUL byte"; goto fail; }
            [\x80-\xff] { lx->err = "unexpected non-ASCII byte outside a comment or string"; goto fail; }
            *           { lx->err = "unexpected character"; goto fail; }
        */
    }
done:
    lx->cur = cur;
    *start = (uint32_t)(tok - lx->src);
    *len = (uint32_t)(cur - tok);
    return kind;
fail:
    lx->cur = cur;
    *start = (uint32_t)(tok - lx->src);
    *len = 0;
    return -1;
}

/* From cur, the `INT ','` pairs of an initializer's table, each after at
   most one space, as lex_token would lex them, into t (up to end): a
   quarter of library PTX's tokens, where the DFA dispatches three times a
   value (space, digits, comma).  A `dec` integer (scan_dec) directly
   followed by ',' is a whole token: no longer token can match
   there (a float needs '.' or an exponent, a suffix 'U', a word a
   letter).  Stops at anything else, which lex_token lexes; digits stop at
   the NUL sentinel, so nothing past it is read.  Where there is room for
   less than a pair when it returns, it stopped for room. */
#ifdef PTX_LEX_INLINE
/* Whether the '{' token at brace (in the array from first) opens such a
   table: it follows '='. */
static inline int table_opens(const ptx_token *first, const ptx_token *brace)
{
    return brace > first && brace[-1].kind == '=';
}

/* Past the `dec` integer at p, a digit: [1-9][0-9]* or a lone 0.  It is
   a whole token where the byte after it goes on with no number or word
   (the callers check which).  Up to two digits after the first (most
   values are bytes) without a branch on how many, where p[2] is in the
   text (p[1] may be the sentinel at lim); digits stop at the sentinel. */
static inline const unsigned char *scan_dec(const unsigned char *p, const unsigned char *lim)
{
    const unsigned char *q = p + 1;
    unsigned more = *p != '0';
    if (q < lim) {
        unsigned d1 = more & ((unsigned)(q[0] - '0') < 10u);
        q += d1 + (d1 & ((unsigned)(q[1] - '0') < 10u));
    }
    while (more & ((unsigned)(*q - '0') < 10u))
        q++;
    return q;
}

/* Byte classes for lex_after_word: OP_PUNCT, the punctuation it takes,
   each a token of its own ([,;:}()[\]...] above) that no longer token
   starts with (not '{': a table's opens with one, lex_batch); OP_INT_END,
   the bytes after which digits are a whole `dec` integer (no number or
   word goes on with them). */
enum { OP_PUNCT = 1, OP_INT_END = 2 };
static const unsigned char operand_class[256] = {
    [','] = OP_PUNCT | OP_INT_END, [';'] = OP_PUNCT | OP_INT_END,
    [']'] = OP_PUNCT | OP_INT_END, ['}'] = OP_PUNCT | OP_INT_END,
    ['['] = OP_PUNCT, ['+'] = OP_PUNCT, ['-'] = OP_PUNCT, [':'] = OP_PUNCT,
};

/* After a word at cur (lex_token's last token): the operands that follow,
   as lex_token would lex them, into t (up to end), where they are
   registers, the punctuation above and decimal integers, each after at
   most one blank: the commonest tokens of library PTX (a register and the
   ',' after it are half), each of which cost the DFA's dispatch.  "%"
   idchar starts a word and nothing else (lex_token).  Stops after a ';'
   (a new line follows) and at anything else, which lex_token lexes. */
static inline ptx_token *lex_after_word(ptx_lexer *lx, ptx_token *t, const ptx_token *end)
{
    const unsigned char *cur = lx->cur, *src = lx->src, *lim = lx->lim;
    while (t < end) {
        unsigned char c = *cur;
        if (c == ' ' || c == '\t')
            c = *++cur;
        if (operand_class[c] & OP_PUNCT) {
            *t++ = (ptx_token){ (uint32_t)(cur - src), 1, c };
            cur++;
            if (c == ';')
                break;
            continue;
        }
        const unsigned char *q = cur + 1;
        if (c == '%' && (word_class[*q] & W_ID)) {
            q = scan_word(q + 1);
            *t++ = (ptx_token){ (uint32_t)(cur - src), (uint32_t)(q - cur), PTX_T_WORD };
        } else if ((unsigned)(c - '0') < 10u) {
            q = scan_dec(cur, lim);
            if (!(operand_class[*q] & OP_INT_END))
                break;
            *t++ = (ptx_token){ (uint32_t)(cur - src), (uint32_t)(q - cur), PTX_T_INT };
        } else {
            break;
        }
        cur = q;
    }
    lx->cur = cur;
    return t;
}

static __attribute__((noinline))
ptx_token *lex_int_run(ptx_lexer *lx, ptx_token *t, const ptx_token *end)
{
    const unsigned char *cur = lx->cur, *src = lx->src, *lim = lx->lim;
    while (end - t >= 2) {
        const unsigned char *p = cur + (*cur == ' ');
        if ((unsigned)(*p - '0') >= 10u)
            break;
        const unsigned char *q = scan_dec(p, lim);
        if (*q != ',')
            break;
        t[0] = (ptx_token){ (uint32_t)(p - src), (uint32_t)(q - p), PTX_T_INT };
        t[1] = (ptx_token){ (uint32_t)(q - src), 1, ',' };
        t += 2;
        cur = q + 1;
    }
    lx->cur = cur;
    return t;
}
#else
int ptx_lex(ptx_lexer *lx, uint32_t *start, uint32_t *len)
{
    return lex_token(lx, start, len);
}
#endif
