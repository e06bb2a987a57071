/*
 * python/pyptx_c.h - the CPython extension pyptx_c._core over libptx.
 *
 * module.c holds the functions (ptx_to_python, parse, diff) and the
 * errors; verify.c ptx_to_python's verify=True; trees.c diff_trees; tree.c the read-only views of a parsed module (Module,
 * Function, Statement).  A view keeps its Module alive and points into
 * the module's arena, which never moves or changes after the parse, so
 * views need no bookkeeping of their own.
 */
#ifndef PYPTX_C_H
#define PYPTX_C_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "ptx/ptx.h"

/* The parsed module: owns the ptx_module.  `lines` (built on the first
   location asked for) holds the byte offset of each line's start. */
typedef struct {
    PyObject_HEAD
    ptx_module *m;
    uint32_t *lines;
    uint32_t nlines;
} PtxModule;

extern PyTypeObject PtxModule_Type, PtxFunction_Type, PtxStatement_Type;

/* The module's state: the exception types (one set per interpreter). */
typedef struct {
    PyObject *syntax_error;   /* PTXSyntaxError(SyntaxError) */
    PyObject *error;          /* PTXError(ValueError) */
} pyptx_state;

/* tree.c */
int pyptx_tree_ready(PyObject *mod);
PyObject *pyptx_module_new(ptx_module *m);

/* module.c: raise PTXSyntaxError from a parse diagnostic. */
PyObject *pyptx_raise_diag(PyObject *exc, const ptx_diag *d);
/* exc with "file:line:col: error: msg", or
   MemoryError where d says memory ran out. */
PyObject *pyptx_raise_error(PyObject *exc, const ptx_diag *d);
/* tree.c: every list is built the same way: append each new reference w
   (NULL when making it failed) to *l, which becomes NULL, with the error
   set, at the first failure; the loops run while *l. */
void pyptx_append(PyObject **l, PyObject *w);
/* A str from bytes the library printed (lossless for any byte). */
PyObject *pyptx_str(const char *p, size_t n);
/* verify.c: ptx_to_python(verify=True) of module m (taken: freed here)
   as o asks, `text` its source, `error` PTXError: the Python that traces
   back, with a UserWarning per kernel that lost sugar passes; NULL with
   ImportError when this interpreter has no pyptx 0.1.1, PTXError when
   not even plain mode traces back. */
struct ptx_codegen_options;
PyObject *pyptx_verified(ptx_module *m, const struct ptx_codegen_options *o,
                         PyObject *text, PyObject *error);

/* trees.c: diff_trees(a_paths, b_paths, ...), `error` PTXError. */
PyObject *pyptx_diff_trees(PyObject *mod, PyObject *args, PyObject *kw, PyObject *error);

#endif
