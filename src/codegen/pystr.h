/* pystr.h - Python string literals for the generated file. */
#ifndef PTX_CODEGEN_PYSTR_H
#define PTX_CODEGEN_PYSTR_H

#include <stddef.h>
#include "ptx/ptx.h"

/* The bytes s[0..n) escaped for the inside of a "..." literal. */
void py_escape(ptx_buf *out, const char *s, size_t n);
/* The same for a NUL-terminated string. */
void py_escape_cstr(ptx_buf *out, const char *s);
/* "..." */
void py_str(ptx_buf *out, const char *s, size_t n);
/* The same for a NUL-terminated string. */
void py_str_cstr(ptx_buf *out, const char *s);
/* "...", one literal per line: each '\n' but a last one ends a literal,
   and `between` (a newline and indentation) comes before the next. */
void py_lines(ptx_buf *out, const char *s, size_t n, const char *between);

#endif
