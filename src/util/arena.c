/* arena.c - chunked bump allocator. */
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"
#include "util/arena.h"

enum { CHUNK_MIN = 64 * 1024, CHUNK_MAX = 16 * 1024 * 1024 };

ptx_arena *ptx_arena_new(void)
{
    return ptx_xcalloc(1, sizeof(ptx_arena));
}

void *ptx_arena_alloc_chunk(ptx_arena *a, size_t n)
{
    /* chunks double with the arena so that big files need few mallocs */
    size_t cap = a->top ? a->top->cap * 2 : CHUNK_MIN;
    if (cap > CHUNK_MAX)
        cap = CHUNK_MAX;
    if (cap < n)
        cap = n;
    ptx_arena_chunk *c = ptx_xmalloc(sizeof *c + cap);
    c->prev = a->top;
    c->cap = cap;
    a->top = c;
    a->next = (char *)c->data + n;
    a->end = (char *)c->data + cap;
    memset(c->data, 0, n);
    return c->data;
}

void ptx_arena_adopt(ptx_arena *to, ptx_arena *from)
{
    ptx_arena_chunk *bottom = from->top;
    if (bottom) {
        while (bottom->prev)
            bottom = bottom->prev;
        /* `to` keeps its own top, where it allocates next */
        if (to->top) {
            bottom->prev = to->top->prev;
            to->top->prev = from->top;
        } else {
            to->top = from->top;
            to->next = from->next;
            to->end = from->end;
        }
    }
    free(from);
}

void ptx_arena_release(void *a)
{
    ptx_arena_free(a);
}

void ptx_arena_free(ptx_arena *a)
{
    if (!a)
        return;
    for (ptx_arena_chunk *c = a->top, *prev; c; c = prev) {
        prev = c->prev;
        free(c);
    }
    free(a);
}
