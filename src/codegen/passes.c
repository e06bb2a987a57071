/*
 * passes.c - the table of sugar passes (issue 4).
 *
 * Each row is one pass: its command-line name, a one-line help text and the
 * function that rewrites the IR (src/sugar/<name>.c, signature
 * `void sugar_<name>(cg_module *m, cg_stats *st)`).  A row whose function is
 * NULL is a pass that is not written yet: --sugar=<name> is accepted and does
 * nothing.  To add a pass: write src/sugar/<name>.c, declare the function
 * below and put it in its row.  Bit i of cg_options.sugar selects row i;
 * passes run in table order.
 */
#include <string.h>
#include "codegen/ir.h"

/* The passes live in src/sugar/ (sugar/sugar.h).  Order matters: "wait"
   folds spin loops before "loops" would raise their back edges, "expr"
   runs before "repeat" so that address chains become one expression each
   rather than being rolled as parallel copies with odd strides. */
#include "sugar/sugar.h"
#define SUGAR_FN(name) sugar_##name

const cg_pass cg_passes[] = {
    { "comments", "drop blank and comment-only source lines (_raw(\"\"), _raw(\"//\"))",
      SUGAR_FN(comments) },
    { "names", "readable names for C++ mangled kernels, params, variables, symbols",
      SUGAR_FN(names) },
    { "labels", "nvcc labels $L__BB3_7 -> BB7", SUGAR_FN(labels) },
    { "wait", "mbarrier try_wait spin-loop blocks -> one helper call each",
      SUGAR_FN(wait) },
    { "loops", "label ... @p bra label  ->  with ptx.loop(...)",
      SUGAR_FN(loops) },
    { "slices", "long register lists as comprehensions over the array",
      SUGAR_FN(slices) },
    { "expr", "integer temporaries folded into one expression (ptx.expr())",
      SUGAR_FN(expr) },
    { "repeat", "repeated blocks rolled into for i in range(N)",
      SUGAR_FN(repeat) },
};
const unsigned cg_npasses = sizeof cg_passes / sizeof cg_passes[0];

uint32_t cg_pass_bit(const char *name, size_t n)
{
    for (unsigned i = 0; i < cg_npasses; i++)
        if (strlen(cg_passes[i].name) == n && !memcmp(cg_passes[i].name, name, n))
            return 1u << i;
    return 0;
}

void cg_run_passes(cg_module *m, const cg_options *o)
{
    for (unsigned i = 0; i < cg_npasses; i++)
        if ((o->sugar >> i & 1) && cg_passes[i].run)
            cg_passes[i].run(m, o->stats);
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

int ptx_codegen_pass_ready(unsigned i)
{
    return i < cg_npasses && cg_passes[i].run != NULL;
}

uint32_t ptx_codegen_pass_bit(const char *name)
{
    return cg_pass_bit(name, strlen(name));
}
