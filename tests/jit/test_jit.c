/*
 * test_jit.c - unit tests of the JIT module (src/jit).
 *
 *   test_jit_driver --no-driver
 *       the driver cannot be loaded (PTX_LIBCUDA points nowhere), and, on a
 *       machine without libcuda.so.1, the default path: ptx_jit_open
 *       returns NULL with "no CUDA driver: ..."; target-name parsing.
 *   test_jit_driver --fake FAKE_LIBCUDA
 *       the plumbing against tests/jit/fake_cuda.c: no device, compile,
 *       --arch, rejection and its log, small log buffers.
 *   test_jit_driver --gpu DATADIR
 *       the real driver: exits 77 (skip) when there is none; otherwise JITs
 *       DATADIR/k*.ptx and checks the cubins with the comparer.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ptx/cubin.h"
#include "cli/common/args.h"
#include "cli/exit.h"
#include "ptx/jit.h"

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* ---------------------------------------------------------------- */

static void no_driver_forced(void **state)
{
    (void)state;
    ptx_diag err;
    setenv("PTX_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
    memset(&err, 'x', sizeof err);
    ptx_jit *j = ptx_jit_open(&err);
    assert_null(j);
    assert_true(starts(err.msg, "no CUDA driver: /nonexistent/libcuda.so.1 not "
                                "found") ||
                starts(err.msg, "no CUDA driver: built without"));
    /* a message only: no file, no line */
    assert_string_equal(err.file, "");
    assert_int_equal(err.line, 0);
    assert_null(ptx_jit_open(NULL));
    unsetenv("PTX_LIBCUDA");
}

static void no_driver_default(void **state)
{
    (void)state;
    ptx_diag err;
    unsetenv("PTX_LIBCUDA");
    ptx_jit *j = ptx_jit_open(&err);
    if (j) { /* a machine with a driver and GPU: nothing to check here */
        print_message("driver present; the no-driver path is covered by "
                      "no_driver_forced\n");
        ptx_jit_close(j);
        return;
    }
    print_message("ptx_jit_open: %s\n", err.msg);
    assert_true(starts(err.msg, "no CUDA driver: ") ||
                starts(err.msg, "no CUDA device: "));
    if (starts(err.msg, "no CUDA driver: ") && !strstr(err.msg, "built without"))
        assert_non_null(strstr(err.msg, "libcuda.so.1"));
}

static void null_handle(void **state)
{
    (void)state;
    char log[64];
    void *c = (void *)1;
    size_t n = 7;
    assert_int_equal(ptx_jit_compile(NULL, "x", 1, NULL, &c, &n, log,
                                     sizeof log),
                     -1);
    assert_null(c);
    assert_int_equal(n, 0);
    ptx_jit_close(NULL);
    int dv = 1;
    ptx_jit_info(NULL, &dv, NULL, NULL, NULL, 0);
    assert_int_equal(dv, 0);
}

static void parse_arch(void **state)
{
    (void)state;
    assert_int_equal(ptx_jit_parse_arch("sm_90"), 90);
    assert_int_equal(ptx_jit_parse_arch("sm_90a"), 0x10000 + 90);
    assert_int_equal(ptx_jit_parse_arch("sm_100a"), 0x10000 + 100);
    assert_int_equal(ptx_jit_parse_arch("sm_100f"), 0x20000 + 100);
    assert_int_equal(ptx_jit_parse_arch("compute_80"), 80);
    assert_int_equal(ptx_jit_parse_arch("sm_8"), -1);
    assert_int_equal(ptx_jit_parse_arch("sm_90b"), -1);
    assert_int_equal(ptx_jit_parse_arch("sm_90aa"), -1);
    assert_int_equal(ptx_jit_parse_arch("90"), -1);
    assert_int_equal(ptx_jit_parse_arch(""), -1);
    assert_int_equal(ptx_jit_parse_arch(NULL), -1);
    assert_int_equal(ptx_jit_parse_arch("sm_12345"), -1);
}

/* ---------------------------------------------------------------- */

static const char *g_fake;

static ptx_jit *open_fake(void)
{
    ptx_diag err;
    setenv("PTX_LIBCUDA", g_fake, 1);
    unsetenv("FAKE_CUDA_MODE");
    ptx_jit *j = ptx_jit_open(&err);
    if (!j)
        print_message("ptx_jit_open: %s\n", err.msg);
    assert_non_null(j);
    return j;
}

static void fake_no_device(void **state)
{
    (void)state;
    ptx_diag err;
    setenv("PTX_LIBCUDA", g_fake, 1);
    setenv("FAKE_CUDA_MODE", "nodevice", 1);
    assert_null(ptx_jit_open(&err));
    assert_string_equal(err.msg, "no CUDA device: cuInit: CUDA_ERROR_NO_DEVICE "
                             "(no CUDA-capable device is detected)");
    unsetenv("FAKE_CUDA_MODE");
}

static void fake_info(void **state)
{
    (void)state;
    ptx_jit *j = open_fake();
    int dv, ma, mi;
    char name[64];
    ptx_jit_info(j, &dv, &ma, &mi, name, sizeof name);
    assert_int_equal(dv, 13000);
    assert_int_equal(ma, 9);
    assert_int_equal(mi, 0);
    assert_string_equal(name, "Fake GPU");
    ptx_jit_close(j);
}

static void fake_compile(void **state)
{
    (void)state;
    ptx_jit *j = open_fake();
    char log[256];
    void *c;
    size_t n;
    /* not NUL-terminated input: the module adds the NUL the driver wants */
    assert_int_equal(ptx_jit_compile(j, "hello!!", 5, NULL, &c, &n, log,
                                     sizeof log),
                     0);
    assert_int_equal(n, 4 + 5 + 1);
    assert_memory_equal(c, "FAKEhello", 10);
    assert_non_null(strstr(log, "fake JIT: target -1"));
    free(c);
    assert_int_equal(ptx_jit_compile(j, "x", 1, "sm_90a", &c, &n, log,
                                     sizeof log),
                     0);
    assert_non_null(strstr(log, "target 65626"));
    free(c);
    assert_int_equal(ptx_jit_compile(j, "x", 1, "sm_9x", &c, &n, log,
                                     sizeof log),
                     -1);
    assert_null(c);
    assert_non_null(strstr(log, "unknown target 'sm_9x'"));
    ptx_jit_close(j);
}

static void fake_reject(void **state)
{
    (void)state;
    ptx_jit *j = open_fake();
    char log[512];
    void *c = (void *)1;
    size_t n = 1;
    const char *bad = ".version 8.0 FAKE_REJECT";
    assert_int_equal(ptx_jit_compile(j, bad, strlen(bad), NULL, &c, &n, log,
                                     sizeof log),
                     1);
    assert_null(c);
    assert_int_equal(n, 0);
    assert_non_null(strstr(log, "error   : fake rejection\n"));
    assert_non_null(strstr(log, "cuLinkAddData: CUDA_ERROR_INVALID_PTX"));
    /* small log buffers: truncated, terminated, nothing written past */
    char small[12];
    memset(small, 'x', sizeof small);
    assert_int_equal(ptx_jit_compile(j, bad, strlen(bad), NULL, &c, &n, small,
                                     8),
                     1);
    assert_int_equal(small[7], '\0');
    assert_int_equal(small[8], 'x');
    assert_int_equal(ptx_jit_compile(j, bad, strlen(bad), NULL, &c, &n, NULL,
                                     0),
                     1);
    ptx_jit_close(j);
}

/* ---------------------------------------------------------------- */

static const char *g_data;
static ptx_jit *g_jit;

typedef struct blob {
    void *p;
    size_t n;
} blob;

static blob jit_file(const char *name, const char *arch)
{
    char path[4096], err[512];
    static char log[1 << 16];
    snprintf(path, sizeof path, "%s/%s.ptx", g_data, name);
    void *text;
    size_t ntext;
    assert_int_equal(cli_read_file(path, &text, &ntext, err, sizeof err),
                     0);
    blob b = {NULL, 0};
    int r = ptx_jit_compile(g_jit, text, ntext, arch, &b.p, &b.n, log,
                            sizeof log);
    if (r)
        print_message("%s: %s\n", path, log);
    assert_int_equal(r, 0);
    assert_int_equal(ptx_cubin_check(b.p, b.n, NULL), 0);
    free(text);
    return b;
}

static void gpu_same_and_whitespace(void **state)
{
    const char *arch = *state;
    char why[256];
    blob a = jit_file("k", arch), a2 = jit_file("k", arch),
         b = jit_file("k_ws", arch);
    assert_int_equal(ptx_cubin_compare(a.p, a.n, a2.p, a2.n, NULL, why,
                                       sizeof why),
                     1);
    int r = ptx_cubin_compare(a.p, a.n, b.p, b.n, NULL, why, sizeof why);
    if (r != 1)
        print_message("k vs k_ws: %s\n", why);
    assert_int_equal(r, 1);
    free(a.p);
    free(a2.p);
    free(b.p);
}

static void gpu_changed(void **state)
{
    const char *arch = *state;
    char why[256];
    blob a = jit_file("k", arch), b = jit_file("k_changed", arch);
    assert_int_equal(ptx_cubin_compare(a.p, a.n, b.p, b.n, NULL, why,
                                       sizeof why),
                     0);
    print_message("k vs k_changed: %s\n", why);
    /* The changed instruction is in .func helper: ptxas inlines it into
       .text.add_one, the driver's JIT (CUDA 13.0) keeps it in .text.helper. */
    assert_true(strstr(why, ".text.add_one") || strstr(why, ".text.helper"));
    free(a.p);
    free(b.p);
}

static void gpu_reject(void **state)
{
    (void)state;
    char log[4096];
    void *c;
    size_t n;
    const char *bad = ".version 8.0\n.target sm_90a\n.address_size 64\n"
                      ".visible .entry k() { bogus.instruction; ret; }\n";
    assert_int_equal(ptx_jit_compile(g_jit, bad, strlen(bad), NULL, &c, &n,
                                     log, sizeof log),
                     1);
    print_message("driver log for a bad file:\n%s", log);
    assert_true(strlen(log) > 0);
}

static const char *arch_none = NULL;
static const char *arch_90a = "sm_90a";

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--no-driver")) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(no_driver_forced),
            cmocka_unit_test(no_driver_default),
            cmocka_unit_test(null_handle),
            cmocka_unit_test(parse_arch),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (argc == 3 && !strcmp(argv[1], "--fake")) {
        g_fake = argv[2];
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(fake_no_device),
            cmocka_unit_test(fake_info),
            cmocka_unit_test(fake_compile),
            cmocka_unit_test(fake_reject),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (argc == 3 && !strcmp(argv[1], "--gpu")) {
        ptx_diag err;
        g_data = argv[2];
        g_jit = ptx_jit_open(&err);
        if (!g_jit) {
            printf("skipped: %s\n", err.msg);
            return PTX_EXIT_SKIP;
        }
        int dv, ma, mi;
        char name[256];
        ptx_jit_info(g_jit, &dv, &ma, &mi, name, sizeof name);
        printf("driver %d, %s, sm_%d%d\n", dv, name, ma, mi);
        const struct CMUnitTest tests[] = {
            cmocka_unit_test_prestate(gpu_same_and_whitespace,
                                      (void *)arch_none),
            cmocka_unit_test_prestate(gpu_changed, (void *)arch_none),
            cmocka_unit_test(gpu_reject),
        };
        const struct CMUnitTest tests90a[] = {
            cmocka_unit_test_prestate(gpu_same_and_whitespace,
                                      (void *)arch_90a),
            cmocka_unit_test_prestate(gpu_changed, (void *)arch_90a),
        };
        int r = cmocka_run_group_tests_name("gpu, target from context",
                                            tests, NULL, NULL);
        if (ma == 9 && mi == 0)
            r |= cmocka_run_group_tests_name("gpu, --arch sm_90a", tests90a,
                                             NULL, NULL);
        ptx_jit_close(g_jit);
        return r ? 1 : 0;
    }
    fprintf(stderr, "usage: %s --no-driver | --fake LIBCUDA | --gpu DATADIR\n",
            argv[0]);
    return 2;
}
