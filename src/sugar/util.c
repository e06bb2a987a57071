/*
 * sugar/util.c - helpers shared by the sugar passes: copying and
 * comparing IR, lists as arrays, references.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

/* ---- copies and comparisons ---------------------------------------- */

/* An alias node made or copied, for alias.c (sg_state.alias_nodes). */
static void note_alias(cg_module *m, cg_stmt *s)
{
    sg_state *st = sg_st(m);
    st->alias_nodes = cg_grow(m, st->alias_nodes, st->naliases, &st->capaliases,
                              sizeof *st->alias_nodes);
    st->alias_nodes[st->naliases++] = s;
}

cg_stmt *sg_copy_stmt(cg_module *m, const cg_stmt *s)
{
    cg_stmt *c = cg_stmt_new(m, (cg_stmt_kind)s->kind, s->first);
    *c = *s;
    c->next = NULL;
    if (s->kind >= CG_S_EXT) {   /* a node of its own: the copy's fields are its */
        c->u.ext.node = cg_alloc(m, s->u.ext.ext->size);
        memcpy(c->u.ext.node, s->u.ext.node, s->u.ext.ext->size);
    }
    if (s->kind == SG_S_ALIAS)
        note_alias(m, c);
    return c;
}

cg_stmt *sg_node_new(cg_module *m, unsigned kind, ptx_tok first)
{
    cg_stmt *s = cg_ext_new(m, kind, &sg_kinds[kind - CG_S_EXT].ext, first);
    cg_symid *sym = sg_field(s, sg_kinds[kind - CG_S_EXT].sym);
    if (sym)
        *sym = CG_NOSYM;
    if (kind == SG_S_ALIAS)
        note_alias(m, s);
    return s;
}

void sg_node_become(cg_module *m, cg_stmt *s, unsigned kind)
{
    cg_stmt *n = sg_node_new(m, kind, s->first);
    n->next = s->next;
    *s = *n;
}

cg_opnd *sg_copy_opnd(cg_module *m, const cg_opnd *o)
{
    if (!o)
        return NULL;
    cg_opnd *c = cg_alloc(m, sizeof *c);
    *c = *o;
    c->next = NULL;
    c->a = sg_copy_opnd(m, o->a);
    c->b = sg_copy_opnd(m, o->b);
    cg_opnd **tail = &c->elems;
    *tail = NULL;
    for (const cg_opnd *e = o->elems; e; e = e->next) {
        *tail = sg_copy_opnd(m, e);
        tail = &(*tail)->next;
    }
    return c;
}

static cg_opnd *copy_opnds(cg_module *m, const cg_opnd *o)
{
    cg_opnd *head = NULL, **tail = &head;
    for (; o; o = o->next, tail = &(*tail)->next)
        *tail = sg_copy_opnd(m, o);
    return head;
}

cg_stmt *sg_copy_list(cg_module *m, const cg_stmt *s)
{
    cg_stmt *head = NULL, **tail = &head;
    for (; s; s = s->next, tail = &(*tail)->next) {
        cg_stmt *c = *tail = sg_copy_stmt(m, s);
        if (s->kind == CG_S_INST) {
            c->u.inst.ops = copy_opnds(m, s->u.inst.ops);
            c->u.inst.guard = sg_copy_opnd(m, s->u.inst.guard);
        } else if (s->kind >= CG_S_EXT) {
            cg_opnd **args = sg_argsp(c);
            cg_stmt **orig = sg_field(c, sg_kind_of(c)->orig);
            if (args)
                *args = copy_opnds(m, *args);
            if (orig)
                *orig = sg_copy_list(m, *orig);
        }
        cg_stmt **body = cg_body(c);
        if (body)
            *body = sg_copy_list(m, *body);
    }
    return head;
}

size_t sg_decimal(char *buf, long long v)
{
    char tmp[24], *e = tmp + sizeof tmp, *w = e;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--w = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--w = '-';
    memcpy(buf, w, (size_t)(e - w));
    return (size_t)(e - w);
}

