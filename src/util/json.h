/* json.h - the little JSON writing the tools' --json reports need. */
#ifndef PTX_UTIL_JSON_H
#define PTX_UTIL_JSON_H

#include "ptx/ptx.h"

/* Appends s as a JSON string literal (quotes included, bytes >= 0x80 that
   are not valid UTF-8 become U+FFFD so the report always parses). */
void json_string(ptx_buf *b, const char *s);
void json_string_n(ptx_buf *b, const char *s, size_t n);

#endif
