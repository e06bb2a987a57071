/* test_threads.c - no global state: threads parse, print and translate
   (plain and with every sugar pass) at once; a file read on threads. */
#define _GNU_SOURCE /* memmem */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fcntl.h>
#include <unistd.h>
#include "ptx/codegen.h"
#include "ptx/ptx.h"
#include "util/threads.h"

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

/* A kernel for every sugar pass: a comment line (comments), a mangled
   name and parameters, %tid.x (names), nvcc labels (labels), a float
   register set once (decls), the predicate pool (compare), a CUTLASS spin
   wait (wait), the branches of ptx.if_ (ifs), ptx.range_'s loop (range), a
   loop, a long register list
   (slices), an address chain (expr), strided stores (repeat) and plain
   instructions (calls); and a second kernel with a pipeline's advance
   (pipeline) and a tcgen05.mma (mma); a third with ptx.kloop's loop
   (kloop); a fourth with barrier inits and a guarded mov; a fifth with one
   block three times (outline).  Thread i's copy differs in its names and
   constants. */
static const char SUGAR_KERNEL[] =
    ".version 8.5\n.target sm_90a\n.address_size 64\n"
    ".visible .entry _Z5kern%dPi(.param .u64 _Z5kern%dPi_param_0)\n{\n"
    "  .reg .b32 %%r<40>;\n  .reg .b64 %%rd<4>;\n  .reg .f32 %%f0;\n"
    "  .reg .pred %%q;\n  .reg .s32 %%ri0;\n  .reg .pred %%p<2>;\n"
    "  ld.param.u64 %%rd1, [_Z5kern%dPi_param_0];\n"
    "  // the thread\n  mov.u32 %%r1, %%tid.x;\n  shl.b32 %%r2, %%r1, %d;\n"
    "  mul.lo.s32 %%r5, %%r1, 3;\n  add.s32 %%r3, %%r5, 64;\n"
    "  mov.f32 %%f0, 0f3F800000;\n"
    "  setp.lt.u32 %%p0, %%r3, 64;\n  @!%%p0 bra $_else_0;\n"
    "  add.f32 %%f0, %%f0, %%f0;\n  bra $_endif_1;\n$_else_0:\n$_endif_1:\n"
    "  mov.s32 %%ri0, 0;\n$_loop_2:\n  setp.ge.s32 %%p1, %%ri0, 4;\n  @%%p1 bra $_endloop_3;\n"
    "  add.f32 %%f0, %%f0, %%f0;\n  add.s32 %%ri0, %%ri0, 1;\n  bra $_loop_2;\n$_endloop_3:\n"

    "$L__BB0_1:\n  add.s32 %%r3, %%r3, 1;\n  setp.lt.s32 %%q, %%r3, 100;\n"
    "  @%%q bra $L__BB0_1;\n"
    "  st.global.u32 [%%rd1], %%r3;\n  st.global.u32 [%%rd1+4], %%r4;\n"
    "  st.global.u32 [%%rd1+8], %%r5;\n  st.global.u32 [%%rd1+12], %%r6;\n"
    "  st.global.u32 [%%rd1+16], %%r7;\n  st.global.u32 [%%rd1+20], %%r8;\n"
    "  st.global.v8.u32 [%%rd1+32], {%%r8, %%r9, %%r10, %%r11, %%r12, %%r13, %%r14, %%r15};\n"
    "  {\n  .reg .pred P1;\n  LAB_WAIT:\n"
    "  mbarrier.try_wait.parity.shared::cta.b64 P1, [%%r2], %%r1;\n"
    "  @P1 bra.uni DONE;\n  bra.uni LAB_WAIT;\n  DONE:\n  }\n  ret;\n}\n"
    /* pyptx's own registers (a kernel of operators could not have them) */
    ".visible .entry ring%d()\n{\n  .reg .b64 %%rd<2>;\n  .reg .u32 %%r0;\n  .reg .u32 %%r1;\n"
    "  .reg .u32 %%r2;\n  .reg .u32 %%r3;\n  .reg .pred %%p<2>;\n  .reg .u32 %%r4;\n"
    "  mov.u32 %%r0, 0;\n  mov.u32 %%r1, 0;\n"
    "  setp.eq.u32 %%p0, %%r0, 4;\n  selp.u32 %%r2, 1, 0, %%p0;\n  xor.b32 %%r1, %%r1, %%r2;\n"
    "  selp.u32 %%r3, 0, %%r0, %%p0;\n  add.s32 %%r0, %%r3, 1;\n"
    "  setp.ne.b32 %%p1, %%r3, 0;\n"
    "  tcgen05.mma.cta_group::1.kind::f16 [%%r3], %%rd0, %%rd1, %%r3, %%p1;\n  ret;\n}\n"
    /* what ptx.kloop(n, unroll=2, body=...) emits */
    ".visible .entry kl%d()\n{\n  .reg .u32 %%r0;\n  .reg .u32 %%r1;\n  .reg .u32 %%r2;\n"
    "  .reg .u32 %%r3;\n  .reg .u32 %%r4;\n  .reg .pred %%p<3>;\n  mov.u32 %%r0, 7;\n"
    "  mov.u32 %%r1, 0;\n  and.b32 %%r2, %%r0, 1;\n  sub.s32 %%r3, %%r0, %%r2;\n"
    "  setp.ge.u32 %%p0, %%r0, 2;\n  @!%%p0 bra $_else_0;\n  mov.u32 %%r4, %%r3;\n"
    "  setp.ne.u32 %%p1, %%r4, 0;\nkloop:\n  add.u32 %%r1, %%r1, 3;\n  add.u32 %%r1, %%r1, 3;\n"
    "  sub.s32 %%r4, %%r4, 2;\n  setp.ne.u32 %%p1, %%r4, 0;\n  @%%p1 bra kloop;\n"
    "  bra $_endif_1;\n$_else_0:\n$_endif_1:\n  setp.ne.u32 %%p2, %%r2, 0;\n"
    "  @!%%p2 bra $_else_2;\n  add.u32 %%r1, %%r1, 3;\n  bra $_endif_3;\n$_else_2:\n"
    "$_endif_3:\n  ret;\n}\n"
    /* ptx.mbarrier.array(..).init_all(1) (inits); a comparison only a
       guard reads (preds) */
    ".visible .entry bars%d()\n{\n  .shared .align 8 .b64 mbar_0[2];\n  .reg .u32 %%r0;\n"
    "  .reg .pred %%p<1>;\n  mbarrier.init.shared::cta.b64 [mbar_0+0], 1;\n"
    "  mbarrier.init.shared::cta.b64 [mbar_0+8], 1;\n  mov.u32 %%r0, 0;\n"
    "  setp.eq.u32 %%p0, %%r0, 0;\n  @%%p0 mov.u32 %%r0, 1;\n  ret;\n}\n"
    /* one block three times, with another register and constant (outline) */
    ".visible .entry blk%d()\n{\n  .reg .u32 %%r0;\n  mov.u32 %%r0, 5;\n"
