/* arena.h - one bump allocator per parsed module; freed in one call. */
#ifndef PTX_FRONT_ARENA_H
#define PTX_FRONT_ARENA_H

#include <stddef.h>
#include "ptx/ast.h"

ptx_arena *ptx_arena_new(void);
/* Zeroed memory, 8-byte aligned.  Aborts the process only if malloc fails. */
void *ptx_arena_alloc(ptx_arena *a, size_t n);
void ptx_arena_free(ptx_arena *a);

#endif
