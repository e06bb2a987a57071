/*
 * units.c - cut a module into units of comparable lines.
 *
 * A line's key is the sequence of its tokens (so formatting and comments
 * never count), with declared names replaced by placeholders where an
 * option asks for it.  Placeholders are numbered in order of first
 * appearance: per function for labels, parameters, variables and registers
 * (registers per declared type), per module for functions and globals.  Two
 * units that differ only by a consistent renaming therefore get the same
 * keys.  Placeholders start with byte 0x02, which no PTX token contains.
 *
 * Each unit is built in three steps: walk the statements (collecting the
 * declarations and the lines), with --ignore-debug drop the labels that no
 * code refers to, then build and intern the keys in order.
 *
 * A function's keys depend on the module's globals and on nothing of any
 * other function, so functions are built on threads (sides.c), each thread
 * with a fork of the side's normaliser: the globals shared read-only, its
 * own names, storage and interner.  What the module unit needs of them
 * (the placeholders of functions' labels and parameters, first function
 * first) is joined back in function order, so the keys are the serial
 * build's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/internal.h"
#include "front/debug.h"
#include "util/alloc.h"
#include "util/buf.h"

/* Kinds of declared names; N_FLABEL / N_FVAR: a function's label / variable
   (parameter) as module-level debug sections refer to it. */
enum { N_LABEL, N_REG, N_RANGE, N_VAR, N_GLOBAL, N_MLABEL, N_FLABEL, N_FVAR };

typedef struct nent {
    uint8_t cat;
    int32_t num;        /* placeholder number, -1 until first appearance */
    uint32_t count;     /* N_RANGE: the N of name<N> */
    ptx_str ph;         /* N_REG/N_RANGE: type; N_F*: placeholder */
} nent;

/* A function's label or parameter, under the name module-level debug
   data uses for it. */
typedef struct fexport {
    ptx_str name;
    nent e;
} fexport;

struct norm {
    side *sd;
    const ptx_module *m;
    unsigned flags;
    interner *in;
    smap local, global, flabels, types;    /* a fork's global: its parent's,
                                              read-only */
    smap ranges;        /* name<N> prefixes: apart, as %t and %t<2> may
                           both be declared (in different blocks) */
    nent *ents;         /* module names, then the current function's */
    size_t nents, cap, nglobal;
    fexport *fl;        /* N_F* entries, for the whole module */
    size_t nfl, flcap;
    uint32_t nlabel, nvar, nglob, nmlabel;
    int in_module;      /* building the module unit's keys */
    ptx_str fkey;       /* current function, as its labels' owner */
    chunks store;
    ptx_buf key, tmp;
    interner own;       /* a fork's, unless it was given one */
    int fork;
};

#define RENAME_LABELS (PTX_DIFF_IGNORE_LABELS | PTX_DIFF_IGNORE_NAMES)
#define RENAME_REGS (PTX_DIFF_IGNORE_REGS | PTX_DIFF_IGNORE_NAMES)

static ptx_str spell(const norm *z, ptx_tok t)
{
    return ptx_tok_str(z->m, t);
}

static int spelled(const norm *z, ptx_tok t, const char *s)
{
    ptx_str v = spell(z, t);
    return v.n == strlen(s) && memcmp(v.p, s, v.n) == 0;
}

/* ---- declarations */

static nent *declare(norm *z, smap *map, ptx_str name, int cat)
{
    int fresh;
    smap_ent *e = pd_map_put(map, name.p, name.n, pd_hash(name.p, name.n),
                           &fresh);
    if (!fresh)
        return NULL;    /* first declaration wins */
    if (z->nents == z->cap) {
        z->cap = z->cap ? z->cap * 2 : 256;
        z->ents = pd_realloc(z->ents, z->cap * sizeof *z->ents);
    }
    e->val = (uint32_t)z->nents;
    nent *n = &z->ents[z->nents++];
    memset(n, 0, sizeof *n);
    n->cat = (uint8_t)cat;
    n->num = -1;
    return n;
}

