/*
 * sugar/decls.c - pass "decls": register declarations the way pyptx code
 * writes them.
 *
 *     rd0 = reg.scalar(b64, name="%rd0")         x_ptr, y_ptr = ptx.global_ptrs("X", "Y")
 *     rd1 = reg.scalar(b64, name="%rd1")         tid = reg.from_(ptx.special.tid.x(), u32)
 *     r0 = reg.scalar(u32, name="%r0")     ->    ...
 *     f1 = reg.scalar(f32, name="%f1")           f1 = reg.scalar(f32, init=0.0)
 *     ptx.param(u64, "X", rd0)
 *     ptx.inst.cvta.to.global_.u64(rd0, rd0)  ... ptx.mov(f32, f1, "0f00000000")
 *
 * What pyptx 0.1.1 does with declarations (NOTES.md): every top-level
 * reg.scalar/reg.array call goes to the kernel's declarations, in call
 * order, wherever the call stands among the statements; a reg.scalar
 * without name= takes the name prefix + counter (reg.py _REG_PREFIX, one
 * counter per prefix), and a reg.array(..., name=B) of N registers moves
 * B's counter to N.  So:
 *
 *  1. a scalar declaration whose name is the one pyptx would allocate at
 *     that point (replaying the counters over the declarations in order)
 *     drops its name=;
 *  2. each declaration moves down to just before the top-level statement
 *     that first names its register, but never past a later declaration
 *     (so the declarations keep their order, and the counters their
 *     values);
 *  3. a declaration right before the `mov` that first writes its
 *     register becomes reg.scalar(T, init=V) or reg.from_(src, T), and
 *     runs of `ld.param.u64 x, [P]; cvta.to.global.u64 x, x` on fresh b64
 *     registers become ptx.global_ptrs(...), and the butterfly rounds of
 *     fresh registers that ptx.warp.reduce_sum/max/min emit become that
 *     call - the very instructions and allocations those helpers make.
 *
 * A loop's predicate counts as named where the loop starts (ptx.loop takes
 * it at its head), so a declaration never moves into the loop it guards.
 * The predicate pool that "compare" will rewrite has its declaration made
 * by its last predicate (compare.c): it is placed after that statement.
 * Linear: one walk finds first uses, one rebuilds the top-level list.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define NONE UINT32_MAX

/* reg.py _REG_PREFIX: the prefix of an implicitly named scalar, by type.
   pred is absent: reg.scalar(pred) without a name uses the shared pool. */
static const struct { const char *type, *prefix; } prefixes[] = {
    { "b16", "%rs" }, { "b32", "%r" }, { "b64", "%rd" }, { "b128", "%rq" },
    { "u16", "%rs" }, { "u32", "%r" }, { "u64", "%rd" },
    { "s16", "%rs" }, { "s32", "%r" }, { "s64", "%rd" },
    { "f16", "%h" }, { "f16x2", "%hh" }, { "bf16", "%h" }, { "bf16x2", "%hh" },
    { "f32", "%f" }, { "f64", "%fd" }, { "e4m3", "%b" }, { "e5m2", "%b" },
    { "tf32", "%f" },
};

static const char *prefix_of(const char *type)
{
    for (unsigned i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (!strcmp(prefixes[i].type, type))
            return prefixes[i].prefix;
    return NULL;
}

typedef struct decls {
    cg_module *m;
    cg_kernel *k;
    uint32_t *first;     /* per symbol: the top-level statement naming it first */
    uint32_t *refs;      /* per symbol: how many statements name it */
    uint32_t at;         /* the top-level statement being walked */
    cg_map counters;     /* prefix -> pyptx's next index */
} decls;

/* ---- first uses -------------------------------------------------------- */

static void use(decls *c, cg_symid s)
{
    if (s >= c->k->nsyms)
        return;
    if (c->at < c->first[s])
        c->first[s] = c->at;
    c->refs[s]++;
}

static void use_text(decls *c, const cg_text *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].sym != CG_NOSYM)
            use(c, t->v[i].sym);
}

static void use_opnds(decls *c, const cg_opnd *o)
{
    for (; o; o = o->next) {
        if (o->kind == CG_O_SYM)
            use(c, o->sym);
        use_text(c, &o->text);
        if (o->a)   /* (most operands are leaves: no call for them) */
            use_opnds(c, o->a);
        if (o->b)
            use_opnds(c, o->b);
        if (o->elems)
            use_opnds(c, o->elems);
    }
}