#define BLOCK(r, k) "  .reg .u32 %%r" r ";\n  add.u32 %%r" r ", %%r0, " k ";\n" \
    "  st.shared.u32 [%%r" r "], %%r0;\n  st.shared.u32 [%%r" r "+4], %%r0;\n" \
    "  st.shared.u32 [%%r" r "+12], %%r0;\n  st.shared.u32 [%%r" r "+28], %%r0;\n"
    BLOCK("1", "1") "  mov.u32 %%r0, 6;\n" BLOCK("2", "3") "  mov.u32 %%r0, 7;\n"
    BLOCK("3", "1") "  ret;\n}\n";
#undef BLOCK

static char sugar_inputs[NTHREADS][8192];
static ptx_buf sugar_want[NTHREADS], plain_want[NTHREADS];

static int translate(const char *in, uint32_t sugar, ptx_buf *out)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("s.ptx", in, strlen(in), &d);
    if (!m)
        return -1;
    ptx_codegen_options o = { .sugar = sugar };
    int rc = ptx_codegen(m, &o, out, &d);
    ptx_module_free(m);
    return rc;
}

static void *run_sugar(void *arg)
{
    work *w = arg;
    uint32_t all = (uint32_t)((1ull << ptx_codegen_npasses()) - 1);
    for (int r = 0; r < ROUNDS / 4; r++) {
        /* alternate, so that a printer changed by one mode would show in
           the other */
        ptx_buf b = { 0 };
        uint32_t mode = r & 1 ? 0 : all;
        const ptx_buf *want = mode ? &sugar_want[w->id] : &plain_want[w->id];
        if (translate(sugar_inputs[w->id], mode, &b) != 0 || b.n != want->n ||
            memcmp(b.p, want->p, b.n) != 0)
            w->failures++;
        ptx_buf_free(&b);
    }
    return NULL;
}

