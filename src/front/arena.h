/* arena.h - one bump allocator per parsed module; freed in one call. */
#ifndef PTX_FRONT_ARENA_H
#define PTX_FRONT_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "ptx/ast.h"

typedef struct ptx_arena_chunk {
    struct ptx_arena_chunk *prev;
    size_t cap;
    max_align_t data[];
} ptx_arena_chunk;

/* The free part of the top chunk is [next, end) (both NULL before the
   first chunk): an allocation is a compare and an add, with no chunk
   pointer to follow and test (4 instructions less on each of the ~3
   million nodes of a 12 MB module's parse and code generation). */
struct ptx_arena {
    char *next, *end;
    ptx_arena_chunk *top;
};

ptx_arena *ptx_arena_new(void);
void ptx_arena_free(ptx_arena *a);
/* Moves every chunk of `from` into `to` (freed with it) and frees `from`:
   the arenas of a parallel parse's pieces become the module's. */
void ptx_arena_adopt(ptx_arena *to, ptx_arena *from);
/* The slow path: a new chunk, then the (zeroed) allocation. */
void *ptx_arena_alloc_chunk(ptx_arena *a, size_t n);

/* Zeroed memory, 8-byte aligned.  Inline because the parser allocates a
   node for nearly every token: with a constant size the clearing becomes a
   few stores.  Exits the process only if malloc fails. */
static inline void *ptx_arena_alloc(ptx_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    char *p = a->next;
    if ((uintptr_t)a->end - (uintptr_t)p >= n) {
        a->next = p + n;
        memset(p, 0, n);
        return p;
    }
    return ptx_arena_alloc_chunk(a, n);
}

/* Memory the caller fills entirely: no clearing (of a size known only at
   run time, clearing is a call to memset). */
static inline void *ptx_arena_alloc_filled(ptx_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    char *p = a->next;
    if ((uintptr_t)a->end - (uintptr_t)p >= n) {
        a->next = p + n;
        return p;
    }
    return ptx_arena_alloc_chunk(a, n);
}

#endif
