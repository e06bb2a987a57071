/*
 * test_cubin.c - unit tests of the cubin comparer (src/cubin).
 *
 *   test_jit_cubin --synthetic
 *       on small ELF files built here (no CUDA needed): symbol resolution,
 *       kernel pairing, truncated / corrupted / random input.
 *   test_jit_cubin --ptxas PTXAS DATADIR WORKDIR
 *       on real cubins that PTXAS assembles now from DATADIR/k*.ptx;
 *       exits 77 (skip) when PTXAS is empty or cannot run.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ptx/cubin.h"
#include "cli/common/args.h"

static int cmp(const void *a, size_t na, const void *b, size_t nb,
               const ptx_cubin_options *o, char *why, size_t whylen)
{
    int r = ptx_cubin_compare(a, na, b, nb, o, why, whylen);
    assert_true(r >= -1 && r <= 1);
    return r;
}

/* ------------------------------------------------------------------ */
/* A synthetic cubin-like ELF                                          */

typedef struct img {
    unsigned char b[2048];
    size_t n;
} img;

static void put16(unsigned char *p, unsigned v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Sections: [1] .shstrtab [2] .strtab [3] .symtab [4] .text.<k>
   [5] .rela.text.<k> [6] .nv.info [7] .nv.global (NOBITS).
   Symbols: k (FUNC GLOBAL in 4) and gvar (OBJECT LOCAL in 7), in that order
   or swapped.  The relocation in .text.<k> and the REGCOUNT attribute in
   .nv.info refer to them by index. */
static void build(img *m, const char *k, int swap, unsigned char code)
{
    memset(m, 0, sizeof *m);
    unsigned char *b = m->b;
    size_t off = 64;
    /* .shstrtab */
    char shs[256];
    size_t nshs = 0, nm[8];
    const char *names[8] = {"", ".shstrtab", ".strtab", ".symtab", NULL,
                            NULL, ".nv.info", ".nv.global"};
    char text[64], rela[64];
    snprintf(text, sizeof text, ".text.%s", k);
    snprintf(rela, sizeof rela, ".rela.text.%s", k);
    names[4] = text;
    names[5] = rela;
    for (int i = 0; i < 8; i++) {
        nm[i] = nshs;
        memcpy(shs + nshs, names[i], strlen(names[i]) + 1);
        nshs += strlen(names[i]) + 1;
    }
    size_t o_shs = off;
    memcpy(b + off, shs, nshs);
    off += nshs;
    /* .strtab */
    size_t o_str = off, n_str;
    char str[64];
    str[0] = 0;
    memcpy(str + 1, k, strlen(k) + 1);
    size_t s_k = 1, s_g = 2 + strlen(k);
    memcpy(str + s_g, "gvar", 5);
    n_str = s_g + 5;
    memcpy(b + off, str, n_str);
    off += n_str;
    off = (off + 7) & ~(size_t)7;
    /* .symtab */
    size_t o_sym = off;
    uint32_t ik = swap ? 2 : 1, ig = swap ? 1 : 2;
    unsigned char *y = b + o_sym + 24 * ik;
    put32(y, (uint32_t)s_k);
    y[4] = 0x12; /* GLOBAL FUNC */
    put16(y + 6, 4);
    put64(y + 16, 16);
    y = b + o_sym + 24 * ig;
    put32(y, (uint32_t)s_g);
    y[4] = 0x01; /* LOCAL OBJECT */
    put16(y + 6, 7);
    put64(y + 16, 4);
    off += 3 * 24;
    /* .text.<k> */
    size_t o_text = off;
    for (int i = 0; i < 16; i++)
        b[off + (size_t)i] = (unsigned char)(code + i);
    off += 16;
    /* .rela.text.<k> */
    size_t o_rela = off;
    put64(b + off, 8);
    put64(b + off + 8, ((uint64_t)ig << 32) | 2);
    off += 24;
    /* .nv.info: REGCOUNT(k) = 32 */
    size_t o_info = off;
    b[off] = 0x04;
    b[off + 1] = 0x2f;
    put16(b + off + 2, 8);
    put32(b + off + 4, ik);
    put32(b + off + 8, 32);
    off += 12;
    off = (off + 7) & ~(size_t)7;
    /* section headers */
    size_t shoff = off;
    struct {
        uint32_t type;
        uint64_t flags, off, size;
        uint32_t link, info;
        uint64_t entsize;
    } sh[8] = {
        {0, 0, 0, 0, 0, 0, 0},
        {3, 0, o_shs, nshs, 0, 0, 0},
        {3, 0, o_str, n_str, 0, 0, 0},
        {2, 0, o_sym, 72, 2, 1, 24},
        {1, 6, o_text, 16, 3, ik, 0},
        {4, 0x40, o_rela, 24, 3, 4, 24},
        {0x70000000, 0, o_info, 12, 3, 0, 0},
        {8, 3, off, 4, 0, 0, 0},
    };
    for (int i = 0; i < 8; i++) {
        unsigned char *h = b + shoff + 64 * (size_t)i;
        put32(h, (uint32_t)nm[i]);
        put32(h + 4, sh[i].type);
        put64(h + 8, sh[i].flags);
        put64(h + 24, sh[i].off);
        put64(h + 32, sh[i].size);
        put32(h + 40, sh[i].link);
        put32(h + 44, sh[i].info);
        put64(h + 48, 1);
        put64(h + 56, sh[i].entsize);
    }
    m->n = shoff + 8 * 64;
    /* ELF header */
    memcpy(b, "\177ELF", 4);
    b[4] = 2;
    b[5] = 1;
    b[6] = 1;
    b[7] = 0x41;
    put16(b + 16, 2);   /* ET_EXEC */
    put16(b + 18, 190); /* EM_CUDA */
    put32(b + 20, 1);
    put64(b + 40, shoff);
    put32(b + 48, 0x5a0500);
    put16(b + 52, 64);
    put16(b + 58, 64);
    put16(b + 60, 8);
    put16(b + 62, 1);
}

static void synth_same(void **state)
{
    (void)state;
    img a, b;
    char why[256];
    build(&a, "k", 0, 0x10);
    build(&b, "k", 0, 0x10);
    assert_int_equal(ptx_cubin_check(a.b, a.n, NULL), 0);
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, NULL, why, sizeof why), 1);
    assert_string_equal(why, "");
    const char *k[4];
    assert_int_equal(ptx_cubin_kernels(a.b, a.n, k, 4), 1);
    assert_string_equal(k[0], "k");
}

