/* paths.h - whole input files into memory (the walk of command-line
   directories is the programs': cli/common/walk.h). */
#ifndef PTX_UTIL_PATHS_H
#define PTX_UTIL_PATHS_H

#include <stddef.h>

/* The whole of file `path`, with a NUL after its *size bytes (free it), or
   NULL if it cannot be read. */
char *paths_read(const char *path, size_t *size);
/* The whole of `path` when it is a regular file of at least `least` bytes
   (and at most PTX_MAX_INPUT), read into an anonymous mapping of its own
   of *size bytes (munmap it), on up to `jobs` threads; NULL for standard input ("-"), a smaller
   file, or one that cannot be read or changes size while it is.  (Read
   into, not the file mapped: a file that shrinks under a mapping would
   kill the program.) */
char *paths_read_large(const char *path, size_t least, unsigned jobs, size_t *size);

/* Such a mapping, read a piece at a time. */
typedef struct paths_mapped {
    char *p;
    size_t n, page;     /* its size; the system's page size */
} paths_mapped;
/* The whole pages of p[from, to) given back (ctx: a paths_mapped), which
   nothing may read again: they would read as zeros.  The `release` of
   ptx_pieces_opts and ptx_codegen_options. */
void paths_give_back(void *ctx, size_t from, size_t to);

#endif