cg_opnd *sg_int_opnd(cg_module *m, long long v)
{
    char buf[24];
    size_t n = sg_decimal(buf, v);   /* repeat makes one per varying leaf: no printf */
    cg_opnd *o = cg_opnd_new(m, CG_O_INT);
    o->text = sg_lit(m, buf, n);
    return o;
}

void sg_text_key(const cg_text *t, ptx_buf *b)
{
    for (uint32_t i = 0; i < t->n; i++) {
        const cg_piece *p = &t->v[i];
        if (p->sym != CG_NOSYM)
            ptx_buf_printf(b, "{%u:%d}", (unsigned)p->sym, p->index);
        else
            ptx_buf_put(b, p->p, p->n);
    }
}

static int sg_text_equal(const cg_text *a, const cg_text *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++) {
        const cg_piece *x = &a->v[i], *y = &b->v[i];
        if (x->sym != y->sym || x->index != y->index)
            return 0;
        if (x->sym == CG_NOSYM &&
            (x->n != y->n || memcmp(x->p, y->p, x->n)))
            return 0;
    }
    return 1;
}

int sg_text_lit(const cg_text *t, char *buf, size_t cap)
{
    size_t n = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->v[i].sym != CG_NOSYM || n + t->v[i].n >= cap)
            return 0;
        memcpy(buf + n, t->v[i].p, t->v[i].n);
        n += t->v[i].n;
    }
    buf[n] = 0;
    return 1;
}

int sg_opnd_equal(const cg_opnd *a, const cg_opnd *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->sym != b->sym || a->index != b->index)
        return 0;
    if (!sg_text_equal(&a->text, &b->text))
        return 0;
    if (!sg_opnd_equal(a->a, b->a) || !sg_opnd_equal(a->b, b->b))
        return 0;
    const cg_opnd *x = a->elems, *y = b->elems;
    for (; x && y; x = x->next, y = y->next)
        if (!sg_opnd_equal(x, y))
            return 0;
    return x == y;
}

/* Word w against the pattern segment at *p (up to '.' or the end; a
   last '*' matches any rest); *p moves past the segment. */
static int seg_match(const char *w, const char **p)
{
    const char *q = *p;
    for (; *q && *q != '.'; q++, w++)
        if (*q == '*' && (!q[1] || q[1] == '.')) {
            w = "";   /* the rest of w, whatever it is */
            q++;
            break;
        } else if (*w != *q) {
            return 0;
        }
    *p = q;
    return !*w;
}

int sg_inst_match(const cg_stmt *s, const char *pat, unsigned shape)
{
    if (!s || s->kind != CG_S_INST || s->u.inst.op[0] != pat[0])
        return 0;
    const cg_inst *in = &s->u.inst;
    const char *p = pat;
    uint32_t i = 0;
    if ((in->guard && !(shape & SG_ANY_GUARD)) || !seg_match(in->op, &p))
        return 0;
    while (*p++) {   /* at a '.' */
        if (p[0] == '*' && p[1] == '*' && !p[2]) {
            i = in->nmods;
            break;
        }
        if (i == in->nmods || !seg_match(in->mods[i++], &p))
            return 0;
    }
    return i == in->nmods && ((shape & SG_ANY_OPS) || sg_nops(in->ops) == (shape & 0xffu));
}

unsigned sg_nops(const cg_opnd *o)
{
    unsigned n = 0;
    for (; o; o = o->next)
        n++;
    return n;
}


/* The length of in's word ("mul.wide.u32"), and the word at w (that many
   bytes, no NUL): the one spelling of a word, for sg_put_word and for
   the module's map of words. */
static size_t word_len(const cg_inst *in)
{
    size_t n = strlen(in->op);
    for (uint32_t i = 0; i < in->nmods; i++)
        n += 1 + strlen(in->mods[i]);
    return n;
}

static void word_at(char *w, const cg_inst *in)
{
    size_t n = strlen(in->op);
    memcpy(w, in->op, n);
    for (uint32_t i = 0; i < in->nmods; i++) {
        size_t mn = strlen(in->mods[i]);
        w[n] = '.';
        memcpy(w + n + 1, in->mods[i], mn);
        n += 1 + mn;
    }
}