static void synth_code_differs(void **state)
{
    (void)state;
    img a, b;
    char why[256];
    build(&a, "k", 0, 0x10);
    build(&b, "k", 0, 0x11);
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, NULL, why, sizeof why), 0);
    assert_non_null(strstr(why, ".text.k"));
    assert_non_null(strstr(why, "offset 0x0"));
}

static void synth_symbols_reordered(void **state)
{
    (void)state;
    img a, b;
    char why[256];
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    build(&a, "k", 0, 0x10);
    build(&b, "k", 1, 0x10);
    /* strict: relocation and .nv.info bytes hold other symbol indices */
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 0);
    /* resolved: the same symbols */
    o.names_may_differ = 1;
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 1);
}

static void synth_kernel_renamed(void **state)
{
    (void)state;
    img a, b;
    char why[256];
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    build(&a, "k", 0, 0x10);
    build(&b, "kernel_two", 1, 0x10);
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 0);
    assert_non_null(strstr(why, "present in A only"));
    o.names_may_differ = 1; /* AUTO: names differ -> by order */
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 1);
    o.match = PTX_CUBIN_MATCH_NAME; /* by name: no partner */
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 0);
    ptx_cubin_rename rn = {"k", "kernel_two"};
    o.renames = &rn;
    o.nrenames = 1;
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 1);
    /* renamed and code changed: the per-kernel report names both */
    build(&b, "kernel_two", 1, 0x20);
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 0);
    assert_non_null(strstr(why, ".text.k (B: .text.kernel_two)"));
}

