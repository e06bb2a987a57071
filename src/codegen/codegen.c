/*
 * codegen.c - the public entry point: build the IR, run the selected sugar
 * passes, print Python.
 */
#include <string.h>
#include "codegen/build.h"

static void count(const cg_stmt *s, ptx_codegen_stats *st)
{
    for (; s; s = s->next) {
        switch (s->kind) {
        case CG_S_INST: st->insts++; break;
        case CG_S_RAW: st->raw_stmts += s->u.raw.why != NULL; break;
        case CG_S_REG: case CG_S_VAR: st->decls++; break;
        case CG_S_SCOPE: count(s->u.body, st); break;
        default: break;
        }
    }
}

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
    cg_run_passes(m, o);
    if (o->stats)
        stats(m, o->stats);
    cg_print(m, out);
    cg_module_free(m);
    return 0;
}
