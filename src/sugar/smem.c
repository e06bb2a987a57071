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
#include "util/alloc.h"
#include "util/buf.h"

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

void sg_print_smem(const cg_module *m, const cg_kernel *k, const cg_stmt *s, int depth,
                   ptx_buf *out)
{
    const sg_smem *d = sg_smem_of(s);
    const cg_sym *y = &k->syms[d->var];
    (void)m;
    sg_indent(out, depth);
    if (d->mbarrier) {
        ptx_buf_printf(out, "%s = smem.mbarrier(%s, name=\"%s\")\n", y->py, d->size, y->ptx);
        return;
    }
    ptx_buf_printf(out, "%s = smem.alloc(%s, ", y->py, d->dtype);
    if (d->rows)
        ptx_buf_printf(out, "(%llu, %llu)", (unsigned long long)d->rows,
                       (unsigned long long)d->cols);
    else
        ptx_buf_puts(out, d->size);
    if (d->align)
        ptx_buf_printf(out, ", align=%llu", (unsigned long long)d->align);
    ptx_buf_printf(out, ", name=\"%s\")\n", y->ptx);
}

int sg_smem_fits(const cg_module *m, const cg_kernel *k, const cg_stmt *s)
{
    ptx_buf b = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &b, NULL);
    sg_print_smem(m, k, s, 0, &b);
    int ok = b.n <= 512;   /* 511 bytes and the newline */
    ptx_free_bufs(&ob);
    return ok;
}

static cg_stmt *alloc_stmt(cg_module *m, cg_kernel *k, const cg_stmt *s,
                           const char *call, uint64_t align)
{
    const cg_var *v = &s->u.var;
    cg_sym *y = &k->syms[v->sym];
    if (!y->py && !(y->py = sg_py_fresh(m, k, y->ptx)))
        return NULL;
    cg_stmt *node = sg_node_new(m, SG_S_SMEM, s->first);
    sg_smem *d = sg_smem_of(node);
    d->var = v->sym;
    d->mbarrier = (uint8_t)!!strcmp(call, "alloc");
    d->dtype = "b8";
    d->size = v->size;
    d->align = !d->mbarrier && align != 128 ? align : 0;
    d->orig = sg_copy_stmt(m, s);
    return sg_smem_fits(m, k, node) ? node : NULL;
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
        sg_st(m)->uses_smem = 1;
        py->next = s->next;
        *link = py;
        made++;
    }
    return made;
}

uint32_t sg_smem_decls(cg_module *m, cg_kernel *k)
{
    uint32_t i = 0;
    while (i < k->nsyms && k->syms[i].kind != CG_SYM_VAR)
        i++;
    if (i == k->nsyms)   /* no variable: no declaration to look for */
        return 0;
    uint64_t off = 0;
    uint32_t made = alloc_list(m, k, &k->body, &off);
    return made ? made + sg_smem_tiles(m, k) : 0;
}

/* ---- addresses pyptx computes for one instruction ---------------------- */

/* pyptx 0.1.1 computes some addresses into fresh registers just before
 * the instruction that takes them, and passes `[r]`:
 *
 *  - an allocation in dynamic shared memory (ptx.py _dyn_smem_addr_reg):
 *    `mov.b32 r, dyn_smem; add.s32 r, r, offset;` (no add for offset 0);
 *  - a barrier slot chosen at run time, ptx.mbarrier.array(name, offset,
 *    n).at(stage) (_DynamicBarrierSlot.addr_reg): `t = stage << 3`
 *    (shl.b32), `t += offset` (offset != 0), `mov.u32 b, name;`, `r = b +
 *    t` (add.u32), each in a fresh register.
 *
 * Such a run, its registers named nowhere else, becomes one operand
 * (SG_O_DYN, SG_O_SLOT); several runs before one instruction stand in the
 * order of its operands. */

#define MAXDYN 4

typedef struct dyn_run {
    cg_symid r;              /* the address register */
    uint8_t kind;            /* SG_O_DYN or SG_O_SLOT */
    const cg_opnd *off;      /* the offset (an int), or NULL */
    const cg_opnd *stage;    /* SLOT: the stage register */
    const cg_opnd *name;     /* SLOT: the array's name */
} dyn_run;

/* o is a word of the module: a symbol carried as text, or one of the
   kernel's; into w. */
static int word_of(const cg_kernel *k, const cg_opnd *o, char *w, size_t cap)
{
    if (o->kind == CG_O_SYM && !cg_sym_is_reg(&k->syms[o->sym]))
        return snprintf(w, cap, "%s", k->syms[o->sym].ptx) < (int)cap;
    return o->kind == CG_O_STR && sg_text_lit(&o->text, w, cap);
}

/* s is pattern pat with nops operands, unguarded, writing register d. */
static int op1(const cg_stmt *s, const char *pat, unsigned nops, cg_symid d)
{
    return sg_reg_is(sg_inst_ops(s, pat, nops), d);
}

