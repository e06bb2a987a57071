/*
 * sugar/names.c - pass "names": readable names for C++ mangled symbols.
 *
 *   kernel  _ZN3M1214matmulKernel12ILi128E...Pi  -> Python function
 *           matmulKernel12 (the PTX entry name is kept through
 *           `f.__name__ = "..."`; --rename-kernels puts the short name in
 *           the PTX too);
 *   params  _Z6add_opff_param_0                  -> add_op_param_0 (PTX
 *           renamed: parameters are local names);
 *   module-level symbols used by the kernel (extern shared
 *           _ZN3M124smemE)                       -> Python alias
 *           smem = "_ZN3M124smemE" (global names must not change).
 *
 * Demangling uses libiberty's cplus_demangle (Itanium ABI), then keeps
 * the last component of the qualified name without template arguments.
 * A build without libiberty (cmake/sugar.cmake) leaves mangled names be.
 */
#include <stdlib.h>
#include <string.h>
#if PTX_HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#else
static char *cplus_demangle(const char *mangled, int options) { return NULL; }
#define DMGL_ANSI 0
#define DMGL_GNU_V3 0
#endif
#include "codegen/build.h"
#include "sugar/sugar.h"

/* Short readable identifier for a mangled name; 0 if not mangled. */
static int short_name(const char *mangled, char *out, size_t cap)
{
    if (strncmp(mangled, "_Z", 2))
        return 0;
    char *d = cplus_demangle(mangled, DMGL_ANSI | DMGL_GNU_V3);   /* not Rust's too */
    if (!d)
        return 0;
    /* drop <...> and (...) groups, in place (what is kept never moves
       right), and keep the text after the last "::" */
    size_t n = strlen(d), o = 0;
    char *flat = d;
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
    free(d);
    if (!k || strstr(out, "operator") == out)
        return 0;
    if (out[0] >= '0' && out[0] <= '9')
        return 0;
    return 1;
}

/* ---- module-level symbols: Python aliases --------------------------- */

/* The aliases of one kernel: PTX name -> Python name, in first-use order. */
typedef struct alias_set {
    cg_module *m;
    cg_kernel *k;
    cg_map map;              /* PTX name -> index into v */
    const char **ptx, **py;
    unsigned n, cap;
} alias_set;

static const char *alias_for(cg_module *m, cg_kernel *k, alias_set *as,
                             const char *ptx)
{
    cg_mslot *slot = cg_map_put(m, &as->map, ptx, strlen(ptx));
    if (slot->val >= 0)
        return as->py[slot->val];
    if (slot->val == -2)
        return NULL;         /* not demangled before */
    char sh[256];
    const char *py = short_name(ptx, sh, sizeof sh) ? sg_py_fresh(m, k, sh) : NULL;
    slot->k = cg_strndup(m, ptx, strlen(ptx));
    if (!py) {
        slot->val = -2;
        return NULL;
    }
    unsigned cap = as->cap;
    as->ptx = cg_grow(m, as->ptx, as->n, &cap, sizeof *as->ptx);
    as->py = cg_grow(m, as->py, as->n, &as->cap, sizeof *as->py);
    as->ptx[as->n] = slot->k;
    as->py[as->n] = py;
    slot->val = (int32_t)as->n;
    return as->py[as->n++];
}

/* One string operand of an instruction (sg_name_specials hands them all
   over, in order, from the walk it makes anyway): a mangled module
   symbol becomes its Python alias. */
static void alias_opnd(void *ctx, cg_opnd *o)
{
    alias_set *as = ctx;
    char buf[1024];
    if (sg_text_lit(&o->text, buf, sizeof buf) && !strncmp(buf, "_Z", 2) &&
        cg_is_identifier(buf, strlen(buf))) {
        const char *py = alias_for(as->m, as->k, as, buf);
        if (py) {
            o->kind = SG_O_NAME;
            o->text = sg_lit(as->m, py, strlen(py));
        }
    }
}

/* ---- the pass --------------------------------------------------------- */

const char *sg_param_number(const char *name)
{
    const char *pp = strstr(name, "_param_");
    size_t len = pp ? strlen(pp + 7) : 0;
    return pp && pp != name && len < 8 && cg_is_decimal(pp + 7, len) ? pp + 7 : NULL;
}

/* The kernel's short Python name sh, demangled (and, with
   --rename-kernels, PTX name); 1 if it took one. */
