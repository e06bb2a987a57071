/*
 * sugar/merge.c - part of pass "decls": a declaration merged with what
 * first writes its register, where that is what a DSL helper emits with a
 * register it allocates itself.
 *
 *     r5 = reg.scalar(u32)                      r5 = tid & 31
 *     ptx.and_(b32, r5, tid, 31)          ->
 *     rd0 = reg.scalar(b64)                     (x_ptr,) = ptx.global_ptrs("X")
 *     ptx.param(u64, "X", rd0) ...
 *
 * decls.c has put each declaration just before the top-level statement
 * that first names its register, and marked the ones pyptx would name
 * itself (implicit); a merge needs such a declaration, since the helper
 * takes the register from pyptx's counter at that very point:
 *
 *  - reg.scalar(T, init=V) / reg.from_(src, T): the mov that first writes;
 *  - ptx.global_ptrs(...): runs of `ld.param.u64 x, [P]; cvta.to.global.u64
 *    x, x` on fresh b64 registers;
 *  - ptx.warp.reduce_sum/max/min: the butterfly rounds it emits;
 *  - `x = a OP b`: the instruction pyptx's operator emits (expr.c's table),
 *    and a result read once, by the next statement, goes into it:
 *    `x = (a & 3) << 2`, `ptx.mad(u32, d, (a >> 2), 64, b)`;
 *  - ptx.mbarrier.arrive / arrive_expect_tx: the state register.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "sugar/alloc.h"

typedef struct merger {
    cg_module *m;
    cg_kernel *k;
    const uint32_t *refs;    /* per symbol: how many statements name it */
    uint32_t opers;          /* operators merge() made (form OPER) */
} merger;


/* A merge of one declaration of register r into a form reading src. */
static alloc *one_reg(merger *c, uint8_t form, cg_symid r, const cg_opnd *src)
{
    alloc *a = cg_alloc(c->m, sizeof *a);
    a->form = form;
    a->n = 1;
    a->regs = cg_alloc(c->m, sizeof *a->regs);
    a->regs[0] = r;
    a->src = src;
    return a;
}

/* A float immediate (0f3F800000, 0d...) as the Python float whose
   encoding by reg.scalar(init=) is that very text, into buf; 0 if none. */
static int float_literal(const char *type, const char *text, char *buf, size_t cap)
{
    int f32 = !strcmp(type, "f32") || !strcmp(type, "tf32");
    size_t digits = f32 ? 8 : 16;
    if ((!f32 && strcmp(type, "f64")) || text[0] != '0' || text[1] != (f32 ? 'f' : 'd') ||
        strlen(text + 2) != digits)
        return 0;
    uint64_t bits = 0;
    for (const char *p = text + 2; *p; p++) {
        int v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
        if (v < 0)
            return 0;        /* pyptx writes upper case */
        bits = bits << 4 | (uint64_t)v;
    }
    double v;
    if (f32) {
        uint32_t b = (uint32_t)bits;
        float f;
        memcpy(&f, &b, 4);
        v = f;
    } else {
        memcpy(&v, &bits, 8);
    }
    if (!isfinite(v) || (v == 0 && signbit(v)))
        return 0;
    /* the shortest decimal that comes back as the same value (Python's
       float, then struct.pack's float32 for f32) */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, v);
        double back = strtod(buf, NULL);
        if (f32 ? (float)back == (float)v : back == v)
            break;
    }
    if (!strpbrk(buf, ".en"))
        strncat(buf, ".0", cap - strlen(buf) - 1);
    return 1;
}

/* `mov.T x, src` right after x's declaration: reg.scalar(T, init=V) for an
   immediate, reg.from_(src, T) for anything else (pyptx allocates x there,
   so only for implicit names). */
