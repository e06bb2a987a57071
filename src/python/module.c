/*
 * python/module.c - pyptx_c._core: ptx_to_python, parse, diff and the
 * errors they raise.  The GIL is released while libptx parses, prints,
 * generates and compares: the library keeps no global state, so threads
 * that each hold their own module run at once.
 */
#include <string.h>
#include "pyptx_c.h"
#include "ptx/codegen.h"
#include "ptx/diff.h"
#include "util/alloc.h"

static pyptx_state *state(PyObject *mod)
{
    return (pyptx_state *)PyModule_GetState(mod);
}

PyObject *pyptx_str(const char *p, size_t n)
{
    return PyUnicode_DecodeUTF8(p ? p : "", (Py_ssize_t)n, "surrogateescape");
}

PyObject *pyptx_raise_error(PyObject *exc, const ptx_diag *d)
{
    if (!strcmp(d->msg, PTX_OUT_OF_MEMORY))
        return PyErr_NoMemory();
    return PyErr_Format(exc, "%s:%u:%u: error: %s", d->file, d->line, d->col, d->msg);
}

PyObject *pyptx_raise_diag(PyObject *exc, const ptx_diag *d)
{
    if (!strcmp(d->msg, PTX_OUT_OF_MEMORY))
        return PyErr_NoMemory();
    /* SyntaxError's offset counts characters of `text` from 1 */
    PyObject *text = pyptx_str(d->line_text, strlen(d->line_text));
    PyObject *before = text ? pyptx_str(d->line_text, d->caret) : NULL;
    PyObject *e = NULL;
    if (before)
        e = PyObject_CallFunction(exc, "s(sInO)", d->msg, d->file, (unsigned)d->line,
                                  PyUnicode_GetLength(before) + 1, text);
    if (e) {
        PyErr_SetObject(exc, e);
        Py_DECREF(e);
    }
    Py_XDECREF(before);
    Py_XDECREF(text);
    return NULL;
}

/* The bytes of a str (UTF-8, lone surrogates back to their bytes) or of a
   bytes-like object; *keep holds them while they are used. */
static int source_bytes(PyObject *src, const char **p, Py_ssize_t *n, PyObject **keep)
{
    if (PyUnicode_Check(src)) {
        *keep = PyUnicode_AsEncodedString(src, "utf-8", "surrogateescape");
        if (!*keep)
            return -1;
    } else if (PyBytes_Check(src)) {
        Py_INCREF(src);
        *keep = src;
    } else {
        *keep = PyBytes_FromObject(src);
        if (!*keep) {
            PyErr_Format(PyExc_TypeError, "PTX source must be str or bytes, not %.100s",
                         Py_TYPE(src)->tp_name);
            return -1;
        }
    }
    *p = PyBytes_AS_STRING(*keep);
    *n = PyBytes_GET_SIZE(*keep);
    return 0;
}

/* Parse without the GIL, on up to `jobs` threads; NULL with PTXSyntaxError
   raised on failure. */
static ptx_module *parse_bytes(PyObject *mod, const char *p, Py_ssize_t n,
                               const char *name, unsigned jobs)
{
    ptx_diag d;
    ptx_module *m;
    Py_BEGIN_ALLOW_THREADS
    m = ptx_parse_buffer_jobs(name, p, (size_t)n, jobs, &d);
    Py_END_ALLOW_THREADS
    if (!m)
        pyptx_raise_diag(state(mod)->syntax_error, &d);
    return m;
}

static ptx_module *parse_source(PyObject *mod, PyObject *src, const char *name,
                                unsigned jobs)
{
    const char *p;
    Py_ssize_t n;
    PyObject *keep;
    if (source_bytes(src, &p, &n, &keep) < 0)
        return NULL;
    ptx_module *m = parse_bytes(mod, p, n, name, jobs);
    Py_DECREF(keep);
    return m;
}

/* jobs=N: 1 .. 256 threads, as the programs' --jobs. */
static int jobs_arg(int jobs)
{
    if (jobs >= 1 && jobs <= 256)
        return 0;
    PyErr_SetString(PyExc_ValueError, "jobs must be 1 to 256");
    return -1;
}

