/*
 * sugar/driver.c - the pass table and the one driver that runs it.
 *
 * A pass is a file src/sugar/<name>.c with one entry point,
 * `uint32_t sugar_<name>(cg_module *m, cg_kernel *k)`, that rewrites one
 * kernel and returns how many rewrites it made.  SG_PASSES in sugar.h
 * lists them; this file turns that list into the table below, so the
 * declarations, the table and the mask bits cannot drift apart.  Bit i of
 * ptx_codegen_options.sugar selects row i (kernel_sugar[k], where given,
 * for kernel k); on each kernel, rows run in table order.
 *
 * The rows run kernel by kernel (cg_passes_run: every selected row on one
 * kernel, which codegen.c then prints, then on the next), not row by row
 * over the module:
 * a library module holds a million statements, far more than any cache,
 * so a row that walked every kernel before the next row started found
 * each kernel evicted again, once per row; one kernel (a few thousand
 * statements) stays cached from one row to the next.  What a row decides
 * for the whole module comes first, in a prelude that runs on every
 * kernel before any row runs on any (SG_PRELUDES in sugar.h: the kernels'
 * Python names, which every row's new names avoid); a prelude walks no
 * statement list, so it costs no pass over the kernels' bodies.  (A module
 * rewritten in pieces, pieces.c, runs the preludes of each piece's kernels
 * before any row runs on them: free.c keeps that exact.)  Kernels
 * share nothing else that a row writes and another reads (free.c: new PTX
 * spellings are module-wide, but the rows that give them never pick the
 * same ones), so the output is the one that running row by row gives.
 */
#include <string.h>
#include <time.h>
#include "sugar/sugar.h"

#define ROW(name, help) { #name, help, sugar_##name },
const cg_pass cg_passes[] = { SG_PASSES(ROW) };
#undef ROW
const unsigned cg_npasses = sizeof cg_passes / sizeof cg_passes[0];

_Static_assert(sizeof cg_passes / sizeof cg_passes[0] <= PTX_CODEGEN_MAX_PASSES,
               "one mask bit and one statistics slot per pass");

/* Row indices by name; the rows that make fresh labels; the preludes. */
#define INDEX(name, help) SG_ROW_##name,
enum { SG_PASSES(INDEX) SG_NROWS };
#undef INDEX
#define BIT(name) | 1u << SG_ROW_##name
static const uint32_t label_rows = 0 SG_FRESH_LABEL_ROWS(BIT);
#undef BIT
#define PRELUDE(name, fn) { SG_ROW_##name, fn },
static const struct {
    unsigned row;
    uint32_t (*kernel)(cg_module *m, cg_kernel *k);
} preludes[] = { SG_PRELUDES(PRELUDE) };
#undef PRELUDE

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Runs fn on k as row `row`, counting its rewrites and (where statistics
   are asked for) its time. */
static uint32_t timed(const cg_options *o, unsigned row,
                      uint32_t (*fn)(cg_module *, cg_kernel *), cg_module *m, cg_kernel *k)
{
    if (!o->stats)
        return fn(m, k);
    uint64_t t0 = now_ns();
    uint32_t n = fn(m, k);
    o->stats->pass_ns[row] += now_ns() - t0;
    o->stats->pass_applied[row] += n;
    return n;
}

int sg_runs(const cg_module *m, const char *name)
{
    return (sg_st(m)->passes & ptx_codegen_pass_bit(name)) != 0;
}

/* The rows kernel ki runs: its own where o->kernel_sugar gives them. */
static uint32_t kernel_rows(const cg_options *o, uint32_t ki)
{
    return o->kernel_sugar && ki < o->nkernel_sugar ? o->kernel_sugar[ki] : o->sugar;
}

/* The state's `passes` are the rows of the kernel being rewritten, so that a row
   leaves work to a later one only where that one runs on that kernel. */
void cg_passes_state(cg_module *m, const cg_options *o)
{
    sg_state *st = cg_alloc(m, sizeof *st);
    st->passes = o->sugar;
    m->layer_state = st;
}

void cg_passes_prelude(cg_module *m, const cg_options *o, uint32_t from, uint32_t to)
{
    sg_state *st = sg_st(m);
    for (uint32_t ki = from; ki < to; ki++)
        m->kernels[ki].layer = cg_alloc(m, sizeof(sg_kstate));
    st->in_prelude = 1;
    for (unsigned p = 0; p < sizeof preludes / sizeof *preludes; p++)
        for (uint32_t ki = from; ki < to; ki++) {
            st->passes = kernel_rows(o, ki);
            if (!m->kernels[ki].unsupported && (st->passes >> preludes[p].row & 1))
                timed(o, preludes[p].row, preludes[p].kernel, m, &m->kernels[ki]);
        }
    st->in_prelude = 0;
    st->passes = o->sugar;
}

void cg_passes_begin(cg_module *m, const cg_options *o)
{
    cg_passes_state(m, o);
    cg_passes_prelude(m, o, 0, m->nkernels);
}

void cg_passes_run(cg_module *m, const cg_options *o, cg_kernel *k)
{
    sg_state *st = sg_st(m);
    st->passes = kernel_rows(o, (uint32_t)(k - m->kernels));
    st->alias_nodes = NULL;   /* (in the piece's arena, as its statements) */
    st->naliases = st->capaliases = 0;
    for (unsigned i = 0; i < cg_npasses; i++) {
        if (!(st->passes >> i & 1))
            continue;
        uint32_t n = timed(o, i, cg_passes[i].kernel, m, k);
        if (n && (label_rows >> i & 1))
            sg_kst(k)->fresh_labels = 1;
    }
    if (sg_kst(k)->fresh_labels)
        sg_fix_pyptx_labels(m, k);
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
