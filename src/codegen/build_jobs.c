/*
 * build_jobs.c - the kernels of a module built on several threads.
 *
 * A kernel's build (cg_build_kernel) reads the parsed module and writes
 * its own cg_kernel, and it allocates from the module: its arenas, and the
 * opcode cache that the module's instructions share.  So each thread
 * builds with a module of its own, a copy that holds its own arenas and
 * opcode cache, and takes the next kernel not yet built (the largest
 * first: build_order); afterwards the copies' arenas and opcodes (the layer
 * above reads their names) become the module's, and the pyptx types
 * their bodies used are added to its.  A
 * kernel's instructions all come from one cache, so instructions that
 * spell one opcode word still share its op and mods arrays within the
 * kernel, which is what the layer above's memos may assume; kernels
 * built by different threads do not share them, and nothing compares
 * instructions of two kernels.  Which thread builds a kernel does not
 * change what is built: the output is the serial build's.
 *
 * A module translated in pieces (pieces.c) frees each piece's kernels
 * once they are printed, and keeps only their names: there every build,
 * one thread's too, allocates from a copy, and the copies' arenas go to
 * the piece's own arena rather than to the module's; the ops of their
 * opcode words are copied to the module where the layer above asks
 * (m->ops_kept).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/threads.h"

typedef struct builder_thread {
    cg_module copy;
    atomic_uint *next;
    const uint32_t *order;  /* the kernels to build, largest first */
    uint32_t n;
    cg_module *m;
} builder_thread;

static void build_some(void *arg)
{
    builder_thread *t = arg;
    for (;;) {
        uint32_t j = atomic_fetch_add(t->next, 1);
        if (j >= t->n)
            return;
        cg_build_kernel(&t->copy, &t->m->kernels[t->order[j]]);
    }
}

typedef struct sized {
    uint32_t bytes, kernel;
} sized;

static int larger_first(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return x->kernel < y->kernel ? -1 : x->kernel > y->kernel;
}

/* Kernels from `from` on, the largest first (on threads): a library
   module's kernels run from a few KiB to several MiB, and one of the
   largest taken last would run alone while the other threads wait. */
static void build_order(const cg_module *m, uint32_t from, uint32_t to, unsigned threads,
                        uint32_t *order, sized *v)
{
    uint32_t n = to - from;
    for (uint32_t i = 0; i < n; i++) {
        order[i] = from + i;
        const ptx_stmt *s = m->kernels[from + i].src;
        const ptx_token *t = m->src->toks;
        v[i] = (sized){ t[s->u.func.body->rbrace].start - t[s->first].start, from + i };
    }
    if (threads > 1) {
        qsort(v, n, sizeof *v, larger_first);
        for (uint32_t i = 0; i < n; i++)
            order[i] = v[i].kernel;
    }
}

/* The ops of a piece's opcode words into m (m->ops_kept). */
static void keep_ops(cg_module *m, const cg_module *copy)
{
    for (uint32_t i = 0; i < copy->nopcodes; i++) {
        const char *op = copy->opcodes_v[i].op;
        uint32_t before = m->ops_kept->n;
        cg_mslot *s = cg_map_put(m, m->ops_kept, op, strlen(op));
        if (m->ops_kept->n == before)
            continue;
        s->k = cg_strndup(m, op, strlen(op));
        m->opcodes_v = cg_grow(m, m->opcodes_v, m->nopcodes, &m->capopcodes,
                               sizeof *m->opcodes_v);
        m->opcodes_v[m->nopcodes++] = (cg_opcode){ .op = s->k };
    }
}

/* Hands t's arenas, opcodes and types to m, or its arenas to ir. */
static void merge(cg_module *m, builder_thread *t, ptx_arena *ir)
{
    m->types_used |= t->copy.types_used;
    if (ir) {   /* a piece's: a layer above reads its ops alone, if any */
        if (m->ops_kept)
            keep_ops(m, &t->copy);
        ptx_arena_adopt(ir, t->copy.arena);
        ptx_arena_adopt(ir, t->copy.stmts);
        t->copy.arena = t->copy.stmts = NULL;
        return;
    }
    ptx_arena_adopt(m->arena, t->copy.arena);
    ptx_arena_adopt(m->stmts, t->copy.stmts);
    t->copy.arena = t->copy.stmts = NULL;   /* (m's now, should cg_grow unwind) */
    for (uint32_t i = 0; i < t->copy.nopcodes; i++) {
        m->opcodes_v = cg_grow(m, m->opcodes_v, m->nopcodes, &m->capopcodes,
                               sizeof *m->opcodes_v);
        m->opcodes_v[m->nopcodes++] = t->copy.opcodes_v[i];
    }
}

/* The builders and what they hold: freed when done, or where memory runs
   out (util/alloc.h). */
typedef struct builders {
    builder_thread *t;
    uint32_t *order;
    unsigned n;
} builders;

static void release_builders(void *arg)
{
    builders *b = arg;
    for (unsigned i = 0; i < b->n; i++) {
        ptx_arena_free(b->t[i].copy.arena);
        ptx_arena_free(b->t[i].copy.stmts);
    }
    free(b->order);
    free(b->t);
}

void cg_build_kernels(cg_module *m, uint32_t from, uint32_t to, unsigned jobs,
                      ptx_arena *ir)
{
    uint32_t count = to - from;
    unsigned n = jobs < count ? jobs : count;
    n = n < PTX_MAX_THREADS ? n : PTX_MAX_THREADS;
    if (!count)
        return;
    n = n ? n : 1;
    if (n < 2 && !ir) {
        for (uint32_t i = from; i < to; i++)
            cg_build_kernel(m, &m->kernels[i]);
        return;
    }
    /* the builders, then the order and its sort keys in one block */
    builders b = { ptx_xcalloc(n, sizeof(builder_thread)), NULL, n };
    ptx_owned own;
    ptx_own(&own, release_builders, &b);
    b.order = ptx_xmalloc(count * (sizeof *b.order + sizeof(sized)));
    build_order(m, from, to, n, b.order, (sized *)(b.order + count));
    builder_thread *t = b.t;
    atomic_uint next = 0;
    for (unsigned i = 0; i < n; i++) {
        t[i].copy = *m;
        t[i].copy.arena = t[i].copy.stmts = NULL;   /* not m's, should the next unwind */
        t[i].copy.arena = ptx_arena_new();
        t[i].copy.stmts = ptx_arena_new();
        t[i].copy.opcodes = NULL;
        t[i].copy.opcodes_v = NULL;
        t[i].copy.nopcodes = t[i].copy.capopcodes = 0;
        t[i].copy.types_used = 0;
        t[i].next = &next;
        t[i].order = b.order;
        t[i].n = count;
        t[i].m = m;
    }
    if (n == 1)
        build_some(&t[0]);
    else if (ptx_each_thread(t, n, sizeof *t, build_some))
        ptx_oom();
    for (unsigned i = 0; i < n; i++)
        merge(m, &t[i], ir);
    ptx_disown(&own);
    release_builders(&b);
}