static PyObject *py_parse(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *names[] = { "text", "name", "jobs", NULL };
    PyObject *src;
    const char *name = "<string>";
    int jobs = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|s$i:parse", names, &src, &name, &jobs) ||
        jobs_arg(jobs) < 0)
        return NULL;
    ptx_module *m = parse_source(mod, src, name, (unsigned)jobs);
    return m ? pyptx_module_new(m) : NULL;
}

/* ---- ptx_to_python -------------------------------------------------------- */

static int entry_definitions(const ptx_module *m)
{
    int n = 0;
    for (const ptx_stmt *s = m->items; s; s = s->next)
        if (s->kind == PTX_S_FUNC && s->u.func.body &&
            m->toks[s->u.func.kw].kind == PTX_T_ENTRY)
            n++;
    return n;
}

/* sugar: False / True (every pass) or "name,name" (those passes). */
static int sugar_mask(PyObject *sugar, uint32_t *mask)
{
    if (PyBool_Check(sugar) || sugar == Py_None) {
        *mask = sugar == Py_True ? UINT32_MAX : 0;
        return 0;
    }
    const char *s = PyUnicode_Check(sugar) ? PyUnicode_AsUTF8(sugar) : NULL;
    if (!s) {
        PyErr_SetString(PyExc_TypeError, "sugar must be a bool or a string of pass names");
        return -1;
    }
    *mask = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), s);
        uint32_t bit = ptx_codegen_pass_bit(name);
        if (!bit) {
            PyErr_Format(PyExc_ValueError, "unknown sugar pass '%s'", name);
            return -1;
        }
        *mask |= bit;
        s += n + (s[n] == ',');
    }
    return 0;
}

/* debug=False: the source without its debug data (ptx_emit_nodebug) into
   *filt, and *p, *n made to point at it; -1 with PTXSyntaxError raised
   where the source does not parse. */
static int drop_debug(PyObject *mod, const char **p, Py_ssize_t *n, unsigned jobs,
                      ptx_buf *filt)
{
    ptx_module *m = parse_bytes(mod, *p, *n, "<string>", jobs);
    if (!m)
        return -1;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ptx_emit_nodebug(m, filt);
    ptx_module_free(m);
    Py_END_ALLOW_THREADS
    if (rc) {
        PyErr_NoMemory();
        return -1;
    }
    *p = filt->p ? filt->p : "";
    *n = (Py_ssize_t)filt->n;
    return 0;
}

/* The Python for module m (freed here), whole: *out, else NULL with
   PTXError raised. */
static PyObject *generate_whole(PyObject *mod, ptx_module *m, const ptx_codegen_options *o)
{
    ptx_buf out = { 0 };
    ptx_diag d;
    int rc;
    PyObject *res = NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = ptx_codegen(m, o, &out, &d);
    ptx_module_free(m);
    Py_END_ALLOW_THREADS
    if (rc == 0)
        res = pyptx_str(out.p, out.n);
    else
        pyptx_raise_error(state(mod)->error, &d);
    ptx_buf_free(&out);
    return res;
}

