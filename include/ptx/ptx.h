/*
 * ptx/ptx.h - parse PTX into a lossless syntax tree and print it back.
 *
 *     ptx_diag d;
 *     ptx_module *m = ptx_parse_file("k.ptx", &d);
 *     if (!m) { ptx_diag_print(stderr, &d); return 1; }
 *     ptx_buf out = {0};
 *     ptx_emit_exact(m, &out);      // out.p[0..out.n) == the file's bytes
 *     ptx_buf_free(&out);
 *     ptx_module_free(m);
 *
 * No global state: modules are independent, and different threads may parse
 * and print different modules at the same time.
 *
 * Conventions of every header: a function that can fail returns a pointer
 * (NULL on failure) or an int (0, or -1 on failure) and says why in a
 * ptx_diag; a question returns 1 or 0 (ptx_diff_same, ptx_codegen_pieces:
 * done in pieces, or not); options come in `ptx_<what>_options` structs;
 * the library prints nothing and never ends the process: where memory
 * runs out, the call fails with "out of memory" (a function whose only
 * failure that is, a printer, returns -1 with no ptx_diag).
 */
#ifndef PTX_PTX_H
#define PTX_PTX_H

#include <stdio.h>
#include "ptx/ast.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PTX_VERSION_STRING "0.1.0"

/* Inputs larger than this are refused with a diagnostic (token offsets are
   32-bit). */
#define PTX_MAX_INPUT ((size_t)0x7fffffff)
/* Deepest nesting of { } blocks and of bracketed expressions. */
#define PTX_MAX_DEPTH 1000

/* The message of every call that fails because memory ran out. */
#define PTX_OUT_OF_MEMORY "out of memory"

/* A diagnostic: where and what.  `line_text` holds (a prefix of) the
   offending source line so that the caller can show it with a caret. */
typedef struct ptx_diag {
    char file[512];
    uint32_t line, col;     /* 1-based; col counts bytes */
    size_t offset;
    char msg[256];
    char line_text[256];
    uint32_t caret;         /* column of the caret inside line_text (0-based) */
} ptx_diag;

/* Parse `size` bytes at `data` (copied; `data` need not be NUL-terminated).
   `name` is used in diagnostics and kept in the module.  On error returns
   NULL and fills *diag (if non-NULL). */
ptx_module *ptx_parse_buffer(const char *name, const char *data, size_t size,
                             ptx_diag *diag);
/* Read and parse a file; "-" reads standard input. */
ptx_module *ptx_parse_file(const char *path, ptx_diag *diag);
/* The same on up to `jobs` threads: a module of 512 KiB or more is cut
   at top-level boundaries (ptx_cut_after) and its pieces lexed and parsed
   at once (a regular file that large is read on the threads too).  The
   tree, and any diagnostic, are those of the serial parse. */
ptx_module *ptx_parse_buffer_jobs(const char *name, const char *data, size_t size,
                                  unsigned jobs, ptx_diag *diag);
ptx_module *ptx_parse_file_jobs(const char *path, unsigned jobs, ptx_diag *diag);
void ptx_module_free(ptx_module *m);
/* Where those pieces are cut: the first offset at or after `at` that
   follows a '}' standing at the start of a line or a ';' ending one, with
   blank space and // comments and then a top-level directive (.visible,
   .entry, .func, .global, .section, ...) after it; `size` if there is
   none.  The scan does not
   know comments or strings, so a piece may start inside one: pieces that
   each lex and parse as modules of their own, though, are together the
   whole module's items, token for token. */
size_t ptx_cut_after(const char *src, size_t size, size_t at);

/* Print "file:line:col: error: msg", the source line and a caret; for a
   diagnostic of line 0 (an error with no place in a source, as the diff,
   tree and JIT functions report), "file: error: msg", or "error: msg"
   without a file.  Every function of the API that reports an error
   reports it so. */
void ptx_diag_print(FILE *f, const ptx_diag *d);

/* Fill a diagnostic for byte `offset` of module m. */
void ptx_diag_at(const ptx_module *m, size_t offset, const char *msg,
                 ptx_diag *d);

/* A growable output buffer: start it zeroed, free it with ptx_buf_free.
   The functions that append return 0, or -1 where memory ran out (the
   buffer then holds what it held before the call). */
typedef struct ptx_buf {
    char *p;
    size_t n, cap;
} ptx_buf;

int ptx_buf_put(ptx_buf *b, const char *s, size_t n);
int ptx_buf_puts(ptx_buf *b, const char *s);
int ptx_buf_putc(ptx_buf *b, char c);
int ptx_buf_printf(ptx_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ptx_buf_free(ptx_buf *b);

/* The printers append to *out and return 0, or -1 where memory ran out
   (out->n then as it was). */

/* The input, byte for byte, rebuilt from the tree and token trivia. */
int ptx_emit_exact(const ptx_module *m, ptx_buf *out);
/* One deterministic nvcc-like layout; comments dropped; same tokens. */
int ptx_emit_canonical(const ptx_module *m, ptx_buf *out);
/* Either text (canonical = 0 or 1) printed on up to `jobs` threads, in
   groups of top-level items (a module of 512 KiB or more): the same bytes
   as the two above. */
int ptx_emit_jobs(const ptx_module *m, int canonical, unsigned jobs, ptx_buf *out);

/* The input without its debug data and otherwise byte for byte: .loc,
   .file, @@DWARF lines, .section .debug_* and the labels of a function
   that no code refers to (what pyptx-diff --ignore-debug ignores), each
   with the blanks beside it, and the whole line, with a // comment that
   ends it, where nothing else stands on it; and the lines that hold only
   a // comment, with the blank lines before the first line of code and
   after the last (no token: pyptx-diff never compares comments).
   pyptx-codegen --no-debug translates this text. */
int ptx_emit_nodebug(const ptx_module *m, ptx_buf *out);

/* Print the exact (canonical = 0) or canonical (canonical = 1) text to f.
   Returns 0, or -1 if writing failed or memory ran out. */
int ptx_write(const ptx_module *m, int canonical, FILE *f);

/* Append the spelling of a single token (no trivia). */
int ptx_emit_token(const ptx_module *m, ptx_tok t, ptx_buf *out);
/* Canonical text of one expression / statement (no trailing newline for
   expressions; statements end with '\n' and are indented by `depth` tabs). */
int ptx_emit_expr(const ptx_module *m, const ptx_expr *e, ptx_buf *out);
int ptx_emit_stmt(const ptx_module *m, const ptx_stmt *s, int depth,
                  ptx_buf *out);

/* Compare the token sequences (kinds and spellings, trivia ignored) of two
   texts.  Returns 1 when equal, 0 when not (and sets *at_a / *at_b to the
   byte offsets of the first differing tokens), -1 when either text does not
   lex (diag filled). */
int ptx_same_tokens(const char *a, size_t na, const char *b, size_t nb,
                    size_t *at_a, size_t *at_b, ptx_diag *diag);
/* The same comparison of two parsed modules' tokens (no lexing): 1 or 0;
   the _jobs form compares parts of them on up to `jobs` threads. */
int ptx_same_module_tokens(const ptx_module *a, const ptx_module *b, size_t *at_a,
                           size_t *at_b);
int ptx_same_module_tokens_jobs(const ptx_module *a, const ptx_module *b, unsigned jobs,
                                size_t *at_a, size_t *at_b);

#ifdef __cplusplus
}
#endif
#endif
