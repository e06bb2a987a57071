/* alloc.c - the library's allocations, their failure, and unwinding. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "util/alloc.h"

typedef struct scope {
    jmp_buf jump;
    struct scope *outer;
    ptx_owned *owned;   /* the most recent first */
} scope;

/* The innermost scope of this thread: Lua keeps its jump target in the
   lua_State; a thread is our only per-call state that every allocator
   can reach without a parameter through every printer. */
static _Thread_local scope *innermost;

#ifdef PTX_FAULTS
static long countdown, counted;   /* (atomic: pieces allocate on threads) */

void ptx_fault_after(long n)
{
    __atomic_store_n(&countdown, n, __ATOMIC_SEQ_CST);
    __atomic_store_n(&counted, 0, __ATOMIC_SEQ_CST);
}

long ptx_fault_count(void)
{
    return __atomic_load_n(&counted, __ATOMIC_SEQ_CST);
}

/* 1 where this allocation is the one to fail. */
static int fault(void)
{
    __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
    long c = __atomic_load_n(&countdown, __ATOMIC_SEQ_CST);
    while (c > 0)
        if (__atomic_compare_exchange_n(&countdown, &c, c - 1, 0, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST))
            return c == 1;
    return 0;
}
#define FAULT() (fault() ? (errno = ENOMEM, 1) : 0)   /* as malloc says it */
#else
#define FAULT() 0
#endif

void *ptx_malloc(size_t n)
{
    return FAULT() ? NULL : malloc(n);
}

void *ptx_calloc(size_t n, size_t size)
{
    return FAULT() ? NULL : calloc(n, size);
}

void *ptx_realloc(void *p, size_t n)
{
    return FAULT() ? NULL : realloc(p, n);
}

char *ptx_strdup(const char *s)
{
    return ptx_strndup(s, strlen(s));
}

char *ptx_strndup(const char *s, size_t n)
{
    n = strnlen(s, n);
    char *p = ptx_malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

void *ptx_xmalloc(size_t n)
{
    void *p = ptx_malloc(n);
    if (!p)
        ptx_oom();
    return p;
}

void *ptx_xcalloc(size_t n, size_t size)
{
    void *p = ptx_calloc(n, size);
    if (!p)
        ptx_oom();
    return p;
}

void *ptx_xrealloc(void *p, size_t n)
{
    void *q = ptx_realloc(p, n);
    if (!q)
        ptx_oom();
    return q;
}

/* Only `s` is a local of the function that calls setjmp, and it is not
   changed after: what fn changes lives in the caller's state (ud). */
int ptx_protect(void (*fn)(void *ud), void *ud)
{
    scope s;
    s.outer = innermost;
    s.owned = NULL;
    innermost = &s;
    if (setjmp(s.jump) == 0) {
        fn(ud);
        innermost = s.outer;
        return 0;
    }
    innermost = s.outer;
    return -1;
}

int ptx_protect_buf(ptx_buf *out, void (*fn)(void *ud), void *ud)
{
    size_t n = out->n;
    if (ptx_protect(fn, ud) == 0)
        return 0;
    out->n = n;
    return -1;
}

_Noreturn void ptx_oom(void)
{
    scope *s = innermost;
    if (!s)
        abort();
    /* the owners' frames are still there: release before the jump */
    for (ptx_owned *o = s->owned; o; o = o->next)
        o->release(o->p);
    longjmp(s->jump, 1);
}

void ptx_own(ptx_owned *o, void (*release)(void *p), void *p)
{
    *o = (ptx_owned){ release, p, NULL };
    if (innermost) {
        o->next = innermost->owned;
        innermost->owned = o;
    }
}

void ptx_disown(ptx_owned *o)
{
    if (innermost && innermost->owned == o)
        innermost->owned = o->next;
}

static void release_bufs(void *arg)
{
    ptx_bufs *o = arg;
    for (ptx_buf **b = o->b; *b; b++)
        ptx_buf_free(*b);
}

void ptx_own_bufs(ptx_bufs *o, ...)
{
    va_list ap;
    va_start(ap, o);
    unsigned n = 0;
    for (ptx_buf *b; (b = va_arg(ap, ptx_buf *)) != NULL && n < PTX_OWN_BUFS;)
        o->b[n++] = b;
    va_end(ap);
    o->b[n] = NULL;
    ptx_own(&o->own, release_bufs, o);
}

void ptx_free_bufs(ptx_bufs *o)
{
    ptx_disown(&o->own);
    release_bufs(o);
}
