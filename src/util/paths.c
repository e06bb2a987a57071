/* paths.c - recursive directory walk for *.ptx files. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ptx/ptx.h"
#include "util/threads.h"
#include "util/paths.h"

static void push(path_list *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        char **v = realloc(l->v, l->cap * sizeof *v);
        if (!v) {
            fputs("fatal: out of memory\n", stderr);
            exit(1);
        }
        l->v = v;
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
        char *p = malloc(n);
        if (!p)
            exit(1);
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
        char *dir = strdup(path);
        while (n > 1 && dir[n - 1] == '/')
            dir[--n] = 0;
        int rc = walk(l, dir, NULL);
        free(dir);
        return rc;
    }
    push(l, strdup(path));
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

char *paths_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (p) {
        *size = fread(p, 1, (size_t)n, f);
        p[*size] = 0;
    }
    fclose(f);
    return p;
}

/* All `n` bytes of fd into a fresh mapping, read on up to `jobs` threads,
   or NULL (the file changed size, a read failed). */
static char *read_mapped(int fd, size_t n, unsigned jobs)
{
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (ptx_read_threads(fd, p, n, jobs))
        return p;
    munmap(p, n);
    return NULL;
}

char *paths_read_large(const char *path, size_t least, unsigned jobs, size_t *size)
{
    struct stat st;
    int fd = strcmp(path, "-") ? open(path, O_RDONLY) : -1;
    if (fd < 0)
        return NULL;
    int big = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && least &&
              (unsigned long long)st.st_size >= least &&
              (unsigned long long)st.st_size <= PTX_MAX_INPUT;
    char *p = big ? read_mapped(fd, (size_t)st.st_size, jobs) : NULL;
    close(fd);
    *size = p ? (size_t)st.st_size : 0;
    return p;
}

void paths_give_back(void *ctx, size_t from, size_t to)
{
    const paths_mapped *f = ctx;
    size_t a = (from + f->page - 1) / f->page * f->page, z = to / f->page * f->page;
    if (z > a)
        madvise(f->p + a, z - a, MADV_DONTNEED);
}