static void use_stmts(decls *c, const cg_stmt *s, int one)
{
    for (; s; s = one ? NULL : s->next) {
        cg_stmt **body = cg_body((cg_stmt *)s);
        switch (s->kind) {
        case CG_S_INST:
            use_opnds(c, s->u.inst.ops);
            use_opnds(c, s->u.inst.guard);
            break;
        case CG_S_RAW: use_text(c, &s->u.raw.text); break;
        case CG_S_LABEL: use(c, s->u.label); break;
        case CG_S_VAR: use(c, s->u.var.sym); break;
        case CG_S_BIND: use(c, s->u.reg); break;
        default:
            if (s->kind >= CG_S_LOOP) {
                use_stmts(c, s->u.sugar.orig, 0);
                use_opnds(c, s->u.sugar.args);
                if (s->u.sugar.label != CG_NOSYM)
                    use(c, s->u.sugar.label);
            }
        }
        if (body)
            use_stmts(c, *body, 0);
    }
}

/* The guard of a top-level loop's back edge is used where its label stands:
   that is where the loops pass will print it (ptx.loop(..., pred=p)). */
static void use_loop_guards(decls *c, cg_stmt **a, unsigned n)
{
    uint32_t *label_at = cg_alloc(c->m, (c->k->nsyms + 1) * sizeof *label_at);
    for (uint32_t i = 0; i < c->k->nsyms; i++)
        label_at[i] = NONE;
    for (unsigned i = 0; i < n; i++) {
        cg_symid l;
        if (a[i]->kind == CG_S_LABEL && label_at[a[i]->u.label] == NONE)
            label_at[a[i]->u.label] = i;
        else if ((l = sg_back_edge(a[i])) != CG_NOSYM && label_at[l] != NONE &&
                 a[i]->u.inst.guard) {
            c->at = label_at[l];
            use_opnds(c, a[i]->u.inst.guard);
        }
    }
}

/* ---- 1. which declarations pyptx would name itself -------------------- */

static cg_mslot *counter(decls *c, const char *key, size_t n)
{
    cg_mslot *ct = cg_map_put(c->m, &c->counters, key, n);
    if (ct->val < 0) {
        ct->k = cg_strndup(c->m, key, n);
        ct->val = 0;
    }
    return ct;
}

/* reg.array(T, N) without a name (reg.py array): the first array of a
   prefix takes the prefix itself and N of its counter; a later one takes
   one and is named prefix + "arr" + (the prefix's array counter) + "_".
   1 if y is the one pyptx would make here (the counters then move). */
static int implicit_array(decls *c, const cg_sym *y, const char *pre)
{
    size_t n = strlen(pre);
    cg_mslot *ct = counter(c, pre, n);
    if (ct->val == 0) {
        if (strcmp(y->ptx, pre))
            return 0;
        ct->val = y->count ? (int32_t)y->count : 1;
        return 1;
    }
    char key[16], name[48];
    snprintf(key, sizeof key, "%s_arr", pre);
    cg_mslot *arr = counter(c, key, strlen(key));
    snprintf(name, sizeof name, "%sarr%d_", pre, arr->val);
    if (strcmp(y->ptx, name))
        return 0;
    ct->val++;
    arr->val++;
    return 1;
}

/* Replays pyptx's counters over the top-level declarations in order and
   marks those whose name is the one it would allocate. */
static void mark_implicit(decls *c, cg_stmt *s)
{
    for (; s; s = s->next) {
        if (s->kind != CG_S_REG)
            continue;
        cg_sym *y = &c->k->syms[s->u.reg];
        const char *pre = prefix_of(y->type);
        if (y->kind == CG_SYM_REGARRAY && pre && implicit_array(c, y, pre)) {
            y->implicit = 1;
            continue;
        }
        if (y->kind == CG_SYM_REGARRAY) {   /* name=B: B's counter to N */
            cg_mslot *ct = counter(c, y->ptx, strlen(y->ptx));
            if (ct->val < (int32_t)y->count)
                ct->val = (int32_t)y->count;
            continue;
        }
        size_t n = pre ? strlen(pre) : 0;
        if (!pre || strncmp(y->ptx, pre, n) || !cg_is_decimal(y->ptx + n, strlen(y->ptx + n)))
            continue;
        cg_mslot *ct = counter(c, pre, n);
        int32_t next = ct->val;
        if (strtol(y->ptx + n, NULL, 10) == next) {
            y->implicit = 1;
            ct->val = next + 1;
        }
    }
}

/* ---- 2. declarations at their first use ------------------------------- */

/* The top-level list with each declaration moved down to just before the
   statement that first names its register, declarations in their order. */
