/* emit.h - the printers' shared walk, for the parallel printer. */
#ifndef PTX_EMIT_EMIT_H
#define PTX_EMIT_EMIT_H

#include "ptx/ptx.h"

/* Appends the text of the module items from `from` up to (not including)
   `to`; to == NULL: to the end, the end of the file included.  `after`:
   text of earlier items comes before out's (a group printed on a thread of
   its own), so that the canonical layout is the one printing them all in
   one buffer gives. */
void ptx_emit_items(const ptx_module *m, const ptx_stmt *from, const ptx_stmt *to,
                    int canonical, int after, ptx_buf *out);

/* ptx_emit_jobs with the smallest group given, in source bytes (tests cut
   small modules). */
void ptx_emit_split(const ptx_module *m, int canonical, unsigned jobs, size_t min_group,
                    ptx_buf *out);

#endif
