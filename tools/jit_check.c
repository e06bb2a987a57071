/*
 * jit_check - JIT two PTX files with the CUDA driver and compare the cubins.
 *
 *   jit_check [--arch sm_XX] [--names-may-differ] [--by-order]
 *             [--rename A_NAME=B_NAME]... [--save DIR] [-v] A.ptx B.ptx
 *
 * Prints the driver and device, one line per file (accepted, cubin size; or
 * rejected, followed by the driver's error log), then the verdict.
 * --save DIR writes DIR/a.cubin and DIR/b.cubin; -v prints the JIT info log.
 *
 * Exit status (ptx/jit.h):
 *   0   both accepted, cubins identical (ptx/cubin.h's comparison)
 *   1   cubins differ, or exactly one file was rejected by the JIT
 *   2   trouble: usage, unreadable file, both files rejected, bad --arch,
 *       a cubin the comparer cannot read
 *   77  skipped: no CUDA driver (libcuda.so.1) or no usable GPU
 */
#include "ptx/cubin.h"
#include "cli/common/args.h"
#include "cli/exit.h"
#include "ptx/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: jit_check [--arch sm_XX] [--names-may-differ] [--by-order]\n"
          "                 [--rename A_NAME=B_NAME]... [--save DIR] [-v] "
          "A.ptx B.ptx\n"
          "exit status: 0 identical, 1 different, 2 trouble, 77 no CUDA "
          "driver/GPU (skip)\n",
          f);
}

static void print_indented(const char *s)
{
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t k = nl ? (size_t)(nl - s) : strlen(s);
        printf("    %.*s\n", (int)k, s);
        s += k + (nl ? 1 : 0);
    }
}

static int save(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) {
        if (f)
            fclose(f);
        fprintf(stderr, "jit_check: cannot write %s\n", path);
        return -1;
    }
    return fclose(f) ? -1 : 0;
}

typedef struct args {
    const char *file[2], *arch, *savedir;
    int nfile, verbose;
    ptx_cubin_options o;
    ptx_cubin_rename *ren; /* o.renames, argc entries */
} args;

/* --arch X, --rename A=B, --save DIR: the options with a value.  0, or
   -1 after a message. */
static int value_option(const char *opt, int argc, char **argv, int *i, args *a)
{
    if (!strcmp(opt, "--arch") || !strncmp(opt, "--arch=", 7)) {
        a->arch = opt[6] == '=' ? opt + 7 : (*i + 1 < argc ? argv[++*i] : NULL);
        if (!a->arch || ptx_jit_parse_arch(a->arch) < 0) {
            fprintf(stderr, "jit_check: --arch wants a target such as "
                            "sm_90a\n");
            return -1;
        }
        return 0;
    }
    if (!strcmp(opt, "--save")) {
        if (*i + 1 >= argc) {
            usage(stderr);
            return -1;
        }
        a->savedir = argv[++*i];
        return 0;
    }
    /* --rename (argv is writable) */
    if (cli_rename_parse(argv[++*i], &a->ren[a->o.nrenames]) != 0) {
        fprintf(stderr, "jit_check: --rename wants A_NAME=B_NAME\n");
        return -1;
    }
    a->o.nrenames++;
    return 0;
}

/* The command line into a: 0; 1 for --help (printed); -1 after a
   message. */
static int parse_args(int argc, char **argv, args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "--arch") || !strncmp(opt, "--arch=", 7) ||
            !strcmp(opt, "--save") || (!strcmp(opt, "--rename") && i + 1 < argc)) {
            if (value_option(opt, argc, argv, &i, a) != 0)
                return -1;
        } else if (!strcmp(opt, "--names-may-differ")) {
            a->o.names_may_differ = 1;
        } else if (!strcmp(opt, "--by-order")) {
            a->o.match = PTX_CUBIN_MATCH_ORDER;
        } else if (!strcmp(opt, "-v") || !strcmp(opt, "--verbose")) {
            a->verbose = 1;
        } else if (!strcmp(opt, "-h") || !strcmp(opt, "--help")) {
            usage(stdout);
            return 1;
        } else if (opt[0] == '-' && opt[1]) {
            fprintf(stderr, "jit_check: unknown option %s\n", opt);
            usage(stderr);
            return -1;
        } else if (a->nfile < 2) {
            a->file[a->nfile++] = opt;
        } else {
            usage(stderr);
            return -1;
        }
    }
    if (a->nfile != 2) {
        usage(stderr);
        return -1;
    }
    return 0;
}

