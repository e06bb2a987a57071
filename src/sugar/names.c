/*
 * sugar/names.c - pass "names": readable names for C++ mangled symbols.
 *
 *   kernel  _ZN3M1214matmulKernel12ILi128E...Pi  -> Python function
 *           matmulKernel12 (the PTX entry name is kept through
 *           `f.__name__ = "..."`; --rename-kernels puts the short name in
 *           the PTX too);
 *   params  _Z6add_opff_param_0                  -> param0 (PTX renamed:
 *           parameters are local names);
 *   module-level symbols used by the kernel (extern shared
 *           _ZN3M124smemE)                       -> Python alias
 *           smem = "_ZN3M124smemE" (global names must not change).
 *
 * Demangling uses libiberty's cplus_demangle (Itanium ABI), then keeps
 * the last component of the qualified name without template arguments.
 */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <libiberty/demangle.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

/* Short readable identifier for a mangled name; 0 if not mangled. */
static int short_name(const char *mangled, char *out, size_t cap)
{
    if (strncmp(mangled, "_Z", 2))
        return 0;
    char *d = cplus_demangle(mangled, DMGL_ANSI);
    if (!d)
        return 0;
    /* drop <...> and (...) groups, keep the text after the last "::" */
    size_t n = strlen(d), o = 0;
    char *flat = malloc(n + 1);
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = d[i];
        if (c == '<' || c == '(') {
            /* "operator<" etc.: give up on operators */
            depth++;
            continue;
        }
        if (c == '>' || c == ')') {
            if (depth)
                depth--;
            continue;
        }
        if (!depth)
            flat[o++] = c;
    }
    flat[o] = 0;
    free(d);
    const char *last = flat, *p = flat;
    while ((p = strstr(p, "::")) != NULL) {
        p += 2;
        last = p;
    }
    /* trailing " const", spaces */
    size_t k = 0;
    for (const char *q = last; *q && *q != ' ' && k + 1 < cap; q++) {
        char c = *q;
        int ok = c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
        out[k++] = ok ? c : '_';
    }
    out[k] = 0;
    free(flat);
    if (!k || strstr(out, "operator") == out)
        return 0;
    if (out[0] >= '0' && out[0] <= '9')
        return 0;
    return 1;
}

/* name, name_2, name_3 ... free as a PTX name in kernel k */
static const char *free_ptx(cg_module *m, const cg_kernel *k, const char *base)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", base);
    for (unsigned i = 2; !sg_ptx_name_free(m, k, buf) || !sg_py_name_free(m, k, buf); i++) {
        if (i > 1000)
            return NULL;
        snprintf(buf, sizeof buf, "%.240s_%u", base, i); /* room for the suffix */
    }
    return cg_strndup(m, buf, strlen(buf));
}

static const char *free_py(cg_module *m, const cg_kernel *k, const char *base)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", base);
    for (unsigned i = 2; !sg_py_name_free(m, k, buf); i++) {
        if (i > 1000)
            return NULL;
        snprintf(buf, sizeof buf, "%.240s_%u", base, i); /* room for the suffix */
    }
    return cg_strndup(m, buf, strlen(buf));
}

/* ---- module-level symbols: Python aliases --------------------------- */

typedef struct alias {
    const char *ptx, *py;
} alias;

typedef struct alias_set {
    alias *v;
    unsigned n, cap;
} alias_set;

static const char *alias_for(cg_module *m, cg_kernel *k, alias_set *as,
                             const char *ptx)
{
    for (unsigned i = 0; i < as->n; i++)
        if (!strcmp(as->v[i].ptx, ptx))
            return as->v[i].py;
    char sh[256];
    if (!short_name(ptx, sh, sizeof sh))
        return NULL;
    const char *py = free_py(m, k, sh);
    if (!py)
        return NULL;
    sg_py_reserve(m, k, py);
    as->v = cg_grow(m, as->v, as->n, &as->cap, sizeof *as->v);
    as->v[as->n].ptx = cg_strndup(m, ptx, strlen(ptx));
    as->v[as->n].py = py;
    return as->v[as->n++].py;
}

