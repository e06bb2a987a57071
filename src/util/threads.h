/* threads.h - one call of a function per item, each on a thread of its own;
   text printed that way. */
#ifndef PTX_UTIL_THREADS_H
#define PTX_UTIL_THREADS_H

#include <stddef.h>
#include "ptx/ptx.h"

/* The most threads ptx_each_thread starts (items past them run on the
   calling thread), and so the most a --jobs or jobs= may ask for. */
#define PTX_MAX_THREADS 256
/* The least text worth a thread of its own: a smaller part is parsed or
   printed faster than a thread starts. */
#define PTX_MIN_PART ((size_t)256 * 1024)
/* A large file is taken one piece at a time (emit/pieces.c,
   codegen/pieces.c), so that only a piece's tree is held: 64 KiB of it
   on one thread, whose tree (about nine times the text) a core's cache
   can hold.  Library modules of about 1 MB, where the process's own
   1.5 MB weighs most, peaked at up to 4.7 times the file in the round
   trip with pieces of 128 KiB, 3.9 with 64 (tools/library_bench.py), at
   0.7% more instructions.  With threads, each piece is taken by one of
   them (util/runs.h).  A file under two pieces is taken whole. */
#define PTX_PIECE ((size_t)64 << 10)
/* Plain codegen (codegen/pieces.c) holds the text and its Python, about
   3.2 times the file, from start to end (but the kernels' text, given
   back on one thread), which leaves its pieces less room: with 16 KiB a
   1 MB library module peaked at 5.9 times the file before its kernels'
   text was given back, where pieces of 64 KiB gave 7.8 and of 32 KiB
   6.7, at 2.6% more instructions than 64 KiB. */
#define PTX_CODEGEN_PIECE ((size_t)16 << 10)

/* Into how many parts of at least min_part bytes (0: 1) a text of `size`
   bytes is cut for `jobs` threads: 1, or 0, means not at all. */
unsigned ptx_parts(size_t size, unsigned jobs, size_t min_part);

/* Runs of consecutive items of about equal source size, at most `parts`:
   an item starts a new run when its offset is at least the offset where
   the run before began plus total / parts.  Ask ptx_cut_here of every item
   but the first, in order; the first begins run 0. */
typedef struct ptx_cut {
    size_t per, next;
    unsigned runs, most;
} ptx_cut;

ptx_cut ptx_cut_start(size_t total, unsigned parts);
int ptx_cut_here(ptx_cut *c, size_t offset);

/* A --jobs argument: a decimal from 1 to PTX_MAX_THREADS into *jobs, 0;
   anything else -1. */
int ptx_jobs_arg(const char *text, unsigned *jobs);

/* Calls fn(item i) for the n items of `size` bytes at `items`, each on a
   thread of its own, and returns when all have returned (size 0: every
   item is `items`, for n workers that take their work from one place).  This thread takes
   item 0, and any item whose thread could not be started, so that every
   item is done even where no thread starts. */
void ptx_each_thread(void *items, unsigned n, size_t size, void (*fn)(void *item));

/* All n bytes of file fd from its start into p, read in parts of at least
   PTX_MIN_PART bytes on up to `jobs` threads at once: the pages of p are
   faulted in and filled in parallel (12 MB read on one thread took 7 ms,
   a third of a 16-thread round trip).  1 when every byte came and the file
   ends there; 0 otherwise (a read failed, the file changed size). */
int ptx_read_threads(int fd, char *p, size_t n, unsigned jobs);
/* memcpy(p, src, n) the same way (a 12 MB text copied before its parse
   took a few ms of a 16-thread canonical check). */
void ptx_copy_threads(char *p, const char *src, size_t n, unsigned jobs);

/* Text printed in n parts at once: fn(part i, a buffer of its own) on a
   thread each, then the buffers appended to out in order (each thread
   copying its own to where the sizes before it put it).  The parts' text
   must not depend on one another's. */
void ptx_print_each_thread(void *parts, unsigned n, size_t size,
                           void (*fn)(void *part, ptx_buf *text), ptx_buf *out);

#endif
