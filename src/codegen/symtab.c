/*
 * symtab.c - names declared in a kernel body and their resolution, with
 * block scoping (DESIGN.md 4.3: the innermost declaration wins; a register
 * array %r<N> answers %r0 .. %r{N-1}).
 */
#include <string.h>
#include "codegen/build.h"

static int32_t push_bind(cg_builder *b, cg_symid sym, int32_t prev, size_t n,
                         int array)
{
    b->binds = cg_grow(b->keep, b->binds, b->nbinds, &b->capbinds, sizeof *b->binds);
    cg_bind *x = &b->binds[b->nbinds];
    x->sym = sym;
    x->prev = prev;
    x->depth = b->depth;
    x->array = (uint8_t)array;
    x->shadowed = 0;
    if (prev >= 0)
        b->binds[prev].shadowed = 1;
    if (array) {
        b->arrs = cg_grow(b->keep, b->arrs, b->narrs, &b->caparrs, sizeof *b->arrs);
        b->arrs[b->narrs++] = (struct cg_arr){ b->nbinds, (uint32_t)n };
    }
    return (int32_t)b->nbinds++;
}

/* A new or removed binding of name p[0..n): an array's changes how every
   element name resolves; any other's only how the name itself does. */
static void forget(cg_builder *b, const char *p, size_t n, int array)
{
    uint64_t key = array ? 0 : cg_short_key(b, p, n);
    if (array)
        b->gen++;
    else if (key)
        cg_rcache_slot(b, key)->gen = 0;
}

static inline unsigned lead_hash(const char *p, size_t n)
{
    unsigned c0 = n > 0 ? (unsigned char)p[0] : 0;
    unsigned c1 = n > 1 ? (unsigned char)p[1] : 0;
    return (c0 * 31 + c1) & 255;
}

cg_symid cg_declare(cg_builder *b, cg_sym_kind kind, const char *p, size_t n,
                    const char *type, uint32_t count)
{
    cg_module *m = b->keep;
    char *name = cg_strndup(m, p, n);
    int array = kind == CG_SYM_REGARRAY;
    forget(b, p, n, array);
    cg_map *mp = array ? &b->arrays : &b->exact;
    cg_mslot *s = cg_map_put(m, mp, name, n);
    /* a label defined twice (in sibling blocks) stays one symbol */
    if (kind == CG_SYM_LABEL && s->val >= 0 &&
        b->k->syms[b->binds[s->val].sym].kind == CG_SYM_LABEL)
        return b->binds[s->val].sym;
    cg_symid id = cg_sym_add(m, b->k, kind, name, type, count, b->nscopes);
    if (array && n && p[n - 1] >= '0' && p[n - 1] <= '9')
        b->digit_base = 1;
    if (!array) {
        unsigned h = lead_hash(p, n);
        b->exact_lead[h >> 6] |= 1ull << (h & 63);
    }
    if (kind == CG_SYM_REG || kind == CG_SYM_REGARRAY)
        b->k->syms[id].py = cg_py_name(m, b->k, name);
    s->val = push_bind(b, id, s->val, n, array);
    return id;
}

void cg_scope_enter(cg_builder *b)
{
    b->depth++;
    b->nscopes++;
}

/* Undo every binding made since `mark` (b->nbinds when the scope began). */
void cg_scope_leave(cg_builder *b, uint32_t mark)
{
    while (b->nbinds > mark) {
        cg_bind *x = &b->binds[--b->nbinds];
        const char *name = b->k->syms[x->sym].ptx;
        cg_map *mp = x->array ? &b->arrays : &b->exact;
        size_t n = strlen(name);
        cg_mslot *s = cg_map_get(mp, name, n);
        if (s)
            s->val = x->prev;
        forget(b, name, n, x->array);
        if (x->prev >= 0)
            b->binds[x->prev].shadowed = 0;
        if (x->array)
            b->narrs--;
    }
    b->depth--;
}