static void declare_global(norm *z, ptx_tok name)
{
    nent *n = declare(z, &z->global, spell(z, name), N_GLOBAL);
    if (n)
        n->num = (int32_t)z->nglob++;
}

static int is_reg_var(const norm *z, const ptx_var *v)
{
    for (const ptx_spec *s = v->specs; s; s = s->next)
        if (spelled(z, s->tok, ".reg"))
            return 1;
    return 0;
}

/* The register type: every specifier but .reg, e.g. ".v2.f32". */
static ptx_str reg_type(norm *z, const ptx_var *v)
{
    z->tmp.n = 0;
    for (const ptx_spec *s = v->specs; s; s = s->next)
        if (!spelled(z, s->tok, ".reg")) {
            ptx_str t = spell(z, s->tok);
            ptx_buf_put(&z->tmp, t.p, t.n);
        }
    ptx_str r = { pd_chunks_copy(&z->store, z->tmp.p ? z->tmp.p : "", z->tmp.n),
                  (uint32_t)z->tmp.n };
    return r;
}

static void declare_var(norm *z, const ptx_var *v)
{
    int reg = is_reg_var(z, v);
    ptx_str type = { "", 0 };
    if (reg && !z->in_module)
        type = reg_type(z, v);
    for (const ptx_declarator *d = v->decls; d; d = d->next) {
        if (z->in_module) {
            declare_global(z, d->name);
            continue;
        }
        int cat = !reg ? N_VAR : d->count != PTX_NOTOK ? N_RANGE : N_REG;
        nent *n = declare(z, cat == N_RANGE ? &z->ranges : &z->local,
                          spell(z, d->name), cat);
        if (!n)
            continue;
        n->ph = type;
        if (cat == N_RANGE)
            n->count = (uint32_t)strtoul(spell(z, d->count).p, NULL, 0);
    }
}

static void declare_label(norm *z, ptx_tok name)
{
    if (z->in_module) {
        nent *n = declare(z, &z->global, spell(z, name), N_MLABEL);
        if (n)
            n->num = (int32_t)z->nmlabel++;
    } else {
        declare(z, &z->local, spell(z, name), N_LABEL);
    }
}

static void declare_params(norm *z, const ptx_param_list *pl)
{
    if (!pl)
        return;
    for (const ptx_param *q = pl->params; q; q = q->next)
        declare(z, &z->local, spell(z, q->decl->name), N_VAR);
}

/* ---- walking statements into lines */

static void push(unit *u, const ptx_stmt *s, int what, ptx_tok t0, ptx_tok t1,
                 int depth, int flags)
{
    if (u->n == u->cap) {
        u->cap = u->cap ? u->cap * 2 : 64;
        u->v = pd_realloc(u->v, u->cap * sizeof *u->v);
    }
    dline *l = &u->v[u->n++];
    l->s = s, l->t0 = t0, l->t1 = t1, l->id = 0;
    l->depth = (uint16_t)(depth > 60000 ? 60000 : depth);
    l->what = (uint8_t)what, l->flags = (uint8_t)flags;
}

static void walk(norm *z, unit *u, const ptx_stmt *s, ptx_tok end, int depth);