/* The dyn_smem run at s (s: the declaration); the statement after it. */
static cg_stmt *dyn_at(const cg_kernel *k, const uint32_t *refs, cg_stmt *s, dyn_run *d)
{
    char w[16];
    cg_stmt *mov = s->next, *add = mov ? mov->next : NULL;
    if (!sg_fresh_decl(k, s, "u32") || !op1(mov, "mov.b32", 2, s->u.reg) ||
        !word_of(k, mov->u.inst.ops->next, w, sizeof w) || strcmp(w, "dyn_smem"))
        return NULL;
    *d = (dyn_run){ .r = s->u.reg, .kind = SG_O_DYN };
    const cg_opnd *a = add ? add->u.inst.ops : NULL;
    if (op1(add, "add.s32", 3, d->r) && sg_reg_is(a->next, d->r) && a->next->next->kind == CG_O_INT) {
        d->off = a->next->next;
        return refs[d->r] == 4 ? add->next : NULL;   /* mov, add (2), the reader */
    }
    return refs[d->r] == 2 ? mov->next : NULL;
}

/* The barrier slot run at s; the statement after it. */
static cg_stmt *slot_at(const cg_kernel *k, const uint32_t *refs, cg_stmt *s, dyn_run *d)
{
    const cg_sym *y = s->kind == CG_S_REG ? &k->syms[s->u.reg] : NULL;
    cg_stmt *shl = s->next, *t = shl ? shl->next : NULL;
    if (!y || !y->type || !sg_fresh_decl(k, s, y->type) || !op1(shl, "shl.b32", 3, s->u.reg))
        return NULL;
    const cg_opnd *st = shl->u.inst.ops->next;
    char three[4], w[128];
    if (st->kind != CG_O_SYM || !cg_sym_is_reg(&k->syms[st->sym]) ||
        strcmp(k->syms[st->sym].type ? k->syms[st->sym].type : "", y->type) ||
        st->next->kind != CG_O_INT || !sg_text_lit(&st->next->text, three, sizeof three) ||
        strcmp(three, "3"))
        return NULL;
    *d = (dyn_run){ .kind = SG_O_SLOT, .stage = st };
    cg_symid tr = s->u.reg;
    const char *addt = !strcmp(y->type, "s32") ? "add.s32" : "add.u32";     /* t += offset */
    if (op1(t, addt, 3, tr) && sg_reg_is(t->u.inst.ops->next, tr) &&
        t->u.inst.ops->next->next->kind == CG_O_INT) {
        d->off = t->u.inst.ops->next->next;
        t = t->next;
    }
    cg_stmt *mov = t ? t->next : NULL, *ra = mov ? mov->next : NULL, *add = ra ? ra->next : NULL;
    if (!sg_fresh_decl(k, t, "u32") || !op1(mov, "mov.u32", 2, t->u.reg) ||
        !word_of(k, mov->u.inst.ops->next, w, sizeof w) || !sg_fresh_decl(k, ra, "u32") ||
        !op1(add, "add.u32", 3, ra->u.reg) || !sg_reg_is(add->u.inst.ops->next, t->u.reg) ||
        !sg_reg_is(add->u.inst.ops->next->next, tr) || refs[t->u.reg] != 2 || refs[ra->u.reg] != 2 ||
        refs[tr] != (d->off ? 4u : 2u))
        return NULL;
    d->r = ra->u.reg;
    d->name = mov->u.inst.ops->next;
    return add->next;
}

static cg_opnd *int_opnd(cg_module *m, const cg_opnd *o)
{
    cg_opnd *c = cg_opnd_new(m, CG_O_INT);
    c->text = o ? o->text : sg_lit(m, "0", 1);
    return c;
}

/* Operand o becomes run d's. */
static void take_run(cg_module *m, const cg_kernel *k, cg_opnd *o, const dyn_run *d)
{
    char w[128];
    o->kind = d->kind;
    o->a = o->b = NULL;
    if (d->kind == SG_O_DYN) {
        o->text = (cg_text){ 0 };
        o->a = int_opnd(m, d->off);
        sg_st(m)->uses_dyn = sg_st(m)->uses_smem = 1;
        m->types_used |= 1u << cg_type_index("b8", 2) | 1u << cg_type_index("u32", 3);
        return;
    }
    word_of(k, d->name, w, sizeof w);
    o->text = sg_lit(m, w, strlen(w));
    o->b = int_opnd(m, d->off);
    o->a = sg_copy_opnd(m, d->stage);
    sg_st(m)->uses_slot = 1;
}

/* The runs from *link and the instruction taking them: its operands
   rewritten, the runs gone; 0 if they are not that. */
static int fold_dyn(cg_module *m, cg_kernel *k, const uint32_t *refs, cg_stmt **link)
{
    dyn_run d[MAXDYN];
    unsigned n = 0, used = 0;
    cg_stmt *s = *link, *in;
    while (n < MAXDYN && ((in = dyn_at(k, refs, s, &d[n])) != NULL ||
                          (in = slot_at(k, refs, s, &d[n])) != NULL)) {
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
        if (o->kind == CG_O_ADDR && !o->b && o->a->kind == CG_O_SYM && o->a->sym == d[used].r)
            take_run(m, k, o, &d[used++]);
    *link = s;
    return 1;
}

static int fold_at(void *ctx, cg_stmt **link)
{
    sg_walk *c = ctx;
    if (!cg_body(*link))
        c->made += (uint32_t)fold_dyn(c->m, c->k, c->refs, link);
    return SG_VISIT_ON;
}

uint32_t sg_dyn_operands(cg_module *m, cg_kernel *k)
{
    return sg_walk_fresh(m, k, fold_at);
}