/* Array bases are a few bytes: a call to memcmp would cost more. */
static inline int same_bytes(const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* The binding of array base p[0..d), or -1: the array map's, the one
   binding of the name no later one shadows.  Register names are mostly
   used once or twice (SSA from LLVM), so most operands come here; the few
   bases are cached by their bytes while no array binding changes. */
static int32_t base_binding(cg_builder *b, const char *p, size_t d)
{
    uint64_t key = cg_short_key(b, p, d);
    struct cg_bcache *c = &b->bcache[(key * 0x9e3779b97f4a7c15ull) >> 60];
    if (key && c->key == key && c->gen == b->gen)
        return c->bind;
    cg_mslot *s = cg_map_get(&b->arrays, p, d);
    int32_t bind = s ? s->val : -1;
    if (key)
        *c = (struct cg_bcache){ key, b->gen, bind };
    return bind;
}

/* The digits p[0..n) as an index: decimal (no leading zero), at most 9
   digits; 0 if they are not one. */
static int decimal_index(const char *p, size_t n, uint32_t *v)
{
    if (n > 9 || (p[0] == '0' && n > 1))
        return 0;
    *v = 0;
    for (size_t i = 0; i < n; i++)
        *v = *v * 10 + (uint32_t)(p[i] - '0');
    return 1;
}

/* The digits that end p[0..n) as an index, read in the same pass that
   finds them: *d where they start, *v their value; 0 if they are not one
   (no base before them, more than 9, a leading zero). */
static int trailing_index(const char *p, size_t n, size_t *d, uint32_t *v)
{
    size_t i = n;
    uint32_t val = 0, scale = 1;
    for (; i > 0 && p[i - 1] >= '0' && p[i - 1] <= '9'; i--, scale *= 10) {
        if (n - i == 9)
            return 0;
        val += (uint32_t)(p[i - 1] - '0') * scale;
    }
    if (i == 0 || i == n || (p[i] == '0' && n - i > 1))
        return 0;
    *d = i;
    *v = val;
    return 1;
}

/* Array element reading of p[0..n) when no array base ends in a digit:
   the base is p[0..d) exactly, the rest a decimal index below the count. */
static int32_t element_of(cg_builder *b, const char *p, size_t n,
                          int32_t *index)
{
    size_t d;
    uint32_t idx;
    if (!trailing_index(p, n, &d, &idx))
        return -1;
    int32_t bind = base_binding(b, p, d);
    if (bind < 0 || idx >= b->k->syms[b->binds[bind].sym].count)
        return -1;
    *index = (int32_t)idx;
    return bind;
}

/* Best array element reading of p[0..n): base + decimal index < count,
   the innermost binding winning and, among equals, the shortest base.
   Only where an array base ends in a digit (%r1<4>) is there more than
   one way to split the name; otherwise element_of answers. */
static int32_t array_lookup(cg_builder *b, const char *p, size_t n,
                            int32_t *index)
{
    if (!b->digit_base)
        return element_of(b, p, n, index);
    size_t d = n;
    while (d > 0 && p[d - 1] >= '0' && p[d - 1] <= '9')
        d--;
    if (d == 0)
        return -1;
    int32_t best = -1;
    size_t bestk = 0;
    /* later bindings are at least as deep: scan from the last one and stop
       below the depth of the first match */
    for (uint32_t j = b->narrs; j-- > 0;) {
        const cg_bind *x = &b->binds[b->arrs[j].bind];
        if (best >= 0 && x->depth < b->binds[best].depth)
            break;
        if (x->shadowed)
            continue;
        const cg_sym *y = &b->k->syms[x->sym];
        size_t k = b->arrs[j].len;
        uint32_t idx;
        /* p[k..n) is digits when k >= d */
        if (k < d || k >= n || !same_bytes(y->ptx, p, k) ||
            !decimal_index(p + k, n - k, &idx))
            continue;
        if (idx >= y->count || (best >= 0 && k >= bestk))
            continue;
        best = (int32_t)b->arrs[j].bind;
        bestk = k;
        *index = (int32_t)idx;
    }
    return best;
}

static cg_symid resolve(cg_builder *b, const char *p, size_t n, int32_t *index);

cg_symid cg_resolve_slow(cg_builder *b, const char *p, size_t n, uint64_t key,
                         int32_t *index)
{
    cg_symid id = resolve(b, p, n, index); /* the one call: inlined */
    if (!key)
        return id;
    struct cg_rcache *c = cg_rcache_slot(b, key);
    c->key = key;
    c->gen = b->gen;
    c->sym = id;
    c->index = *index;
    return id;
}

static cg_symid resolve(cg_builder *b, const char *p, size_t n, int32_t *index)
{
    *index = -1;
    unsigned h = lead_hash(p, n);
    int32_t e = -1;
    if (b->exact_lead[h >> 6] >> (h & 63) & 1) {
        cg_mslot *s = cg_map_get(&b->exact, p, n);
        e = s ? s->val : -1;
    }
    int32_t idx = -1, a = -1;
    if (n > 1 && p[n - 1] >= '0' && p[n - 1] <= '9')
        a = array_lookup(b, p, n, &idx);
    if (a >= 0 && (e < 0 || b->binds[a].depth > b->binds[e].depth)) {
        *index = idx;
        return b->binds[a].sym;
    }
    return e >= 0 ? b->binds[e].sym : CG_NOSYM;
}

cg_symid cg_resolve_reg(cg_builder *b, const char *p, size_t n, int32_t *index)
{
    cg_symid id = cg_resolve(b, p, n, index);
    if (id != CG_NOSYM && !cg_sym_is_reg(&b->k->syms[id]))
        return CG_NOSYM;
    return id;
}