static void place(decls *c, cg_stmt **head, sg_scratch *sc)
{
    unsigned n, nd = 0;
    cg_stmt **a = sg_list_array(sc, *head, &n);
    uint32_t *ds = cg_alloc(c->m, (n + 1) * sizeof *ds);    /* declarations */
    uint32_t *pos = cg_alloc(c->m, (n + 1) * sizeof *pos);  /* their places */
    for (unsigned i = 0; i < n; i++)
        if (a[i]->kind == CG_S_REG)
            ds[nd++] = i;
    for (uint32_t j = nd, next = n; j-- > 0;) {
        uint32_t f = c->first[a[ds[j]]->u.reg];
        pos[j] = next = f < next ? f : next;
    }
    cg_stmt **tail = head;
    for (unsigned i = 0, j = 0; i <= n; i++) {
        for (; j < nd && pos[j] == i; j++) {
            *tail = a[ds[j]];
            tail = &a[ds[j]]->next;
        }
        if (i < n && a[i]->kind != CG_S_REG) {
            *tail = a[i];
            tail = &a[i]->next;
        }
    }
    *tail = NULL;
}

/* ---- 3. declarations merged with their first writer --------------------- */

enum { INIT, FROM, PTRS, WARP };

typedef struct alloc {
    uint8_t form;
    uint32_t n;            /* PTRS: pointers; else 1 */
    cg_symid *regs;        /* the registers declared */
    cg_symid *params;      /* PTRS: their parameters */
    const cg_opnd *src;    /* INIT, FROM: what the mov writes */
    const char *init;      /* INIT: the value as Python; WARP: sum, max, min */
    uint32_t width;        /* WARP: lanes */
} alloc;

static int inst_is(const cg_stmt *s, const char *op, const char *m0, const char *m1,
                   const char *m2)
{
    const char *want[3] = { m0, m1, m2 };
    unsigned n = m2 ? 3 : m1 ? 2 : m0 ? 1 : 0;
    if (!sg_inst_is(s, op) || s->u.inst.guard || s->u.inst.nmods != n)
        return 0;
    for (unsigned i = 0; i < n; i++)
        if (strcmp(s->u.inst.mods[i], want[i]))
            return 0;
    return 1;
}

