/*
 * cubin_cmp - compare two cubins' code-bearing sections (see ptx/cubin.h).
 *
 *   cubin_cmp A.cubin B.cubin [--names-may-differ] [--by-order | --by-name]
 *             [--rename A_NAME=B_NAME]... [--include-debug]
 *             [--ignore-elf-flags] [-q]
 *
 * Exit status: 0 same, 1 different (prints why), 2 trouble (usage, an
 * unreadable or malformed file).
 */
#include "ptx/cubin.h"
#include "cli/common/args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fputs("usage: cubin_cmp A.cubin B.cubin [--names-may-differ] "
          "[--by-order|--by-name]\n"
          "                 [--rename A_NAME=B_NAME]... [--include-debug] "
          "[--ignore-elf-flags] [-q]\n"
          "exit status: 0 same, 1 different, 2 trouble\n",
          f);
}

/* An option without a value: 1 if a is one (and set), else 0. */
static int flag_option(const char *a, ptx_cubin_options *o, int *quiet)
{
    if (!strcmp(a, "--names-may-differ"))
        o->names_may_differ = 1;
    else if (!strcmp(a, "--by-order"))
        o->match = PTX_CUBIN_MATCH_ORDER;
    else if (!strcmp(a, "--by-name"))
        o->match = PTX_CUBIN_MATCH_NAME;
    else if (!strcmp(a, "--include-debug"))
        o->include_debug = 1;
    else if (!strcmp(a, "--ignore-elf-flags"))
        o->ignore_elf_flags = 1;
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
        *quiet = 1;
    else
        return 0;
    return 1;
}

/* --rename A=B (or --rename=A=B) into ren[o->nrenames]: 0, or -1 after a
   message. */
static int rename_option(int argc, char **argv, int *i, ptx_cubin_options *o,
                         ptx_cubin_rename *ren)
{
    const char *a = argv[*i];
    char *v = a[8] == '=' ? argv[*i] + 9 : (*i + 1 < argc ? argv[++*i] : NULL);
    if (cli_rename_parse(v, &ren[o->nrenames]) != 0) { /* argv is writable */
        fprintf(stderr, "cubin_cmp: --rename wants A_NAME=B_NAME\n");
        return -1;
    }
    o->nrenames++;
    return 0;
}

/* The command line: 0 (two files), 1 for --help (printed), -1 after a
   message. */
static int parse_args(int argc, char **argv, const char *file[2],
                      ptx_cubin_options *o, ptx_cubin_rename *ren, int *quiet)
{
    int nfile = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (flag_option(a, o, quiet))
            continue;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 1;
        }
        if (!strcmp(a, "--rename") || !strncmp(a, "--rename=", 9)) {
            if (rename_option(argc, argv, &i, o, ren) != 0)
                return -1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "cubin_cmp: unknown option %s\n", a);
            usage(stderr);
            return -1;
        } else if (nfile < 2) {
            file[nfile++] = a;
        } else {
            usage(stderr);
            return -1;
        }
    }
    if (nfile != 2) {
        usage(stderr);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *file[2] = {NULL, NULL};
    int quiet = 0;
    ptx_cubin_options o;
    memset(&o, 0, sizeof o);
    ptx_cubin_rename *ren = calloc((size_t)argc, sizeof *ren);
    if (!ren)
        return 2;
    int pr = parse_args(argc, argv, file, &o, ren, &quiet);
    if (pr != 0) {
        free(ren);
        return pr > 0 ? 0 : 2;
    }
    o.renames = ren;
    void *buf[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    char msg[1024];
    for (int k = 0; k < 2; k++)
        if (cli_read_file(file[k], &buf[k], &n[k], msg, sizeof msg)) {
            fprintf(stderr, "cubin_cmp: %s\n", msg);
            free(buf[0]);
            free(ren);
            return 2;
        }
    int r = ptx_cubin_compare(buf[0], n[0], buf[1], n[1], &o, msg, sizeof msg);
    free(buf[0]);
    free(buf[1]);
    free(ren);
    if (r == 1) {
        if (!quiet)
            printf("same: %s %s\n", file[0], file[1]);
        return 0;
    }
    if (r == 0) {
        printf("different: %s %s: %s\n", file[0], file[1], msg);
        return 1;
    }
    /* "A: ..." / "B: ..." -> name the file */
    const char *which = msg[0] == 'B' ? file[1] : file[0];
    fprintf(stderr, "cubin_cmp: malformed cubin %s (%s)\n", which, msg);
    return 2;
}
