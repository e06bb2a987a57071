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

int main(int argc, char **argv)
{
    const char *file[2] = {NULL, NULL}, *arch = NULL, *savedir = NULL;
    int nfile = 0, verbose = 0;
    ptx_cubin_opts o;
    memset(&o, 0, sizeof o);
    ptx_cubin_rename *ren = calloc((size_t)argc, sizeof *ren);
    if (!ren)
        return PTX_EXIT_TROUBLE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--arch") || !strncmp(a, "--arch=", 7)) {
            arch = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            if (!arch || ptx_jit_parse_arch(arch) < 0) {
                fprintf(stderr, "jit_check: --arch wants a target such as "
                                "sm_90a\n");
                free(ren);
                return PTX_EXIT_TROUBLE;
            }
        } else if (!strcmp(a, "--save")) {
            if (i + 1 >= argc) {
                usage(stderr);
                free(ren);
                return PTX_EXIT_TROUBLE;
            }
            savedir = argv[++i];
        } else if (!strcmp(a, "--names-may-differ"))
            o.names_may_differ = 1;
        else if (!strcmp(a, "--by-order"))
            o.match = PTX_CUBIN_MATCH_ORDER;
        else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
            verbose = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(ren);
            return 0;
        } else if (!strcmp(a, "--rename") && i + 1 < argc) {
            char *v = argv[++i], *eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1]) {
                fprintf(stderr, "jit_check: --rename wants A_NAME=B_NAME\n");
                free(ren);
                return PTX_EXIT_TROUBLE;
            }
            *eq = '\0';
            ren[o.nrenames].a = v;
            ren[o.nrenames].b = eq + 1;
            o.nrenames++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "jit_check: unknown option %s\n", a);
            usage(stderr);
            free(ren);
            return PTX_EXIT_TROUBLE;
        } else if (nfile < 2) {
            file[nfile++] = a;
        } else {
            usage(stderr);
            free(ren);
            return PTX_EXIT_TROUBLE;
        }
    }
    if (nfile != 2) {
        usage(stderr);
        free(ren);
        return PTX_EXIT_TROUBLE;
    }
    o.renames = ren;

    void *text[2] = {NULL, NULL};
    size_t ntext[2] = {0, 0};
    char msg[1024];
    for (int k = 0; k < 2; k++)
        if (ptx_cubin_read_file(file[k], &text[k], &ntext[k], msg,
                                sizeof msg)) {
            fprintf(stderr, "jit_check: %s\n", msg);
            free(text[0]);
            free(ren);
            return PTX_EXIT_TROUBLE;
        }

    ptx_jit *j = ptx_jit_open(msg, sizeof msg);
    if (!j) {
        printf("jit_check: skipped: %s\n", msg);
        free(text[0]);
        free(text[1]);
        free(ren);
        return PTX_EXIT_SKIP;
    }
    int dv, ma, mi;
    char dev[256];
    ptx_jit_info(j, &dv, &ma, &mi, dev, sizeof dev);
    printf("driver: CUDA %d.%d (%d); device 0: %s, sm_%d%d; target: %s\n",
           dv / 1000, dv % 1000 / 10, dv, dev, ma, mi,
           arch ? arch : "from context");

    size_t loglen = 1 << 16;
    char *log = malloc(loglen);
    void *cub[2] = {NULL, NULL};
    size_t ncub[2] = {0, 0};
    int res[2] = {-1, -1};
    int status = PTX_EXIT_TROUBLE;
    if (!log) {
        fprintf(stderr, "jit_check: out of memory\n");
        goto done;
    }
    for (int k = 0; k < 2; k++) {
        res[k] = ptx_jit_compile(j, text[k], ntext[k], arch, &cub[k], &ncub[k],
                                 log, loglen);
        if (res[k] == 0) {
            printf("%s: %s: accepted, %zu-byte cubin\n", k ? "B" : "A",
                   file[k], ncub[k]);
            if (verbose)
                print_indented(log);
            if (savedir && save(savedir, k ? "b.cubin" : "a.cubin", cub[k],
                                ncub[k]))
                goto done;
        } else {
            printf("%s: %s: %s; driver log:\n", k ? "B" : "A", file[k],
                   res[k] > 0 ? "rejected by the JIT" : "JIT error");
            print_indented(log);
            if (res[k] < 0)
                goto done;
        }
    }
    if (res[0] != 0 && res[1] != 0) {
        printf("undecided: both files were rejected\n");
        goto done;
    }
    if (res[0] != 0 || res[1] != 0) {
        printf("different: only %s was accepted\n", res[0] == 0 ? "A" : "B");
        status = PTX_EXIT_DIFFERENT;
        goto done;
    }
    int r = ptx_cubin_compare(cub[0], ncub[0], cub[1], ncub[1], &o, msg,
                              sizeof msg);
    if (r == 1) {
        printf("identical\n");
        status = PTX_EXIT_OK;
    } else if (r == 0) {
        printf("different: %s\n", msg);
        status = PTX_EXIT_DIFFERENT;
    } else {
        printf("trouble: the JIT's cubin is unreadable: %s\n", msg);
    }
done:
    free(log);
    free(cub[0]);
    free(cub[1]);
    free(text[0]);
    free(text[1]);
    free(ren);
    ptx_jit_close(j);
    return status;
}
