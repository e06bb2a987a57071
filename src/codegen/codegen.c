/*
 * codegen.c - the public entry points: build the IR, run the selected sugar
 * passes, print Python.
 *
 * Plain mode can also take a large module a piece at a time
 * (ptx_codegen_pieces), cut as the round trip in pieces cuts it
 * (src/emit/pieces.c says why the pieces' items are the whole parse's).
 * A plain kernel's Python depends on its own statement alone, and on what
 * the module carries from piece to piece: the .target and .version first
 * met, the Python names the kernels before it took, and the raw segment
 * open at the cut (build_module.c).  So the pieces' Python is the whole
 * module's, while only one piece's tree and kernels are held at a time;
 * the head, which names the pyptx types the kernels used, is printed last
 * and put in front, as with sugar.
 */
#include <string.h>
#include "codegen/build.h"
#include "front/arena.h"
#include "util/threads.h"

static void count(cg_stmt *s, ptx_codegen_stats *st)
{
    for (; s; s = s->next) {
        switch (s->kind) {
        case CG_S_INST: st->insts++; break;
        case CG_S_RAW: st->raw_stmts += s->u.raw.why != NULL; break;
        case CG_S_REG: case CG_S_VAR: st->decls++; break;
        default: break;
        }
        cg_stmt **body = cg_body(s);
        if (body)
            count(*body, st);
    }
}

/* Counted on the translation before the sugar passes run, so that they
   describe the PTX (the same plain and sugar); pass_applied says what the
   passes made of it.  Kernels from `from` on. */
static void stats(const cg_module *m, uint32_t from, ptx_codegen_stats *st)
{
    for (uint32_t i = from; i < m->nkernels; i++) {
        st->kernels++;
        st->unsupported += m->kernels[i].unsupported != NULL;
        count(m->kernels[i].body, st);
    }
}

/* Put `what` into b at byte `at`: the bytes after it move up, in place (a
   second buffer for them would be as large as the output, and new memory
   costs a page fault per 4 KiB). */
static void insert_at(ptx_buf *b, size_t at, const ptx_buf *what)
{
    if (!what->n)
        return;
    ptx_buf_reserve(b, what->n);
    memmove(b->p + at + what->n, b->p + at, b->n - at);
    memcpy(b->p + at, what->p, what->n);
    b->n += what->n;
}

/* The head, which names what the kernels use, printed once they are and
   put in before them, at `start`. */
static void print_head_at(const cg_module *m, size_t start, ptx_buf *out)
{
    ptx_buf head = { 0 };
    cg_print_head(m, &head);
    insert_at(out, start, &head);
    ptx_buf_free(&head);
}

/* Plain mode's kernels, printed on several threads: each prints a run of
   kernels of about equal source size (a kernel's text depends on nothing
   printed before it). */
typedef struct kernel_run {
    const cg_module *m;
    uint32_t from, to;
} kernel_run;

static void print_run(void *arg, ptx_buf *text)
{
    const kernel_run *r = arg;
    for (uint32_t i = r->from; i < r->to; i++)
        if (!r->m->kernels[i].unsupported)
            cg_print_kernel(r->m, &r->m->kernels[i], text);
}

static void print_plain(const cg_module *m, uint32_t from, unsigned jobs,
                        ptx_buf *out)
{
    kernel_run runs[PTX_MAX_THREADS];
    ptx_cut c = ptx_cut_start(m->src->size,
                              jobs < PTX_MAX_THREADS ? jobs : PTX_MAX_THREADS);
    unsigned k = 0;
    runs[0] = (kernel_run){ m, from, m->nkernels };
    for (uint32_t i = from + 1; i < m->nkernels; i++)
        if (ptx_cut_here(&c, m->src->toks[m->kernels[i].src->first].start)) {
            runs[k].to = i;
            runs[++k] = (kernel_run){ m, i, m->nkernels };
        }
    if (k)
        ptx_print_each_thread(runs, k + 1, sizeof *runs, print_run, out);
    else
        print_run(&runs[0], out);
}

