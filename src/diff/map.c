/* map.c - hash maps, stable storage and interning for pyptx-diff. */
#include <stdlib.h>
#include <string.h>
#include "diff/internal.h"
#include "util/alloc.h"

void *pd_realloc(void *p, size_t n)
{
    return ptx_xrealloc(p, n ? n : 1);
}

void *pd_calloc(size_t n, size_t size)
{
    return ptx_xcalloc(n ? n : 1, size ? size : 1);
}

/* FNV-1a over 8-byte words, then a final mix: fast on the short lines
   that PTX statements are, and good enough for open addressing. */
uint64_t pd_hash(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ n;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return h;
}

static int live(const smap *m, const smap_ent *e)
{
    return e->epoch == m->epoch;
}

smap_ent *pd_map_get(const smap *m, const char *p, uint32_t n, uint64_t h)
{
    if (!m->cap)
        return NULL;
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        smap_ent *e = &m->v[i];
        if (!live(m, e))
            return NULL;
        if (e->h == h && e->n == n && memcmp(e->p, p, n) == 0)
            return e;
    }
}

static void grow(smap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    smap_ent *nv = pd_calloc(ncap, sizeof *nv);
    for (size_t k = 0; k < m->cap; k++) {
        if (!live(m, &m->v[k]))
            continue;
        size_t i = m->v[k].h & (ncap - 1);
        while (nv[i].epoch == m->epoch)
            i = (i + 1) & (ncap - 1);
        nv[i] = m->v[k];
    }
    free(m->v);
    m->v = nv;
    m->cap = ncap;
}

smap_ent *pd_map_put(smap *m, const char *p, uint32_t n, uint64_t h, int *fresh)
{
    if (!m->epoch)
        m->epoch = 1;
    if ((m->count + 1) * 2 > m->cap)
        grow(m);
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        smap_ent *e = &m->v[i];
        if (!live(m, e)) {
            e->p = p, e->n = n, e->h = h, e->epoch = m->epoch, e->val = 0;
            m->count++;
            *fresh = 1;
            return e;
        }
        if (e->h == h && e->n == n && memcmp(e->p, p, n) == 0) {
            *fresh = 0;
            return e;
        }
    }
}

void pd_map_clear(smap *m)
{
    m->count = 0;
    if (++m->epoch == 0) {      /* wrapped: really empty the table */
        memset(m->v, 0, m->cap * sizeof *m->v);
        m->epoch = 1;
    }
}

void pd_map_free(smap *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
}

const char *pd_chunks_copy(chunks *c, const char *p, size_t n)
{
    if (!c->n || c->used + n > c->size) {
        size_t size = n > (1u << 20) ? n : (1u << 20);
        if (c->n == c->cap) {
            c->cap = c->cap ? c->cap * 2 : 16;
            c->v = pd_realloc(c->v, c->cap * sizeof *c->v);
        }
        char *chunk = pd_realloc(NULL, size);   /* (n counts it once it is there) */
        c->v[c->n++] = chunk;
        c->size = size;
        c->used = 0;
    }
    char *dst = c->v[c->n - 1] + c->used;
    memcpy(dst, p, n);
    c->used += n;
    return dst;
}

void pd_chunks_free(chunks *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->v[i]);
    free(c->v);
    memset(c, 0, sizeof *c);
}

uint32_t pd_intern(interner *in, const char *p, size_t n)
{
    return pd_intern_hashed(in, p, n, pd_hash(p, n));
}

uint32_t pd_intern_hashed(interner *in, const char *p, size_t n, uint64_t h)
{
    smap_ent *e = pd_map_get(&in->map, p, (uint32_t)n, h);
    if (e)
        return e->val;
    int fresh;
    e = pd_map_put(&in->map, pd_chunks_copy(&in->store, p, n), (uint32_t)n, h,
                 &fresh);
    e->val = in->next++;
    return e->val;
}

void pd_interner_free(interner *in)
{
    pd_map_free(&in->map);
    pd_chunks_free(&in->store);
}