static void synth_elf_flags(void **state)
{
    (void)state;
    img a, b;
    char why[256];
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    build(&a, "k", 0, 0x10);
    build(&b, "k", 0, 0x10);
    put32(b.b + 48, 0x500500); /* another SM */
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 0);
    assert_non_null(strstr(why, "e_flags"));
    o.ignore_elf_flags = 1;
    assert_int_equal(cmp(a.b, a.n, b.b, b.n, &o, why, sizeof why), 1);
}

static void synth_truncated(void **state)
{
    (void)state;
    img a;
    char why[256];
    build(&a, "k", 0, 0x10);
    for (size_t n = 0; n < a.n; n++) {
        /* exact size, so that ASan would see an overread */
        unsigned char *t = malloc(n ? n : 1);
        memcpy(t, a.b, n);
        assert_int_equal(cmp(t, n, a.b, a.n, NULL, why, sizeof why), -1);
        assert_int_equal(strncmp(why, "A: ", 3), 0);
        assert_int_equal(cmp(a.b, a.n, t, n, NULL, why, sizeof why), -1);
        assert_int_equal(strncmp(why, "B: ", 3), 0);
        free(t);
    }
    assert_int_equal(cmp(NULL, 0, a.b, a.n, NULL, why, sizeof why), -1);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static void corrupt_all_ways(const unsigned char *good, size_t n)
{
    char why[128];
    unsigned char *t = malloc(n);
    ptx_cubin_options o1, o2;
    memset(&o1, 0, sizeof o1);
    memset(&o2, 0, sizeof o2);
    o2.names_may_differ = 1;
    o2.include_debug = 1;
    static const unsigned char vals[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x40};
    /* every byte set to a few interesting values */
    for (size_t i = 0; i < n; i++)
        for (size_t v = 0; v < sizeof vals; v++) {
            memcpy(t, good, n);
            t[i] = vals[v];
            cmp(good, n, t, n, &o1, why, sizeof why);
            cmp(t, n, good, n, &o2, why, sizeof why);
        }
    /* random 1..8-byte windows with random values */
    for (int it = 0; it < 20000; it++) {
        memcpy(t, good, n);
        int k = 1 + (int)(rnd() % 3);
        for (int w = 0; w < k; w++) {
            size_t at = rnd() % n, len = 1 + rnd() % 8;
            for (size_t q = 0; q < len && at + q < n; q++)
                t[at + q] = (unsigned char)rnd();
        }
        cmp(good, n, t, n, it & 1 ? &o1 : &o2, why, sizeof why);
    }
    free(t);
}

static void synth_corrupted(void **state)
{
    (void)state;
    img a;
    build(&a, "k", 0, 0x10);
    corrupt_all_ways(a.b, a.n);
}

static void random_garbage(void **state)
{
    (void)state;
    char why[64];
    img a;
    build(&a, "k", 0, 0x10);
    for (int it = 0; it < 5000; it++) {
        size_t n = rnd() % 600;
        unsigned char *t = malloc(n ? n : 1);
        for (size_t i = 0; i < n; i++)
            t[i] = (unsigned char)rnd();
        if (n >= 6 && (it & 1))
            memcpy(t, "\177ELF\002\001", 6);
        assert_int_equal(cmp(t, n, a.b, a.n, NULL, why, sizeof why) == 1, 0);
        free(t);
    }
    assert_int_equal(cmp("", 0, "", 0, NULL, why, sizeof why), -1);
}

static void small_why_buffer(void **state)
{
    (void)state;
    img a, b;
    char why[8];
    memset(why, 'x', sizeof why);
    build(&a, "k", 0, 0x10);
    build(&b, "k", 0, 0x11);
    assert_int_equal(ptx_cubin_compare(a.b, a.n, b.b, b.n, NULL, why, 5), 0);
    assert_int_equal(why[4], '\0');
    assert_int_equal(why[5], 'x');
    assert_int_equal(ptx_cubin_compare(a.b, a.n, b.b, b.n, NULL, NULL, 0), 0);
    assert_int_equal(ptx_cubin_compare(a.b, a.n, b.b, 3, NULL, why, 1), -1);
    assert_int_equal(why[0], '\0');
}

/* ------------------------------------------------------------------ */
/* Real cubins from ptxas                                              */

static const char *g_ptxas, *g_data, *g_work;

typedef struct blob {
    void *p;
    size_t n;
} blob;

static int run_ptxas(const char *ptx, const char *out)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        execl(g_ptxas, g_ptxas, "-arch=sm_90a", ptx, "-o", out, (char *)NULL);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Assemble DATADIR/<name>.ptx to WORKDIR/<name><suffix>.cubin and load it. */
static blob assemble(const char *name, const char *suffix)
{
    char ptx[4096], out[4096], err[256];
    snprintf(ptx, sizeof ptx, "%s/%s.ptx", g_data, name);
    snprintf(out, sizeof out, "%s/%s%s.cubin", g_work, name, suffix);
    assert_int_equal(run_ptxas(ptx, out), 0);
    blob b = {NULL, 0};
    assert_int_equal(cli_read_file(out, &b.p, &b.n, err, sizeof err), 0);
    return b;
}

static void ptxas_same_twice(void **state)
{
    (void)state;
    char why[256];
    blob a = assemble("k", ""), b = assemble("k", "_again");
    /* ptxas is deterministic: the whole file is identical */
    assert_int_equal(a.n, b.n);
    assert_memory_equal(a.p, b.p, a.n);
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, NULL, why, sizeof why), 1);
    const char *k[4];
    assert_int_equal(ptx_cubin_kernels(a.p, a.n, k, 4), 2);
    free(a.p);
    free(b.p);
}