static void walk_one(norm *z, unit *u, const ptx_stmt *s, ptx_tok stop,
                     int depth)
{
    if ((z->flags & PTX_DIFF_IGNORE_DEBUG) && ptx_debug_stmt(z->m, s))
        return;
    int flags = 0;
    switch (s->kind) {
    case PTX_S_BLOCK:
        push(u, s, DL_OPEN, s->u.block.lbrace, 0, depth, 0);
        walk(z, u, s->u.block.stmts, s->u.block.rbrace, depth + 1);
        push(u, s, DL_CLOSE, s->u.block.rbrace, 0, depth, 0);
        return;
    case PTX_S_SECTION: {
        const ptx_block *b = &s->u.section.body;
        push(u, s, DL_HEAD, s->first, b->lbrace, depth, 0);
        push(u, s, DL_OPEN, b->lbrace, 0, depth, 0);
        walk(z, u, b->stmts, b->rbrace, depth + 1);
        push(u, s, DL_CLOSE, b->rbrace, 0, depth, 0);
        return;
    }
    case PTX_S_LABEL:
        declare_label(z, s->u.label.name);
        flags = DF_LABEL | DF_LINE0;
        break;
    case PTX_S_DWARF: case PTX_S_PREPROC:
        flags = DF_LINE0;
        break;
    case PTX_S_VAR:
        declare_var(z, &s->u.var);
        if (!z->in_module && is_reg_var(z, &s->u.var))
            flags = DF_REG;
        break;
    case PTX_S_FUNC:
        if (z->in_module)
            declare_global(z, s->u.func.name);
        break;
    case PTX_S_CALLPROTOTYPE:
        if (z->in_module)
            declare_global(z, s->u.func.label);
        else
            declare_label(z, s->u.func.label);
        break;
    case PTX_S_CALLTARGETS: case PTX_S_BRANCHTARGETS:
        declare_label(z, s->u.dir.label);
        break;
    case PTX_S_INSTR:
        flags = DF_INSTR;
        break;
    }
    push(u, s, DL_STMT, s->first, stop, depth, flags);
}

static void walk(norm *z, unit *u, const ptx_stmt *s, ptx_tok end, int depth)
{
    for (; s; s = s->next)
        walk_one(z, u, s, s->next ? s->next->first : end, depth);
}

/* ---- names in keys */

/* The entry for a register, variable or label name, or NULL.  A name that
   only a range declares (%r12 from %r<20>) is added as a register of the
   range's type on first sight. */
static nent *lookup(norm *z, const char *p, uint32_t n)
{
    uint64_t h = pd_hash(p, n);
    smap_ent *e = pd_map_get(&z->local, p, n, h);
    if (!e)
        e = pd_map_get(&z->global, p, n, h);
    if (e)
        return &z->ents[e->val];
    if (z->in_module && (e = pd_map_get(&z->flabels, p, n, h)) != NULL)
        return &z->fl[e->val].e;
    uint32_t k = n;
    while (k > 0 && p[k - 1] >= '0' && p[k - 1] <= '9')
        k--;
    for (; k > 0 && k < n; k++) {   /* %f16x<4> declares %f16x0..3 */
        smap_ent *r = pd_map_get(&z->ranges, p, k, pd_hash(p, k));
        if (r) {
            ptx_str type = z->ents[r->val].ph;
            ptx_str name = { p, n };
            nent *reg = declare(z, &z->local, name, N_REG);
            reg->ph = type;
            return reg;
        }
    }
    return NULL;
}

static int renamed(const norm *z, int cat)
{
    switch (cat) {
    case N_LABEL: case N_MLABEL: case N_FLABEL:
        return !!(z->flags & RENAME_LABELS);
    case N_REG:
        return !!(z->flags & RENAME_REGS);
    case N_VAR: case N_GLOBAL: case N_FVAR:
        return !!(z->flags & PTX_DIFF_IGNORE_NAMES);
    default:
        return 0;
    }
}

/* An export under `name` (first wins), its placeholder copied into z's
   storage. */
static void add_export(norm *z, ptx_str name, int cat, ptx_str ph)
{
    int fresh;
    smap_ent *e = pd_map_put(&z->flabels, name.p, name.n,
                             pd_hash(name.p, name.n), &fresh);
    if (!fresh)
        return;
    if (z->nfl == z->flcap) {
        z->flcap = z->flcap ? z->flcap * 2 : 256;
        z->fl = pd_realloc(z->fl, z->flcap * sizeof *z->fl);
    }
    fexport *x = &z->fl[z->nfl];
    memset(x, 0, sizeof *x);
    x->name = name;
    x->e.cat = (uint8_t)cat;
    x->e.ph.p = pd_chunks_copy(&z->store, ph.p, ph.n);
    x->e.ph.n = ph.n;
    e->val = (uint32_t)z->nfl++;
}

/* Remembers where a function's label or parameter went, for the debug
   sections that refer to it from module level: "F<function>/<L|V><num>". */
