/*
 * fuzz_front.c - libFuzzer harness for the PTX front end.
 *
 * For any input:
 *   - ptx_parse_buffer does not crash, hang or leak (the sanitizers and
 *     libFuzzer's own -rss_limit/-timeout watch that);
 *   - a failed parse yields a well-formed diagnostic (message, 1-based line
 *     and column, offset within the input, printable);
 *   - whatever parses re-emits byte-identical with ptx_emit_exact;
 *   - the canonical text has the input's token sequence (ptx_same_tokens),
 *     parses again, and printing that parse canonically gives the same bytes
 *     (a fixed point), which also re-emit exactly;
 *   - ptx_emit_stmt works on every module item.
 * Any violation calls abort(), so libFuzzer saves the input as a crash.
 *
 * Built by tests/fuzz/build.sh (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx.h"

static FILE *devnull;

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_front: property violated: %s\n", what);
    abort();
}

static void check_diag(const ptx_diag *d, size_t size)
{
    if (!d->msg[0])
        fail("diagnostic without a message");
    if (d->line == 0 || d->col == 0)
        fail("diagnostic without a line or column");
    if (d->offset > size)
        fail("diagnostic offset past the end of the input");
    if (strlen(d->line_text) >= sizeof d->line_text)
        fail("diagnostic line text not terminated");
    for (const char *c = d->line_text; *c; c++)
        if (*c != '\t' && (*c < 0x20 || *c > 0x7e))
            fail("diagnostic line text has a control byte");
    ptx_diag_print(devnull, d);
}

static void same_bytes(const char *a, size_t na, const char *b, size_t nb,
                       const char *what)
{
    if (na != nb || (na && memcmp(a, b, na) != 0))
        fail(what);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    devnull = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *src = (const char *)data;
    ptx_diag d;
    ptx_module *m = ptx_parse_buffer("fuzz.ptx", src, size, &d);
    if (!m) {
        check_diag(&d, size);
        return 0;
    }

    /* 1. exact printer: the input, byte for byte */
    ptx_buf exact = { 0 };
    ptx_emit_exact(m, &exact);
    same_bytes(src, size, exact.p, exact.n, "exact re-emit differs from input");
    ptx_buf_free(&exact);

    /* 2. canonical printer: same tokens */
    ptx_buf c1 = { 0 }, c2 = { 0 }, e2 = { 0 };
    ptx_emit_canonical(m, &c1);
    size_t at_a = 0, at_b = 0;
    int same = ptx_same_tokens(src, size, c1.p, c1.n, &at_a, &at_b, &d);
    if (same != 1)
        fail(same < 0 ? "canonical text does not lex"
                      : "canonical text has other tokens");

    /* 3. canonical text parses, re-emits exactly, and is a fixed point */
    ptx_module *m2 = ptx_parse_buffer("canonical.ptx", c1.p, c1.n, &d);
    if (!m2)
        fail("canonical text does not parse");
    ptx_emit_exact(m2, &e2);
    same_bytes(c1.p, c1.n, e2.p, e2.n, "canonical text does not re-emit exactly");
    ptx_emit_canonical(m2, &c2);
    same_bytes(c1.p, c1.n, c2.p, c2.n, "canonical printer is not a fixed point");

    /* 4. the per-statement printer on every item */
    ptx_buf s = { 0 };
    for (const ptx_stmt *st = m->items; st; st = st->next)
        ptx_emit_stmt(m, st, 1, &s);
    ptx_buf_free(&s);

    ptx_buf_free(&c1);
    ptx_buf_free(&c2);
    ptx_buf_free(&e2);
    ptx_module_free(m2);
    ptx_module_free(m);
    return 0;
}
