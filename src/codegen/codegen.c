/*
 * codegen.c - ptx_codegen: build the IR, run the selected sugar passes,
 * print Python.  A large text in plain mode: pieces.c.
 */
#include <string.h>
#include "codegen/build.h"
#include "front/arena.h"
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

/* Counted on the translation before the sugar passes run, so that they
   describe the PTX (the same plain and sugar); pass_applied says what the
   passes made of it.  Kernels from `from` on. */
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
        cg_count_stats(m, 0, o->stats);
    cg_passes_begin(m, o);
    /* Each kernel is printed as soon as the passes are done with it, while
       it is still cached: a library module's code is far larger than a
       core's cache, and a printer that walked it after all the passes
       met it cold.  The head names what the passes used, so with
       sugar it is printed last and put in before the kernels. */
    size_t start = out->n;
    if (!o->sugar) {   /* no passes: the kernels can be printed at once */
        cg_print_head(m, out);
        cg_print_plain(m, 0, m->nkernels, o->jobs, out);
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
    cg_print_head_at(m, start, out);
    cg_print_tail(m, out);
    cg_module_free(m);
    return 0;
}

