/*
 * python/verify.c - ptx_to_python(verify=True): the Python traced by the
 * pyptx of this interpreter must give back the PTX; a kernel that does
 * not loses sugar passes, its own only, until it does, with a warning.
 *
 * The checking and the choice of passes are pyptx_c._verify.search, the
 * code pyptx-codegen --verify runs in a worker; here it runs in this
 * interpreter and calls back `gen`, which generates a candidate from the
 * parsed module with one pass mask per kernel
 * (ptx_codegen_options.kernel_sugar).
 */
#include "pyptx_c.h"
#include "ptx/codegen.h"

/* What gen needs, held by a capsule for as long as gen lives. */
typedef struct candidates {
    ptx_module *m;
    ptx_codegen_options o;
    PyObject *error;         /* PTXError */
} candidates;

static void candidates_free(PyObject *cap)
{
    candidates *c = PyCapsule_GetPointer(cap, "pyptx_c.candidates");
    ptx_module_free(c->m);
    PyMem_Free(c);
}

/* The masks as an array: NULL with n 0 for None (plain mode). */
static uint32_t *masks_of(PyObject *seq, size_t *n)
{
    *n = 0;
    if (seq == Py_None)
        return NULL;
    PyObject *fast = PySequence_Fast(seq, "masks must be a list of ints or None");
    if (!fast)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    uint32_t *v = PyMem_Malloc((size_t)(len ? len : 1) * sizeof *v);
    for (Py_ssize_t i = 0; v && i < len; i++) {
        v[i] = (uint32_t)PyLong_AsUnsignedLongMask(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            PyMem_Free(v);
            v = NULL;
        }
    }
    Py_DECREF(fast);
    *n = (size_t)len;
    return v ? v : (PyErr_Occurred() ? NULL : (uint32_t *)PyErr_NoMemory());
}

/* gen(masks) -> str: the candidate with masks[i] the passes of entry i,
   or plain mode for None. */
static PyObject *gen(PyObject *cap, PyObject *masks)
{
    candidates *c = PyCapsule_GetPointer(cap, "pyptx_c.candidates");
    ptx_codegen_options o = c->o;
    o.kernel_sugar = masks_of(masks, &o.nkernel_sugar);
    if (masks != Py_None && !o.kernel_sugar)
        return NULL;
    if (masks == Py_None)
        o.sugar = 0;
    ptx_buf out = { 0 };
    ptx_diag d;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = ptx_codegen(c->m, &o, &out, &d);
    Py_END_ALLOW_THREADS
    PyMem_Free((void *)o.kernel_sugar);
    PyObject *res = rc == 0 ? pyptx_str(out.p, out.n)
        : pyptx_raise_error(c->error, &d);
    ptx_buf_free(&out);
    return res;
}

static PyMethodDef gen_def = { "gen", gen, METH_O, "a candidate: gen(masks) -> str" };

static PyObject *pass_names(void)
{
    PyObject *l = PyList_New(0);
    for (unsigned i = 0; l && i < ptx_codegen_npasses(); i++)
        pyptx_append(&l, PyUnicode_FromString(ptx_codegen_pass_name(i)));
    return l;
}

/* A warning per note ("kernel K: dropped passes a,b (why)"); the Python,
   or NULL with an exception set. */
static PyObject *warn_notes(PyObject *found)
{
    PyObject *py = NULL, *notes = NULL;
    if (!PyArg_ParseTuple(found, "OO", &py, &notes))
        return NULL;
    PyObject *fast = PySequence_Fast(notes, "notes");
    for (Py_ssize_t i = 0; fast && i < PySequence_Fast_GET_SIZE(fast); i++) {
        const char *s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
        if (!s || PyErr_WarnFormat(PyExc_UserWarning, 1, "ptx_to_python(verify=True): %s",
                                   s) < 0) {
            Py_CLEAR(fast);
        }
    }
    if (!fast)
        return NULL;
    Py_DECREF(fast);
    return Py_NewRef(py);
}

/* NotFaithful, raised by search, as PTXError; any other error as it is. */
static void not_faithful(PyObject *v, PyObject *error)
{
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyObject *nf = PyObject_GetAttrString(v, "NotFaithful");
    PyObject *msg = nf && PyErr_GivenExceptionMatches(type, nf) && exc ? PyObject_Str(exc)
                                                                      : NULL;
    Py_XDECREF(nf);
    if (!msg) {
        PyErr_Restore(type, exc, tb);
        return;
    }
    PyErr_Format(error, "ptx_to_python(verify=True): %U", msg);
    Py_DECREF(msg);
    Py_XDECREF(type);
    Py_XDECREF(exc);
    Py_XDECREF(tb);
}

/* _verify.search(text, gen, passes, sugar, renamed), with a warning per
   kernel that lost passes. */
static PyObject *search(PyObject *v, PyObject *text, PyObject *g, const candidates *c)
{
    PyObject *names = pass_names();
    PyObject *found = names ? PyObject_CallMethod(v, "search", "OOOkO", text, g, names,
                                                  (unsigned long)c->o.sugar,
                                                  c->o.name ? Py_True : Py_False) : NULL;
    Py_XDECREF(names);
    if (!found)
        not_faithful(v, c->error);
    PyObject *res = found ? warn_notes(found) : NULL;
    Py_XDECREF(found);
    return res;
}

PyObject *pyptx_verified(ptx_module *m, const ptx_codegen_options *o, PyObject *text,
                         PyObject *error)
{
    PyObject *v = PyImport_ImportModule("pyptx_c._verify");
    PyObject *ok = v ? PyObject_CallMethod(v, "require_pyptx", "s",
                                                   "ptx_to_python(verify=True)") : NULL;
    candidates *c = ok ? PyMem_Malloc(sizeof *c) : NULL;
    PyObject *cap = c ? PyCapsule_New(c, "pyptx_c.candidates", candidates_free) : NULL;
    if (!cap) {   /* the module is the capsule's to free once it holds it */
        if (ok && !c)
            PyErr_NoMemory();
        PyMem_Free(c);
        ptx_module_free(m);
        Py_XDECREF(ok);
        Py_XDECREF(v);
        return NULL;
    }
    Py_DECREF(ok);
    *c = (candidates){ m, *o, error };
    c->o.stats = NULL;
    PyObject *g = PyCFunction_New(&gen_def, cap);
    Py_DECREF(cap);
    PyObject *res = g ? search(v, text, g, c) : NULL;
    Py_XDECREF(g);
    Py_DECREF(v);
    return res;
}