static alloc *merge_mov(merger *c, const cg_stmt *decl, const cg_stmt *mov)
{
    const cg_sym *y = &c->k->syms[decl->u.reg];
    if (y->kind != CG_SYM_REG || !sg_inst_match(mov, "mov.*", 2) ||
        strcmp(mov->u.inst.mods[0], y->type) || !sg_reg_is(mov->u.inst.ops, decl->u.reg))
        return NULL;
    const cg_opnd *src = mov->u.inst.ops->next;
    alloc *a = one_reg(c, INIT, decl->u.reg, src);
    char buf[64], lit[40];
    if (src->kind == CG_O_INT) {
        a->form = INIT;
    } else if (src->kind == CG_O_STR && sg_text_lit(&src->text, lit, sizeof lit)) {
        a->form = INIT;
        if (float_literal(y->type, lit, buf, sizeof buf))
            a->src = sg_text_opnd(c->m, SG_O_FLOAT, buf);
    } else if (y->implicit && (src->kind == CG_O_SPECIAL || src->kind == CG_O_SYM)) {
        a->form = FROM;
    } else {
        return NULL;
    }
    return a;
}

/* x = fresh b64; ld.param.u64 x, [P]; cvta.to.global.u64 x, x: what
   ptx.global_ptrs emits for P.  The parameter, or CG_NOSYM. */
static cg_symid global_ptr(const merger *c, const cg_stmt *decl)
{
    const cg_stmt *ld = decl->next, *cv = ld ? ld->next : NULL;
    cg_symid x = decl->u.reg;
    const cg_sym *y = &c->k->syms[x];
    if (!y->implicit || strcmp(y->type, "b64") || !sg_inst_match(ld, "ld.param.u64", 2) ||
        !sg_inst_match(cv, "cvta.to.global.u64", 2) || !sg_reg_is(ld->u.inst.ops, x) ||
        !sg_reg_is(cv->u.inst.ops, x) || !sg_reg_is(cv->u.inst.ops->next, x))
        return CG_NOSYM;
    const cg_opnd *ad = ld->u.inst.ops->next;
    if (ad->kind != CG_O_ADDR || ad->b || ad->a->kind != CG_O_SYM || ad->a->index >= 0 ||
        c->k->syms[ad->a->sym].kind != CG_SYM_PARAM)
        return CG_NOSYM;
    return ad->a->sym;
}

/* The pointer registers get their parameter's name: x_ptr for X, and
   param3_ptr for kern_param_3 (the kernel's name is the function's). */
