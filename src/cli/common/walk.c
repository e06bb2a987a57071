/* walk.c - command-line paths into a sorted list of PTX files: a file as
   it is, a directory as every *.ptx file below it.  A program's helper
   (it prints what it cannot read), not the library's. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/common/walk.h"

/* Out of memory ends the program (the library reports it instead). */
static void *need(void *p)
{
    if (!p) {
        fputs("fatal: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

static void push(path_list *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = need(realloc(l->v, l->cap * sizeof *l->v));
    }
    l->v[l->n++] = s;
}

static int ends_with_ptx(const char *s)
{
    size_t n = strlen(s);
    return n >= 4 && strcmp(s + n - 4, ".ptx") == 0;
}

/* The directories being walked, from the argument down to the current one:
   a directory met again among them is a symbolic-link loop, which would
   otherwise list the same files once per level. */
typedef struct walking {
    dev_t dev;
    ino_t ino;
    const struct walking *up;
} walking;

static int on_path(const walking *w, const struct stat *st)
{
    for (; w; w = w->up)
        if (w->dev == st->st_dev && w->ino == st->st_ino)
            return 1;
    return 0;
}

static int walk(path_list *l, const char *dir, const walking *up)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: error: %s\n", dir, strerror(errno));
        return -1;
    }
    struct stat self;
    walking here = { 0, 0, up };
    if (fstat(dirfd(d), &self) == 0) {
        here.dev = self.st_dev;
        here.ino = self.st_ino;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *p = need(malloc(n));
        snprintf(p, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(p, &st) != 0) {   /* a dangling link: reading it says why */
            if (ends_with_ptx(e->d_name))
                push(l, p);
            else
                free(p);
            continue;
        }
        if (S_ISDIR(st.st_mode) && on_path(&here, &st)) {
            fprintf(stderr, "%s: warning: a link back to a directory above it: not walked again\n", p);
            free(p);
        } else if (S_ISDIR(st.st_mode)) {
            rc |= walk(l, p, &here);
            free(p);
        } else if (S_ISREG(st.st_mode) && ends_with_ptx(e->d_name)) {
            push(l, p);
        } else {
            free(p);
        }
    }
    closedir(d);
    return rc;
}

int paths_add(path_list *l, const char *path)
{
    struct stat st;
    if (strcmp(path, "-") != 0 && stat(path, &st) != 0) {
        fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
        return -1;
    }
    if (strcmp(path, "-") != 0 && S_ISDIR(st.st_mode)) {
        size_t n = strlen(path);
        char *dir = need(strdup(path));
        while (n > 1 && dir[n - 1] == '/')
            dir[--n] = 0;
        int rc = walk(l, dir, NULL);
        free(dir);
        return rc;
    }
    push(l, need(strdup(path)));
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void paths_sort(path_list *l)
{
    if (!l->n)
        return;
    qsort(l->v, l->n, sizeof *l->v, cmp);
    size_t k = 1;
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(l->v[i], l->v[k - 1]) == 0)
            free(l->v[i]);
        else
            l->v[k++] = l->v[i];
    }
    l->n = k;
}

void paths_free(path_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
