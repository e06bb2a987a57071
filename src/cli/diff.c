/*
 * pyptx-diff - compare two PTX modules through their syntax trees.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/common/protect.h"
#include "ptx/ptx.h"
#include "cli/diff/cli.h"
#include "util/alloc.h"
#include "util/memory.h"
#include "util/threads.h"

static const char usage[] =
    "usage: pyptx-diff [options] A.ptx B.ptx\n"
    "       pyptx-diff [options] DIR_A DIR_B     (or @LIST_A @LIST_B)\n"
    "\n"
    "Compares two PTX modules statement by statement and prints the\n"
    "differences as a unified diff of canonical statements.  Formatting and\n"
    "comments never count.  \"-\" reads standard input.  Two trees (every\n"
    "*.ptx below a directory, or the paths listed in a file) compare kernel\n"
    "by kernel: kernels pair by name, variants of one name by the FILE.json\n"
    "beside them (Triton's num_warps, num_stages, ...) and by similarity.\n"
    "\n"
    "  --ignore-debug     drop .loc, .file, @@DWARF, .section .debug_* and the\n"
    "                     labels only debug data refers to\n"
    "  --ignore-labels    labels compare up to a consistent renaming\n"
    "  --ignore-regs      registers compare up to a consistent renaming per\n"
    "                     function and type; %r<N> counts do not count\n"
    "  --ignore-names     every declared name compares up to a consistent\n"
    "                     renaming; functions pair by position\n"
    "  --function NAME    only this function (repeatable)\n"
    "  -U N, --unified N  lines of context (default 3)\n"
    "  --stat             per function: statements added, removed, changed\n"
    "  --json             the report as JSON\n"
    "  --format F         unified (default), stat, json, or markdown (trees)\n"
    "  --resources        trees: each differing kernel's registers, spills,\n"
    "                     stack, shared, local and constant memory and SASS\n"
    "                     instructions before and after, compiled with ptxas\n"
    "  --jit              compile with the CUDA driver instead of ptxas\n"
    "  --ptxas PATH       the ptxas to run (default: $PTXAS, PATH, CUDA's)\n"
    "  --fail-on LIST     exit 3 where a kernel's figure grew: regs,\n"
    "                     spill-stores, spill-loads, spills, stack, shared,\n"
    "                     local, const, insts (implies --resources)\n"
    "  -q, --brief        print nothing, only set the exit status\n"
    "  --jobs N           parse and compare with N threads in all (default 2)\n"
    "  --help             show this help;  --version  show the version\n"
    "\n"
    "Exit status: 0 same, 1 different, 2 trouble (a file not read, parsed\n"
    "or compiled: the rest is still reported), 3 a --fail-on regression.\n";

enum { O_DEBUG = 256, O_LABELS, O_REGS, O_NAMES, O_FUNCTION, O_STAT, O_JSON,
       O_HELP, O_VERSION, O_JOBS, O_FORMAT, O_RESOURCES, O_JIT, O_PTXAS, O_FAIL_ON };

typedef diff_cli cli;

static const struct option longs[] = {
    { "ignore-debug", no_argument, 0, O_DEBUG },
    { "ignore-labels", no_argument, 0, O_LABELS },
    { "ignore-regs", no_argument, 0, O_REGS },
    { "ignore-names", no_argument, 0, O_NAMES },
    { "function", required_argument, 0, O_FUNCTION },
    { "unified", required_argument, 0, 'U' },
    { "stat", no_argument, 0, O_STAT },
    { "json", no_argument, 0, O_JSON },
    { "brief", no_argument, 0, 'q' },
    { "jobs", required_argument, 0, O_JOBS },
    { "format", required_argument, 0, O_FORMAT },
    { "resources", no_argument, 0, O_RESOURCES },
    { "jit", no_argument, 0, O_JIT },
    { "ptxas", required_argument, 0, O_PTXAS },
    { "fail-on", required_argument, 0, O_FAIL_ON },
    { "help", no_argument, 0, O_HELP },
    { "version", no_argument, 0, O_VERSION },
    { 0, 0, 0, 0 }
};

/* --format F. */
static int set_format(const char *f, cli *c)
{
    static const char *const names[] = { "unified", "stat", "json", "markdown" };
    for (unsigned i = 0; i < 4; i++)
        if (strcmp(f, names[i]) == 0) {
            c->stat = i == 1, c->json = i == 2, c->markdown = i == 3;
            return 0;
        }
    fprintf(stderr, "pyptx-diff: --format wants unified, stat, json or markdown\n");
    return -1;
}

/* --fail-on a,b,...: figure names (ptx_res_name), and "spills" for both
   spill counts. */
static int set_fail_on(const char *list, cli *c)
{
    for (const char *p = list; *p; p += *p == ',') {
        size_t n = strcspn(p, ",");
        unsigned bits = n == 6 && !strncmp(p, "spills", 6)
                        ? 1u << PTX_RES_SPILL_STORES | 1u << PTX_RES_SPILL_LOADS : 0;
        for (unsigned i = 0; i < PTX_RES_N; i++)
            if (strlen(ptx_res_name(i)) == n && !strncmp(p, ptx_res_name(i), n))
                bits |= 1u << i;
        if (!bits) {
            fprintf(stderr, "pyptx-diff: --fail-on: unknown figure '%.*s'\n", (int)n, p);
            return -1;
        }
        c->fail_on |= bits;
        p += n;
    }
    c->resources = 1;
    return 0;
}