static PyObject *py_ptx_to_python(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *names[] = { "source", "sugar", "kernel_name", "jobs", "verify", "debug",
                             NULL };
    PyObject *src, *sugar = Py_False;
    const char *kernel_name = NULL;
    int jobs = 1, verify = 0, debug = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$Ozipp:ptx_to_python", names, &src, &sugar,
                                     &kernel_name, &jobs, &verify, &debug) ||
        jobs_arg(jobs) < 0)
        return NULL;
    ptx_codegen_options o = { .srcname = "<string>", .jobs = (unsigned)jobs };
    if (sugar_mask(sugar, &o.sugar) < 0)
        return NULL;
    const char *p;
    Py_ssize_t n;
    PyObject *keep, *res = NULL;
    if (source_bytes(src, &p, &n, &keep) < 0)
        return NULL;
    ptx_buf out = { 0 }, filt = { 0 };    /* filt: the text without debug data */
    int ok = 0;
    if (!debug && drop_debug(mod, &p, &n, o.jobs, &filt) < 0) {
        Py_DECREF(keep);
        return NULL;
    }
    /* a large text a piece at a time, as pyptx-codegen translates a large
       file; else (kernel_name, and where a piece fails) whole */
    if (!verify && !(o.sugar && kernel_name)) {
        Py_BEGIN_ALLOW_THREADS
        ok = ptx_codegen_pieces(o.srcname, p, (size_t)n, 0, &o, &out);
        Py_END_ALLOW_THREADS
    }
    ptx_module *m = ok ? NULL : parse_bytes(mod, p, n, "<string>", o.jobs);
    PyObject *text = m && verify ? pyptx_str(p, (size_t)n) : NULL;
    Py_DECREF(keep);
    ptx_buf_free(&filt);
    if (ok) {
        res = pyptx_str(out.p, out.n);
        ptx_buf_free(&out);
        return res;
    }
    if (!m)
        return NULL;
    /* pyptx.codegen names the kernel kernel_name when sugar is on; with
       one .entry only, since two entries of one name are not a module */
    if (o.sugar && kernel_name && entry_definitions(m) == 1)
        o.name = kernel_name;
    if (!verify)
        return generate_whole(mod, m, &o);
    /* the module goes with the candidates it makes */
    res = text ? pyptx_verified(m, &o, text, state(mod)->error) : NULL;
    if (!text)
        ptx_module_free(m);
    Py_XDECREF(text);
    return res;
}

/* ---- diff ------------------------------------------------------------------ */

/* A Module as it is, or a source parsed under `name`; *owned is set when
   the caller must free the result. */
static const ptx_module *diff_side(PyObject *mod, PyObject *x, const char *name,
                                   ptx_module **owned)
{
    *owned = NULL;
    if (PyObject_TypeCheck(x, &PtxModule_Type))
        return ((PtxModule *)x)->m;
    return *owned = parse_source(mod, x, name, 1);
}

static PyObject *py_diff(PyObject *mod, PyObject *args, PyObject *kw)
{
    static char *names[] = { "a", "b", "ignore_debug", "ignore_labels", "ignore_names",
                             "ignore_regs", "context", "format", "jobs", NULL };
    /* pyptx-diff's three reports, as its default, --stat and --json print them */
    static const struct { const char *name; int (*print)(const ptx_diff *, ptx_buf *); }
        formats[] = { { "unified", ptx_diff_print_unified }, { "stat", ptx_diff_print_stat },
                      { "json", ptx_diff_print_json } };
    PyObject *a, *b;
    int dbg = 0, labels = 0, nm = 0, regs = 0, context = 3, jobs = 2;
    const char *format = "unified";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$ppppisi:diff", names, &a, &b, &dbg, &labels,
                                     &nm, &regs, &context, &format, &jobs) ||
        jobs_arg(jobs) < 0)
        return NULL;
    if (context < 0)
        return PyErr_Format(PyExc_ValueError, "context must be >= 0");
    int (*print)(const ptx_diff *, ptx_buf *) = NULL;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (!strcmp(format, formats[i].name))
            print = formats[i].print;
    if (!print)
        return PyErr_Format(PyExc_ValueError, "format must be 'unified', 'stat' or 'json'");
    ptx_module *fa, *fb = NULL;
    const ptx_module *ma = diff_side(mod, a, "a", &fa), *mb = ma ? diff_side(mod, b, "b", &fb) : NULL;
    PyObject *res = NULL;
    if (ma && mb) {
        ptx_diff_options o = { .context = context, .jobs = (unsigned)jobs };
        o.flags = (dbg ? PTX_DIFF_IGNORE_DEBUG : 0) | (labels ? PTX_DIFF_IGNORE_LABELS : 0) |
                  (nm ? PTX_DIFF_IGNORE_NAMES : 0) | (regs ? PTX_DIFF_IGNORE_REGS : 0);
        ptx_diag err;
        ptx_buf out = { 0 };
        ptx_diff *d;
        int rc = -1;
        Py_BEGIN_ALLOW_THREADS
        d = ptx_diff_run(ma, mb, &o, &err);
        if (d)
            rc = print(d, &out);
        ptx_diff_free(d);
        Py_END_ALLOW_THREADS
        if (rc == 0)
            res = pyptx_str(out.p, out.n);
        else if (d)
            PyErr_NoMemory();
        else
            pyptx_raise_error(state(mod)->error, &err);
        ptx_buf_free(&out);
    }
    ptx_module_free(fa);
    ptx_module_free(fb);
    return res;
}

