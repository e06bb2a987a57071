/* alloc.h - every allocation of the library, and where running out of
   memory goes.
 *
 * The library never ends the process.  An allocation that fails where the
 * caller has no error path of its own (an arena chunk, a growing buffer,
 * ptx_x*) unwinds, with longjmp, to the innermost ptx_protect on this
 * thread, as Lua's luaD_throw unwinds to luaD_rawrunprotected.  Every
 * public function that allocates runs its work under ptx_protect and turns
 * that into its ordinary error result ("out of memory").
 *
 * The rule that keeps unwinding from leaking: between ptx_protect and a
 * failure, whatever was allocated is reachable from the state that the
 * protected call's caller frees when ptx_protect returns -1 (a module and
 * its arena, a piece array, a buffer), or is owned (ptx_own) by the scope
 * for as long as a local variable alone holds it.
 *
 * ptx_malloc and the others return NULL on failure, for callers with an
 * error path of their own.  In a build with -DPTX_FAULTS=ON (build-asan
 * and build-faults of tools/run-tests.sh), ptx_fault_after(n) makes the
 * nth allocation from then on fail, which tests/faults sweeps over every n.
 */
#ifndef PTX_UTIL_ALLOC_H
#define PTX_UTIL_ALLOC_H

#include <stddef.h>
#include "ptx/ptx.h"

void *ptx_malloc(size_t n);
void *ptx_calloc(size_t n, size_t size);
void *ptx_realloc(void *p, size_t n);
char *ptx_strdup(const char *s);
char *ptx_strndup(const char *s, size_t n);

/* The same, unwinding where memory runs out. */
void *ptx_xmalloc(size_t n);
void *ptx_xcalloc(size_t n, size_t size);
void *ptx_xrealloc(void *p, size_t n);

/* Runs fn(ud): 0 when it returned, -1 when memory ran out inside it (with
   every scope opened inside it closed).  Scopes nest; each thread has its
   own. */
int ptx_protect(void (*fn)(void *ud), void *ud);
/* What unwinding frees: `release(p)` runs if memory runs out between
   ptx_own and ptx_disown (which must come in reverse order of their
   ptx_own, as they do in one function).  `o` lives in the owner's frame. */
typedef struct ptx_owned {
    void (*release)(void *p);
    void *p;
    struct ptx_owned *next;
} ptx_owned;
void ptx_own(ptx_owned *o, void (*release)(void *p), void *p);
void ptx_disown(ptx_owned *o);
/* The commonest owned things: a frame's scratch buffers, up to
   PTX_OWN_BUFS of them under one node: ptx_own_bufs(&o, &a, &b, NULL) where
   they are declared, ptx_free_bufs(&o) where the frame frees them. */
enum { PTX_OWN_BUFS = 8 };
typedef struct ptx_bufs {
    ptx_owned own;
    ptx_buf *b[PTX_OWN_BUFS + 1];   /* NULL-ended */
} ptx_bufs;
void ptx_own_bufs(ptx_bufs *o, ...);
void ptx_free_bufs(ptx_bufs *o);

/* ptx_protect for a call that appends to *out: on -1, out->n is what it
   was (the public printers' "the buffer as it was"). */
int ptx_protect_buf(ptx_buf *out, void (*fn)(void *ud), void *ud);

/* Unwinds to the innermost ptx_protect of this thread (there is always
   one: a failure outside every scope is a bug, and aborts). */
_Noreturn void ptx_oom(void);

#ifdef PTX_FAULTS
/* The nth allocation from now (1: the next) fails, once; 0: none does. */
void ptx_fault_after(long n);
/* Allocations made since the last ptx_fault_after. */
long ptx_fault_count(void);
#endif

#endif
