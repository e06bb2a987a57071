/* nodes.c - the tree nodes the grammar's actions build (grammar/parser.y
   calls them by short names: mk_expr, leaf, stmt, ...). */
#include <stdio.h>
#include <string.h>
#include "front/parser_state.h"

#define NEW(T) ((T *)ptx_arena_alloc(P->m->arena, sizeof(T)))

ptx_expr *ptx_node_expr(ptx_parser *P, int kind, uint32_t tok, ptx_expr *a,
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
        /* (an initializer's rest has no '{': the piece fails, and the
           whole module, which has it, says where) */
        P->err_offset = tok != PTX_NOTOK ? P->m->toks[tok].start : 0;
        return NULL;
    }
    e->depth = (uint16_t)(d + 1);
    return e;
}

ptx_spec *ptx_node_spec(ptx_parser *P, uint32_t tok, ptx_expr *arg)
{
    ptx_spec *s = NEW(ptx_spec);
    s->tok = tok;
    s->arg = arg;
    return s;
}

ptx_expr *ptx_node_last(ptx_expr *e)
{
    while (e->next)
        e = e->next;
    return e;
}

/* The integers in one allocation, each with the ',' after it but the last
   (whose ',' the list's next element sets, as `exprlist COMMA ...` does),
   spliced in after the list's last element. */
ptx_expr *ptx_node_int_run(ptx_parser *P, ptx_expr *list, ptx_fused r)
{
    ptx_expr *v = ptx_arena_alloc_filled(P->m->arena, r.n * sizeof *v);
    for (uint32_t k = 0; k < r.n; k++)
        v[k] = (ptx_expr){ .kind = PTX_E_INT, .depth = 1, .tok = r.tok + 2 * k + 1,
                           .open = PTX_NOTOK, .close = PTX_NOTOK,
                           .sep = r.tok + 2 * k + 2, .next = &v[k + 1] };
    v[r.n - 1].sep = PTX_NOTOK;
    v[r.n - 1].next = list->next;
    list->sep = r.tok;
    list->next = v;
    return &v[r.n - 1];
}

ptx_stmt *ptx_node_stmt(ptx_parser *P, int kind, uint32_t first)
{
    ptx_stmt *s = NEW(ptx_stmt);
    s->kind = (uint32_t)kind;
    s->first = first;
    return s;
}

ptx_stmt *ptx_node_dir(ptx_parser *P, int kind, uint32_t dir,
                          ptx_expr *args, uint32_t semi)
{
    ptx_stmt *s = ptx_node_stmt(P, kind, dir);
    s->u.dir.label = s->u.dir.colon = PTX_NOTOK;
    s->u.dir.dir = dir;
    s->u.dir.args = args;
    s->u.dir.semi = semi;
    return s;
}

ptx_stmt *ptx_node_func(ptx_parser *P, ptx_spec *specs, ptx_func *f)
{
    f->specs = specs;
    ptx_stmt *s = ptx_node_stmt(P, PTX_S_FUNC, specs ? specs->tok : f->kw);
    s->u.func = *f;
    return s;
}

ptx_block *ptx_node_block(ptx_parser *P, uint32_t lbrace, ptx_stmt *stmts,
                          uint32_t rbrace)
{
    ptx_block *b = NEW(ptx_block);
    b->lbrace = lbrace;
    b->stmts = stmts;
    b->rbrace = rbrace;
    return b;
}

ptx_stmt *ptx_node_body_piece(ptx_parser *P, ptx_stmt *stmts, uint32_t rbrace)
{
    if (!stmts && rbrace == PTX_NOTOK)
        return NULL;
    ptx_stmt *s = ptx_node_stmt(P, PTX_S_BLOCK, stmts ? stmts->first : rbrace);
    s->u.block.lbrace = PTX_NOTOK;
    s->u.block.stmts = stmts;
    s->u.block.rbrace = rbrace;
    return s;
}

/* A variable of one declarator whose initializer is the list `values`
   (a piece's part of it: any of the tokens may be PTX_NOTOK); NULL where
   the list is nested too deep (ptx_node_expr said so). */
