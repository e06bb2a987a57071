/*
 * python/tree.c - read-only views of a parsed module: Module, Function
 * and Statement.  Lists are built when asked for, views are made fresh
 * each time (two views of one node compare by .line and .text, not by
 * identity), and texts come from the library's canonical printer, so what
 * Python reads is what pyptx-roundtrip --canonical prints.
 */
#include <string.h>
#include "pyptx_c.h"

/* Function and Statement: a node of a module, which the view keeps alive. */
typedef struct {
    PyObject_HEAD
    PtxModule *mod;
    const ptx_stmt *s;
} PtxView;

/* Statement.kind, by ptx_stmt_kind. */
static const char *const kind_names[] = {
    [PTX_S_VERSION] = "version", [PTX_S_TARGET] = "target",
    [PTX_S_ADDRESS_SIZE] = "address_size", [PTX_S_FILE] = "file", [PTX_S_LOC] = "loc",
    [PTX_S_PRAGMA] = "pragma", [PTX_S_ALIAS] = "alias", [PTX_S_DATA] = "data",
    [PTX_S_CALLTARGETS] = "calltargets", [PTX_S_BRANCHTARGETS] = "branchtargets",
    [PTX_S_SECTION] = "section", [PTX_S_DWARF] = "dwarf", [PTX_S_PREPROC] = "preproc",
    [PTX_S_VAR] = "var", [PTX_S_FUNC] = "function", [PTX_S_CALLPROTOTYPE] = "callprototype",
    [PTX_S_LABEL] = "label", [PTX_S_INSTR] = "instruction", [PTX_S_BLOCK] = "block",
};

static PyObject *tok_str(const ptx_module *m, ptx_tok t)
{
    if (t == PTX_NOTOK)
        Py_RETURN_NONE;
    return pyptx_str(m->src + m->toks[t].start, m->toks[t].len);
}

static PyObject *view_new(PyTypeObject *type, PtxModule *mod, const ptx_stmt *s)
{
    PtxView *v = PyObject_New(PtxView, type);
    if (v) {
        Py_INCREF(mod);
        v->mod = mod;
        v->s = s;
    }
    return (PyObject *)v;
}

static void view_dealloc(PtxView *v)
{
    Py_DECREF(v->mod);
    PyObject_Free(v);
}

/* The statements a node holds: a block's, a section's, a definition's. */
static const ptx_stmt *children(const ptx_stmt *s)
{
    switch (s->kind) {
    case PTX_S_BLOCK: return s->u.block.stmts;
    case PTX_S_SECTION: return s->u.section.body.stmts;
    case PTX_S_FUNC: return s->u.func.body ? s->u.func.body->stmts : NULL;
    default: return NULL;
    }
}

void pyptx_append(PyObject **l, PyObject *w)
{
    if (*l && (!w || PyList_Append(*l, w) < 0))
        Py_CLEAR(*l);
    Py_XDECREF(w);
}

/* A list's items as a tuple; the list is dropped. */
static PyObject *as_tuple(PyObject *l)
{
    PyObject *t = l ? PyList_AsTuple(l) : NULL;
    Py_XDECREF(l);
    return t;
}

/* The canonical text of each expression of a list. */
static PyObject *expr_texts(const ptx_module *m, const ptx_expr *e)
{
    PyObject *l = PyList_New(0);
    for (; l && e; e = e->next) {
        ptx_buf b = { 0 };
        pyptx_append(&l, ptx_emit_expr(m, e, &b) ? PyErr_NoMemory() : pyptx_str(b.p, b.n));
        ptx_buf_free(&b);
    }
    return l;
}

static PyObject *stmt_list(PtxModule *mod, const ptx_stmt *s)
{
    PyObject *l = PyList_New(0);
    for (; l && s; s = s->next)
        pyptx_append(&l, view_new(&PtxStatement_Type, mod, s));
    return l;
}

/* Every instruction under s and its followers, in source order, onto *l. */
static void add_instructions(PtxModule *mod, const ptx_stmt *s, PyObject **l)
{
    for (; *l && s; s = s->next) {
        if (s->kind == PTX_S_INSTR)
            pyptx_append(l, view_new(&PtxStatement_Type, mod, s));
        else if (children(s))
            add_instructions(mod, children(s), l);
    }
}

static PyObject *instruction_list(PtxModule *mod, const ptx_stmt *first)
{
    PyObject *l = PyList_New(0);
    add_instructions(mod, first, &l);
    return l;
}

/* ---- locations -------------------------------------------------------------- */

