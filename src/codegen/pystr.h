/* pystr.h - Python string literals for the generated file. */
#ifndef PTX_CODEGEN_PYSTR_H
#define PTX_CODEGEN_PYSTR_H

#include <stddef.h>
#include "ptx/ptx.h"

/* The bytes s[0..n) escaped for the inside of a "..." literal. */
void py_escape(ptx_buf *out, const char *s, size_t n);

/* Plain bytes (copied as they are): printable ASCII but '\\' and '"'. */
static inline int py_plain(unsigned c)
{
    return c >= 0x20 && c < 0x7f && c != '\\' && c != '"';
}
/* "..." */
void py_str(ptx_buf *out, const char *s, size_t n);

#endif