static ptx_stmt *list_var(ptx_parser *P, ptx_spec *specs, uint32_t first,
                          uint32_t name, ptx_dim *dims, uint32_t eq, uint32_t lbrace,
                          ptx_expr *values, uint32_t rbrace, uint32_t semi)
{
    ptx_declarator *d = NEW(ptx_declarator);
    ptx_expr *init = ptx_node_expr(P, PTX_E_VECTOR, lbrace, values, NULL, NULL);
    if (!init)
        return NULL;
    init->close = rbrace;
    d->name = name;
    d->lt = d->count = d->gt = d->sep = PTX_NOTOK;
    d->dims = dims;
    d->eq = eq;
    d->init = init;
    ptx_stmt *s = ptx_node_stmt(P, PTX_S_VAR, first);
    s->u.var.specs = specs;
    s->u.var.decls = d;
    s->u.var.semi = semi;
    return s;
}

ptx_stmt *ptx_node_open_var(ptx_parser *P, ptx_spec *specs, uint32_t name,
                            ptx_dim *dims, uint32_t eq, uint32_t lbrace,
                            ptx_expr *values)
{
    return list_var(P, specs, specs->tok, name, dims, eq, lbrace, values,
                    PTX_NOTOK, PTX_NOTOK);
}

/* Nameless, and its initializer without '{': the printers print no more
   than its values, '}' and ';'.  It starts with the piece's first token. */
ptx_stmt *ptx_node_init_piece(ptx_parser *P, ptx_expr *values, uint32_t rbrace,
                              uint32_t semi)
{
    return list_var(P, NULL, 0, PTX_NOTOK, NULL, PTX_NOTOK, PTX_NOTOK, values,
                    rbrace, semi);
}

/* Bit 7 of each byte of the result is set where v has a '.' byte. */
static inline uint64_t dot_bytes(uint64_t v)
{
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL;
    v ^= 0x2e2e2e2e2e2e2e2eULL; /* '.' -> 0 */
    return ~(((v & lo7) + lo7) | v | lo7);
}

/* Runs the statements given with `at` set to the offset of each '.' in
   p[0..n), eight bytes at a time where the byte order allows: opcode
   words are long (wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16)
   and this ran a byte at a time twice per instruction. */
#define FOR_EACH_DOT(p, n, at, ...)                                   \
    do {                                                              \
        uint32_t i_ = 0;                                              \
        if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)                \
            for (; i_ + 8 <= (n); i_ += 8) {                          \
                uint64_t v_;                                          \
                memcpy(&v_, (p) + i_, 8);                             \
                for (uint64_t z_ = dot_bytes(v_); z_; z_ &= z_ - 1) { \
                    uint32_t at = i_ + (uint32_t)(__builtin_ctzll(z_) >> 3); \
                    __VA_ARGS__;                                      \
                }                                                     \
            }                                                         \
        for (; i_ < (n); i_++)                                        \
            if ((p)[i_] == '.') {                                     \
                uint32_t at = i_;                                     \
                __VA_ARGS__;                                          \
            }                                                         \
    } while (0)

/* ld.global.v4.u32 -> opcode "ld", modifiers global, v4, u32.  One scan
   records the dots (opcode words have a dozen at most); a word with more
   than fit is scanned a second time. */
static void split_opcode(ptx_parser *P, ptx_instr *in)
{
    enum { MAX_DOTS = 32 };
    ptx_str w = ptx_tok_str(P->m, in->op);
    uint32_t dots[MAX_DOTS], n = 0;
    FOR_EACH_DOT(w.p, w.n, at, { if (n < MAX_DOTS) dots[n] = at; n++; });
    in->opcode = (ptx_str){ w.p, n ? dots[0] : w.n };
    if (!n)
        return;
    /* every element is set below */
    ptx_str *mods = ptx_arena_alloc_filled(P->m->arena, n * sizeof *mods);
    if (n > MAX_DOTS) {
        uint32_t k = 0;
        FOR_EACH_DOT(w.p, w.n, at, { mods[k++].p = w.p + at + 1; });
        for (uint32_t i = 0; i + 1 < n; i++)
            mods[i].n = (uint32_t)(mods[i + 1].p - mods[i].p - 1);
    } else {
        for (uint32_t i = 0; i + 1 < n; i++)
            mods[i] = (ptx_str){ w.p + dots[i] + 1, dots[i + 1] - dots[i] - 1 };
        mods[n - 1].p = w.p + dots[n - 1] + 1;
    }
    mods[n - 1].n = (uint32_t)(w.p + w.n - mods[n - 1].p);
    in->mods = mods;
    in->nmods = n;
}