static PyObject *py_diff_trees(PyObject *mod, PyObject *args, PyObject *kw)
{
    return pyptx_diff_trees(mod, args, kw, state(mod)->error);
}

static PyObject *py_sugar_passes(PyObject *mod, PyObject *unused)
{
    PyObject *l = PyList_New(0);
    for (unsigned i = 0; l && i < ptx_codegen_npasses(); i++)
        pyptx_append(&l, Py_BuildValue("(ss)", ptx_codegen_pass_name(i),
                                       ptx_codegen_pass_help(i)));
    return l;
}

/* ---- the module ------------------------------------------------------------- */

PyDoc_STRVAR(parse_doc,
"parse(text, name='<string>', *, jobs=1) -> Module\n\n"
"Parse PTX (str or bytes) into a lossless syntax tree.  `name` appears in\n"
"diagnostics.  jobs=N parses a large module (512 KiB or more) in pieces on\n"
"N threads: the same tree.  Raises PTXSyntaxError with filename, lineno,\n"
"offset and text.");
PyDoc_STRVAR(ptx_to_python_doc,
"ptx_to_python(source, *, sugar=False, kernel_name=None, jobs=1, verify=False,\n"
"              debug=True) -> str\n\n"
"PTX to Python for the pyptx 0.1.1 DSL, a drop-in for\n"
"pyptx.codegen.ptx_to_python.  sugar=True runs every sugar pass (a string\n"
"'a,b' runs the named ones).  With sugar on and one .entry in the module,\n"
"kernel_name renames it, as pyptx's does; None keeps the PTX name.  jobs=N\n"
"parses and builds the kernels on N threads (and prints them so without\n"
"sugar): the same text.  debug=False drops the debug data first (.loc,\n"
".file, @@DWARF, .section .debug_*, the labels only they use, comment\n"
"lines), as\n"
"pyptx-codegen --no-debug: the result traces back to the source up to\n"
"diff(..., ignore_debug=True).\n"
"verify=True traces the result with this interpreter's pyptx (0.1.1) and\n"
"checks that every kernel and the module give back the PTX; a kernel that\n"
"does not loses sugar passes, its own only, until it does, with a\n"
"UserWarning saying which and why.  Raises ImportError without pyptx 0.1.1.\n"
"Raises PTXSyntaxError on PTX that does not parse, PTXError on PTX that\n"
"parses but cannot be generated (or, verified, not even plain traces back).");
PyDoc_STRVAR(diff_doc,
"diff(a, b, *, ignore_debug=False, ignore_labels=False, ignore_names=False,\n"
"     ignore_regs=False, context=3, format='unified', jobs=2) -> str\n\n"
"Structural diff of two modules (Module objects or PTX sources), as the\n"
"text pyptx-diff prints: format 'unified' ('' when they are the same),\n"
"'stat' (its --stat) or 'json' (its --json).  jobs=N compares on N threads,\n"
"cut by function (sources are parsed on one): the same text.");
PyDoc_STRVAR(diff_trees_doc,
"diff_trees(a, b, *, ignore_debug=False, ignore_labels=False, ignore_names=False,\n"
"           ignore_regs=False, context=3, format='unified', resources=False,\n"
"           jit=False, ptxas=None, jobs=2) -> str\n\n"
"pyptx-diff's tree mode over two lists of PTX file paths: kernels pair by\n"
"name, an autotuner's variants by the FILE.json beside them and by\n"
"similarity; the report as pyptx-diff prints it for --format F\n"
"('unified', 'stat', 'json', 'markdown').  resources=True adds each\n"
"differing kernel's figures (registers, spills, stack, shared, local and\n"
"constant memory, SASS instructions), compiled by ptxas (ptxas=PATH, or\n"
"$PTXAS, PATH, /usr/local/cuda/bin) or, jit=True, the CUDA driver.  Raises\n"
"PTXError where the compiler cannot be run at all.");
PyDoc_STRVAR(passes_doc, "sugar_passes() -> list of (name, help), in the order they run.");

