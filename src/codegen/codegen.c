/*
 * codegen.c - what the entry points (ptx_codegen, in the layer above) put
 * together: statistics of a built module, and its Python printed whole
 * (the kernels on several threads) or around kernels printed one by one.
 * A large text in plain mode: pieces.c.
 */
#include <string.h>
#include "codegen/build.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/threads.h"

void cg_count_stmts(cg_stmt *s, ptx_codegen_stats *st)
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
            cg_count_stmts(*body, st);
    }
}

/* Counted on the translation before the layer above rewrites it, so that
   they describe the PTX (the same plain and readable); pass_applied says
   what the layer's passes made of it.  Kernels from `from` on. */
void cg_count_stats(const cg_module *m, uint32_t from, ptx_codegen_stats *st)
{
    for (uint32_t i = from; i < m->nkernels; i++) {
        st->kernels++;
        st->unsupported += m->kernels[i].unsupported != NULL;
        cg_count_stmts(m->kernels[i].body, st);
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
void cg_print_head_at(const cg_module *m, size_t start, ptx_buf *out)
{
    ptx_buf head = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &head, NULL);
    const char *code = out->p ? out->p + start : NULL;   /* NULL: nothing printed yet */
    cg_print_head(m, code, out->n - start, &head);
    insert_at(out, start, &head);
    ptx_free_bufs(&ob);
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

void cg_print_plain(const cg_module *m, uint32_t from, uint32_t to, unsigned jobs,
                    ptx_buf *out)
{
    kernel_run runs[PTX_MAX_THREADS];
    ptx_cut c = ptx_cut_start(m->src->size,
                              jobs < PTX_MAX_THREADS ? jobs : PTX_MAX_THREADS);
    unsigned k = 0;
    runs[0] = (kernel_run){ m, from, to };
    for (uint32_t i = from + 1; i < to; i++)
        if (ptx_cut_here(&c, m->src->toks[m->kernels[i].src->first].start)) {
            runs[k].to = i;
            runs[++k] = (kernel_run){ m, i, to };
        }
    if (k)
        ptx_print_each_thread(runs, k + 1, sizeof *runs, print_run, out);
    else
        print_run(&runs[0], out);
}

void cg_print_all(const cg_module *m, unsigned jobs, ptx_buf *out)
{
    cg_print_head(m, NULL, 0, out);
    cg_print_plain(m, 0, m->nkernels, jobs, out);
    cg_print_tail(m, out);
}
