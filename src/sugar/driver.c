/*
 * sugar/driver.c - the pass table and the one driver that runs it.
 *
 * A pass is a file src/sugar/<name>.c with one entry point,
 * `uint32_t sugar_<name>(cg_module *m, cg_kernel *k)`, that rewrites one
 * kernel and returns how many rewrites it made.  SG_PASSES in sugar.h
 * lists them; this file turns that list into the table below, so the
 * declarations, the table and the mask bits cannot drift apart.  Bit i of
 * ptx_codegen_options.sugar selects row i; on each kernel, rows run in
 * table order.
 *
 * The driver runs the rows kernel by kernel (every selected row on the
 * first kernel, then on the second ...), not row by row over the module:
 * a library module holds a million statements, far more than any cache,
 * so a row that walked every kernel before the next row started found
 * each kernel evicted again, once per row; one kernel (a few thousand
 * statements) stays cached from one row to the next.  Only a row listed
 * in SG_BARRIERS (sugar.h) finishes on every kernel before the next row
 * starts, because later rows of every kernel read what it sets for all
 * of them.  Kernels share nothing else that a row writes and another
 * reads (free.c: new PTX spellings are module-wide, but the rows that
 * give them never pick the same ones), so the output is the one that
 * running row by row gives.
 */
#include <string.h>
#include "sugar/sugar.h"

#define ROW(name, help) { #name, help, sugar_##name },
const cg_pass cg_passes[] = { SG_PASSES(ROW) };
#undef ROW
const unsigned cg_npasses = sizeof cg_passes / sizeof cg_passes[0];

_Static_assert(sizeof cg_passes / sizeof cg_passes[0] <= PTX_CODEGEN_MAX_PASSES,
               "one mask bit and one statistics slot per pass");

/* Row indices by name, and the rows after which the driver waits. */
#define INDEX(name, help) SG_ROW_##name,
enum { SG_PASSES(INDEX) SG_NROWS };
#undef INDEX
#define BARRIER(name) | 1u << SG_ROW_##name
static const uint32_t barriers = 0 SG_BARRIERS(BARRIER);
static const uint32_t label_rows = 0 SG_FRESH_LABEL_ROWS(BARRIER);
#undef BARRIER

/* Rows first..last of the selected ones, kernel by kernel. */
static void run_rows(cg_module *m, const cg_options *o, unsigned first, unsigned last)
{
    for (uint32_t ki = 0; ki < m->nkernels; ki++) {
        if (m->kernels[ki].unsupported)
            continue;
        for (unsigned i = first; i <= last; i++) {
            if (!(o->sugar >> i & 1))
                continue;
            uint32_t n = cg_passes[i].kernel(m, &m->kernels[ki]);
            if (n && (label_rows >> i & 1))
                m->kernels[ki].fresh_labels = 1;
            if (o->stats)
                o->stats->pass_applied[i] += n;
        }
    }
}

int sg_runs(const cg_module *m, const char *name)
{
    return (m->sugar & ptx_codegen_pass_bit(name)) != 0;
}

void cg_run_passes(cg_module *m, const cg_options *o)
{
    m->sugar = o->sugar;
    for (unsigned first = 0, last; first < cg_npasses; first = last + 1) {
        for (last = first; last + 1 < cg_npasses && !(barriers >> last & 1); last++)
            ;
        run_rows(m, o, first, last);
    }
    for (uint32_t ki = 0; ki < m->nkernels; ki++)
        if (!m->kernels[ki].unsupported && m->kernels[ki].fresh_labels)
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
