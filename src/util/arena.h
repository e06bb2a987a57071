/* arena.h - one bump allocator per parsed module; freed in one call. */
#ifndef PTX_UTIL_ARENA_H
#define PTX_UTIL_ARENA_H

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
/* The same as a ptx_own release (util/alloc.h). */
void ptx_arena_release(void *a);
/* Moves every chunk of `from` into `to` (freed with it) and frees `from`:
   the arenas of a parallel parse's pieces become the module's. */
void ptx_arena_adopt(ptx_arena *to, ptx_arena *from);
/* The slow path: a new chunk, then the (zeroed) allocation. */
void *ptx_arena_alloc_chunk(ptx_arena *a, size_t n);

/* Clears n bytes at p (8-byte aligned, n a multiple of 8) with 16-byte
   stores, which a constant n unrolls into a few: GCC makes a memset of
   more than 64 bytes, or a loop of 8-byte stores, a `rep stos`, whose
   start-up cost more than the rest of an instruction's node building. */
static inline void ptx_arena_clear(char *p, size_t n)
{
    typedef long long zero16 __attribute__((vector_size(16), may_alias, aligned(8)));
    typedef uint64_t zero8 __attribute__((may_alias, aligned(8)));
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        *(zero16 *)(p + i) = (zero16){ 0, 0 };
    if (n & 8)
        *(zero8 *)(p + i) = 0;
}

/* Zeroed memory, 8-byte aligned.  Inline because the parser allocates a
   node for nearly every token: with a constant size the clearing becomes a
   few stores.  Unwinds (util/alloc.h) where malloc fails. */
static inline void *ptx_arena_alloc(ptx_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    char *p = a->next;
    if ((uintptr_t)a->end - (uintptr_t)p >= n) {
        a->next = p + n;
        ptx_arena_clear(p, n);
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

/* A point to go back to: what is allocated after it is given back by
   ptx_arena_back, unless it started a new chunk (then it stays, unused,
   until the arena is freed: a chunk holds thousands of nodes). */
typedef struct ptx_arena_mark {
    char *next;
    ptx_arena_chunk *top;
} ptx_arena_mark;

static inline ptx_arena_mark ptx_arena_here(const ptx_arena *a)
{
    return (ptx_arena_mark){ a->next, a->top };
}

static inline void ptx_arena_back(ptx_arena *a, ptx_arena_mark m)
{
    if (a->top == m.top)
        a->next = m.next;
}

#endif
