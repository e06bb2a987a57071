/* memory.h - the programs' allocator policy. */
#ifndef PTX_UTIL_MEMORY_H
#define PTX_UTIL_MEMORY_H

/* Keep memory that a parsed module frees inside the process, for the next
   file, instead of returning it to the kernel and faulting it in again.
   Called by the programs (pyptx-roundtrip, pyptx-codegen, pyptx-diff, the
   benchmark), never by the library: it is process-wide. */
void ptx_keep_freed_memory(void);

#endif