static int parse_args(int argc, char **argv, cli *c)
{
    int ch;
    char *end;
    while ((ch = getopt_long(argc, argv, "U:q", longs, NULL)) != -1) {
        switch (ch) {
        case O_DEBUG: c->o.flags |= PTX_DIFF_IGNORE_DEBUG; break;
        case O_LABELS: c->o.flags |= PTX_DIFF_IGNORE_LABELS; break;
        case O_REGS: c->o.flags |= PTX_DIFF_IGNORE_REGS; break;
        case O_NAMES: c->o.flags |= PTX_DIFF_IGNORE_NAMES; break;
        case O_FUNCTION:
            c->funcs = realloc(c->funcs, (c->nfuncs + 1) * sizeof *c->funcs);
            if (!c->funcs)
                return -1;
            c->funcs[c->nfuncs++] = optarg;
            break;
        case 'U':
            c->o.context = (int)strtol(optarg, &end, 10);
            if (*end || c->o.context < 0 || end == optarg) {
                fprintf(stderr, "pyptx-diff: bad context '%s'\n", optarg);
                return -1;
            }
            break;
        case O_STAT: c->stat = 1; break;
        case O_JSON: c->json = 1; break;
        case 'q': c->brief = 1; break;
        case O_JOBS:
            if (ptx_jobs_arg(optarg, &c->o.jobs) != 0) {
                fprintf(stderr, "pyptx-diff: --jobs wants 1..256\n");
                return -1;
            }
            break;
        case O_FORMAT:
            if (set_format(optarg, c) != 0)
                return -1;
            break;
        case O_RESOURCES: c->resources = 1; break;
        case O_JIT: c->jit = c->resources = 1; break;
        case O_PTXAS: c->ptxas = optarg; break;
        case O_FAIL_ON:
            if (set_fail_on(optarg, c) != 0)
                return -1;
            break;
        case O_HELP: fputs(usage, stdout); exit(0);
        case O_VERSION: puts("pyptx-diff " PTX_VERSION_STRING); exit(0);
        default: return -1;
        }
    }
    if (argc - optind != 2) {
        fputs("pyptx-diff: expected two files\n", stderr);
        return -1;
    }
    c->o.functions = c->funcs;
    c->o.nfunctions = c->nfuncs;
    return 0;
}

typedef struct load {
    const char *path;
    unsigned jobs;     /* threads for this file's parse */
    ptx_module *m;
    ptx_diag diag;
} load;

static void *load_one(void *arg)
{
    load *l = arg;
    l->m = ptx_parse_file_jobs(l->path, l->jobs, &l->diag);
    return NULL;
}

/* Parses both files, with --jobs 2 or more the second on another thread,
   each with half the threads (a large module is parsed in pieces): the
   modules are independent.  Standard input is read by one. */
static int load_both(load *la, load *lb, unsigned jobs)
{
    pthread_t t;
    int threaded = jobs > 1 && strcmp(la->path, "-") && strcmp(lb->path, "-")
                && pthread_create(&t, NULL, load_one, lb) == 0;
    load_one(la);
    if (threaded)
        pthread_join(t, NULL);
    else
        load_one(lb);
    for (load *l = la; l; l = l == la ? lb : NULL)
        if (!l->m)
            ptx_diag_print(stderr, &l->diag);
    return la->m && lb->m ? 0 : -1;
}

static int write_all(const ptx_buf *b)
{
    if (b->n && fwrite(b->p, 1, b->n, stdout) != b->n)
        return -1;
    return fflush(stdout);
}

static int run(int argc, char **argv)
{
    ptx_keep_freed_memory();
    cli c = { .o = { .context = 3, .jobs = 2 } };
    if (parse_args(argc, argv, &c) < 0) {
        fputs(usage, stderr);
        return 2;
    }
    const char *pa = argv[optind], *pb = argv[optind + 1];
    if (diff_is_tree(pa) || diff_is_tree(pb) || c.resources || c.markdown) {
        int rc = diff_trees_main(&c, pa, pb);
        free(c.funcs);
        return rc;
    }
    unsigned half = c.o.jobs / 2 ? c.o.jobs / 2 : 1;
    load la = { .path = argv[optind], .jobs = half },
         lb = { .path = argv[optind + 1], .jobs = half };
    if (load_both(&la, &lb, c.o.jobs) < 0) {
        ptx_module_free(la.m);
        ptx_module_free(lb.m);
        free(c.funcs);
        return 2;
    }
    ptx_module *a = la.m, *b = lb.m;
    ptx_diag err;
    ptx_diff *d = ptx_diff_run(a, b, &c.o, &err);
    int rc = 2;
    if (!d) {
        fprintf(stderr, "pyptx-diff: %s\n", err.msg);
    } else {
        ptx_buf out = { 0 };
        int r = c.json ? ptx_diff_print_json(d, &out)
              : c.stat ? ptx_diff_print_stat(d, &out)
              : !c.brief ? ptx_diff_print_unified(d, &out) : 0;
        if (r)
            ptx_oom();   /* (cli_main says so) */
        rc = ptx_diff_same(d) ? 0 : 1;
        if (!c.brief && write_all(&out) != 0) {
            perror("pyptx-diff: stdout");
            rc = 2;
        }
        ptx_buf_free(&out);
        ptx_diff_free(d);
    }
    ptx_module_free(a);
    ptx_module_free(b);
    free(c.funcs);
    return rc;
}

int main(int argc, char **argv)
{
    return cli_main("pyptx-diff", run, argc, argv);
}