static int line_index(PtxModule *mod)
{
    if (mod->lines)
        return 0;
    const ptx_module *m = mod->m;
    uint32_t n = 1;
    for (size_t i = 0; i < m->size; i++)
        n += m->src[i] == '\n';
    mod->lines = PyMem_Malloc(n * sizeof *mod->lines);
    if (!mod->lines) {
        PyErr_NoMemory();
        return -1;
    }
    mod->lines[0] = 0;
    for (uint32_t i = 0, k = 1; i < m->size; i++)
        if (m->src[i] == '\n')
            mod->lines[k++] = i + 1;
    mod->nlines = n;
    return 0;
}

/* 1-based line (col = 0) or byte column (col = 1) of node s. */
static PyObject *where(PtxView *v, int col)
{
    if (line_index(v->mod) < 0)
        return NULL;
    uint32_t off = v->mod->m->toks[v->s->first].start, lo = 0, hi = v->mod->nlines;
    while (hi - lo > 1) {               /* the last line start <= off */
        uint32_t mid = lo + (hi - lo) / 2;
        if (v->mod->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return PyLong_FromUnsignedLong(col ? off - v->mod->lines[lo] + 1 : lo + 1);
}

/* ---- Module ------------------------------------------------------------------ */

PyObject *pyptx_module_new(ptx_module *m)
{
    PtxModule *mod = PyObject_New(PtxModule, &PtxModule_Type);
    if (!mod) {
        ptx_module_free(m);
        return NULL;
    }
    mod->m = m;
    mod->lines = NULL;
    mod->nlines = 0;
    return (PyObject *)mod;
}

static void module_dealloc(PtxModule *mod)
{
    ptx_module_free(mod->m);
    PyMem_Free(mod->lines);
    PyObject_Free(mod);
}

static PyObject *print(PtxModule *mod, int canonical)
{
    ptx_buf out = { 0 };
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = canonical ? ptx_emit_canonical(mod->m, &out) : ptx_emit_exact(mod->m, &out);
    Py_END_ALLOW_THREADS
    PyObject *s = rc ? PyErr_NoMemory() : pyptx_str(out.p, out.n);
    ptx_buf_free(&out);
    return s;
}

static PyObject *module_emit(PtxModule *mod, PyObject *unused) { return print(mod, 0); }
static PyObject *module_canonical(PtxModule *mod, PyObject *unused) { return print(mod, 1); }

static PyObject *module_instructions(PtxModule *mod, PyObject *unused)
{
    return instruction_list(mod, mod->m->items);
}

/* The definitions and declarations of kind kw (PTX_T_ENTRY or PTX_T_FUNC). */
static PyObject *functions_of(PtxModule *mod, uint32_t kw)
{
    PyObject *l = PyList_New(0);
    for (const ptx_stmt *s = mod->m->items; l && s; s = s->next) {
        if (s->kind == PTX_S_FUNC && mod->m->toks[s->u.func.kw].kind == kw)
            pyptx_append(&l, view_new(&PtxFunction_Type, mod, s));
    }
    return l;
}

static PyObject *module_entries(PtxModule *mod, void *c) { return functions_of(mod, PTX_T_ENTRY); }
static PyObject *module_functions(PtxModule *mod, void *c) { return functions_of(mod, PTX_T_FUNC); }
static PyObject *module_statements(PtxModule *mod, void *c) { return stmt_list(mod, mod->m->items); }
static PyObject *module_filename(PtxModule *mod, void *c)
{
    return PyUnicode_DecodeFSDefault(mod->m->filename);
}

/* The arguments of the first module directive of this kind, as words. */
static PyObject *directive_args(PtxModule *mod, uint32_t kind)
{
    for (const ptx_stmt *s = mod->m->items; s; s = s->next)
        if (s->kind == kind)
            return expr_texts(mod->m, s->u.dir.args);
    return PyList_New(0);
}

static PyObject *module_version(PtxModule *mod, void *c)
{
    PyObject *l = directive_args(mod, PTX_S_VERSION), *v = NULL;
    if (l && PyList_GET_SIZE(l) == 1) {
        v = PyList_GET_ITEM(l, 0);
        Py_INCREF(v);
    } else if (l) {
        v = Py_None;
        Py_INCREF(v);
    }
    Py_XDECREF(l);
    return v;
}

static PyObject *module_target(PtxModule *mod, void *c)
{
    return as_tuple(directive_args(mod, PTX_S_TARGET));
}

static PyObject *module_repr(PtxModule *mod)
{
    return PyUnicode_FromFormat("<pyptx_c.Module %s, %zu bytes>", mod->m->filename,
                                mod->m->size);
}

static PyMethodDef module_methods[] = {
    { "emit", (PyCFunction)module_emit, METH_NOARGS,
      "emit() -> str: the input, byte for byte, printed from the tree." },
    { "canonical", (PyCFunction)module_canonical, METH_NOARGS,
      "canonical() -> str: one fixed layout, comments dropped, the same tokens." },
    { "instructions", (PyCFunction)module_instructions, METH_NOARGS,
      "instructions() -> list[Statement]: every instruction of the module, in order." },
    { NULL, NULL, 0, NULL }
};

static PyGetSetDef module_getset[] = {
    { "filename", (getter)module_filename, NULL, "the name given to parse()", NULL },
    { "statements", (getter)module_statements, NULL, "the module's top-level statements", NULL },
    { "entries", (getter)module_entries, NULL, ".entry definitions and declarations", NULL },
    { "functions", (getter)module_functions, NULL, ".func definitions and declarations", NULL },
    { "version", (getter)module_version, NULL, "the .version, e.g. '8.5', or None", NULL },
    { "target", (getter)module_target, NULL, "the .target words, e.g. ('sm_90a',)", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject PtxModule_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pyptx_c.Module",
    .tp_basicsize = sizeof(PtxModule),
    .tp_dealloc = (destructor)module_dealloc,
    .tp_repr = (reprfunc)module_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A parsed PTX module (pyptx_c.parse).  Read-only.",
    .tp_methods = module_methods,
    .tp_getset = module_getset,
};

/* ---- Function ------------------------------------------------------------------ */

static const ptx_func *fn(PtxView *v) { return &v->s->u.func; }

static PyObject *function_name(PtxView *v, void *c) { return tok_str(v->mod->m, fn(v)->name); }
static PyObject *function_kind(PtxView *v, void *c)
{
    return PyUnicode_FromString(v->mod->m->toks[fn(v)->kw].kind == PTX_T_ENTRY ? "entry" : "func");
}
static PyObject *function_is_definition(PtxView *v, void *c) { return PyBool_FromLong(fn(v)->body != NULL); }
static PyObject *function_statements(PtxView *v, void *c) { return stmt_list(v->mod, children(v->s)); }
static PyObject *function_instructions(PtxView *v, void *c) { return instruction_list(v->mod, children(v->s)); }
static PyObject *view_line(PtxView *v, void *c) { return where(v, 0); }
static PyObject *view_col(PtxView *v, void *c) { return where(v, 1); }

static PyObject *function_linking(PtxView *v, void *c)
{
    PyObject *l = PyList_New(0);
    for (const ptx_spec *sp = fn(v)->specs; l && sp; sp = sp->next)
        pyptx_append(&l, tok_str(v->mod->m, sp->tok));
    return as_tuple(l);
}

static PyObject *function_params(PtxView *v, void *c)
{
    PyObject *l = PyList_New(0);
    const ptx_param_list *pl = fn(v)->params;
    for (const ptx_param *p = pl ? pl->params : NULL; l && p; p = p->next)
        pyptx_append(&l, tok_str(v->mod->m, p->decl ? p->decl->name : PTX_NOTOK));
    return l;
}

static PyObject *function_repr(PtxView *v)
{
    PyObject *name = function_name(v, NULL);
    PyObject *r = name ? PyUnicode_FromFormat("<pyptx_c.Function %s %S>",
                         v->mod->m->toks[fn(v)->kw].kind == PTX_T_ENTRY ? ".entry" : ".func",
                         name) : NULL;
    Py_XDECREF(name);
    return r;
}

static PyGetSetDef function_getset[] = {
    { "name", (getter)function_name, NULL, "the PTX name", NULL },
    { "kind", (getter)function_kind, NULL, "'entry' or 'func'", NULL },
    { "linking", (getter)function_linking, NULL, "linking directives, e.g. ('.visible',)", NULL },
    { "params", (getter)function_params, NULL, "parameter names, in order", NULL },
    { "is_definition", (getter)function_is_definition, NULL, "has a body", NULL },
    { "statements", (getter)function_statements, NULL, "the body's statements ([] if none)", NULL },
    { "instructions", (getter)function_instructions, NULL, "every instruction of the body", NULL },
    { "line", (getter)view_line, NULL, "1-based line of the header", NULL },
    { "col", (getter)view_col, NULL, "1-based byte column of the header", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject PtxFunction_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pyptx_c.Function",
    .tp_basicsize = sizeof(PtxView),
    .tp_dealloc = (destructor)view_dealloc,
    .tp_repr = (reprfunc)function_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An .entry or .func of a Module.",
    .tp_getset = function_getset,
};

/* ---- Statement -------------------------------------------------------------------- */

static const ptx_instr *instr(PtxView *v)
{
    return v->s->kind == PTX_S_INSTR ? &v->s->u.instr : NULL;
}

static PyObject *stmt_kind(PtxView *v, void *c)
{
    return PyUnicode_FromString(kind_names[v->s->kind]);
}

static PyObject *stmt_text(PtxView *v, void *c)
{
    ptx_buf b = { 0 };
    if (ptx_emit_stmt(v->mod->m, v->s, 0, &b)) {
        ptx_buf_free(&b);
        return PyErr_NoMemory();
    }
    while (b.n && (b.p[b.n - 1] == '\n'))
        b.n--;
    PyObject *s = pyptx_str(b.p, b.n);
    ptx_buf_free(&b);
    return s;
}

static PyObject *stmt_statements(PtxView *v, void *c) { return stmt_list(v->mod, children(v->s)); }

static PyObject *stmt_name(PtxView *v, void *c)
{
    if (v->s->kind == PTX_S_LABEL)
        return tok_str(v->mod->m, v->s->u.label.name);
    if (v->s->kind == PTX_S_FUNC)
        return tok_str(v->mod->m, v->s->u.func.name);
    Py_RETURN_NONE;
}

static PyObject *stmt_function(PtxView *v, void *c)
{
    if (v->s->kind != PTX_S_FUNC)
        Py_RETURN_NONE;
    return view_new(&PtxFunction_Type, v->mod, v->s);
}

static PyObject *stmt_opcode(PtxView *v, void *c)
{
    const ptx_instr *in = instr(v);
    if (!in)
        Py_RETURN_NONE;
    return pyptx_str(in->opcode.p, in->opcode.n);
}

static PyObject *stmt_modifiers(PtxView *v, void *c)
{
    const ptx_instr *in = instr(v);
    PyObject *t = PyTuple_New(in ? in->nmods : 0);
    for (uint32_t i = 0; t && in && i < in->nmods; i++) {
        PyObject *w = pyptx_str(in->mods[i].p, in->mods[i].n);
        if (!w)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, w);
    }
    return t;
}

static PyObject *stmt_operands(PtxView *v, void *c)
{
    const ptx_instr *in = instr(v);
    return as_tuple(expr_texts(v->mod->m, in ? in->operands : NULL));
}

static PyObject *stmt_predicate(PtxView *v, void *c)
{
    const ptx_instr *in = instr(v);
    return tok_str(v->mod->m, in ? in->pred : PTX_NOTOK);
}

static PyObject *stmt_negated(PtxView *v, void *c)
{
    const ptx_instr *in = instr(v);
    return PyBool_FromLong(in && in->bang != PTX_NOTOK);
}

static PyObject *stmt_repr(PtxView *v)
{
    PyObject *t = stmt_text(v, NULL);
    PyObject *r = t ? PyUnicode_FromFormat("<pyptx_c.Statement %s %.60U>",
                                           kind_names[v->s->kind], t) : NULL;
    Py_XDECREF(t);
    return r;
}

static PyGetSetDef stmt_getset[] = {
    { "kind", (getter)stmt_kind, NULL,
      "'instruction', 'label', 'var', 'block', 'function', 'loc', 'section', ...", NULL },
    { "text", (getter)stmt_text, NULL, "canonical text (nested blocks included)", NULL },
    { "line", (getter)view_line, NULL, "1-based line of the first token", NULL },
    { "col", (getter)view_col, NULL, "1-based byte column of the first token", NULL },
    { "statements", (getter)stmt_statements, NULL,
      "nested statements of a block, section or function ([] otherwise)", NULL },
    { "name", (getter)stmt_name, NULL, "a label's or function's name, else None", NULL },
    { "function", (getter)stmt_function, NULL, "the Function of a 'function' statement", NULL },
    { "opcode", (getter)stmt_opcode, NULL, "an instruction's opcode ('ld'), else None", NULL },
    { "modifiers", (getter)stmt_modifiers, NULL, "('global', 'v4', 'u32'): no dots", NULL },
    { "operands", (getter)stmt_operands, NULL, "each operand's canonical text", NULL },
    { "predicate", (getter)stmt_predicate, NULL, "the guard register ('%p1'), or None", NULL },
    { "negated", (getter)stmt_negated, NULL, "the guard is @!", NULL },
    { NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject PtxStatement_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pyptx_c.Statement",
    .tp_basicsize = sizeof(PtxView),
    .tp_dealloc = (destructor)view_dealloc,
    .tp_repr = (reprfunc)stmt_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A statement of a Module: instruction, label, declaration, directive, block.",
    .tp_getset = stmt_getset,
};

int pyptx_tree_ready(PyObject *mod)
{
    PyTypeObject *types[] = { &PtxModule_Type, &PtxFunction_Type, &PtxStatement_Type };
    const char *names[] = { "Module", "Function", "Statement" };
    for (int i = 0; i < 3; i++)
        if (PyType_Ready(types[i]) < 0 ||
            PyModule_AddObjectRef(mod, names[i], (PyObject *)types[i]) < 0)
            return -1;
    return 0;
}