#ifdef PTX_FAULTS
/* The allocation-failure hook of a -DPTX_FAULTS=ON build (util/alloc.h),
   for tests/faults/python_sweep.py; absent from every other build. */
static PyObject *py_fault_after(PyObject *mod, PyObject *n)
{
    (void)mod;
    long v = PyLong_AsLong(n);
    if (v == -1 && PyErr_Occurred())
        return NULL;
    ptx_fault_after(v);
    Py_RETURN_NONE;
}

static PyObject *py_fault_count(PyObject *mod, PyObject *unused)
{
    (void)mod, (void)unused;
    return PyLong_FromLong(ptx_fault_count());
}
#endif

static PyMethodDef functions[] = {
    { "parse", (PyCFunction)(void (*)(void))py_parse, METH_VARARGS | METH_KEYWORDS, parse_doc },
    { "ptx_to_python", (PyCFunction)(void (*)(void))py_ptx_to_python,
      METH_VARARGS | METH_KEYWORDS, ptx_to_python_doc },
    { "diff", (PyCFunction)(void (*)(void))py_diff, METH_VARARGS | METH_KEYWORDS, diff_doc },
    { "diff_trees", (PyCFunction)(void (*)(void))py_diff_trees, METH_VARARGS | METH_KEYWORDS,
      diff_trees_doc },
    { "sugar_passes", py_sugar_passes, METH_NOARGS, passes_doc },
#ifdef PTX_FAULTS
    { "_fault_after", py_fault_after, METH_O, "tests/faults: the nth allocation fails" },
    { "_fault_count", py_fault_count, METH_NOARGS, "tests/faults: allocations made" },
#endif
    { NULL, NULL, 0, NULL }
};

static int exec_module(PyObject *mod)
{
    pyptx_state *st = state(mod);
    st->syntax_error = PyErr_NewExceptionWithDoc(
        "pyptx_c.PTXSyntaxError", "PTX that does not parse: filename, lineno, offset, text "
        "locate it.", PyExc_SyntaxError, NULL);
    st->error = PyErr_NewExceptionWithDoc(
        "pyptx_c.PTXError", "PTX that parses but cannot be done what was asked.",
        PyExc_ValueError, NULL);
    if (!st->syntax_error || !st->error ||
        PyModule_AddObjectRef(mod, "PTXSyntaxError", st->syntax_error) < 0 ||
        PyModule_AddObjectRef(mod, "PTXError", st->error) < 0 ||
        PyModule_AddStringConstant(mod, "__version__", PTX_VERSION_STRING) < 0)
        return -1;
    return pyptx_tree_ready(mod);
}

static int traverse(PyObject *mod, visitproc visit, void *arg)
{
    Py_VISIT(state(mod)->syntax_error);
    Py_VISIT(state(mod)->error);
    return 0;
}

static int clear(PyObject *mod)
{
    Py_CLEAR(state(mod)->syntax_error);
    Py_CLEAR(state(mod)->error);
    return 0;
}

static PyModuleDef_Slot slots[] = {
    { Py_mod_exec, exec_module },
    { 0, NULL }
};

static struct PyModuleDef def = {
    PyModuleDef_HEAD_INIT, "pyptx_c._core",
    "libptx for Python: parse, print, generate pyptx code and diff PTX.",
    sizeof(pyptx_state), functions, slots, traverse, clear, NULL
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModuleDef_Init(&def);
}
