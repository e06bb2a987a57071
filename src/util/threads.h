/* threads.h - one call of a function per item, each on a thread of its own;
   text printed that way. */
#ifndef PTX_UTIL_THREADS_H
#define PTX_UTIL_THREADS_H

#include <stddef.h>
#include "ptx/ptx.h"

/* The most threads ptx_each_thread starts (items past them run on the
   calling thread). */
#define PTX_MAX_THREADS 256

/* Calls fn(item i) for the n items of `size` bytes at `items`, each on a
   thread of its own, and returns when all have returned.  This thread takes
   item 0, and any item whose thread could not be started, so that every
   item is done even where no thread starts. */
void ptx_each_thread(void *items, unsigned n, size_t size, void (*fn)(void *item));

/* Text printed in n parts at once: fn(part i, a buffer of its own) on a
   thread each, then the buffers appended to out in order (each thread
   copying its own to where the sizes before it put it).  The parts' text
   must not depend on one another's. */
void ptx_print_each_thread(void *parts, unsigned n, size_t size,
                           void (*fn)(void *part, ptx_buf *text), ptx_buf *out);

#endif