static void note_export(norm *z, const char *p, uint32_t n, int cat,
                        int32_t num)
{
    z->tmp.n = 0;
    ptx_buf_printf(&z->tmp, "\x02""F%.*s/%c%d", (int)z->fkey.n, z->fkey.p,
                   cat == N_FLABEL ? 'L' : 'V', num);
    add_export(z, (ptx_str){ p, n }, cat,
               (ptx_str){ z->tmp.p, (uint32_t)z->tmp.n });
}

/* Appends "\x02" cat extra [#] num: printf is too slow for every name. */
static void put_ph(ptx_buf *k, char cat, ptx_str extra, int32_t num)
{
    char d[16];
    int n = 0;
    uint32_t v = (uint32_t)num;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    ptx_buf_putc(k, '\x02');
    ptx_buf_putc(k, cat);
    if (extra.n) {
        ptx_buf_put(k, extra.p, extra.n);
        ptx_buf_putc(k, '#');
    }
    while (n)
        ptx_buf_putc(k, d[--n]);
}

static void put_placeholder(norm *z, nent *e, const char *p, uint32_t n)
{
    static const ptx_str none = { "", 0 };
    switch (e->cat) {
    case N_FLABEL: case N_FVAR:
        ptx_buf_put(&z->key, e->ph.p, e->ph.n);
        return;
    case N_REG:
        if (e->num < 0) {
            int fresh;
            smap_ent *t = pd_map_put(&z->types, e->ph.p, e->ph.n,
                                   pd_hash(e->ph.p, e->ph.n), &fresh);
            e->num = (int32_t)t->val++;
        }
        /* the type is part of the name: "\x02R.b32#7" */
        put_ph(&z->key, 'R', e->ph.n ? e->ph : (ptx_str){ "?", 1 }, e->num);
        return;
    case N_LABEL:
        if (e->num < 0) {
            e->num = (int32_t)z->nlabel++;
            if (z->flags & RENAME_LABELS)
                note_export(z, p, n, N_FLABEL, e->num);
        }
        put_ph(&z->key, 'L', none, e->num);
        return;
    case N_VAR:
        if (e->num < 0) {
            e->num = (int32_t)z->nvar++;
            if (!z->in_module)
                note_export(z, p, n, N_FVAR, e->num);
        }
        put_ph(&z->key, 'V', none, e->num);
        return;
    default:
        put_ph(&z->key, e->cat == N_GLOBAL ? 'G' : 'M', none, e->num);
        return;
    }
}

/* A name: its placeholder, or its spelling.  `%v.x` (a vector register's
   element) renames the part before the dot. */
static void put_name(norm *z, const char *p, uint32_t len)
{
    const char *dot = memchr(p, '.', len);
    uint32_t n = dot && dot != p ? (uint32_t)(dot - p) : len;
    nent *e = lookup(z, p, n);
    if (!e || !renamed(z, e->cat)) {
        ptx_buf_put(&z->key, p, len);
        return;
    }
    put_placeholder(z, e, p, n);
    ptx_buf_put(&z->key, p + n, len - n);
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%';
}

/* An old-style "@@DWARF .quad $LDWbegin_k" line is one token: rename the
   names inside it. */
static void put_dwarf(norm *z, ptx_str s)
{
    for (uint32_t i = 0; i < s.n;) {
        uint32_t j = i;
        while (j < s.n && ident_char(s.p[j]))
            j++;
        if (j > i && !(s.p[i] >= '0' && s.p[i] <= '9')
            && (i == 0 || s.p[i - 1] != '.'))
            put_name(z, s.p + i, j - i);
        else
            ptx_buf_put(&z->key, s.p + i, j > i ? j - i : 1);
        i = j > i ? j : i + 1;
    }
}

static void put_tokens(norm *z, ptx_tok t0, ptx_tok t1, ptx_tok skip)
{
    int any = (z->flags & (RENAME_LABELS | RENAME_REGS)) != 0;
    for (ptx_tok t = t0; t < t1; t++) {
        ptx_str s = spell(z, t);
        uint32_t kind = z->m->toks[t].kind;
        if (any && t != skip && kind == PTX_T_WORD)
            put_name(z, s.p, s.n);
        else if (any && kind == PTX_T_DWARF)
            put_dwarf(z, s);
        else
            ptx_buf_put(&z->key, s.p, s.n);
        ptx_buf_putc(&z->key, '\n');
    }
}