void sg_put_word(ptx_buf *b, const cg_inst *in)
{
    size_t n = word_len(in);
    word_at(ptx_buf_room(b, n), in);
    b->n += n;
}

uint32_t sg_word_id_slow(cg_module *m, const cg_inst *in)
{
    sg_state *st = sg_st(m);
    cg_module *keep = sg_keep(m);
    if (!st->word_memo) {
        st->word_memo = cg_alloc(keep, sizeof *st->word_memo);
        memset(st->word_memo, 0, sizeof *st->word_memo);
    }
    sg_word_seen *w = sg_word_seen_at(st->word_memo, in);
    size_t n = word_len(in);   /* the key: the word's text */
    char small[256], *key = n <= sizeof small ? small : cg_alloc(m, n);
    word_at(key, in);
    if (!st->words)
        st->words = cg_alloc(keep, sizeof *st->words);
    cg_mslot *s = cg_map_put(keep, st->words, key, n);
    if (s->val < 0) {
        s->k = cg_strndup(keep, key, n);
        s->val = (int32_t)st->nwords++;
    }
    w->op = in->op;
    w->mods = in->mods;
    w->nmods = in->nmods;
    w->id = (uint32_t)s->val + 1;
    return (uint32_t)s->val;
}

void sg_words_forget(cg_module *m)
{
    if (sg_st(m)->word_memo)
        memset(sg_st(m)->word_memo, 0, sizeof *sg_st(m)->word_memo);
}

void *sg_word_array_grow(cg_module *m, void *v, uint32_t *cap, uint32_t id, size_t size)
{
    uint32_t want = *cap ? *cap : 64;
    while (want <= id)
        want *= 2;
    char *w = cg_alloc(sg_keep(m), want * size);
    if (*cap)
        memcpy(w, v, *cap * size);
    memset(w + *cap * size, 0, (want - *cap) * size);
    *cap = want;
    return w;
}

void *sg_scratch_get(sg_scratch *s, size_t n)
{
    s->n = 0;
    ptx_buf_reserve(s, n ? n : 1);
    memset(s->p, 0, n);
    return s->p;
}

typedef struct retarget {
    sg_retarget_fn map;
    void *ctx;
} retarget;

static int retarget_opnd(void *ctx, cg_opnd *o)
{
    const retarget *r = ctx;
    cg_symid to;
    if (o->kind == CG_O_SYM && (to = r->map(r->ctx, o->sym, o->index)) != CG_NOSYM) {
        o->sym = to;
        o->index = -1;
    }
    return SG_VISIT_ON;
}

static void retarget_opnds(cg_opnd *o, sg_retarget_fn map, void *ctx)
{
    retarget r = { map, ctx };
    sg_visit_opnds(o, retarget_opnd, &r);
}

void sg_retarget_one(cg_stmt *s, sg_retarget_fn map, void *ctx)
{
    if (s->kind == CG_S_INST) {
        retarget_opnds(s->u.inst.ops, map, ctx);
        retarget_opnds(s->u.inst.guard, map, ctx);
    } else if (s->kind >= CG_S_EXT && s->kind != SG_S_ALIAS) {
        retarget_opnds(sg_args(s), map, ctx);
        sg_retarget(sg_orig(s), map, ctx);
    }
}

static int retarget_stmt(void *ctx, cg_stmt **link)
{
    const retarget *r = ctx;
    sg_retarget_one(*link, r->map, r->ctx);
    return SG_VISIT_ON;
}

void sg_retarget(cg_stmt *s, sg_retarget_fn map, void *ctx)
{
    retarget r = { map, ctx };
    sg_visit_list(s, retarget_stmt, &r);
}

size_t sg_list_push(sg_scratch *sc, size_t at, cg_stmt *head, unsigned *n)
{
    /* one walk: following the links is the cost (statements are spread
       over the arena), the array grows as it goes; a NULL after the last */
    unsigned c = 0;
    sc->n = at;   /* every slot is written below: no clearing */
    for (cg_stmt *s = head;; s = s->next) {
        if (at + (c + 1) * sizeof(cg_stmt *) > sc->cap)
            ptx_buf_reserve(sc, (c + 1) * sizeof(cg_stmt *));
        sg_list_at(sc, at)[c] = s;
        if (!s)
            break;
        c++;
    }
    sc->n = at + (c + 1) * sizeof(cg_stmt *);
    *n = c;
    return at;
}