/* The operands an INSTR token's instructions may have: one token (a
   name, number or string), or one after '-' (`-1`, a negative immediate);
   an address of a name, `[a]`, `[a+INT]` or `[a+-INT]`; a vector of
   one-token elements, `{a, b}`. */
static inline int one_token_operand(uint32_t kind)
{
    return kind == PTX_T_WORD || kind == PTX_T_INT || kind == PTX_T_FLOAT ||
           kind == PTX_T_STRING;
}

/* The index after the operand of the other shapes at toks[j], or 0 where
   there is none before lim. */
static uint32_t fused_operand_end(const ptx_token *t, uint32_t j, uint32_t lim)
{
    if (j + 1 < lim && t[j].kind == '-' && one_token_operand(t[j + 1].kind))
        return j + 2;
    if (j + 2 < lim && t[j].kind == '[' && t[j + 1].kind == PTX_T_WORD) {
        if (t[j + 2].kind == ']')
            return j + 3;
        uint32_t k = j + 3 + (j + 3 < lim && t[j + 3].kind == '-');
        if (k + 1 < lim && t[j + 2].kind == '+' && t[k].kind == PTX_T_INT &&
            t[k + 1].kind == ']')
            return k + 2;
        return 0;
    }
    if (j < lim && t[j].kind == '{') {
        for (j++; j + 1 < lim && one_token_operand(t[j].kind); j += 2)
            if (t[j + 1].kind == '}')
                return j + 2;
            else if (t[j + 1].kind != ',')
                return 0;
    }
    return 0;
}

/* The operand of a shape fused_operand_end takes (but one token), from
   toks[i] to before toks[end], as `exprlist` and `cexpr` build it. */
static ptx_expr *fused_operand(ptx_parser *P, uint32_t i, uint32_t end)
{
    const ptx_token *t = P->m->toks;
    ptx_expr *e, *a;
    switch (t[i].kind) {
    case '-':   /* -x */
        return ptx_node_expr(P, PTX_E_UNARY, i, ptx_node_leaf(P, i + 1), NULL, NULL);
    case '[':
        a = ptx_node_leafk(P, i + 1, PTX_E_NAME);
        if (end - i > 3) {  /* a+N, a+-N */
            ptx_expr *n = ptx_node_leafk(P, end - 2, PTX_E_INT);
            if ((end - i == 6 &&
                 !(n = ptx_node_expr(P, PTX_E_UNARY, i + 3, n, NULL, NULL))) ||
                !(a = ptx_node_expr(P, PTX_E_BINARY, i + 2, a, n, NULL)))
                return NULL;
        }
        break;
    default: {  /* '{' */
        ptx_expr **link = &a;
        for (uint32_t k = i + 1; k < end; k += 2) {
            *link = ptx_node_leaf(P, k);
            (*link)->sep = k + 2 < end ? k + 1 : PTX_NOTOK;
            link = &(*link)->next;
        }
        *link = NULL;
        break;
    }
    }
    if (!(e = ptx_node_expr(P, t[i].kind == '[' ? PTX_E_ADDRESS : PTX_E_VECTOR, i,
                            a, NULL, NULL)))
        return NULL;
    e->close = end - 1;
    return e;
}

/* The instruction at toks[*next], `[@[!]pred] op [operand {, operand}] ;`
   with operands of the shapes fused_operand_end takes, each with the ','
   after it but the last; *next becomes the index past its ';'.  NULL
   where the tokens before lim are not such an instruction, or a builder
   failed (P->err).  The shape is checked as it is built: a pass over the
   tokens to check it first cost a second mispredicted branch at the end
   of every operand list. */
