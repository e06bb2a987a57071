/* test_threads.c - no global state: threads parse and print at once. */
#define _GNU_SOURCE /* memmem */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ptx/ptx.h"

enum { NTHREADS = 4, ROUNDS = 200 };

/* Distinct inputs, so that shared state between parses would show up as a
   wrong byte in some thread's output. */
static char inputs[NTHREADS][512];

typedef struct work {
    int id;
    int failures;
} work;

static void *run(void *arg)
{
    work *w = arg;
    const char *in = inputs[w->id];
    for (int r = 0; r < ROUNDS; r++) {
        ptx_diag d;
        ptx_module *m = ptx_parse_buffer("t.ptx", in, strlen(in), &d);
        if (!m) {
            w->failures++;
            continue;
        }
        ptx_buf exact = { 0 }, canon = { 0 };
        ptx_emit_exact(m, &exact);
        ptx_emit_canonical(m, &canon);
        if (exact.n != strlen(in) || memcmp(exact.p, in, exact.n) != 0)
            w->failures++;
        char want[64];
        snprintf(want, sizeof want, "k%d(", w->id);
        if (!canon.n || !memmem(canon.p, canon.n, want, strlen(want)))
            w->failures++;
        ptx_buf_free(&exact);
        ptx_buf_free(&canon);
        ptx_module_free(m);
        /* an error path too: its diagnostic must name this thread's file */
        ptx_module *bad = ptx_parse_buffer(want, "@@@", 3, &d);
        if (bad || strcmp(d.file, want) != 0)
            w->failures++;
    }
    return NULL;
}

static void parse_in_parallel(void **state)
{
    pthread_t t[NTHREADS];
    work w[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        snprintf(inputs[i], sizeof inputs[i],
                 ".version 8.%d\n.target sm_90\n.address_size 64\n"
                 ".visible .entry k%d(.param .u64 p%d)\n{\n  .reg .b32 %%r<%d>;\n"
                 "  add.s32 %%r1, %%r2, %d; // thread %d\n  ret;\n}\n",
                 i, i, i, i + 2, i * 7, i);
        w[i] = (work){ i, 0 };
    }
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, run, &w[i]), 0);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].failures, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(parse_in_parallel) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
