/*
 * cli/diff/tree.c - pyptx-diff's tree mode: two directories (every *.ptx file
 * below each) or two @FILE lists, compared kernel by kernel
 * (ptx_diff_trees).  The files are read and parsed on --jobs threads; a
 * file that cannot be read or parsed is reported, and the rest compared.
 * Beside each FILE.ptx, a FILE.json (a Triton cache's metadata) gives the
 * kernel's tuning key.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/diff/cli.h"
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
    char **errors, **metas;
} side_files;

typedef struct loader {
    side_files *s[2];
    atomic_size_t next;
} loader;

/* The tuning key from FILE.json beside FILE.ptx, or NULL. */
static char *meta_of(const char *path)
{
    size_t n = strlen(path), size;
    if (n < 4 || strcmp(path + n - 4, ".ptx"))
        return NULL;
    char *json = malloc(n + 2), key[1024];
    if (!json)
        return NULL;
    memcpy(json, path, n - 4);
    strcpy(json + n - 4, ".json");
    char *text = paths_read(json, &size);
    free(json);
    int ok = text && ptx_tree_meta_json(text, size, key, sizeof key) == 0;
    free(text);
    return ok ? strdup(key) : NULL;
}

static void load_one(side_files *s, size_t i)
{
    ptx_diag d;
    ptx_tree_file *f = &s->f[i];
    f->path = s->paths.v[i];
    f->m = ptx_parse_file(f->path, &d);
    if (!f->m) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s:%u:%u: error: %s", d.file, d.line, d.col, d.msg);
        s->errors[i] = strdup(buf);
        f->error = s->errors[i] ? s->errors[i] : "cannot be parsed";
    }
    f->meta = s->metas[i] = meta_of(f->path);
}

static void load_some(void *arg)
{
    loader *l = arg;
    size_t na = l->s[0]->paths.n, total = na + l->s[1]->paths.n;
    for (size_t k; (k = atomic_fetch_add(&l->next, 1)) < total;)
        load_one(l->s[k >= na], k >= na ? k - na : k);
}

static int collect(const char *arg, side_files *s)
{
    int rc = arg[0] == '@' ? read_list(arg + 1, &s->paths) : paths_add(&s->paths, arg);
    paths_sort(&s->paths);
    size_t n = s->paths.n + 1;
    s->f = calloc(n, sizeof *s->f);
    s->errors = calloc(n, sizeof *s->errors);
    s->metas = calloc(n, sizeof *s->metas);
    if (!s->f || !s->errors || !s->metas) {
        fputs("pyptx-diff: out of memory\n", stderr);
        return -1;
    }
    return rc;
}

static void free_side(side_files *s)
{
    for (size_t i = 0; i < s->paths.n && s->f; i++) {
        ptx_module_free((ptx_module *)s->f[i].m);
        free(s->errors[i]);
        free(s->metas[i]);
    }
    free(s->f);
    free(s->errors);
    free(s->metas);
    paths_free(&s->paths);
}

static int print_report(const diff_cli *c, const ptx_tree_diff *t, const ptx_res *res)
{
    if (c->brief)
        return 0;
    ptx_buf out = { 0 };
    ptx_tree_format f = c->json ? PTX_TREE_JSON : c->markdown ? PTX_TREE_MARKDOWN
                      : c->stat ? PTX_TREE_STAT : PTX_TREE_UNIFIED;
    ptx_tree_print(t, f, res, &out);
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
    if (collect(a, &sa) != 0 || collect(b, &sb) != 0)
        goto done;
    loader l = { { &sa, &sb }, 0 };
    unsigned jobs = c->o.jobs ? c->o.jobs : 2;
    ptx_each_thread(&l, jobs, 0, load_some);
    char err[256];
    ptx_tree_diff *t = ptx_diff_trees(sa.f, sa.paths.n, sb.f, sb.paths.n, &c->o, err,
                                      sizeof err);
    if (!t) {
        fprintf(stderr, "pyptx-diff: %s\n", err);
        goto done;
    }
    ptx_res *res = NULL;
    if (c->resources) {
        ptx_measure_opts mo = { c->ptxas, c->jit, c->o.jobs };
        if (!(res = ptx_tree_measure(t, &mo, err, sizeof err)))
            fprintf(stderr, "pyptx-diff: --resources: %s\n", err);
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