cg_stmt **sg_list_array(sg_scratch *sc, cg_stmt *head, unsigned *n)
{
    return sg_list_at(sc, sg_list_push(sc, 0, head, n));
}

/* ---- printing -------------------------------------------------------- */

void sg_indent(ptx_buf *out, int depth)
{
    if (depth <= 0)
        return;
    size_t n = (size_t)depth * 4;   /* once per printed line: one reservation */
    memset(ptx_buf_room(out, n), ' ', n);
    out->n += n;
}


cg_text sg_lit(cg_module *m, const char *p, size_t n)
{
    return cg_text_lit(m, cg_strndup(m, p, n), n);
}

/* ---- references ------------------------------------------------------ */

/* step is 1 to count, (uint32_t)-1 to take the count back (sg_uncount_refs:
   unsigned arithmetic wraps). */
typedef struct counting {
    uint32_t *refs, step;
} counting;

static int count_opnd(void *ctx, cg_opnd *o)
{
    const counting *c = ctx;
    if (o->kind == CG_O_SYM)
        c->refs[o->sym] += c->step;
    for (uint32_t i = 0, n = sg_text_names(o) ? o->text.n : 0; i < n; i++)
        if (o->text.v[i].sym != CG_NOSYM)
            c->refs[o->text.v[i].sym] += 2 * c->step;   /* carried text: never ours */
    return SG_VISIT_ON;
}

int sg_visit_stmt_opnds(const cg_stmt *s, sg_visit_fn fn, void *ctx)
{
    if (s->kind == CG_S_INST)
        return sg_visit_opnds(s->u.inst.ops, fn, ctx) || sg_visit_opnds(s->u.inst.guard, fn, ctx);
    if (s->kind == CG_S_RAW) {
        cg_opnd t = { .kind = CG_O_STR, .text = s->u.raw.text };
        return sg_visit_opnd(&t, fn, ctx);
    }
    return s->kind >= CG_S_EXT && sg_visit_opnds(sg_args(s), fn, ctx);
}

static int count_stmt(void *ctx, cg_stmt **link)
{
    const counting *c = ctx;
    const cg_stmt *s = *link;
    if (s->kind == CG_S_LABEL) {
        c->refs[s->u.label] += c->step;
        return SG_VISIT_ON;
    }
    if (s->kind >= CG_S_EXT) {
        if (sg_orig(s))
            sg_visit_list(sg_orig(s), count_stmt, ctx);
        if (sg_sym(s) != CG_NOSYM)
            c->refs[sg_sym(s)] += c->step;
    }
    sg_visit_stmt_opnds(s, count_opnd, ctx);
    return SG_VISIT_ON;
}

static void count_stmts(const cg_stmt *s, uint32_t *refs, uint32_t step)
{
    counting c = { refs, step };
    sg_visit_list(s, count_stmt, &c);
}

void sg_count_refs(const cg_stmt *s, uint32_t *refs)
{
    count_stmts(s, refs, 1);
}

uint32_t *sg_kernel_refs(sg_scratch *sc, const cg_kernel *k)
{
    uint32_t *refs = sg_scratch_get(sc, (k->nsyms + 1) * sizeof *refs);
    sg_count_refs(k->body, refs);
    return refs;
}

uint32_t sg_walk_fresh(cg_module *m, cg_kernel *k, sg_stmt_fn fn)
{
    if (!sg_any_fresh_reg(k))
        return 0;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    sg_walk w = { m, k, sg_kernel_refs(&sc, k), 0 };
    sg_visit_stmts(&k->body, fn, &w);
    ptx_free_bufs(&ob);
    return w.made;
}

void sg_uncount_refs(const cg_stmt *s, uint32_t *refs)
{
    count_stmts(s, refs, (uint32_t)-1);
}