static void make_key(norm *z, dline *l)
{
    z->key.n = 0;
    if (z->in_module && l->what == DL_STMT && l->s->kind == PTX_S_FUNC
        && (z->flags & PTX_DIFF_IGNORE_NAMES)) {
        /* a declaration's parameters are names of its own */
        pd_map_clear(&z->local);
        z->nents = z->nglobal;
        z->nvar = 0;
        declare_params(z, l->s->u.func.ret);
        declare_params(z, l->s->u.func.params);
    }
    if (l->what == DL_OPEN || l->what == DL_CLOSE) {
        ptx_buf_putc(&z->key, l->what == DL_OPEN ? '{' : '}');
    } else if ((l->flags & DF_REG) && (z->flags & RENAME_REGS)) {
        /* names and counts of registers do not count, only their types */
        put_tokens(z, l->t0, l->s->u.var.decls->name, PTX_NOTOK);
        ptx_buf_puts(&z->key, "\x02R*");
    } else {
        ptx_tok skip = (l->flags & DF_INSTR) ? l->s->u.instr.op : PTX_NOTOK;
        put_tokens(z, l->t0, l->t1, skip);
    }
    l->id = pd_intern(z->in, z->key.p ? z->key.p : "", z->key.n);
}

/* --ignore-debug: the labels that only debug data uses go (front/debug.h
   says which, for ptx_emit_nodebug too).  Both lists are in source order. */
static void drop_debug_labels(norm *z, unit *u)
{
    z->tmp.n = 0;
    size_t n = ptx_debug_labels(z->m, u->def->u.func.body, &z->tmp), next = 0;
    const ptx_stmt **drop = (const ptx_stmt **)z->tmp.p;
    uint32_t k = 0;
    for (uint32_t i = 0; i < u->n; i++) {
        const dline *l = &u->v[i];
        if (next < n && (l->flags & DF_LABEL) && l->s == drop[next]) {
            next++;
            continue;
        }
        u->v[k++] = *l;
    }
    u->n = k;
}

static unit *new_unit(side *sd, ptx_str name, const ptx_stmt *def)
{
    if (sd->n == sd->cap) {
        sd->cap = sd->cap ? sd->cap * 2 : 16;
        sd->units = pd_realloc(sd->units, sd->cap * sizeof *sd->units);
    }
    unit *u = &sd->units[sd->n++];
    memset(u, 0, sizeof *u);
    u->name = name;
    u->def = def;
    return u;
}

static void function_unit(norm *z, unit *u)
{
    const ptx_stmt *s = u->def;
    const ptx_func *f = &s->u.func;
    pd_map_clear(&z->local);
    pd_map_clear(&z->types);
    pd_map_clear(&z->ranges);
    z->nents = z->nglobal;
    z->nlabel = z->nvar = 0;
    /* labels belong to the function's name, or its placeholder */
    z->key.n = 0;
    ptx_str fname = spell(z, f->name);
    put_name(z, fname.p, fname.n);
    z->fkey.p = pd_chunks_copy(&z->store, z->key.p, z->key.n);
    z->fkey.n = (uint32_t)z->key.n;
    declare_params(z, f->ret);
    declare_params(z, f->params);
    push(u, s, DL_HEAD, s->first, f->body->lbrace, 0, 0);
    push(u, s, DL_OPEN, f->body->lbrace, 0, 0, 0);
    walk(z, u, f->body->stmts, f->body->rbrace, 1);
    push(u, s, DL_CLOSE, f->body->rbrace, 0, 0, 0);
    if (z->flags & PTX_DIFF_IGNORE_DEBUG)
        drop_debug_labels(z, u);
    for (uint32_t i = 0; i < u->n; i++)
        make_key(z, &u->v[i]);
}

/* Source bytes from a statement's first token to `end`. */
static size_t extent(const ptx_module *m, const ptx_stmt *s, ptx_tok end)
{
    return m->toks[end].start - m->toks[s->first].start;
}

