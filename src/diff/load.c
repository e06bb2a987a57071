/*
 * load.c - the files of a tree, read and parsed on threads, each with the
 * tuning key of the FILE.json beside it (ptx_tree_load).  A file that
 * cannot be read or parsed keeps its diagnostic, to be reported with the
 * rest of the tree's report; memory that runs out fails the whole load.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/diff.h"
#include "util/alloc.h"
#include "util/paths.h"
#include "util/threads.h"

typedef struct loader {
    const char *const *paths;
    ptx_tree_file *f;
    size_t n;
    atomic_size_t next;
    atomic_int oom;     /* memory ran out for some file */
} loader;

/* The tuning key from FILE.json beside FILE.ptx, or NULL (*oom set where
   memory ran out). */
static char *meta_of(const char *path, atomic_int *oom)
{
    size_t n = strlen(path), size;
    if (n < 4 || strcmp(path + n - 4, ".ptx"))
        return NULL;
    char *json = ptx_malloc(n + 2), key[1024];
    if (!json) {
        *oom = 1;
        return NULL;
    }
    memcpy(json, path, n - 4);
    strcpy(json + n - 4, ".json");
    errno = 0;
    char *text = paths_read(json, &size);
    if (!text && errno == ENOMEM)
        *oom = 1;
    free(json);
    int ok = text && ptx_tree_meta_json(text, size, key, sizeof key) == 0;
    free(text);
    char *meta = ok ? ptx_strdup(key) : NULL;
    if (ok && !meta)
        *oom = 1;
    return meta;
}

static void load_one(ptx_tree_file *f, const char *path, atomic_int *oom)
{
    ptx_diag d;
    f->path = ptx_strdup(path);
    f->m = ptx_parse_file(path, &d);
    if (!f->m && !strcmp(d.msg, PTX_OUT_OF_MEMORY)) {
        *oom = 1;
    } else if (!f->m) {
        char buf[1024];
        snprintf(buf, sizeof buf, "%s:%u:%u: error: %s", d.file, d.line, d.col, d.msg);
        if (!(f->error = ptx_strdup(buf)))
            *oom = 1;
    }
    f->meta = meta_of(path, oom);
    if (!f->path)
        *oom = 1;
}

static void load_some(void *arg)
{
    loader *l = arg;
    for (size_t k; (k = atomic_fetch_add(&l->next, 1)) < l->n;)
        load_one(&l->f[k], l->paths[k], &l->oom);
}

ptx_tree_file *ptx_tree_load(const char *const *paths, size_t n, unsigned jobs)
{
    ptx_tree_file *f = ptx_calloc(n + 1, sizeof *f);
    if (!f)
        return NULL;
    loader l = { paths, f, n, 0, 0 };
    unsigned threads = jobs ? (jobs < n ? jobs : (unsigned)(n ? n : 1)) : 1;
    ptx_each_thread(&l, threads < PTX_MAX_THREADS ? threads : PTX_MAX_THREADS, 0, load_some);
    if (atomic_load(&l.oom)) {
        ptx_tree_files_free(f, n);
        return NULL;
    }
    return f;
}

void ptx_tree_files_free(ptx_tree_file *f, size_t n)
{
    for (size_t i = 0; f && i < n; i++) {
        ptx_module_free((ptx_module *)f[i].m);
        free((char *)f[i].path);
        free((char *)f[i].meta);
        free((char *)f[i].error);
    }
    free(f);
}
