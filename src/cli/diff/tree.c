/*
 * cli/diff/tree.c - pyptx-diff's tree mode: two directories (every *.ptx
 * file below each) or two @FILE lists, compared kernel by kernel
 * (ptx_diff_trees).  The files are read and parsed on --jobs threads, with
 * the tuning keys of their FILE.json (ptx_tree_load); a file that cannot
 * be read or parsed is reported, and the rest compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/diff/cli.h"
#include "cli/common/walk.h"
#include "util/alloc.h"
#include "util/paths.h"
#include "util/threads.h"

int diff_is_tree(const char *arg)
{
    struct stat st;
    return arg[0] == '@' || (stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

/* The paths of @FILE, one a line (blank lines skipped). */
static int read_list(const char *file, path_list *l)
{
    size_t n;
    char *text = paths_read(file, &n);
    if (!text) {
        fprintf(stderr, "pyptx-diff: %s: cannot read the list\n", file);
        return -1;
    }
    int rc = 0;
    for (char *p = text, *e; rc == 0 && *p; p = *e ? e + 1 : e) {
        e = p + strcspn(p, "\r\n");
        char c = *e;
        *e = 0;
        if (*p)
            rc = paths_add(l, p);
        *e = c;
    }
    free(text);
    return rc;
}

typedef struct side_files {
    path_list paths;
    ptx_tree_file *f;
} side_files;

/* The paths of a tree argument, loaded (ptx_tree_load). */
static int collect(const char *arg, unsigned jobs, side_files *s)
{
    int rc = arg[0] == '@' ? read_list(arg + 1, &s->paths) : paths_add(&s->paths, arg);
    paths_sort(&s->paths);
    if (rc == 0 && !(s->f = ptx_tree_load((const char *const *)s->paths.v, s->paths.n, jobs))) {
        fputs("pyptx-diff: out of memory\n", stderr);
        rc = -1;
    }
    return rc;
}

static void free_side(side_files *s)
{
    ptx_tree_files_free(s->f, s->paths.n);
    paths_free(&s->paths);
}

static int print_report(const diff_cli *c, const ptx_tree_diff *t, const ptx_res *res)
{
    if (c->brief)
        return 0;
    ptx_buf out = { 0 };
    ptx_tree_format f = c->json ? PTX_TREE_JSON : c->markdown ? PTX_TREE_MARKDOWN
                      : c->stat ? PTX_TREE_STAT : PTX_TREE_UNIFIED;
    if (ptx_tree_print(t, f, res, &out))
        ptx_oom();
    int rc = (out.n && fwrite(out.p, 1, out.n, stdout) != out.n) || fflush(stdout);
    ptx_buf_free(&out);
    if (rc)
        perror("pyptx-diff: stdout");
    return rc;
}

/* The kernels whose figures named in c->fail_on grew, each printed to
   stderr: their number. */
static size_t regressions(const diff_cli *c, const ptx_tree_diff *t, const ptx_res *res)
{
    size_t bad = 0;
    for (size_t k = 0; k < ptx_tree_nkernels(t); k++) {
        const ptx_tree_kernel *e = ptx_tree_kernel_at(t, k);
        const ptx_res *a = &res[2 * k], *b = &res[2 * k + 1];
        int worse = 0;
        for (unsigned i = 0; i < PTX_RES_N; i++)
            if ((c->fail_on >> i & 1) && a->v[i] >= 0 && b->v[i] > a->v[i]) {
                fprintf(stderr, "pyptx-diff: regression: %s: %s %lld -> %lld\n", e->name,
                        ptx_res_name(i), a->v[i], b->v[i]);
                worse = 1;
            }
        bad += worse;
    }
    return bad;
}

/* Trouble (2) where a file could not be read, or a compiler not run or
   not compile a kernel's file;
   else a --fail-on regression (3); else diff(1)'s 0 or 1. */
static int status_of(const diff_cli *c, const ptx_tree_diff *t, const ptx_res *res,
                     int trouble)
{
    size_t bad = res ? regressions(c, t, res) : 0;
    for (size_t k = 0; res && k < 2 * ptx_tree_nkernels(t); k++)
        trouble |= res[k].error != NULL;
    for (int s = 0; s < 2; s++)
        for (int i = 0; ptx_tree_file_at(t, s, i); i++)
            trouble |= ptx_tree_file_at(t, s, i)->m == NULL;
    return trouble ? 2 : bad ? 3 : ptx_tree_same(t) ? 0 : 1;
}

int diff_trees_main(const diff_cli *c, const char *a, const char *b)
{
    side_files sa = { 0 }, sb = { 0 };
    int rc = 2;
    unsigned jobs = c->o.jobs ? c->o.jobs : 2;
    if (collect(a, jobs, &sa) != 0 || collect(b, jobs, &sb) != 0)
        goto done;
    ptx_diag err;
    ptx_tree_diff *t = ptx_diff_trees(sa.f, sa.paths.n, sb.f, sb.paths.n, &c->o, &err);
    if (!t) {
        fprintf(stderr, "pyptx-diff: %s\n", err.msg);
        goto done;
    }
    ptx_res *res = NULL;
    if (c->resources) {
        ptx_measure_options mo = { c->ptxas, c->jit, c->o.jobs };
        if (!(res = ptx_tree_measure(t, &mo, &err)))
            fprintf(stderr, "pyptx-diff: --resources: %s\n", err.msg);
    }
    int trouble = c->resources && !res;
    rc = print_report(c, t, res) ? 2 : status_of(c, t, res, trouble);
    ptx_res_free(res, ptx_tree_nkernels(t));
    ptx_tree_free(t);
done:
    free_side(&sa);
    free_side(&sb);
    return rc;
}
