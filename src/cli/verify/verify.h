/*
 * cli/verify/verify.h - pyptx-codegen --verify: the generated Python,
 * traced by the pyptx installed, must give back the PTX; a kernel that
 * does not loses sugar passes, its own only, until it does.
 *
 * The checking and the choice of passes are python/pyptx_c/_verify.py
 * (the rules the tests apply, one copy), carried in the program as text
 * (cmake/embed.cmake) and run as one Python worker per file: it asks for
 * each candidate file by its per-kernel pass masks
 * (ptx_codegen_options.kernel_sugar), and this side generates it.  One
 * process checks every candidate, since pyptx is slow to import.
 */
#ifndef PTX_CLI_VERIFY_H
#define PTX_CLI_VERIFY_H

#include "ptx/codegen.h"

/* pyptx-codegen's exit status when --verify cannot check: no Python, no
   pyptx 0.1.1 in it, or a checker that stopped without a verdict. */
enum { VERIFY_EXIT_NO_PYPTX = 3 };

/* Python for m as o asks (o->sugar: the passes wanted), checked by the
   worker that `python` runs (NULL: $PYPTX_PYTHON, else python3 on PATH).
   Returns 0 with *py replaced by Python that traces back, after a line on
   standard error for each kernel that lost passes, which and why
   ("pyptx-codegen: FILE: kernel K: dropped passes a,b (why)"); else the
   exit status, its error printed: 1 when not even plain mode traces
   back, VERIFY_EXIT_NO_PYPTX.  `file` names the input in messages. */
int verify_codegen(const ptx_module *m, const ptx_codegen_options *o,
                   const char *python, const char *file, ptx_buf *py);

#endif