void sg_print_addr_arg(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    if (o->kind == SG_O_DYN) {
        ptx_buf_puts(out, "_dyn_smem(");
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_putc(out, ')');
        return;
    }
    if (o->kind == SG_O_SLOT) {
        ptx_buf_puts(out, "ptx.mbarrier.array(");
        cg_print_opnd(m, k, &(cg_opnd){ .kind = CG_O_STR, .text = o->text }, out);
        ptx_buf_puts(out, ", ");
        cg_print_opnd(m, k, o->b, out);
        ptx_buf_puts(out, ", 1).at(");
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_putc(out, ')');
        return;
    }
    cg_print_opnd(m, k, o, out);
}

static int emits(void *ctx, cg_opnd *o)
{
    (void)ctx;
    return sg_opnd_emits(o) ? SG_VISIT_STOP : SG_VISIT_ON;
}

int sg_opnds_emit(const cg_opnd *o)
{
    return sg_visit_opnds(o, emits, NULL);
}

typedef struct naming {
    cg_symid sym;
    int32_t index;
} naming;

static int names(void *ctx, cg_opnd *o)
{
    const naming *n = ctx;
    return o->kind == CG_O_SYM && o->sym == n->sym &&
           (n->index == SG_ANY_INDEX || o->index == n->index) ? SG_VISIT_STOP : SG_VISIT_ON;
}

int sg_opnds_name(const cg_opnd *o, cg_symid sym, int32_t index)
{
    naming n = { sym, index };
    return sg_visit_opnds(o, names, &n);
}

int sg_declares(const cg_stmt *s)
{
    if (s->kind == CG_S_REG || s->kind == SG_S_ALLOC)
        return 1;
    if (s->kind == CG_S_INST)
        return sg_opnds_emit(s->u.inst.ops);
    if (s->kind >= CG_S_EXT)
        for (const cg_stmt *t = sg_orig(s); t; t = t->next)
            if (sg_declares(t))
                return 1;
    cg_stmt *const *body = cg_body((cg_stmt *)s);
    for (const cg_stmt *t = body ? *body : NULL; t; t = t->next)
        if (sg_declares(t))
            return 1;
    return 0;
}

int sg_fresh_decl(const cg_kernel *k, const cg_stmt *s, const char *type)
{
    const cg_sym *y = s && s->kind == CG_S_REG ? &k->syms[s->u.reg] : NULL;
    return y && y->kind == CG_SYM_REG && y->implicit && y->type && !strcmp(y->type, type);
}

int sg_text_int(const cg_text *t, long long *v)
{
    /* one piece of at most 18 digits, as the build spells ints (ir.h),
       read in place: repeat asks this of every int leaf it keys */
    if (t->n == 1 && t->v[0].sym == CG_NOSYM) {
        const char *p = t->v[0].p, *e = p + t->v[0].n;
        int neg = p < e && *p == '-';
        long long x = 0;
        for (p += neg; p < e && e - p <= 18 && *p >= '0' && *p <= '9'; p++)
            x = x * 10 + (*p - '0');
        if (p == e && t->v[0].n > (uint32_t)neg) {
            *v = neg ? -x : x;
            return 1;
        }
    }
    char buf[40], *e;
    if (!sg_text_lit(t, buf, sizeof buf))
        return 0;
    errno = 0;
    *v = strtoll(buf, &e, 10);
    return !*e && !errno;
}

int sg_int_value(const cg_opnd *o, long long *v)
{
    return o && o->kind == CG_O_INT && sg_text_int(&o->text, v);
}

int sg_int_is(const cg_opnd *o, long long v)
{
    char buf[24], want[25];
    want[sg_decimal(want, v)] = 0;   /* ints are spelled so (ir.h) */
    return o && o->kind == CG_O_INT && sg_text_lit(&o->text, buf, sizeof buf) &&
           !strcmp(buf, want);
}

int sg_any_fresh_reg(const cg_kernel *k)
{
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].kind == CG_SYM_REG && k->syms[i].implicit)
            return 1;
    return 0;
}
