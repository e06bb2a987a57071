/*
 * codegen.c - the public entry point: build the IR, run the selected sugar
 * passes, print Python.
 */
#include <string.h>
#include "codegen/build.h"

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
   passes made of it. */
static void stats(const cg_module *m, ptx_codegen_stats *st)
{
    for (uint32_t i = 0; i < m->nkernels; i++) {
        st->kernels++;
        st->unsupported += m->kernels[i].unsupported != NULL;
        count(m->kernels[i].body, st);
    }
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
        stats(m, o->stats);
    cg_run_passes(m, o);
    cg_print(m, out);
    cg_module_free(m);
    return 0;
}
