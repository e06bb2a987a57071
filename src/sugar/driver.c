/*
 * sugar/driver.c - the pass table and the one driver that runs it.
 *
 * A pass is a file src/sugar/<name>.c with one entry point,
 * `uint32_t sugar_<name>(cg_module *m, cg_kernel *k)`, that rewrites one
 * kernel and returns how many rewrites it made.  SG_PASSES in sugar.h
 * lists them; this file turns that list into the table below, so the
 * declarations, the table and the mask bits cannot drift apart.  Bit i of
 * ptx_codegen_options.sugar selects row i; rows run in table order.
 */
#include <string.h>
#include "sugar/sugar.h"

#define ROW(name, help) { #name, help, sugar_##name },
const cg_pass cg_passes[] = { SG_PASSES(ROW) };
#undef ROW
const unsigned cg_npasses = sizeof cg_passes / sizeof cg_passes[0];

_Static_assert(sizeof cg_passes / sizeof cg_passes[0] <= PTX_CODEGEN_MAX_PASSES,
               "one mask bit and one statistics slot per pass");

void cg_run_passes(cg_module *m, const cg_options *o)
{
    for (unsigned i = 0; i < cg_npasses; i++) {
        if (!(o->sugar >> i & 1))
            continue;
        uint32_t n = 0;
        for (uint32_t ki = 0; ki < m->nkernels; ki++)
            if (!m->kernels[ki].unsupported)
                n += cg_passes[i].kernel(m, &m->kernels[ki]);
        if (o->stats)
            o->stats->pass_applied[i] += n;
    }
    if (o->sugar)
        for (uint32_t ki = 0; ki < m->nkernels; ki++)
            if (!m->kernels[ki].unsupported)
                sg_fix_pyptx_labels(m, &m->kernels[ki]);
}

unsigned ptx_codegen_npasses(void) { return cg_npasses; }

const char *ptx_codegen_pass_name(unsigned i)
{
    return i < cg_npasses ? cg_passes[i].name : NULL;
}

const char *ptx_codegen_pass_help(unsigned i)
{
    return i < cg_npasses ? cg_passes[i].help : NULL;
}

uint32_t ptx_codegen_pass_bit(const char *name)
{
    for (unsigned i = 0; i < cg_npasses; i++)
        if (!strcmp(cg_passes[i].name, name))
            return 1u << i;
    return 0;
}