static void ptxas_whitespace(void **state)
{
    (void)state;
    char why[256];
    blob a = assemble("k", ""), b = assemble("k_ws", "");
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, NULL, why, sizeof why), 1);
    /* observed with CUDA 13.0: even the whole file is identical */
    free(a.p);
    free(b.p);
}

static void ptxas_one_instruction(void **state)
{
    (void)state;
    char why[256];
    blob a = assemble("k", ""), b = assemble("k_changed", "");
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, NULL, why, sizeof why), 0);
    assert_non_null(strstr(why, "section .text.add_one differs at offset"));
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    o.names_may_differ = 1;
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 0);
    assert_non_null(strstr(why, ".text.add_one"));
    free(a.p);
    free(b.p);
}

static void ptxas_renamed(void **state)
{
    (void)state;
    char why[256];
    blob a = assemble("k", ""), b = assemble("k_renamed", "");
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 0);
    assert_non_null(strstr(why, "present in A only"));
    o.names_may_differ = 1;
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 1);
    ptx_cubin_rename good[2] = {{"add_one", "zz_inc"}, {"scale", "aa_mul"}};
    ptx_cubin_rename bad[2] = {{"add_one", "aa_mul"}, {"scale", "zz_inc"}};
    o.match = PTX_CUBIN_MATCH_NAME;
    o.renames = good;
    o.nrenames = 2;
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 1);
    o.renames = bad;
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 0);
    assert_non_null(strstr(why, ".text."));
    free(a.p);
    free(b.p);
}

static void ptxas_reordered(void **state)
{
    (void)state;
    char why[256];
    blob a = assemble("k", ""), b = assemble("k_reordered", "");
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    /* strict: .nv.info lists the kernels' attributes in the other order */
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 0);
    o.names_may_differ = 1; /* same names: paired by name */
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 1);
    o.match = PTX_CUBIN_MATCH_ORDER; /* pairs add_one with scale */
    assert_int_equal(cmp(a.p, a.n, b.p, b.n, &o, why, sizeof why), 0);
    free(a.p);
    free(b.p);
}

/* Offset and size of the section called `name` (test-side ELF walk). */
static int find_section(const unsigned char *b, size_t n, const char *name,
                        size_t *off, size_t *size)
{
    uint64_t shoff = 0;
    unsigned shnum = (unsigned)(b[60] | b[61] << 8),
             shstr = (unsigned)(b[62] | b[63] << 8);
    memcpy(&shoff, b + 40, 8); /* little-endian host assumed by this test */
    const unsigned char *ss = b + shoff + 64 * (size_t)shstr;
    uint64_t ssoff;
    memcpy(&ssoff, ss + 24, 8);
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *h = b + shoff + 64 * (size_t)i;
        uint32_t nm;
        uint64_t o, s;
        memcpy(&nm, h, 4);
        memcpy(&o, h + 24, 8);
        memcpy(&s, h + 32, 8);
        if (ssoff + nm < n && !strcmp((const char *)b + ssoff + nm, name)) {
            *off = (size_t)o;
            *size = (size_t)s;
            return 0;
        }
    }
    return -1;
}

