/*
 * sugar/labels.c - pass "labels": nvcc's basic-block labels $L__BB13_2
 * become BB2 (the block number), unique per kernel (BB2_2 ... if taken,
 * never a word that occurs in the source).  Other labels (hand-written,
 * inline-asm LAB_WAIT/DONE, Triton waitLoop) are already readable and
 * stay.  Labels are local names, so the PTX is renamed consistently; the
 * label symbol's spelling is the only place that changes.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

void sugar_labels(cg_module *m, cg_stats *st)
{
    uint32_t done = 0;
    for (uint32_t ki = 0; ki < m->nkernels; ki++) {
        cg_kernel *k = &m->kernels[ki];
        if (k->unsupported)
            continue;
        for (uint32_t i = 0; i < k->nsyms; i++) {
            cg_sym *s = &k->syms[i];
            if (s->kind != CG_SYM_LABEL)
                continue;
            const char *p = s->ptx, *num = NULL;
            if (!strncmp(p, "$L__BB", 6)) {
                const char *u = strrchr(p, '_');
                if (u && u > p + 6 && cg_is_decimal(u + 1, strlen(u + 1)))
                    num = u + 1;
            }
            if (!num)
                continue;
            char base[64], buf[80];
            snprintf(base, sizeof base, "BB%s", num);
            if (!sg_ptx_name_free(m, k, base)) {
                /* another function of the module has its BB<n>: keep the
                   function number, as nvcc does */
                size_t fl = (size_t)(num - 1 - (p + 6));
                snprintf(base, sizeof base, "BB%.*s_%s", (int)fl, p + 6, num);
            }
            snprintf(buf, sizeof buf, "%s", base);
            for (unsigned j = 2; !sg_ptx_name_free(m, k, buf); j++)
                snprintf(buf, sizeof buf, "%s_%u", base, j);
            s->ptx = cg_strndup(m, buf, strlen(buf));
            done++;
        }
    }
    sg_count(st, "labels", done);
}
