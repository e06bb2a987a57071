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
   item is done even where no thread starts.  Each call runs under
   ptx_protect (util/alloc.h): returns how many unwound, having run out of
   memory (what they allocated is for the caller to free, through the
   items). */
unsigned ptx_each_thread(void *items, unsigned n, size_t size, void (*fn)(void *item));

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