/* JITs both files, a line (and the log) for each: -1 when both were
   accepted (the cubins in cub), else the exit status. */
static int jit_both(ptx_jit *j, const args *a, void *text[2], size_t ntext[2],
                    void *cub[2], size_t ncub[2], char *log, size_t loglen)
{
    int res[2] = {-1, -1};
    for (int k = 0; k < 2; k++) {
        res[k] = ptx_jit_compile(j, text[k], ntext[k], a->arch, &cub[k],
                                 &ncub[k], log, loglen);
        if (res[k] == 0) {
            printf("%s: %s: accepted, %zu-byte cubin\n", k ? "B" : "A",
                   a->file[k], ncub[k]);
            if (a->verbose)
                print_indented(log);
            if (a->savedir && save(a->savedir, k ? "b.cubin" : "a.cubin",
                                   cub[k], ncub[k]))
                return PTX_EXIT_TROUBLE;
        } else {
            printf("%s: %s: %s; driver log:\n", k ? "B" : "A", a->file[k],
                   res[k] > 0 ? "rejected by the JIT" : "JIT error");
            print_indented(log);
            if (res[k] < 0)
                return PTX_EXIT_TROUBLE;
        }
    }
    if (res[0] != 0 && res[1] != 0) {
        printf("undecided: both files were rejected\n");
        return PTX_EXIT_TROUBLE;
    }
    if (res[0] != 0 || res[1] != 0) {
        printf("different: only %s was accepted\n", res[0] == 0 ? "A" : "B");
        return PTX_EXIT_DIFFERENT;
    }
    return -1;
}

/* The comparison of the two cubins, printed: the exit status. */
static int verdict(const args *a, void *cub[2], size_t ncub[2])
{
    char msg[1024];
    int r = ptx_cubin_compare(cub[0], ncub[0], cub[1], ncub[1], &a->o, msg,
                              sizeof msg);
    if (r == 1) {
        printf("identical\n");
        return PTX_EXIT_OK;
    }
    if (r == 0) {
        printf("different: %s\n", msg);
        return PTX_EXIT_DIFFERENT;
    }
    printf("trouble: the JIT's cubin is unreadable: %s\n", msg);
    return PTX_EXIT_TROUBLE;
}

/* The driver and the device, and the JIT of both files compared. */
static int run(ptx_jit *j, const args *a, void *text[2], size_t ntext[2])
{
    int dv, ma, mi;
    char dev[256];
    ptx_jit_info(j, &dv, &ma, &mi, dev, sizeof dev);
    printf("driver: CUDA %d.%d (%d); device 0: %s, sm_%d%d; target: %s\n",
           dv / 1000, dv % 1000 / 10, dv, dev, ma, mi,
           a->arch ? a->arch : "from context");
    size_t loglen = 1 << 16;
    char *log = malloc(loglen);
    if (!log) {
        fprintf(stderr, "jit_check: out of memory\n");
        return PTX_EXIT_TROUBLE;
    }
    void *cub[2] = {NULL, NULL};
    size_t ncub[2] = {0, 0};
    int status = jit_both(j, a, text, ntext, cub, ncub, log, loglen);
    if (status < 0)
        status = verdict(a, cub, ncub);
    free(log);
    free(cub[0]);
    free(cub[1]);
    return status;
}

int main(int argc, char **argv)
{
    args a;
    memset(&a, 0, sizeof a);
    a.ren = calloc((size_t)argc, sizeof *a.ren);
    if (!a.ren)
        return PTX_EXIT_TROUBLE;
    int pr = parse_args(argc, argv, &a);
    if (pr != 0) {
        free(a.ren);
        return pr > 0 ? 0 : PTX_EXIT_TROUBLE;
    }
    a.o.renames = a.ren;
    void *text[2] = {NULL, NULL};
    size_t ntext[2] = {0, 0};
    char msg[1024];
    for (int k = 0; k < 2; k++)
        if (cli_read_file(a.file[k], &text[k], &ntext[k], msg,
                                sizeof msg)) {
            fprintf(stderr, "jit_check: %s\n", msg);
            free(text[0]);
            free(a.ren);
            return PTX_EXIT_TROUBLE;
        }
    int status = PTX_EXIT_SKIP;
    ptx_diag why;
    ptx_jit *j = ptx_jit_open(&why);
    if (j)
        status = run(j, &a, text, ntext);
    else
        printf("jit_check: skipped: %s\n", why.msg);
    free(text[0]);
    free(text[1]);
    free(a.ren);
    ptx_jit_close(j);
    return status;
}
