/*
 * ir.c - IR allocation, symbols, splicing, and a small string map.
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "util/arena.h"

char *cg_strndup(cg_module *m, const char *p, size_t n)
{
    char *s = ptx_arena_alloc(m->arena, n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

void *cg_grow(cg_module *m, void *v, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? 2 * *cap : 8;
    void *w = cg_alloc(m, *cap * size);
    if (n)
        memcpy(w, v, n * size);
    return w;
}

cg_stmt *cg_stmt_new(cg_module *m, cg_stmt_kind kind, ptx_tok first)
{
    cg_stmt *s = ptx_arena_alloc(m->stmts, sizeof *s);
    s->kind = (uint8_t)kind;
    s->first = first;
    return s;
}

cg_stmt *cg_ext_new(cg_module *m, unsigned kind, const cg_ext *ext, ptx_tok first)
{
    cg_stmt *s = cg_stmt_new(m, (cg_stmt_kind)kind, first);
    s->u.ext.ext = ext;
    s->u.ext.node = cg_alloc(m, ext->size);
    return s;
}

cg_opnd *cg_opnd_new(cg_module *m, unsigned kind)
{
    cg_opnd *o = cg_alloc(m, sizeof *o);
    o->kind = (uint8_t)kind;
    o->sym = CG_NOSYM;
    o->index = -1;
    return o;
}

cg_symid cg_sym_add(cg_module *m, cg_kernel *k, cg_sym_kind kind,
                    const char *ptx, const char *type, uint32_t count,
                    uint16_t scope)
{
    k->syms = cg_grow(m, k->syms, k->nsyms, &k->capsyms, sizeof *k->syms);
    cg_sym *s = &k->syms[k->nsyms];
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->ptx = ptx;
    s->type = type;
    s->count = count;
    s->scope = scope;
    s->is_pred = type && !strcmp(type, "pred");
    return k->nsyms++;
}

int cg_text_trivia(const cg_text *t)
{
    /* only whitespace and // comments: a piece naming a symbol only inside
       a comment */
    int in_comment = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        const cg_piece *p = &t->v[i];
        if (p->sym != CG_NOSYM) {
            if (!in_comment)
                return 0;
            continue;
        }
        for (uint32_t j = 0; j < p->n; j++) {
            char c = p->p[j];
            if (in_comment) {   /* to the line's end at once: most of the text */
                const char *nl = memchr(p->p + j, '\n', p->n - j);
                if (!nl)
                    break;
                j = (uint32_t)(nl - p->p);
                in_comment = 0;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                continue;
            if (c == '/' && j + 1 < p->n && p->p[j + 1] == '/') {
                in_comment = 1;
                continue;
            }
            return 0;
        }
    }
    return 1;
}

cg_stmt *cg_splice(cg_stmt **link, cg_stmt *last, cg_stmt *node)
{
    cg_stmt *first = *link;
    node->next = last->next;
    last->next = NULL;
    *link = node;
    return first;
}

/* ---- string map ---------------------------------------------------- */

/* Keys are short (registers %r123, opcode parts "u32"): cg_text_hash
   takes eight bytes per multiply instead of FNV-1a's multiply per byte,
   and is inline so that a lookup is one call.  Only equal keys must hash
   equal: the byte order does not matter. */
static inline uint32_t hash(const char *k, size_t n)
{
    return (uint32_t)(cg_text_hash(k, n) >> 32);
}

static inline cg_mslot *find(const cg_map *mp, const char *k, size_t n,
                             uint32_t h)
{
    for (uint32_t i = h & (mp->cap - 1);; i = (i + 1) & (mp->cap - 1)) {
        cg_mslot *s = &mp->v[i];
        if (!s->k)
            return s; /* the empty slot where k would go */
        if (s->h == h && s->n == n && !memcmp(s->k, k, n))
            return s;
    }
}

void cg_map_prefetch(const cg_map *mp, const char *k, size_t n)
{
    if (mp->cap)
        __builtin_prefetch(&mp->v[hash(k, n) & (mp->cap - 1)]);
}

cg_mslot *cg_map_get(const cg_map *mp, const char *k, size_t n)
{
    if (!mp->cap)
        return NULL;
    cg_mslot *s = find(mp, k, n, hash(k, n));
    return s->k ? s : NULL;
}

static void grow(cg_module *m, cg_map *mp)
{
    /* small at first: a kernel starts several maps, most of which hold a
       handful of names, and every slot is cleared */
    uint32_t cap = mp->cap ? 2 * mp->cap : 16;
    cg_mslot *v = cg_alloc(m, cap * sizeof *v);
    for (uint32_t i = 0; i < mp->cap; i++) {
        cg_mslot *s = &mp->v[i];
        if (!s->k)
            continue;
        uint32_t j = s->h & (cap - 1);
        while (v[j].k)
            j = (j + 1) & (cap - 1);
        v[j] = *s;
    }
    mp->v = v;
    mp->cap = cap;
}

cg_mslot *cg_map_put(cg_module *m, cg_map *mp, const char *k, size_t n)
{
    /* one hash and one probe sequence for a hit, the common case */
    uint32_t h = hash(k, n);
    cg_mslot *s = mp->cap ? find(mp, k, n, h) : NULL;
    if (s && s->k)
        return s;
    if (2 * (mp->n + 1) > mp->cap) {
        grow(m, mp);
        s = find(mp, k, n, h);
    }
    s->k = k;
    s->n = (uint32_t)n;
    s->h = h;
    s->val = -1;
    mp->n++;
    return s;
}

cg_mslot *cg_suffix_next(cg_module *m, cg_map **map, const char *base, size_t n,
                         int32_t first)
{
    if (!*map)
        *map = cg_alloc(m, sizeof **map);
    cg_mslot *next = cg_map_put(m, *map, base, n);
    if (next->val < 0) {
        next->k = cg_strndup(m, base, n);
        next->val = first;
    }
    return next;
}

int cg_pyset_has(cg_kernel *k, const char *name)
{
    return k->pynames && cg_map_get(k->pynames, name, strlen(name)) != NULL;
}

const char *cg_pyset_claim(cg_module *m, cg_kernel *k, const char *name,
                           size_t n)
{
    if (!k->pynames)
        k->pynames = cg_alloc(m, sizeof *k->pynames);
    cg_mslot *s = cg_map_put(m, k->pynames, name, n);
    if (s->val == 1)
        return NULL;
    s->k = cg_strndup(m, name, n); /* the slot outlives the caller's bytes */
    s->val = 1;
    return s->k;
}
