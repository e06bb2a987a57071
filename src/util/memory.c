/*
 * memory.c - the programs' allocator policy.
 *
 * A module's arena and token array are a few bytes per input byte, freed
 * when the file is done.  With glibc's defaults the large blocks are
 * mmap'ed and unmapped (or the heap trimmed) each time, so every file
 * pays a page fault per 4 KiB it touches: a tenth of the time of a run
 * over a directory of PTX, all of it in the kernel.
 */
#include <malloc.h>
#include "util/memory.h"

void ptx_keep_freed_memory(void)
{
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    /* 32 MiB: glibc's largest mmap threshold on 64-bit */
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}
