/*
 * sugar/outline_text.c - pass "outline": statements as the Python the
 * printer writes for them, tokenized, and the names a run of them binds.
 *
 * The outline pass runs last, so what it compares is exactly what will be
 * printed.  A token's role says how copies may differ there: an attribute
 * (`.cg`), a keyword argument's name or a Python keyword never; a name
 * read may (a parameter); a name bound at the start of a line (`x = `,
 * `x += `, `for x in`) only as outline.c allows.  Text the pass cannot
 * follow (a prefixed string, a keyword such as def, return or as, a
 * statement that prints nothing, a label) makes the statement unmovable.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/outline.h"

/* ---- printed text ----------------------------------------------------- */

static int is_id0(int c) { return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z'); }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_id(int c) { return is_id0(c) || is_digit(c); }

/* Operators longest first; the rest are one byte. */
static const char *const ops[] = {
    "<<=", ">>=", "**=", "//=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", ":=",
};

/* Python keywords a block may hold; any other makes it unmovable. */
static const char *const fine_kw[] = {
    "for", "in", "with", "if", "else", "not", "and", "or", "is", "None", "True", "False",
};

int ol_tok_is(const outliner *o, const tok *t, const char *s)
{
    size_t n = strlen(s);
    return t->n == n && !memcmp(o->src.p + t->at, s, n);
}

static void push(outliner *o, tok t)
{
    o->t = ol_append(&o->tb, &t, sizeof t);
    o->nt++;
}

/* One token at p[i]; returns its length, 0 for text the pass leaves. */
static uint32_t scan(const char *p, uint32_t i, uint32_t n, uint8_t *kind)
{
    uint32_t j = i;
    *kind = T_OTHER;
    if (is_id0(p[i])) {
        while (j < n && is_id(p[j]))
            j++;
        if (j < n && (p[j] == '"' || p[j] == '\''))
            return 0;                  /* a prefixed string */
        *kind = T_NAME;
        return j - i;
    }
    if (is_digit(p[i])) {
        while (j < n && (is_id(p[j]) || p[j] == '.'))
            j++;
        if (cg_is_decimal(p + i, j - i))
            *kind = T_INT;
        return j - i;
    }
    if (p[i] == '"' || p[i] == '\'') {
        for (j = i + 1; j < n && p[j] != p[i] && p[j] != '\n'; j++)
            if (p[j] == '\\')
                j++;
        return j < n && p[j] == p[i] ? j + 1 - i : 0;
    }
    for (unsigned k = 0; k < sizeof ops / sizeof *ops; k++) {
        size_t l = strlen(ops[k]);
        if (l <= n - i && !memcmp(p + i, ops[k], l))
            return (uint32_t)l;
    }
    return 1;
}

/* Where a compound statement's header ends with a ':' that the line
   goes on after (`with ptx.expr(): r4 &= x`), the ':''s index, else 0. */
static uint32_t header_colon(const outliner *o, const tok *t, uint32_t n)
{
    for (uint32_t i = 1; i + 1 < n; i++)
        if (!t[i].depth && ol_tok_is(o, &t[i], ":"))
            return i;
    return 0;
}

/* Roles of the names of one logical line t[0..n); 0 if it holds a
   keyword that a block must not (def, return, as ...). */
static int line_roles(outliner *o, tok *t, uint32_t n)
{
    uint32_t i = 0, c = header_colon(o, t, n);
    if (c && t[0].kind == T_NAME && !ol_tok_is(o, &t[0], "for")) {
        /* the header binds nothing (with, if, else); the statement after
           its ':' is a line of its own */
        if (!line_roles(o, t + c + 1, n - c - 1))
            return 0;
        n = c;
    } else if (n && t[0].kind == T_NAME && ol_tok_is(o, &t[0], "for")) {
        for (i = 1; i < n && t[i].kind == T_NAME && !ol_tok_is(o, &t[i], "in"); i += 2)
            t[i].role = R_FOR;
    } else {
        while (i + 1 < n && t[i].kind == T_NAME && ol_tok_is(o, &t[i + 1], ","))
            i += 2;
        if (i + 1 < n && t[i].kind == T_NAME && ol_tok_is(o, &t[i + 1], "="))
            for (uint32_t j = 0; j <= i; j += 2)
                t[j].role = R_BIND;
        else if (n > 1 && t[0].kind == T_NAME && t[1].n >= 2 &&
                 o->src.p[t[1].at + t[1].n - 1] == '=' && !ol_tok_is(o, &t[1], "==") &&
                 !ol_tok_is(o, &t[1], "<=") && !ol_tok_is(o, &t[1], ">=") &&
                 !ol_tok_is(o, &t[1], "!=") && !ol_tok_is(o, &t[1], ":="))
            t[0].role = R_AUG;
    }
    for (i = 0; i < n; i++) {
        if (t[i].kind != T_NAME || t[i].role != R_READ)
            continue;
        if (cg_py_keyword(o->src.p + t[i].at, t[i].n)) {
            unsigned k = 0;
            while (k < sizeof fine_kw / sizeof *fine_kw && !ol_tok_is(o, &t[i], fine_kw[k]))
                k++;
            if (k == sizeof fine_kw / sizeof *fine_kw)
                return 0;
            t[i].role = R_FIXED;
        } else if ((i && ol_tok_is(o, &t[i - 1], ".")) ||
                   (t[i].depth && i + 1 < n && ol_tok_is(o, &t[i + 1], "="))) {
            t[i].role = R_FIXED;    /* an attribute, a keyword argument */
        }
    }
    return 1;
}

static int label_opnd(void *ctx, cg_opnd *o)
{
    const cg_kernel *k = ctx;
    if (o->kind == CG_O_SYM && o->sym != CG_NOSYM && k->syms[o->sym].kind == CG_SYM_LABEL)
        return SG_VISIT_STOP;
    for (uint32_t i = 0, n = sg_text_names(o) ? o->text.n : 0; i < n; i++)
        if (o->text.v[i].sym != CG_NOSYM && k->syms[o->text.v[i].sym].kind == CG_SYM_LABEL)
            return SG_VISIT_STOP;
    return SG_VISIT_ON;
}

/* Statements that may not move into a helper: a label, or a name of one
   (the spellings of labels may still change after the passes: driver.c),
   and comment lines (one copy's would stand for all). */
static int unmovable_stmt(void *ctx, cg_stmt **link)
{
    const cg_stmt *s = *link;
    return s->kind == CG_S_LABEL || s->kind == SG_S_LOOP || s->kind == CG_S_COMMENT ||
           sg_visit_stmt_opnds(s, label_opnd, ctx) ? SG_VISIT_STOP : SG_VISIT_ON;
}

static int unmovable(const cg_kernel *k, const cg_stmt *s)
{
    return sg_visit_list(s, unmovable_stmt, (void *)k);
}

/* Prints and tokenizes statement s into a new text. */
static int32_t print_one(outliner *o, const cg_stmt *s)
{
    text x = { .at = (uint32_t)o->src.n, .tok = o->nt, .ok = 1 };
    cg_stmt one = *s;
    one.next = NULL;
    cg_print_stmts(o->m, o->k, &one, 1, &o->src);
    x.n = (uint32_t)o->src.n - x.at;
    const char *p = o->src.p + x.at;
    uint32_t depth = 0, line = o->nt;
    if (x.n == 9 && !memcmp(p, "    pass\n", 9))
        x.ok = 0;                       /* it prints nothing */
    for (uint32_t i = 0; i < x.n && x.ok;) {
        uint8_t kind;
        uint32_t l;
        if (p[i] == ' ') {
            i++;
        } else if (p[i] == '#') {
            while (i < x.n && p[i] != '\n')
                i++;
        } else if (p[i] == '\n') {
            if (!depth) {
                x.lines++;
                x.ok = line_roles(o, o->t + line, o->nt - line);
                push(o, (tok){ .at = x.at + i, .kind = T_EOL });
                line = o->nt;
            }
            i++;
        } else if (!(l = scan(p, i, x.n, &kind))) {
            x.ok = 0;
        } else {
            if (l == 1 && strchr(")]}", p[i]) && depth)
                depth--;
            push(o, (tok){ .at = x.at + i, .n = l, .kind = kind, .depth = (uint8_t)depth });
            if (l == 1 && strchr("([{", p[i]) && ++depth > 200)
                x.ok = 0;
            i += l;
        }
    }
    x.ntok = o->nt - x.tok;
    x.ok &= !depth && !unmovable(o->k, s);
    o->tx = ol_append(&o->xb, &x, sizeof x);
    return (int32_t)o->ntx++;
}

const text *ol_text(outliner *o, uint32_t i)
{
    if (o->v[i].text < 0)
        o->v[i].text = print_one(o, o->v[i].s);
    return &o->tx[o->v[i].text];
}

/* ---- what a copy binds ------------------------------------------------ */

int ol_name_at(const outliner *o, const names *nm, const tok *t)
{
    for (uint32_t i = 0; i < nm->cnt; i++)
        if (nm->n[i] == t->n && !memcmp(o->src.p + nm->at[i], o->src.p + t->at, t->n))
            return (int)i;
    return -1;
}

static cg_symid sym_named(outliner *o, const char *p, uint32_t n)
{
    if (!o->pysym.n)
        for (uint32_t s = 0; s < o->k->nsyms; s++) {
            const cg_sym *y = &o->k->syms[s];
            if (cg_sym_is_reg(y) && y->py)
                cg_map_put(o->m, &o->pysym, y->py, strlen(y->py))->val = (int32_t)s;
        }
    cg_mslot *sl = cg_map_get(&o->pysym, p, n);
    return sl ? (cg_symid)sl->val : CG_NOSYM;
}

static void count_run(outliner *o, uint32_t at, uint32_t len, int undo)
{
    for (uint32_t i = at; i < at + len; i++) {
        cg_stmt one = *o->v[i].s;
        one.next = NULL;
        (undo ? sg_uncount_refs : sg_count_refs)(&one, o->inrun);
    }
}

/* The names statements at..at+len bind, and which are the copy's own (a
   register nothing outside names).  0 if there are too many. */
int ol_bound_names(outliner *o, uint32_t at, uint32_t len, names *nm)
{
    nm->cnt = 0;
    if (!o->refs) {
        o->refs = cg_alloc(o->m, (o->k->nsyms + 1) * sizeof *o->refs);
        o->inrun = cg_alloc(o->m, (o->k->nsyms + 1) * sizeof *o->inrun);
        sg_count_refs(o->k->body, o->refs);
    }
    for (uint32_t i = at; i < at + len; i++)
        if (!ol_text(o, i)->ok)
            return 0;
    count_run(o, at, len, 0);
    int ok = 1;
    for (uint32_t i = at; i < at + len && ok; i++) {
        const text *x = ol_text(o, i);
        for (uint32_t j = x->tok; j < x->tok + x->ntok && ok; j++) {
            const tok *t = &o->t[j];
            if (t->kind != T_NAME || t->role < R_BIND || ol_name_at(o, nm, t) >= 0)
                continue;
            if (nm->cnt == MAXNAMES) {
                ok = 0;
                break;
            }
            cg_symid s = t->role == R_BIND ? sym_named(o, o->src.p + t->at, t->n) : CG_NOSYM;
            nm->at[nm->cnt] = t->at;
            nm->n[nm->cnt] = t->n;
            nm->role[nm->cnt] = t->role;
            nm->local[nm->cnt] = s != CG_NOSYM && o->refs[s] == o->inrun[s];
            nm->cnt++;
        }
    }
    count_run(o, at, len, 1);
    return ok;
}

