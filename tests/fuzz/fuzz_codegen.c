/*
 * fuzz_codegen.c - libFuzzer harness for the PTX -> Python code generator
 * (include/ptx/codegen.h).
 *
 * For any input that parses (see fuzz_front.c for the front end's own
 * properties), ptx_codegen in plain mode and with every sugar pass, with and
 * without kernel renaming:
 *   - does not crash, hang, leak or trip a sanitizer;
 *   - returns 0 with some output, or -1 with a diagnostic message;
 *   - is deterministic: the same module and options give the same bytes.
 * Any violation calls abort().
 *
 * Built by tests/fuzz/build.sh when include/ptx/codegen.h exists.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/codegen.h"
#include "ptx/ptx.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_codegen: property violated: %s\n", what);
    abort();
}

static void generate(const ptx_module *m, const ptx_codegen_options *o)
{
    ptx_buf a = { 0 }, b = { 0 };
    ptx_diag d;
    memset(&d, 0, sizeof d);
    int rc = ptx_codegen(m, o, &a, &d);
    if (rc != 0 && rc != -1)
        fail("ptx_codegen returned neither 0 nor -1");
    if (rc == -1 && !d.msg[0])
        fail("ptx_codegen failed without a message");
    if (rc == 0 && a.n == 0)
        fail("ptx_codegen succeeded with no output");
    int rc2 = ptx_codegen(m, o, &b, &d);
    if (rc2 != rc || (rc == 0 && (a.n != b.n || memcmp(a.p, b.p, a.n) != 0)))
        fail("ptx_codegen is not deterministic");
    ptx_buf_free(&a);
    ptx_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("fuzz.ptx", (const char *)data, size, &d);
    if (!m)
        return 0;
    ptx_codegen_stats stats;
    memset(&stats, 0, sizeof stats);
    ptx_codegen_options o;
    memset(&o, 0, sizeof o);
    o.srcname = "fuzz.ptx";
    generate(m, &o);                       /* plain */
    uint32_t all = 0;
    for (unsigned i = 0; i < ptx_codegen_npasses() && i < 32; i++)
        all |= 1u << i;
    o.sugar = all;                         /* every sugar pass */
    o.stats = &stats;
    generate(m, &o);
    o.rename_kernels = 1;
    generate(m, &o);
    ptx_module_free(m);
    return 0;
}