static uint32_t alias_opnd(cg_module *m, cg_kernel *k, alias_set *as, cg_opnd *o)
{
    uint32_t n = 0;
    for (; o; o = o->next) {
        if (o->kind == CG_O_STR) {
            char buf[1024];
            if (sg_text_lit(&o->text, buf, sizeof buf) && !strncmp(buf, "_Z", 2) &&
                cg_is_identifier(buf, strlen(buf))) {
                const char *py = alias_for(m, k, as, buf);
                if (py) {
                    o->kind = CG_O_PY;
                    o->text = sg_lit(m, py, strlen(py));
                    n++;
                }
            }
        }
        n += alias_opnd(m, k, as, o->a);
        n += alias_opnd(m, k, as, o->b);
        n += alias_opnd(m, k, as, o->elems);
    }
    return n;
}

static uint32_t alias_stmts(cg_module *m, cg_kernel *k, alias_set *as, cg_stmt *s)
{
    uint32_t n = 0;
    for (; s; s = s->next) {
        if (s->kind == CG_S_INST) {
            n += alias_opnd(m, k, as, s->u.inst.ops);
        } else if (s->kind == CG_S_SCOPE) {
            n += alias_stmts(m, k, as, s->u.body);
        }
    }
    return n;
}

static void python_string(ptx_buf *b, const char *s)
{
    ptx_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            ptx_buf_putc(b, '\\');
        ptx_buf_putc(b, *s);
    }
    ptx_buf_putc(b, '"');
}

/* ---- the pass --------------------------------------------------------- */

/* The kernel's short Python name (and, with --rename-kernels, PTX name);
   1 if it took one. */
static uint32_t name_kernel(cg_module *m, cg_kernel *k)
{
    char sh[256];
    if (!short_name(k->ptx_name, sh, sizeof sh))
        return 0;
    const char *py = free_py(m, k, sh);
    if (!py || (m->opt && m->opt->rename_kernels && !sg_ptx_name_free(m, k, py)))
        return 0;
    k->py_name = py;
    sg_py_reserve(m, k, py);
    if (m->opt && m->opt->rename_kernels) {
        k->ptx_name = py;
        k->decorated = 1;
    } else {
        k->decorated = 0;
    }
    return 1;
}

/* Short PTX names for the parameters (foo_param_3 -> param3); how many.
   Body variables (nvcc's function-static _ZZ...E5stage) are left alone:
   after -G/-lineinfo .loc lines the harness (and a reader of the PTX)
   does not see them as body-local, and ptx.var prints the PTX spelling,
   so a Python alias is not possible without printer support. */
static uint32_t name_params(cg_module *m, cg_kernel *k)
{
    uint32_t done = 0;
    for (uint32_t i = 0; i < k->nsyms; i++) {
        cg_sym *s = &k->syms[i];
        if (s->kind != CG_SYM_PARAM)
            continue;
        const char *name = s->ptx;
        const char *pp = strstr(name, "_param_");
        const char *nu = NULL;
        char sh[256];
        if (pp && pp != name && cg_is_decimal(pp + 7, strlen(pp + 7))) {
            char buf[64];
            snprintf(buf, sizeof buf, "param%s", pp + 7);
            nu = free_ptx(m, k, buf);
        } else if (short_name(name, sh, sizeof sh)) {
            nu = free_ptx(m, k, sh);
        }
        if (nu) {
            s->ptx = nu;
            done++;
        }
    }
    return done;
}

/* Python aliases for the module-level mangled symbols the body uses, in
   one statement at its top; how many. */
static uint32_t name_aliases(cg_module *m, cg_kernel *k)
{
    alias_set as = { 0 };
    alias_stmts(m, k, &as, k->body);
    if (!as.n)
        return 0;
    ptx_buf b = { 0 };
    for (unsigned i = 0; i < as.n; i++) {
        if (i)
            ptx_buf_putc(&b, '\n');
        ptx_buf_printf(&b, "%s = ", as.v[i].py);
        python_string(&b, as.v[i].ptx);
    }
    cg_stmt *py = cg_stmt_new(m, CG_S_PY, PTX_NOTOK);
    py->u.sugar.name = cg_strndup(m, b.p, b.n);
    py->u.sugar.pass = sg_pass_index("names");
    ptx_buf_free(&b);
    py->next = k->body;
    k->body = py;
    return as.n;
}

void sugar_names(cg_module *m, cg_stats *st)
{
    uint32_t done = 0;
    sg_install_hooks();
    for (uint32_t ki = 0; ki < m->nkernels; ki++) {
        cg_kernel *k = &m->kernels[ki];
        if (k->unsupported)
            continue;
        done += name_kernel(m, k);
        done += name_params(m, k);
        done += name_aliases(m, k);
    }
    sg_count(st, "names", done);
}