static int is_reg(const cg_opnd *o, cg_symid s)
{
    return o && o->kind == CG_O_SYM && o->sym == s && o->index < 0;
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
static alloc *merge_mov(decls *c, const cg_stmt *decl, const cg_stmt *mov)
{
    const cg_sym *y = &c->k->syms[decl->u.reg];
    if (y->kind != CG_SYM_REG || !inst_is(mov, "mov", y->type, NULL, NULL) ||
        sg_nops(mov->u.inst.ops) != 2 || !is_reg(mov->u.inst.ops, decl->u.reg))
        return NULL;
    const cg_opnd *src = mov->u.inst.ops->next;
    alloc *a = cg_alloc(c->m, sizeof *a);
    a->n = 1;
    a->regs = cg_alloc(c->m, sizeof *a->regs);
    a->regs[0] = decl->u.reg;
    a->src = src;
    char buf[64], lit[40];
    if (src->kind == CG_O_INT) {
        a->form = INIT;
    } else if (src->kind == CG_O_STR && sg_text_lit(&src->text, lit, sizeof lit)) {
        a->form = INIT;
        if (float_literal(y->type, lit, buf, sizeof buf))
            a->init = cg_strndup(c->m, buf, strlen(buf));
    } else if (y->implicit && (src->kind == CG_O_SPECIAL || src->kind == CG_O_SYM)) {
        a->form = FROM;
    } else {
        return NULL;
    }
    return a;
}

/* x = fresh b64; ld.param.u64 x, [P]; cvta.to.global.u64 x, x: what
   ptx.global_ptrs emits for P.  The parameter, or CG_NOSYM. */
static cg_symid global_ptr(const decls *c, const cg_stmt *decl)
{
    const cg_stmt *ld = decl->next, *cv = ld ? ld->next : NULL;
    cg_symid x = decl->u.reg;
    const cg_sym *y = &c->k->syms[x];
    if (!y->implicit || strcmp(y->type, "b64") || !inst_is(ld, "ld", "param", "u64", NULL) ||
        !inst_is(cv, "cvta", "to", "global", "u64") || sg_nops(ld->u.inst.ops) != 2 ||
        sg_nops(cv->u.inst.ops) != 2 || !is_reg(ld->u.inst.ops, x) ||
        !is_reg(cv->u.inst.ops, x) || !is_reg(cv->u.inst.ops->next, x))
        return CG_NOSYM;
    const cg_opnd *ad = ld->u.inst.ops->next;
    if (ad->kind != CG_O_ADDR || ad->b || ad->a->kind != CG_O_SYM || ad->a->index >= 0 ||
        c->k->syms[ad->a->sym].kind != CG_SYM_PARAM)
        return CG_NOSYM;
    return ad->a->sym;
}

/* The pointer registers get their parameter's name: x_ptr for X. */
static void name_pointer(decls *c, cg_symid reg, cg_symid param)
{
    char base[64];
    size_t i = 0;
    for (const char *p = c->k->syms[param].ptx; *p && i + 5 < sizeof base; p++)
        base[i++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
    memcpy(base + i, "_ptr", 5);
    const char *py = cg_is_identifier(base, strlen(base)) ? sg_py_fresh(c->m, c->k, base) : NULL;
    if (py)
        c->k->syms[reg].py = py;
}

/* A run of global_ptrs groups from *link, as one node. */
static alloc *merge_ptrs(decls *c, cg_stmt *decl, cg_stmt **last)
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
static int fresh(const decls *c, const cg_stmt *s, const char *type)
{
    if (!s || s->kind != CG_S_REG)
        return 0;
    const cg_sym *y = &c->k->syms[s->u.reg];
    return y->kind == CG_SYM_REG && y->implicit && !strcmp(y->type, type) &&
           c->refs[s->u.reg] == 2;
}

static int int_is(const cg_opnd *o, long v)
{
    char buf[24];
    return o && o->kind == CG_O_INT && sg_text_lit(&o->text, buf, sizeof buf) &&
           strtol(buf, NULL, 10) == v && cg_is_decimal(buf + (buf[0] == '-'),
                                                        strlen(buf + (buf[0] == '-')));
}

static const char *const reduce_ops[][2] = { { "add", "sum" }, { "max", "max" }, { "min", "min" } };

/* One round at s with xor mask `mask` on register val: the statement after
   it, or NULL.  *op: the combining op (sum, max, min), checked against
   earlier rounds. */
static cg_stmt *warp_round(const decls *c, cg_stmt *s, const cg_opnd *val, int fl,
                           long mask, const char **op)
{
    cg_stmt *mv = s ? s->next : NULL, *dt = mv ? mv->next : NULL;
    cg_stmt *sh = dt ? dt->next : NULL, *t = sh ? sh->next : NULL;
    if (!fresh(c, s, "b32") || !inst_is(mv, "mov", "b32", NULL, NULL) ||
        !is_reg(mv->u.inst.ops, s->u.reg) || !sg_opnd_equal(mv->u.inst.ops->next, val) ||
        !fresh(c, dt, "b32") || !inst_is(sh, "shfl", "sync", "bfly", "b32") ||
        sg_nops(sh->u.inst.ops) != 5)
        return NULL;
    const cg_opnd *o = sh->u.inst.ops;
    if (!is_reg(o, dt->u.reg) || !is_reg(o->next, s->u.reg) || !int_is(o->next->next, mask) ||
        !int_is(o->next->next->next, 31) || !int_is(o->next->next->next->next, -1))
        return NULL;
    cg_symid partner = dt->u.reg;
    if (fl) {                          /* mov.b32 into a fresh f32 */
        cg_stmt *fd = t, *fm = fd ? fd->next : NULL;
        if (!fresh(c, fd, "f32") || !inst_is(fm, "mov", "b32", NULL, NULL) ||
            !is_reg(fm->u.inst.ops, fd->u.reg) || !is_reg(fm->u.inst.ops->next, dt->u.reg))
            return NULL;
        partner = fd->u.reg;
        t = fm->next;
    }
    for (unsigned i = 0; i < sizeof reduce_ops / sizeof *reduce_ops; i++) {
        if (!inst_is(t, reduce_ops[i][0], fl ? "f32" : "u32", NULL, NULL) ||
            sg_nops(t->u.inst.ops) != 3 || (*op && strcmp(*op, reduce_ops[i][1])))
            continue;
        const cg_opnd *d = t->u.inst.ops;
        if (sg_opnd_equal(d, val) && sg_opnd_equal(d->next, val) &&
            is_reg(d->next->next, partner)) {
            *op = reduce_ops[i][1];
            return t;
        }
    }
    return NULL;
}

/* The rounds of a warp reduction from decl (masks width/2 ... 1). */
static alloc *merge_warp(decls *c, cg_stmt *decl, cg_stmt **last)
{
    cg_stmt *mv = decl->next;
    if (!fresh(c, decl, "b32") || !inst_is(mv, "mov", "b32", NULL, NULL) ||
        sg_nops(mv->u.inst.ops) != 2)
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
    alloc *a = cg_alloc(c->m, sizeof *a);
    a->form = WARP;
    a->n = 1;
    a->regs = cg_alloc(c->m, sizeof *a->regs);
    a->regs[0] = decl->u.reg;
    a->src = val;
    a->init = op;
    a->width = width;
    return a;
}

static uint32_t merge(decls *c, cg_stmt **head)
{
    uint32_t made = 0;
    for (cg_stmt **link = head; *link; link = &(*link)->next) {
        cg_stmt *s = *link, *last = NULL;
        alloc *a = NULL;
        if (s->kind != CG_S_REG || !s->next)
            continue;
        if ((a = merge_ptrs(c, s, &last)) == NULL && (a = merge_warp(c, s, &last)) == NULL &&
            (a = merge_mov(c, s, s->next)))
            last = s->next;
        if (!a)
            continue;
        cg_stmt *node = cg_stmt_new(c->m, CG_S_ALLOC, s->first);
        node->u.sugar.data = a;
        node->u.sugar.orig = cg_splice(link, last, node);
        made++;
    }
    return made;
}

/* ---- printing ------------------------------------------------------------- */

void sg_print_alloc(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                    int depth, ptx_buf *out)
{
    const alloc *a = s->u.sugar.data;
    const cg_sym *y = &k->syms[a->regs[0]];
    cg_opnd src;
    sg_indent(out, depth);
    if (a->form == PTRS) {
        ptx_buf_puts(out, a->n == 1 ? "(" : "");
        for (uint32_t i = 0; i < a->n; i++)
            ptx_buf_printf(out, "%s%s", i ? ", " : "", k->syms[a->regs[i]].py);
        ptx_buf_puts(out, a->n == 1 ? ",) = ptx.global_ptrs(" : " = ptx.global_ptrs(");
        for (uint32_t i = 0; i < a->n; i++) {
            cg_opnd p = { .kind = CG_O_SYM, .sym = a->params[i], .index = -1 };
            ptx_buf_puts(out, i ? ", " : "");
            cg_print_opnd(m, k, &p, out);
        }
        ptx_buf_puts(out, ")\n");
        return;
    }
    src = *a->src;
    src.next = NULL;
    if (a->form == WARP) {
        ptx_buf_printf(out, "ptx.warp.reduce_%s(", a->init);
        cg_print_opnd(m, k, &src, out);
        if (a->width != 32)
            ptx_buf_printf(out, ", width=%u", a->width);
        ptx_buf_puts(out, ")\n");
        return;
    }
    ptx_buf_printf(out, "%s = ", y->py);
    if (a->form == FROM) {
        ptx_buf_puts(out, "reg.from_(");
        cg_print_opnd(m, k, &src, out);
        ptx_buf_printf(out, ", %s)\n", y->type);
        return;
    }
    ptx_buf_printf(out, "reg.scalar(%s, init=", y->type);
    if (a->init)
        ptx_buf_puts(out, a->init);
    else
        cg_print_opnd(m, k, &src, out);     /* an int, or the text as a str */
    if (!y->implicit) {
        ptx_buf_puts(out, ", name=\"");
        ptx_buf_puts(out, y->ptx);
        ptx_buf_putc(out, '"');
    }
    ptx_buf_puts(out, ")\n");
}

/* ---- the pass ------------------------------------------------------------- */

uint32_t sugar_decls(cg_module *m, cg_kernel *k)
{
    decls c = { .m = m, .k = k };
    sg_scratch sc = { 0 };
    unsigned n;
    cg_stmt **a = sg_list_array(&sc, k->body, &n);
    c.first = cg_alloc(m, (k->nsyms + 1) * sizeof *c.first);
    c.refs = cg_alloc(m, (k->nsyms + 1) * sizeof *c.refs);
    for (uint32_t i = 0; i < k->nsyms; i++)
        c.first[i] = NONE;
    use_loop_guards(&c, a, n);
    for (c.at = 0; c.at < n; c.at++)
        if (a[c.at]->kind != CG_S_REG)
            use_stmts(&c, a[c.at], 1);
    cg_symid pool;
    uint32_t last = sg_pool_last(m, k, a, n, &pool);
    if (last != NONE)
        c.first[pool] = last + 1;
    mark_implicit(&c, k->body);
    place(&c, &k->body, &sc);
    ptx_buf_free(&sc);
    uint32_t made = merge(&c, &k->body);
    for (uint32_t i = 0; i < k->nsyms; i++)
        made += k->syms[i].implicit;
    return made;
}