int ptx_codegen(const ptx_module *pm, const ptx_codegen_options *o,
                ptx_buf *out, ptx_diag *err)
{
    ptx_codegen_options none = { 0 };
    cg_module *m;
    if (!o)
        o = &none;
    if (cg_build(pm, o, &m, err) != 0)
        return -1;
    if (o->stats)
        stats(m, 0, o->stats);
    cg_passes_begin(m, o);
    /* Each kernel is printed as soon as the passes are done with it, while
       it is still cached: a library module's code is far larger than a
       core's cache, and a printer that walked it after all the passes
       met it cold.  The head names what the passes used, so with
       sugar it is printed last and put in before the kernels. */
    size_t start = out->n;
    if (!o->sugar) {   /* no passes: the kernels can be printed at once */
        cg_print_head(m, out);
        print_plain(m, 0, o->jobs, out);
        cg_print_tail(m, out);
        cg_module_free(m);
        return 0;
    }
    for (uint32_t i = 0; i < m->nkernels; i++) {
        cg_kernel *k = &m->kernels[i];
        if (k->unsupported)
            continue;
        cg_passes_run(m, o, k);
        cg_print_kernel(m, k, out);
    }
    print_head_at(m, start, out);
    cg_print_tail(m, out);
    cg_module_free(m);
    return 0;
}

/* The kernels from `from` on, printed: all the tail needs of them is their
   names, which the module's arena holds (kernel_head; an unsupported
   kernel's are copied there), not their IR, which goes with its piece. */
static void forget(cg_module *m, uint32_t from)
{
    for (uint32_t i = from; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        cg_kernel names = { .ptx_name = k->ptx_name, .py_name = k->py_name,
                            .decorated = k->decorated };
        if (k->unsupported) {
            names.ptx_name = cg_strndup(m, k->ptx_name, strlen(k->ptx_name));
            names.unsupported = cg_strndup(m, k->unsupported, strlen(k->unsupported));
        }
        m->kernels[i] = names;
    }
}

static void add_stats(ptx_codegen_stats *to, const ptx_codegen_stats *st)
{
    to->kernels += st->kernels;
    to->unsupported += st->unsupported;
    to->insts += st->insts;
    to->raw_stmts += st->raw_stmts;
    to->decls += st->decls;
}

/* A piece parsed, its kernels built and printed, and all of it freed but
   the module's own: names, raw segments (which point into src). */
static int one_piece(cg_module *m, const char *name, const char *src,
                     size_t from, size_t to, ptx_codegen_stats *st, ptx_buf *out)
{
    ptx_diag d;
    ptx_module *pm = ptx_parse_buffer_jobs(name, src + from, to - from,
                                           m->opt->jobs, &d);
    if (!pm)
        return 0;
    ptx_arena *ir = ptx_arena_new();
    uint32_t k0 = m->nkernels;
    cg_build_items(m, pm, src, from, ir);
    stats(m, k0, st);
    print_plain(m, k0, m->opt->jobs, out);
    forget(m, k0);
    m->src = NULL;
    ptx_arena_free(ir);
    ptx_module_free(pm);
    return 1;
}

int ptx_codegen_pieces(const char *name, const char *src, size_t size,
                       size_t piece, const ptx_codegen_options *o, ptx_buf *out)
{
    if (!o || o->sugar || o->name)
        return 0;
    if (!piece) {   /* the programs' pieces: a smaller text goes whole */
        piece = ptx_piece_size(o->jobs);
        if (size / 2 < piece)
            return 0;
    }
    cg_module *m = cg_module_new(o, name);
    ptx_codegen_stats st = { 0 };
    size_t start = out->n, from = 0;
    /* Room for the Python at once (plain Python runs to about 2.2 bytes
       per byte of PTX): a buffer that doubles as it fills holds its old
       copy too, and the freed copies stay in the heap; pages of the room
       that nothing writes are never touched, so they cost nothing. */
    ptx_buf_reserve(out, size / 2 * 5);
    int ok;
    do {
        size_t to = size - from <= piece ? size
                  : ptx_cut_after(src, size, from + piece);
        ok = one_piece(m, name, src, from, to, &st, out);
        from = to;
    } while (ok && from < size);
    if (ok) {
        cg_build_end(m, src, size);
        print_head_at(m, start, out);
        cg_print_tail(m, out);
        if (o->stats)
            add_stats(o->stats, &st);
    } else
        out->n = start;
    cg_module_free(m);
    return ok;
}