static uint32_t name_kernel(cg_module *m, cg_kernel *k, const char *sh)
{
    if (!sh)
        return 0;
    int rename = m->opt && m->opt->rename_kernels;
    const char *py = sg_py_fresh(m, k, sh);
    if (!py || (rename && !sg_ptx_name_free(m, py)))
        return 0;
    k->py_name = py;
    sg_py_function(m, py);
    if (rename) {
        k->ptx_name = py;
        sg_ptx_claim(m, py);
        k->decorated = 1;
    } else {
        k->decorated = 0;
    }
    return 1;
}

/* Parameters keep their PTX names, demangled where mangled
   (_Z6add_opff_param_3 -> add_op_param_3); how many renamed.
   Body variables (nvcc's function-static _ZZ...E5stage) are left alone:
   after -G/-lineinfo .loc lines the harness (and a reader of the PTX)
   does not see them as body-local, and ptx.var prints the PTX spelling,
   so a Python alias is not possible without printer support.  Parameters
   that debug sections name keep their names (sg_rename_ptx). */
static uint32_t name_params(cg_module *m, cg_kernel *k, const char *mangled, const char *kshort)
{
    uint32_t done = 0;
    for (uint32_t i = 0; i < k->nsyms; i++) {
        const char *name = k->syms[i].ptx;
        if (k->syms[i].kind != CG_SYM_PARAM)
            continue;
        const char *num = sg_param_number(name);
        char sh[256];
        size_t n = num ? (size_t)(num - 7 - name) : 0;   /* the kernel's part */
        if (num) {
            /* the kernel's mangled name: demangled once for all its params */
            if (kshort && strlen(mangled) == n && !memcmp(mangled, name, n) &&
                strlen(kshort) < sizeof sh - 16)
                memcpy(sh, kshort, strlen(kshort) + 1);
            else if (!short_name(cg_strndup(m, name, n), sh, sizeof sh - 16))
                continue;            /* a readable kernel name: kept */
            size_t at = strlen(sh);   /* "_param_" num: thousands of them, no printf */
            memcpy(sh + at, "_param_", 7);
            memcpy(sh + at + 7, num, strlen(num) + 1);   /* (< 8 digits) */
        } else if (!short_name(name, sh, sizeof sh)) {
            continue;
        }
        done += (uint32_t)sg_rename_ptx(m, k, i, sh, 1);
    }
    return done;
}

/* The Python aliases of the module-level mangled symbols the body uses
   (as), in statements at its top; how many. */
static uint32_t name_aliases(cg_module *m, cg_kernel *k, const alias_set *as)
{
    if (!as->n)
        return 0;
    /* a, b = "_Z1a", "_Z1b" on one line while it stays short, else one
       line each */
    cg_opnd **names = cg_alloc(m, as->n * sizeof *names);
    cg_opnd **vals = cg_alloc(m, as->n * sizeof *vals);
    size_t width = 3;
    for (unsigned i = 0; i < as->n; i++) {
        names[i] = sg_name_opnd(m, as->py[i]);
        vals[i] = sg_text_opnd(m, CG_O_STR, as->ptx[i]);
        width += (i ? 4 : 0) + strlen(as->py[i]) + strlen(as->ptx[i]) + 2;
    }
    cg_stmt **tail = &k->body, *rest = k->body;
    if (as->n > 1 && width <= 88) {
        *tail = sg_assign_new(m, PTX_NOTOK, sg_opnd_list(names, as->n), sg_opnd_list(vals, as->n));
        tail = &(*tail)->next;
    } else {
        for (unsigned i = 0; i < as->n; i++, tail = &(*tail)->next)
            *tail = sg_assign_new(m, PTX_NOTOK, names[i], vals[i]);
    }
    *tail = rest;
    return as->n;
}

/* Kernel and parameters, on every kernel before any row runs on any
   (driver.c): the kernels' Python names are module-wide, and every Python
   name a row picks, in any kernel, must avoid all of them.  The rest of
   the pass (sugar_names) walks the body and runs with the other rows. */
uint32_t sg_name_kernels(cg_module *m, cg_kernel *k)
{
    const char *mangled = k->ptx_name;      /* before --rename-kernels */
    char kshort[256];
    int has_short = short_name(mangled, kshort, sizeof kshort);
    uint32_t n = name_kernel(m, k, has_short ? kshort : NULL);
    return n + name_params(m, k, mangled, has_short ? kshort : NULL);
}

/* Module symbols and special registers.  The module symbols are found by
   the walk of sg_name_specials, before the specials take names; their
   statement goes at the top afterwards (the walks never saw it, so their
   positions agree). */
uint32_t sugar_names(cg_module *m, cg_kernel *k)
{
    alias_set as = { .m = m, .k = k };
    uint32_t n = sg_name_specials(m, k, alias_opnd, &as);
    return n + name_aliases(m, k, &as);
}