static void release_norm(void *z)
{
    pd_norm_free(z);
}

norm *pd_side_start(side *sd, const ptx_module *m, unsigned flags,
                    interner *in)
{
    norm *z = pd_calloc(1, sizeof *z);
    ptx_owned own;
    ptx_own(&own, release_norm, z);
    z->sd = sd, z->m = m, z->flags = flags, z->in = in, z->in_module = 1;
    unit *mod = new_unit(sd, (ptx_str){ "", 0 }, NULL);
    mod->bytes = m->size;
    /* module level first: every global is declared before any function's
       keys are made, and the module unit's keys come last, once the
       functions' labels have their placeholders */
    for (const ptx_stmt *s = m->items; s; s = s->next) {
        ptx_tok stop = s->next ? s->next->first : m->ntoks - 1;
        if (s->kind == PTX_S_FUNC && s->u.func.body) {
            declare_global(z, s->u.func.name);
            unit *u = new_unit(sd, spell(z, s->u.func.name), s);
            u->bytes = extent(m, s, s->u.func.body->rbrace);
            sd->units[0].bytes -= u->bytes;
        } else {
            walk_one(z, &sd->units[0], s, stop, 0);
        }
    }
    z->nglobal = z->nents;
    z->in_module = 0;
    ptx_disown(&own);
    return z;
}

norm *pd_norm_fork(const norm *z, interner *in)
{
    norm *w = pd_calloc(1, sizeof *w);
    ptx_owned own;
    ptx_own(&own, release_norm, w);
    w->sd = z->sd, w->m = z->m, w->flags = z->flags;
    w->in = in ? in : &w->own;
    w->global = z->global;
    w->fork = 1;   /* the globals are z's: before anything can unwind */
    w->nents = w->nglobal = w->cap = z->nglobal;
    w->ents = pd_realloc(NULL, (w->cap ? w->cap : 1) * sizeof *w->ents);
    if (z->nglobal)   /* (z->ents is NULL without globals) */
        memcpy(w->ents, z->ents, z->nglobal * sizeof *z->ents);
    ptx_disown(&own);
    return w;
}

void pd_norm_units(norm *w, size_t first, size_t last)
{
    for (size_t k = first; k < last; k++)
        function_unit(w, &w->sd->units[k]);
}

void pd_norm_free(norm *z)
{
    if (!z)
        return;
    pd_map_free(&z->local);
    if (!z->fork)
        pd_map_free(&z->global);
    pd_map_free(&z->flabels);
    pd_map_free(&z->types);
    pd_map_free(&z->ranges);
    free(z->ents);
    free(z->fl);
    pd_chunks_free(&z->store);
    ptx_buf_free(&z->key);
    ptx_buf_free(&z->tmp);
    pd_interner_free(&z->own);
    free(z);
}

void pd_norm_join(norm *z, norm *w, size_t first, size_t last)
{
    for (size_t k = 0; k < w->nfl; k++)
        add_export(z, w->fl[k].name, w->fl[k].e.cat, w->fl[k].e.ph);
    if (w->in != z->in) {
        const smap *map = &w->in->map;
        uint32_t *to = pd_realloc(NULL, ((size_t)w->in->next + 1) * sizeof *to);
        ptx_owned own;
        ptx_own(&own, free, to);
        for (size_t k = 0; k < map->cap; k++) {
            const smap_ent *e = &map->v[k];
            if (e->epoch == map->epoch)
                to[e->val] = pd_intern_hashed(z->in, e->p, e->n, e->h);
        }
        for (size_t u = first; u < last; u++)
            for (uint32_t i = 0; i < z->sd->units[u].n; i++)
                z->sd->units[u].v[i].id = to[z->sd->units[u].v[i].id];
        ptx_disown(&own);
        free(to);
    }
    pd_norm_free(w);
}

void pd_side_finish(norm *z)
{
    unit *mod = &z->sd->units[0];
    pd_map_clear(&z->local);
    z->in_module = 1;
    for (uint32_t i = 0; i < mod->n; i++)
        make_key(z, &mod->v[i]);
    pd_norm_free(z);
}