static void name_pointer(merger *c, cg_symid reg, cg_symid param)
{
    char base[64];
    size_t i = 0;
    const char *name = c->k->syms[param].ptx, *num = sg_param_number(name);
    if (num)
        i = (size_t)snprintf(base, sizeof base, "param%s", num);
    else
        for (const char *p = name; *p && i + 5 < sizeof base; p++)
            base[i++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    memcpy(base + i, "_ptr", 5);
    const char *py = cg_is_identifier(base, strlen(base)) ? sg_py_fresh(c->m, c->k, base) : NULL;
    if (py)
        c->k->syms[reg].py = py;
}

/* A run of global_ptrs groups from *link, as one node. */
static alloc *merge_ptrs(merger *c, cg_stmt *decl, cg_stmt **last)
{
    uint32_t n = 0;
    for (cg_stmt *s = decl; s && s->kind == CG_S_REG && global_ptr(c, s) != CG_NOSYM;
         s = s->next->next->next)
        n++;
    if (!n)
        return NULL;
    alloc *a = cg_alloc(c->m, sizeof *a);
    a->form = PTRS;
    a->n = n;
    a->regs = cg_alloc(c->m, n * sizeof *a->regs);
    a->params = cg_alloc(c->m, n * sizeof *a->params);
    cg_stmt *s = decl;
    for (uint32_t i = 0; i < n; i++, s = s->next->next->next) {
        a->regs[i] = s->u.reg;
        a->params[i] = global_ptr(c, s);
        name_pointer(c, a->regs[i], a->params[i]);
        *last = s->next->next;
    }
    return a;
}

/* ---- ptx.warp.reduce_*: its butterfly, round by round ------------------- */

/* A fresh register of type `type` declared by s, named only in this round
   (twice: where it is written and where it is read). */
static int fresh(const merger *c, const cg_stmt *s, const char *type)
{
    return sg_fresh_decl(c->k, s, type) && c->refs[s->u.reg] == 2;
}

/* The combining instruction (on u32, on f32) and its name. */
static const char *const reduce_ops[][3] = {
    { "add.u32", "add.f32", "sum" }, { "max.u32", "max.f32", "max" }, { "min.u32", "min.f32", "min" },
};

/* One round at s with xor mask `mask` on register val: the statement after
   it, or NULL.  *op: the combining op (sum, max, min), checked against
   earlier rounds. */
static cg_stmt *warp_round(const merger *c, cg_stmt *s, const cg_opnd *val, int fl,
                           long mask, const char **op)
{
    cg_stmt *mv = s ? s->next : NULL, *dt = mv ? mv->next : NULL;
    cg_stmt *sh = dt ? dt->next : NULL, *t = sh ? sh->next : NULL;
    if (!fresh(c, s, "b32") || !sg_inst_match(mv, "mov.b32", SG_ANY_OPS) ||
        !sg_reg_is(mv->u.inst.ops, s->u.reg) || !sg_opnd_equal(mv->u.inst.ops->next, val) ||
        !fresh(c, dt, "b32") || !sg_inst_match(sh, "shfl.sync.bfly.b32", 5))
        return NULL;
    const cg_opnd *o = sh->u.inst.ops;
    if (!sg_reg_is(o, dt->u.reg) || !sg_reg_is(o->next, s->u.reg) || !sg_int_is(o->next->next, mask) ||
        !sg_int_is(o->next->next->next, 31) || !sg_int_is(o->next->next->next->next, -1))
        return NULL;
    cg_symid partner = dt->u.reg;
    if (fl) {                          /* mov.b32 into a fresh f32 */
        cg_stmt *fd = t, *fm = fd ? fd->next : NULL;
        if (!fresh(c, fd, "f32") || !sg_inst_match(fm, "mov.b32", SG_ANY_OPS) ||
            !sg_reg_is(fm->u.inst.ops, fd->u.reg) || !sg_reg_is(fm->u.inst.ops->next, dt->u.reg))
            return NULL;
        partner = fd->u.reg;
        t = fm->next;
    }
    for (unsigned i = 0; i < sizeof reduce_ops / sizeof *reduce_ops; i++) {
        if (!sg_inst_match(t, reduce_ops[i][fl], 3) || (*op && strcmp(*op, reduce_ops[i][2])))
            continue;
        const cg_opnd *d = t->u.inst.ops;
        if (sg_opnd_equal(d, val) && sg_opnd_equal(d->next, val) &&
            sg_reg_is(d->next->next, partner)) {
            *op = reduce_ops[i][2];
            return t;
        }
    }
    return NULL;
}

/* The rounds of a warp reduction from decl (masks width/2 ... 1). */
static alloc *merge_warp(merger *c, cg_stmt *decl, cg_stmt **last)
{
    cg_stmt *mv = decl->next;
    if (!fresh(c, decl, "b32") || !sg_inst_match(mv, "mov.b32", 2))
        return NULL;
    const cg_opnd *val = mv->u.inst.ops->next;
    const cg_sym *vy = val->kind == CG_O_SYM ? &c->k->syms[val->sym] : NULL;
    if (!vy || !cg_sym_is_reg(vy) || !vy->type)
        return NULL;
    int fl = !strcmp(vy->type, "f32") || !strcmp(vy->type, "tf32");
    if (!fl && strcmp(vy->type, "b32") && strcmp(vy->type, "u32") && strcmp(vy->type, "s32"))
        return NULL;
    const char *op = NULL;
    uint32_t width = 0;
    for (long mask = 16; mask >= 1 && !width; mask >>= 1) {
        cg_stmt *s = decl, *end = NULL;
        for (long m = mask; m >= 1 && s; m >>= 1) {
            end = warp_round(c, s, val, fl, m, &op);
            s = end ? end->next : NULL;
            if (!end)
                break;
            *last = end;
            if (m == 1)
                width = (uint32_t)(2 * mask);
        }
        op = width ? op : NULL;
    }
    if (!width)
        return NULL;
    alloc *a = one_reg(c, WARP, decl->u.reg, val);
    a->init = op;
    a->width = width;
    return a;
}

/* x = fresh T; op.T x, a, b: `x = a OP b`, pyptx's operator allocating x
   itself (reg.py _emit_int_*: scalar(a.dtype), then the instruction). */
static alloc *merge_operator(merger *c, const cg_stmt *decl)
{
    const cg_stmt *in = decl->next;
    const cg_sym *y = &c->k->syms[decl->u.reg];
    const char *op;
    if (!y->implicit || y->kind != CG_SYM_REG || !in || in->kind != CG_S_INST ||
        !sg_reg_is(in->u.inst.ops, decl->u.reg) || !(op = sg_fresh_operator(c->k, in)))
        return NULL;
    cg_opnd *e = cg_opnd_new(c->m, SG_O_OPER);
    e->a = sg_copy_opnd(c->m, in->u.inst.ops->next);
    e->b = sg_copy_opnd(c->m, in->u.inst.ops->next->next);
    e->text = sg_lit(c->m, op, strlen(op));
    return one_reg(c, OPER, decl->u.reg, e);
}

/* ---- 64-bit pointer math with a 32-bit register ----------------------- */

/* reg.py _emit_int_add/_sub on a 64-bit left and a 32-bit Reg right:
   _widen_to_64 takes w = fresh u64 and emits `cvt.u64.u32 w, off`, then
   `add.s64` (`sub.s64`); the operator allocates its result x (left's
   dtype) before w, the in-place form writes left itself.  From cvt's
   declaration at w: the `+`/`-` of the instruction after the cvt, which
   *in is set to; NULL if the run is not that. */
static const char *widened(const merger *c, const cg_stmt *w, const cg_stmt **in)
{
    const cg_stmt *cv = w ? w->next : NULL, *op = cv ? cv->next : NULL;
    const cg_opnd *o = op && op->kind == CG_S_INST ? op->u.inst.ops : NULL;
    const cg_sym *off;
    if (!fresh(c, w, "u64") || !sg_inst_match(cv, "cvt.u64.u32", 2) || !sg_reg_is(cv->u.inst.ops, w->u.reg) ||
        cv->u.inst.ops->next->kind != CG_O_SYM || !o || sg_nops(o) != 3 ||
        !sg_reg_is(o->next->next, w->u.reg) || o->next->kind != CG_O_SYM)
        return NULL;
    off = &c->k->syms[cv->u.inst.ops->next->sym];
    const cg_sym *left = &c->k->syms[o->next->sym];
    if (!cg_sym_is_reg(off) || !off->type || !cg_sym_is_reg(left) || !left->type ||
        !strchr("bus", off->type[0]) || strcmp(off->type + 1, "32") ||
        !strchr("bus", left->type[0]) || strcmp(left->type + 1, "64"))
        return NULL;
    *in = op;
    return sg_inst_match(op, "add.s64", SG_ANY_OPS) ? "+"
           : sg_inst_match(op, "sub.s64", SG_ANY_OPS) ? "-" : NULL;
}

/* x = fresh T; w = fresh u64; cvt.u64.u32 w, off; add.s64 x, left, w:
   `x = left + off` (or `-`).  *last: the add. */
static alloc *merge_wide(merger *c, const cg_stmt *decl, cg_stmt **last)
{
    const cg_stmt *in;
    const cg_sym *y = &c->k->syms[decl->u.reg];
    const char *op = y->implicit && y->kind == CG_SYM_REG ? widened(c, decl->next, &in) : NULL;
    if (!op || !sg_reg_is(in->u.inst.ops, decl->u.reg) ||
        strcmp(c->k->syms[in->u.inst.ops->next->sym].type, y->type))
        return NULL;
    cg_opnd *e = cg_opnd_new(c->m, SG_O_OPER);
    e->a = sg_copy_opnd(c->m, in->u.inst.ops->next);
    e->b = sg_copy_opnd(c->m, decl->next->next->u.inst.ops->next);
    e->text = sg_lit(c->m, op, 1);
    *last = (cg_stmt *)in;
    return one_reg(c, OPER, decl->u.reg, e);
}

/* w = fresh u64; cvt.u64.u32 w, off; add.s64 left, left, w: `left += off`
   (or `-=`), w the register declared.  *last: the add. */
static alloc *merge_wide_in_place(merger *c, const cg_stmt *w, cg_stmt **last)
{
    const cg_stmt *in;
    const char *op = widened(c, w, &in);
    if (!op || !sg_same_reg(in->u.inst.ops, in->u.inst.ops->next))
        return NULL;
    cg_opnd *e = cg_opnd_new(c->m, SG_O_OPER);
    e->a = sg_copy_opnd(c->m, in->u.inst.ops);
    e->b = sg_copy_opnd(c->m, w->next->u.inst.ops->next);
    e->text = sg_lit(c->m, op, 1);
    *last = (cg_stmt *)in;
    return one_reg(c, AUG, w->u.reg, e);
}

/* x = fresh T; ld.shared.T x, [a]: `x = smem.load(T, a)` (smem.py load:
   scalar(T), then the ld). */
static alloc *merge_load(merger *c, const cg_stmt *decl)
{
    const cg_stmt *in = decl->next;
    const cg_sym *y = &c->k->syms[decl->u.reg];
    if (!y->implicit || y->kind != CG_SYM_REG || !sg_inst_match(in, "ld.shared.*", 2) ||
        strcmp(in->u.inst.mods[1], y->type) ||
        !sg_reg_is(in->u.inst.ops, decl->u.reg) || in->u.inst.ops->next->kind != CG_O_ADDR)
        return NULL;
    sg_st(c->m)->uses_smem = 1;
    return one_reg(c, LOAD, decl->u.reg, in->u.inst.ops->next);
}

/* ---- mbarrier arrivals: the state register they allocate ---------------- */

/* x = fresh b64; mbarrier.arrive.shared.b64 x, [bar] (or
   arrive.expect_tx.shared::cta.b64 x, [bar], tx): what
   ptx.mbarrier.arrive(bar) (arrive_expect_tx(bar, tx)) emits, pyptx taking
   the state register x itself (ptx.py _Mbarrier). */
static alloc *merge_arrive(merger *c, const cg_stmt *decl)
{
    const cg_stmt *in = decl->next;
    const cg_sym *y = &c->k->syms[decl->u.reg];
    const char *call;
    if (sg_inst_match(in, "mbarrier.arrive.shared.b64", 2 | SG_ANY_GUARD))
        call = "ptx.mbarrier.arrive";
    else if (sg_inst_match(in, "mbarrier.arrive.expect_tx.shared::cta.b64", 3 | SG_ANY_GUARD))
        call = "ptx.mbarrier.arrive_expect_tx";
    else
        return NULL;
    if (!y->implicit || y->kind != CG_SYM_REG || strcmp(y->type, "b64") ||
        !sg_reg_is(in->u.inst.ops, decl->u.reg))
        return NULL;
    const cg_inst *i = &in->u.inst;
    uint8_t ak = i->ops->next->kind;
    if (ak != CG_O_ADDR && ak != SG_O_DYN && ak != SG_O_SLOT)
        return NULL;
    alloc *a = one_reg(c, ARRIVE, decl->u.reg, i->ops->next);
    a->init = call;
    a->guard = i->guard;
    a->width = c->refs[decl->u.reg] > 1;
    return a;
}

/* The instruction after x's declaration reads x (`add x, x, 32`): then x
   exists before it is written, and no helper that allocates x made it. */
static int reads_first(const cg_stmt *s, cg_symid x)
{
    return s->kind == CG_S_INST && s->u.inst.ops &&
           (sg_opnds_name(s->u.inst.guard, x, SG_ANY_INDEX) ||
            sg_opnds_name(s->u.inst.ops->next, x, SG_ANY_INDEX));
}

static uint32_t merge(merger *c, cg_stmt **head)
{
    uint32_t made = 0;
    for (cg_stmt **link = head; *link; link = &(*link)->next) {
        cg_stmt *s = *link, *last = NULL;
        alloc *a = NULL;
        if (s->kind != CG_S_REG || !s->next || reads_first(s->next, s->u.reg))
            continue;
        if ((a = merge_ptrs(c, s, &last)) == NULL && (a = merge_warp(c, s, &last)) == NULL &&
            (a = merge_wide(c, s, &last)) == NULL && (a = merge_wide_in_place(c, s, &last)) == NULL &&
            ((a = merge_mov(c, s, s->next)) || (a = merge_arrive(c, s)) ||
             (a = merge_operator(c, s)) || (a = merge_load(c, s))))
            last = s->next;
        if (!a)
            continue;
        c->opers += a->form == OPER;
        cg_stmt *node = sg_node_new(c->m, SG_S_ALLOC, s->first);
        sg_alloc_of(node)->a = a;
        sg_alloc_of(node)->orig = cg_splice(link, last, node);
        if (a->form == ARRIVE && !a->width) {   /* a call of its operands: "repeat"
                                                   may roll it (its state unread) */
            sg_alloc_of(node)->init = a->init;
            sg_alloc_of(node)->src = sg_copy_opnd(c->m, a->src);
            if (a->src->next)
                sg_alloc_of(node)->src->next = sg_copy_opnd(c->m, a->src->next);
        }
        made++;
    }
    return made;
}

/* ---- operator results read once, by the next statement ------------------ */

/* The run first..last, just cut from a list, goes at the end of node's
   orig.  A node stands for every statement it replaced: the walks that
   count a register's uses look through orig, and never into a merge's
   private data, where an operator nested into it (or a swizzle's offset)
   lives on.  orig's head stays the node's own declaration (range.c and
   mma.c read it). */
static void keep_replaced(cg_stmt *node, cg_stmt *first, cg_stmt *last)
{
    cg_stmt **end = &sg_alloc_of(node)->orig;
    while (*end)
        end = &(*end)->next;
    last->next = NULL;
    *end = first;
}

#define MAXUSE 16   /* operands of an instruction looked at */

/* The operator result x of node s (an OPER merge), or CG_NOSYM. */
static cg_symid oper_result(const cg_stmt *s)
{
    const alloc *a = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->a : NULL;
    return a && a->form == OPER ? a->regs[0] : CG_NOSYM;
}

/* The one operand of t (an instruction, or another operator's) naming x,
   where nothing else in t emits when evaluated; or NULL. */
static cg_opnd *sole_use(const merger *c, cg_stmt *t, cg_symid x)
{
    cg_opnd *v[MAXUSE], *hit = NULL;
    uint8_t quiet[MAXUSE] = { 0 };   /* an allocation a wrapper takes itself */
    unsigned n = 0;
    if (t->kind == CG_S_INST && !sg_inst_is(t, "setp") &&   /* compare.c's comparisons */
        !(t->u.inst.guard && t->u.inst.guard->kind == CG_O_SYM && t->u.inst.guard->sym == x)) {
        unsigned at = 0;
        for (cg_opnd *o = t->u.inst.ops; o && n < MAXUSE; o = o->next, at++) {
            quiet[n] = (o->kind == SG_O_DYN || o->kind == SG_O_SLOT) &&
                       sg_wrapper_takes_address(c->k, &t->u.inst, at) &&
                       sg_runs(c->m, "calls");   /* else _dyn_smem_addr() emits */
            v[n++] = o;
            for (cg_opnd *e = o->kind == CG_O_TMA ? o->elems : NULL; e && n < MAXUSE; e = e->next)
                v[n++] = e;                  /* a coordinate: coords=(0, r, (c >> 6)) */
        }
    } else if (oper_result(t) != CG_NOSYM &&
               sg_alloc_of(t)->a->src->kind == SG_O_OPER) {
        const cg_opnd *e = sg_alloc_of(t)->a->src;
        v[n++] = e->a;
        if (e->b)           /* not unary */
            v[n++] = e->b;
    } else {
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) {
        cg_opnd *o = v[i];
        if (o->kind == CG_O_ADDR && !sg_opnd_emits(o->a) && (!o->b || !sg_opnd_emits(o->b)))
            o = o->a;             /* ptx.addr(a + b, off): the register part */
        if (o->kind == CG_O_SYM && o->sym == x && o->index < 0 && !hit)
            hit = o;
        else if ((sg_opnd_emits(o) && !quiet[i]) || (o->kind == CG_O_SYM && o->sym == x))
            return NULL;
    }
    return hit;
}

/* ---- smem.apply_swizzle ------------------------------------------------- */

/* pyptx 0.1.1 (smem.py apply_swizzle, _SWIZZLE_PARAMS): x = fresh u32,
   `and.b32 x, off, mask; shr.u32 x, x, 3`, y = fresh u32, `xor.b32 y,
   off, x`: three operator-shaped merges in a row. */
static const struct { uint32_t mask; const char *mode; } swizzles[] = {
    { 0x080, "32B" }, { 0x180, "64B" }, { 0x380, "128B" },
};

static const cg_opnd *oper_src(const cg_stmt *s, const char *op)
{
    const alloc *a = s && s->kind == SG_S_ALLOC ? sg_alloc_of(s)->a : NULL;
    return a && a->form == OPER && sg_oper_is(a->src, op) ? a->src : NULL;
}


/* The swizzle mode of the run at s, or NULL. */
static const char *swizzle_at(const merger *c, const cg_stmt *s)
{
    const cg_opnd *and = oper_src(s, "&");
    const cg_stmt *shr = and ? s->next : NULL;
    const cg_opnd *xr = shr ? oper_src(shr->next, "^") : NULL;
    cg_symid b = and ? sg_alloc_of(s)->a->regs[0] : CG_NOSYM;
    if (!and || !xr || !sg_inst_match(shr, "shr.u32", 3) ||
        !sg_reg_is(shr->u.inst.ops, b) || !sg_reg_is(shr->u.inst.ops->next, b) ||
        !sg_int_is(shr->u.inst.ops->next->next, 3) || !sg_same_reg(and->a, xr->a) ||
        !sg_reg_is(xr->b, b) || and->a->kind != CG_O_SYM || c->refs[b] != 4)
        return NULL;
    for (unsigned i = 0; i < sizeof swizzles / sizeof *swizzles; i++)
        if (sg_int_is(and->b, swizzles[i].mask))
            return swizzles[i].mode;
    return NULL;
}

/* Each such run becomes `y = smem.apply_swizzle(off, "64B")`; an offset
   `x = a OP b` just before it, read by the run alone (its and and its
   xor), goes into the call: apply_swizzle(a OP b, "64B"). */
static uint32_t swizzle(merger *c, cg_stmt **head)
{
    uint32_t made = 0;
    for (cg_stmt **link = head, **prev = NULL; *link; prev = link, link = &(*link)->next) {
        const char *mode = swizzle_at(c, *link);
        if (!mode)
            continue;
        cg_stmt *y = (*link)->next->next;
        alloc *a = sg_alloc_of(y)->a;
        cg_opnd *off = sg_copy_opnd(c->m, a->src->a);
        cg_symid x = prev ? oper_result(*prev) : CG_NOSYM;
        if (x != CG_NOSYM && sg_reg_is(off, x) && c->refs[x] == 3) {
            off = sg_copy_opnd(c->m, sg_alloc_of(*prev)->a->src);
            link = prev;
        }
        off->next = sg_text_opnd(c->m, CG_O_STR, mode);
        a->src = sg_call_opnd(c->m, "smem.apply_swizzle", NULL, off);
        sg_st(c->m)->uses_smem = 1;
        cg_stmt *first = *link, *last = first;
        while (last->next != y)
            last = last->next;
        *link = y;
        keep_replaced(y, first, last);
        made++;
    }
    return made;
}

/* `x = a OP b` read only by the next statement goes into it. */
static uint32_t nest(merger *c, cg_stmt **head)
{
    uint32_t made = 0;
    for (cg_stmt **link = head; *link && (*link)->next; ) {
        cg_stmt *s = *link, *t = s->next;
        cg_symid x = oper_result(s);
        cg_opnd *use = x != CG_NOSYM && c->refs[x] == 2 ? sole_use(c, t, x) : NULL;
        if (!use) {
            link = &s->next;
            continue;
        }
        cg_opnd *next = use->next;
        *use = *sg_alloc_of(s)->a->src;
        use->next = next;
        *link = t;                    /* the result is pyptx's own now */
        if (t->kind == SG_S_ALLOC)    /* (an instruction holds the operator
                                         among its operands, where walks look) */
            keep_replaced(t, s, s);
        made++;
    }
    return made;
}

uint32_t sg_merge_decls(cg_module *m, cg_kernel *k, const uint32_t *refs)
{
    merger c = { .m = m, .k = k, .refs = refs };
    uint32_t made = merge(&c, &k->body);
    if (!c.opers)   /* both start at an operator merge() made: none to walk to */
        return made;
    made += swizzle(&c, &k->body);
    return made + nest(&c, &k->body);
}
