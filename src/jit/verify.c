/* verify.c - JIT the original and its rewrites, compare the cubins. */
#include <stdlib.h>
#include <string.h>
#include "ptx/cubin.h"
#include "ptx/jitverify.h"
#include "util/alloc.h"

enum { LOG_SIZE = 16384 };

typedef struct compiled {
    int rc;           /* ptx_jit_compile's result */
    void *cubin;
    size_t n;
    char log[LOG_SIZE];
} compiled;

/* The last line of a driver log names the failing call and CUDA error; the
   lines above it carry PTX line numbers, which a re-layout changes. */
static const char *last_line(const char *log)
{
    size_t n = strlen(log);
    while (n && log[n - 1] == '\n')
        n--;
    while (n && log[n - 1] != '\n')
        n--;
    return log + n;
}

static void put_log(ptx_buf *r, const char *name, const char *label,
                    const char *log)
{
    ptx_buf_printf(r, "%s: %s rejected by the driver:\n", name, label);
    for (const char *p = log; *p;) {
        const char *e = strchr(p, '\n');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        if (k)
            ptx_buf_printf(r, "  %.*s\n", (int)k, p);
        p += k + (e ? 1 : 0);
    }
}

static ptx_jit_verdict compare_one(const compiled *a, const compiled *b,
                                   const char *name, const char *label,
                                   int names_may_differ, ptx_buf *r)
{
    if (a->rc != 0 || b->rc != 0) {
        if (a->rc == 1 && b->rc == 1 &&
            strcmp(last_line(a->log), last_line(b->log)) == 0)
            return PTX_JIT_REJECTED;
        put_log(r, name, a->rc ? "original" : label, a->rc ? a->log : b->log);
        return PTX_JIT_DIFFERENT;
    }
    ptx_cubin_options o = { 0 };
    o.names_may_differ = names_may_differ;
    o.match = names_may_differ ? PTX_CUBIN_MATCH_ORDER : PTX_CUBIN_MATCH_NAME;
    char why[512];
    int same = ptx_cubin_compare(a->cubin, a->n, b->cubin, b->n, &o, why, sizeof why);
    if (same == 1)
        return PTX_JIT_IDENTICAL;
    ptx_buf_printf(r, "%s: %s: cubin %s: %s\n", name, label,
                   same == 0 ? "differs" : "unreadable", why);
    return same == 0 ? PTX_JIT_DIFFERENT : PTX_JIT_ERROR;
}

ptx_jit_verdict ptx_jit_verify(ptx_jit *j, const char *arch, const char *name,
                               const char *orig, size_t norig,
                               const ptx_jit_text *texts, int ntexts,
                               int names_may_differ, ptx_buf *report)
{
    compiled *a = ptx_calloc(2, sizeof *a), *b = a + 1;
    if (!a)
        return PTX_JIT_ERROR;
    a->rc = ptx_jit_compile(j, orig, norig, arch, &a->cubin, &a->n, a->log, LOG_SIZE);
    ptx_jit_verdict v = a->rc < 0 ? PTX_JIT_ERROR : PTX_JIT_IDENTICAL;
    if (a->rc < 0)
        ptx_buf_printf(report, "%s: driver error: %s\n", name, last_line(a->log));
    for (int i = 0; i < ntexts && v != PTX_JIT_ERROR; i++) {
        /* an empty buffer has no storage; the driver still wants a string */
        b->rc = ptx_jit_compile(j, texts[i].p ? texts[i].p : "", texts[i].n, arch,
                                &b->cubin, &b->n, b->log, LOG_SIZE);
        ptx_jit_verdict w;
        if (b->rc < 0) {
            ptx_buf_printf(report, "%s: %s: driver error: %s\n", name,
                           texts[i].label, last_line(b->log));
            w = PTX_JIT_ERROR;
        } else {
            w = compare_one(a, b, name, texts[i].label, names_may_differ, report);
        }
        free(b->cubin);
        b->cubin = NULL;
        /* the worst verdict wins: error > different > rejected > identical */
        if (w == PTX_JIT_ERROR || w == PTX_JIT_DIFFERENT ||
            (w == PTX_JIT_REJECTED && v == PTX_JIT_IDENTICAL))
            v = w;
    }
    if (v == PTX_JIT_REJECTED)
        put_log(report, name, "original", a->log);
    free(a->cubin);
    free(a);
    return v;
}