static void ptxas_truncated_and_corrupted(void **state)
{
    (void)state;
    char why[256];
    blob a = assemble("k", "");
    const unsigned char *g = a.p;
    uint64_t shoff;
    memcpy(&shoff, g + 40, 8);
    size_t shend = (size_t)shoff + 64 * (size_t)(g[60] | g[61] << 8);
    for (size_t n = 0; n < a.n; n++) {
        unsigned char *t = malloc(n ? n : 1);
        memcpy(t, g, n);
        int r = cmp(a.p, a.n, t, n, NULL, why, sizeof why);
        if (n < shend)
            assert_int_equal(r, -1);
        free(t);
    }
    /* a flipped byte inside the code is reported there */
    size_t off = 0, size = 0;
    assert_int_equal(find_section(g, a.n, ".text.add_one", &off, &size), 0);
    unsigned char *t = malloc(a.n);
    memcpy(t, g, a.n);
    t[off + size / 2] ^= 0x01;
    assert_int_equal(cmp(a.p, a.n, t, a.n, NULL, why, sizeof why), 0);
    assert_non_null(strstr(why, ".text.add_one differs"));
    free(t);
    corrupt_all_ways(g, a.n);
    free(a.p);
}

/* --rename's argument, as both command-line tools split it. */
static void rename_parse(void **state)
{
    (void)state;
    char ok[] = "_Z1kv=kernel_two";
    ptx_cubin_rename r = { NULL, NULL };
    assert_int_equal(cli_rename_parse(ok, &r), 0);
    assert_string_equal(r.a, "_Z1kv");
    assert_string_equal(r.b, "kernel_two");
    char twice[] = "a=b=c"; /* the first '=' splits */
    assert_int_equal(cli_rename_parse(twice, &r), 0);
    assert_string_equal(r.a, "a");
    assert_string_equal(r.b, "b=c");
    static const char *const bad[] = { "=b", "a=", "ab", "=" };
    for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++) {
        char buf[8];
        strcpy(buf, bad[i]);
        assert_int_equal(cli_rename_parse(buf, &r), -1);
        assert_string_equal(buf, bad[i]); /* unchanged */
    }
    assert_int_equal(cli_rename_parse(NULL, &r), -1);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--synthetic")) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(synth_same),
            cmocka_unit_test(synth_code_differs),
            cmocka_unit_test(synth_symbols_reordered),
            cmocka_unit_test(synth_kernel_renamed),
            cmocka_unit_test(synth_elf_flags),
            cmocka_unit_test(synth_truncated),
            cmocka_unit_test(synth_corrupted),
            cmocka_unit_test(random_garbage),
            cmocka_unit_test(small_why_buffer),
            cmocka_unit_test(rename_parse),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    if (argc == 5 && !strcmp(argv[1], "--ptxas")) {
        g_ptxas = argv[2];
        g_data = argv[3];
        g_work = argv[4];
        if (!*g_ptxas || access(g_ptxas, X_OK) != 0) {
            printf("skipped: no ptxas ('%s')\n", g_ptxas);
            return 77;
        }
        mkdir(g_work, 0777); /* may exist */
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(ptxas_same_twice),
            cmocka_unit_test(ptxas_whitespace),
            cmocka_unit_test(ptxas_one_instruction),
            cmocka_unit_test(ptxas_renamed),
            cmocka_unit_test(ptxas_reordered),
            cmocka_unit_test(ptxas_truncated_and_corrupted),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    fprintf(stderr, "usage: %s --synthetic | --ptxas PTXAS DATADIR WORKDIR\n",
            argv[0]);
    return 2;
}