static ptx_stmt *fused_instr(ptx_parser *P, uint32_t *next, uint32_t lim)
{
    const ptx_token *t = P->m->toks;
    uint32_t i = *next;
    uint32_t at = PTX_NOTOK, bang = PTX_NOTOK, pred = PTX_NOTOK;
    if (t[i].kind == '@') {
        at = i++;
        if (i < lim && t[i].kind == '!')
            bang = i++;
        if (i >= lim || t[i].kind != PTX_T_WORD)
            return NULL;
        pred = i++;
    }
    if (i + 1 >= lim || t[i].kind != PTX_T_WORD)
        return NULL;
    uint32_t op = i++;
    ptx_expr *operands = NULL, **link = &operands;
    for (int more = t[i].kind != ';'; more; link = &(*link)->next) {
        uint32_t end;   /* an operand, then ',' and the next, or ';' */
        /* most operands are one token: no shape to find */
        if (i < lim && one_token_operand(t[i].kind)) {
            end = i + 1;
            *link = ptx_node_leaf(P, i);
        } else {
            end = fused_operand_end(t, i, lim);
            if (!end || !(*link = fused_operand(P, i, end)))
                return NULL;
        }
        if (end >= lim || (t[end].kind != ',' && t[end].kind != ';'))
            return NULL;
        more = t[end].kind == ',';
        (*link)->sep = more ? end : PTX_NOTOK;
        i = end + more;
    }
    *link = NULL;
    *next = i + 1;
    return ptx_node_instr(P, at, bang, pred, op, operands, i);
}

ptx_stmt *ptx_node_run(ptx_parser *P, uint32_t i, uint32_t lim, uint32_t *end)
{
    const ptx_token *t = P->m->toks;
    ptx_stmt *first = NULL, **link = &first, *s;
    ptx_stmt *kept = NULL;                  /* the last instruction */
    ptx_arena_mark mark = ptx_arena_here(P->m->arena);
    *end = i;
    while (i < lim) {
        if (i + 1 < lim && t[i + 1].kind == ':' && t[i].kind == PTX_T_WORD) {
            s = ptx_node_label(P, i, i + 1);  /* kept if an instruction follows */
            i += 2;
        } else if ((s = fused_instr(P, &i, lim))) {
            kept = s;
            *end = i;
            mark = ptx_arena_here(P->m->arena);
        } else {
            break;
        }
        *link = s;
        link = &s->next;
    }
    /* what follows the last instruction is not part of the run */
    ptx_arena_back(P->m->arena, mark);
    if (kept)   /* circular, as the grammar's lists are while built (parser.y) */
        kept->next = first;
    return kept;
}

ptx_stmt *ptx_node_label(ptx_parser *P, uint32_t name, uint32_t colon)
{
    ptx_stmt *s = ptx_node_stmt(P, PTX_S_LABEL, name);
    s->u.label.name = name;
    s->u.label.colon = colon;
    return s;
}

ptx_stmt *ptx_node_instr(ptx_parser *P, uint32_t at, uint32_t bang,
                       uint32_t pred, uint32_t op, ptx_expr *operands,
                       uint32_t semi)
{
    ptx_stmt *s = ptx_node_stmt(P, PTX_S_INSTR, at != PTX_NOTOK ? at : op);
    ptx_instr *in = &s->u.instr;
    in->at = at;
    in->bang = bang;
    in->pred = pred;
    in->op = op;
    in->operands = operands;
    in->semi = semi;
    if (P->whole_opcodes)
        in->opcode = ptx_tok_str(P->m, op);
    else
        split_opcode(P, in);
    return s;
}

/* ---- for syntax error messages (parser.y yyreport_syntax_error) */

/* Declaration specifiers and directives the grammar takes as a DOTNAME; a
   syntax error in a statement that starts with any other DOTNAME is
   reported as an unknown directive. */
int ptx_known_dotname(ptx_str s)
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
uint32_t ptx_line_start_token(const ptx_module *m, uint32_t t)
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
