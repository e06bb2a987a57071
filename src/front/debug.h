/*
 * front/debug.h - what in a module is debug data: the one rule that
 * pyptx-diff --ignore-debug (diff/units.c) and ptx_emit_nodebug
 * (pyptx-codegen --no-debug, emit/nodebug.c) share, so that what the one
 * ignores is exactly what the other drops.
 */
#ifndef PTX_FRONT_DEBUG_H
#define PTX_FRONT_DEBUG_H

#include "ptx/ptx.h"

/* 1 for a statement that only records debug information: .loc, .file,
   an @@DWARF line, a .section whose name starts with .debug_ (with
   everything in it). */
int ptx_debug_stmt(const ptx_module *m, const ptx_stmt *s);

/* The labels of a function body that only debug data uses: each label
   statement of the body (nested blocks and sections included, debug
   sections left out) whose name no token of the body's other statements
   spells, debug statements and labels left out (the debug sections that
   name $L__tmp0 or $L__func_begin0 stand at module level, so a label that
   no code names is one of them).  Appends the statements, as
   `const ptx_stmt *`, to *out in source order; returns how many. */
size_t ptx_debug_labels(const ptx_module *m, const ptx_block *body,
                        ptx_buf *out);

#endif
