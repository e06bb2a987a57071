/*
 * python/trees.c - pyptx_c._core.diff_trees: pyptx-diff's tree mode over
 * two lists of paths (the package's diff_trees walks directories first).
 */
#include "pyptx_c.h"
#include "ptx/diff.h"

/* The paths of a sequence of str or os.PathLike, as UTF-8 bytes kept in
   *keep (a list that holds them alive): a malloc'ed array of n, or NULL
   with an exception set. */
static const char **paths_of(PyObject *seq, PyObject *keep, size_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "expected a list of paths");
    if (!fast)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    const char **v = PyMem_Calloc((size_t)len + 1, sizeof *v);
    for (Py_ssize_t i = 0; v && i < len; i++) {
        PyObject *b = NULL;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(fast, i), &b) ||
            PyList_Append(keep, b) < 0) {
            Py_XDECREF(b);
            PyMem_Free(v);
            v = NULL;
            break;
        }
        v[i] = PyBytes_AS_STRING(b);
        Py_DECREF(b);
    }
    Py_DECREF(fast);
    if (!v && !PyErr_Occurred())
        PyErr_NoMemory();
    *n = (size_t)len;
    return v;
}

static int format_of(const char *name, ptx_tree_format *f)
{
    static const char *const names[] = { "unified", "stat", "json", "markdown" };
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *f = (ptx_tree_format)i;
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "format must be 'unified', 'stat', 'json' or 'markdown'");
    return -1;
}

/* The report, with the GIL released: NULL (and err) where the trees
   cannot be compared or the compiler cannot run. */
static int report(const char **pa, size_t na, const char **pb, size_t nb,
                  const ptx_diff_options *o, ptx_tree_format f, const ptx_measure_options *mo,
                  int resources, ptx_buf *out, char *err, size_t errn)
{
    ptx_tree_file *fa = ptx_tree_load(pa, na, o->jobs), *fb = ptx_tree_load(pb, nb, o->jobs);
    ptx_diag d = { .msg = "" };
    ptx_tree_diff *t = fa && fb ? ptx_diff_trees(fa, na, fb, nb, o, &d) : NULL;
    ptx_res *res = t && resources ? ptx_tree_measure(t, mo, &d) : NULL;
    int ok = t && (!resources || res);
    if (ok && ptx_tree_print(t, f, res, out) != 0) {
        ok = 0;
        snprintf(d.msg, sizeof d.msg, PTX_OUT_OF_MEMORY);
    }
    snprintf(err, errn, "%s", !fa || !fb ? PTX_OUT_OF_MEMORY : d.msg);
    ptx_res_free(res, t ? ptx_tree_nkernels(t) : 0);
    ptx_tree_free(t);
    ptx_tree_files_free(fa, na);
    ptx_tree_files_free(fb, nb);
    return ok ? 0 : -1;
}

PyObject *pyptx_diff_trees(PyObject *mod, PyObject *args, PyObject *kw, PyObject *error)
{
    static char *names[] = { "a", "b", "ignore_debug", "ignore_labels", "ignore_names",
                             "ignore_regs", "context", "format", "resources", "jit",
                             "ptxas", "jobs", NULL };
    PyObject *a, *b;
    int dbg = 0, labels = 0, nm = 0, regs = 0, context = 3, resources = 0, jit = 0, jobs = 2;
    const char *format = "unified", *ptxas = NULL;
    (void)mod;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$ppppisppzi:diff_trees", names, &a, &b,
                                     &dbg, &labels, &nm, &regs, &context, &format, &resources,
                                     &jit, &ptxas, &jobs))
        return NULL;
    ptx_tree_format f;
    if (format_of(format, &f) < 0)
        return NULL;
    if (context < 0 || jobs < 1 || jobs > 256)
        return PyErr_Format(PyExc_ValueError, "context must be >= 0 and jobs 1..256");
    PyObject *keep = PyList_New(0), *res = NULL;
    size_t na = 0, nb = 0;
    const char **pa = keep ? paths_of(a, keep, &na) : NULL;
    const char **pb = pa ? paths_of(b, keep, &nb) : NULL;
    if (pb) {
        ptx_diff_options o = { .context = context, .jobs = (unsigned)jobs };
        o.flags = (dbg ? PTX_DIFF_IGNORE_DEBUG : 0) | (labels ? PTX_DIFF_IGNORE_LABELS : 0) |
                  (nm ? PTX_DIFF_IGNORE_NAMES : 0) | (regs ? PTX_DIFF_IGNORE_REGS : 0);
        ptx_measure_options mo = { ptxas, jit, (unsigned)jobs };
        ptx_buf out = { 0 };
        char err[512] = "";
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = report(pa, na, pb, nb, &o, f, &mo, resources || jit, &out, err, sizeof err);
        Py_END_ALLOW_THREADS
        if (rc == 0)
            res = pyptx_str(out.p ? out.p : "", out.n);
        else if (!strcmp(err, PTX_OUT_OF_MEMORY))
            PyErr_NoMemory();
        else
            PyErr_SetString(error, err);
        ptx_buf_free(&out);
    }
    PyMem_Free(pa);
    PyMem_Free(pb);
    Py_XDECREF(keep);
    return res;
}
