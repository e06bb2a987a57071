/*
 * sugar/smem.c - part of pass "decls": shared-memory declarations as the
 * allocations pyptx code makes.
 *
 *     ptx.var("shared", b8, "sA", size=16384, align=128)  ->  sA = smem.alloc(b8, 16384, name="sA")
 *     ptx.var("shared", b64, "full", size=2, align=8)     ->  full = smem.mbarrier(2, name="full")
 *
 * pyptx 0.1.1 (smem.py): smem.alloc(dtype, shape, align=128) appends
 * `.shared .align A .b8 NAME[bytes]` to the kernel's variable list, as
 * ptx.var does, and smem.mbarrier(n) appends `.shared .align 8 .b64
 * NAME[n]`.  Both also add their bytes to a running offset, aligned
 * first; a kernel whose offset ends above 48 KiB is traced again with
 * every allocation moved into dynamic shared memory, which is other PTX.
 * So declarations are rewritten in order while that offset stays within
 * 48 KiB.  The name is always given: without it pyptx numbers the
 * allocations with a counter global to the process.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define STATIC_SMEM_MAX (48u * 1024)   /* kernel.py: above it, dynamic */

static int plain_word(const char *p)
{
    if (!p || !(*p == '_' || ((*p | 32) >= 'a' && (*p | 32) <= 'z')))
        return 0;
    for (; *p; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')))
            return 0;
    return 1;
}

static uint64_t decimal(const char *p)
{
    uint64_t v = 0;
    for (; p && *p && v < STATIC_SMEM_MAX * 2ull; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

/* The allocation that declares v, its bytes and alignment; NULL if none. */
static const char *allocation(const cg_var *v, uint64_t *bytes, uint64_t *align)
{
    if (strcmp(v->space, "shared") || v->linking || !v->size || !v->align)
        return NULL;
    uint64_t n = decimal(v->size);
    *align = decimal(v->align);
    if (!n || !*align)
        return NULL;
    if (!strcmp(v->type, "b64") && *align == 8) {
        *bytes = 8 * n;
        return "mbarrier";
    }
    *bytes = n;
    return !strcmp(v->type, "b8") ? "alloc" : NULL;
}

static cg_stmt *alloc_stmt(cg_module *m, cg_kernel *k, const cg_stmt *s,
                           const char *call, uint64_t align)
{
    const cg_var *v = &s->u.var;
    cg_sym *y = &k->syms[v->sym];
    if (!y->py && !(y->py = sg_py_fresh(m, k, y->ptx)))
        return NULL;
    char text[512], al[32] = "";
    if (!strcmp(call, "alloc") && align != 128)
        snprintf(al, sizeof al, ", align=%llu", (unsigned long long)align);
    int n = !strcmp(call, "alloc")
        ? snprintf(text, sizeof text, "%s = smem.alloc(b8, %s%s, name=\"%s\")", y->py, v->size,
                   al, y->ptx)
        : snprintf(text, sizeof text, "%s = smem.mbarrier(%s, name=\"%s\")", y->py, v->size,
                   y->ptx);
    if (n <= 0 || (size_t)n >= sizeof text)
        return NULL;
    cg_stmt *py = cg_stmt_new(m, CG_S_PY, s->first);
    py->u.sugar.name = cg_strndup(m, text, (size_t)n);
    py->u.sugar.orig = sg_copy_stmt(m, s);
    py->u.sugar.label = CG_NOSYM;
    return py;
}

/* The declarations of one list, in order, while the offset allows. */
static uint32_t alloc_list(cg_module *m, cg_kernel *k, cg_stmt **link, uint64_t *off)
{
    uint32_t made = 0;
    for (; *link; link = &(*link)->next) {
        cg_stmt *s = *link, **body = cg_body(s), *py;
        uint64_t bytes, align, at;
        const char *call;
        if (body) {
            made += alloc_list(m, k, body, off);
            continue;
        }
        if (s->kind != CG_S_VAR || !(call = allocation(&s->u.var, &bytes, &align)))
            continue;
        const cg_sym *y = &k->syms[s->u.var.sym];
        at = (*off + align - 1) / align * align;
        if (at + bytes > STATIC_SMEM_MAX || !plain_word(y->ptx) ||
            !(py = alloc_stmt(m, k, s, call, align)))
            return made;   /* later ones would follow a different offset */
        *off = at + bytes;
        if (!strcmp(call, "alloc"))
            m->types_used |= 1u << cg_type_index("b8", 2);
        m->uses_smem = 1;
        py->next = s->next;
        *link = py;
        made++;
    }
    return made;
}

uint32_t sg_smem_decls(cg_module *m, cg_kernel *k)
{
    uint64_t off = 0;
    return alloc_list(m, k, &k->body, &off);
}

/* ---- addresses in dynamic shared memory --------------------------------- */

/* pyptx 0.1.1 (ptx.py _dyn_smem_addr_reg): an instruction that takes an
 * allocation in dynamic shared memory gets `r = reg.scalar(u32); mov.b32
 * r, dyn_smem; add.s32 r, r, offset;` (no add for offset 0) just before
 * it, and `[r]`.  Such a run, r named nowhere else, becomes one operand
 * (CG_O_DYN); several runs before one instruction stand in the order of
 * its operands. */

#define MAXDYN 4

typedef struct dyn_run {
    cg_symid r;
    const cg_opnd *off;      /* the add's int, or NULL */
} dyn_run;

/* o is the word dyn_smem (a symbol of the module: carried as text). */
static int names_dyn(const cg_kernel *k, const cg_opnd *o)
{
    char w[16];
    if (o->kind == CG_O_SYM)
        return !cg_sym_is_reg(&k->syms[o->sym]) && !strcmp(k->syms[o->sym].ptx, "dyn_smem");
    return o->kind == CG_O_STR && sg_text_lit(&o->text, w, sizeof w) && !strcmp(w, "dyn_smem");
}

/* The run at s (s: the declaration); the statement after it, or NULL. */
static cg_stmt *dyn_run_at(const cg_kernel *k, const uint32_t *refs, cg_stmt *s, dyn_run *d)
{
    cg_stmt *mov = s->next, *add = mov ? mov->next : NULL;
    const cg_sym *y = s->kind == CG_S_REG ? &k->syms[s->u.reg] : NULL;
    if (!y || y->kind != CG_SYM_REG || !y->implicit || strcmp(y->type, "u32") ||
        !sg_inst_is(mov, "mov") || mov->u.inst.guard || mov->u.inst.nmods != 1 ||
        strcmp(mov->u.inst.mods[0], "b32") || sg_nops(mov->u.inst.ops) != 2)
        return NULL;
    const cg_opnd *dst = mov->u.inst.ops, *src = dst->next;
    if (dst->kind != CG_O_SYM || dst->sym != s->u.reg || dst->index >= 0 || !names_dyn(k, src))
        return NULL;
    d->r = s->u.reg;
    d->off = NULL;
    const cg_opnd *a = sg_inst_is(add, "add") ? add->u.inst.ops : NULL;
    if (a && !add->u.inst.guard && add->u.inst.nmods == 1 && !strcmp(add->u.inst.mods[0], "s32") &&
        sg_nops(a) == 3 && a->kind == CG_O_SYM && a->sym == d->r && a->index < 0 &&
        a->next->kind == CG_O_SYM && a->next->sym == d->r && a->next->index < 0 &&
        a->next->next->kind == CG_O_INT) {
        d->off = a->next->next;
        return refs[d->r] == 4 ? add->next : NULL;
    }
    return refs[d->r] == 2 ? mov->next : NULL;
}

/* The runs from *link and the instruction taking them: its operands
   rewritten, the runs gone; 0 if they are not that. */
static int fold_dyn(cg_module *m, cg_kernel *k, const uint32_t *refs, cg_stmt **link)
{
    dyn_run d[MAXDYN];
    unsigned n = 0, used = 0;
    cg_stmt *s = *link, *in;
    while (n < MAXDYN && (in = dyn_run_at(k, refs, s, &d[n])) != NULL) {
        n++;
        s = in;
    }
    if (!n || s->kind != CG_S_INST)
        return 0;
    for (cg_opnd *o = s->u.inst.ops; o; o = o->next)    /* in evaluation order */
        if (o->kind == CG_O_ADDR && !o->b && used < n && o->a->kind == CG_O_SYM &&
            o->a->sym == d[used].r)
            used++;
    if (used != n)
        return 0;
    used = 0;
    for (cg_opnd *o = s->u.inst.ops; o && used < n; o = o->next)
        if (o->kind == CG_O_ADDR && !o->b && o->a->kind == CG_O_SYM && o->a->sym == d[used].r) {
            o->kind = CG_O_DYN;
            o->text = d[used].off ? d[used].off->text : sg_lit(m, "0", 1);
            o->a = NULL;
            used++;
        }
    *link = s;
    m->uses_dyn = m->uses_smem = 1;
    m->types_used |= 1u << cg_type_index("b8", 2) | 1u << cg_type_index("u32", 3);
    return 1;
}

static uint32_t dyn_list(cg_module *m, cg_kernel *k, const uint32_t *refs, cg_stmt **link)
{
    uint32_t made = 0;
    for (; *link; link = &(*link)->next) {
        cg_stmt **body = cg_body(*link);
        if (body)
            made += dyn_list(m, k, refs, body);
        else
            made += (uint32_t)fold_dyn(m, k, refs, link);
    }
    return made;
}

uint32_t sg_dyn_operands(cg_module *m, cg_kernel *k)
{
    sg_scratch sc = { 0 };
    uint32_t *refs = sg_scratch_get(&sc, (k->nsyms + 1) * sizeof *refs);
    sg_count_refs(k->body, refs);
    uint32_t made = dyn_list(m, k, refs, &k->body);
    ptx_buf_free(&sc);
    return made;
}
