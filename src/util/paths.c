/* paths.c - reading whole input files, small ones into memory and large
   ones into a mapping of their own read on threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ptx/ptx.h"
#include "util/alloc.h"
#include "util/threads.h"
#include "util/paths.h"

char *paths_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = n >= 0 ? ptx_malloc((size_t)n + 1) : NULL;
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