static void sugar_in_parallel(void **state)
{
    uint32_t all = (uint32_t)((1ull << ptx_codegen_npasses()) - 1);
    pthread_t t[NTHREADS];
    work w[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        snprintf(sugar_inputs[i], sizeof sugar_inputs[i], SUGAR_KERNEL, i, i, i, i + 1, i, i, i, i);
        sugar_want[i] = (ptx_buf){ 0 };
        plain_want[i] = (ptx_buf){ 0 };
        assert_int_equal(translate(sugar_inputs[i], all, &sugar_want[i]), 0);
        assert_int_equal(translate(sugar_inputs[i], 0, &plain_want[i]), 0);
        /* every pass found something to do: the threads run them all */
        ptx_codegen_stats st = { 0 };
        ptx_diag d;
        ptx_module *m = ptx_parse_buffer("s.ptx", sugar_inputs[i], strlen(sugar_inputs[i]), &d);
        ptx_codegen_options o = { .sugar = all, .stats = &st };
        ptx_buf b = { 0 };
        assert_int_equal(ptx_codegen(m, &o, &b, &d), 0);
        for (unsigned p = 0; p < ptx_codegen_npasses(); p++)
            if (!st.pass_applied[p])
                fail_msg("pass %s made no rewrite", ptx_codegen_pass_name(p));
        ptx_buf_free(&b);
        ptx_module_free(m);
        w[i] = (work){ i, 0 };
    }
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, run_sugar, &w[i]), 0);
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].failures, 0);
        ptx_buf_free(&sugar_want[i]);
        ptx_buf_free(&plain_want[i]);
    }
}

/* ptx_read_threads: every byte, in parts that are not page multiples
   (1 MiB + 1000 bytes: four parts of at least PTX_MIN_PART), on one
   thread and on several; and 0 where the file is not exactly n bytes.
   ptx_copy_threads likewise from memory. */
static void read_in_parts(void **state)
{
    (void)state;
    enum { N = (1 << 20) + 1000 };
    char path[] = "/tmp/test_threads_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    char *want = malloc(N), *got = malloc(N + 1);
    for (size_t i = 0; i < N; i++)
        want[i] = (char)(i * 7 + i / 4096);
    assert_int_equal(write(fd, want, N), N);
    static const unsigned jobs[] = { 1, 3, 8 };
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
        memset(got, 0, N);
        assert_int_equal(ptx_read_threads(fd, got, N, jobs[j]), 1);
        assert_memory_equal(got, want, N);
        assert_int_equal(ptx_read_threads(fd, got, N - 1, jobs[j]), 0);  /* longer */
        assert_int_equal(ptx_read_threads(fd, got, N + 1, jobs[j]), 0);  /* shorter */
    }
    close(fd);
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
        memset(got, 0, N);
        ptx_copy_threads(got, want, N, jobs[j]);
        assert_memory_equal(got, want, N);
    }
    free(want);
    free(got);
}

/* ptx_same_module_tokens_jobs: the first difference, wherever the parts
   fall (240,000 tokens: three parts of 64K tokens or more on 8 threads,
   differences in the second and third). */
static void first_token_difference(void **state)
{
    (void)state;
    enum { LINES = 30000 };
    static const char head[] = ".version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n";
    static const char line[] = "\tadd.s32 %r1, %r2, %r3;\n";
    size_t n = sizeof head - 1 + LINES * (sizeof line - 1) + 2;
    char *a = malloc(n + 1), *b;
    char *at = a + sizeof head - 1;
    memcpy(a, head, sizeof head - 1);
    for (int i = 0; i < LINES; i++, at += sizeof line - 1)
        memcpy(at, line, sizeof line - 1);
    memcpy(at, "}\n", 3);
    b = strdup(a);
    size_t first = sizeof head - 1 + 12000 * (sizeof line - 1) + 16;   /* the 2 of %r2 */
    b[first] = '9';
    b[sizeof head - 1 + 26000 * (sizeof line - 1) + 16] = '9';
    ptx_diag d;
    ptx_module *ma = ptx_parse_buffer("a", a, n, &d), *mb = ptx_parse_buffer("b", b, n, &d);
    assert_non_null(ma);
    assert_non_null(mb);
    static const unsigned jobs[] = { 1, 2, 8 };
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
        size_t x = 0, y = 0;
        assert_int_equal(ptx_same_module_tokens_jobs(ma, mb, jobs[j], &x, &y), 0);
        assert_int_equal(x, first - 2);     /* the token %r2 */
        assert_int_equal(y, first - 2);
        assert_int_equal(ptx_same_module_tokens_jobs(ma, ma, jobs[j], &x, &y), 1);
    }
    ptx_module_free(ma);
    ptx_module_free(mb);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(parse_in_parallel),
                                        cmocka_unit_test(sugar_in_parallel),
                                        cmocka_unit_test(read_in_parts),
                                        cmocka_unit_test(first_token_difference) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
