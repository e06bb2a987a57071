/* arena.c - chunked bump allocator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "front/arena.h"

typedef struct chunk {
    struct chunk *prev;
    size_t used, cap;
    max_align_t data[];
} chunk;

struct ptx_arena {
    chunk *top;
};

enum { CHUNK_MIN = 64 * 1024 };

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("fatal: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

ptx_arena *ptx_arena_new(void)
{
    ptx_arena *a = xmalloc(sizeof *a);
    a->top = NULL;
    return a;
}

void *ptx_arena_alloc(ptx_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    chunk *c = a->top;
    if (!c || c->cap - c->used < n) {
        /* chunks double with the arena so that big files need few mallocs */
        size_t cap = c ? c->cap * 2 : CHUNK_MIN;
        if (cap > 64u * 1024 * 1024)
            cap = 64u * 1024 * 1024;
        if (cap < n)
            cap = n;
        chunk *nc = xmalloc(sizeof *nc + cap);
        nc->prev = c;
        nc->used = 0;
        nc->cap = cap;
        a->top = c = nc;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

void ptx_arena_free(ptx_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->top, *prev; c; c = prev) {
        prev = c->prev;
        free(c);
    }
    free(a);
}
