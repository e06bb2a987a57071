/*
 * sugar/specials.c - part of pass "names": a register that holds a special
 * register gets that register's name,
 *
 *     ptx.inst.mov.u32(r[5], ptx.special.tid.x())      tid = r[5]
 *     ptx.inst.add.s32(r[6], r[5], 1)            ->    ptx.inst.mov.u32(tid, ptx.special.tid.x())
 *                                                      ptx.inst.add.s32(r[6], tid, 1)
 *
 * where that is certain: the register is written by that mov alone (it
 * never stands first among another instruction's operands, where PTX puts
 * destinations), nothing names it before the mov, and no carried text
 * names it at all.  A scalar register is simply renamed in Python; for an
 * array element, `tid` is a Python alias of the same pyptx register
 * (`tid = r[5]` records nothing), so the PTX does not change: tracing runs
 * the body once from top to bottom, and every use comes after the alias.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

/* The Python names of the special registers that get one. */
static const struct { const char *ptx, *py; } names[] = {
    { "%tid.x", "tid" },         { "%tid.y", "tid_y" },       { "%tid.z", "tid_z" },
    { "%ntid.x", "ntid" },       { "%ntid.y", "ntid_y" },     { "%ntid.z", "ntid_z" },
    { "%ctaid.x", "ctaid" },     { "%ctaid.y", "ctaid_y" },   { "%ctaid.z", "ctaid_z" },
    { "%nctaid.x", "nctaid" },   { "%nctaid.y", "nctaid_y" }, { "%nctaid.z", "nctaid_z" },
    { "%laneid", "laneid" },     { "%warpid", "warpid" },
};

#define NEVER UINT32_MAX

typedef struct seen {
    const cg_opnd *first;  /* the first operand naming it (NULL: text) */
    uint32_t writers;    /* statements that have it first among operands */
    uint8_t carried;     /* raw text names it */
    uint8_t named;       /* something names it */
} seen;

typedef struct use {     /* an operand naming a candidate's register */
    cg_opnd *o;
    uint32_t slot;
} use;

typedef struct specials {
    cg_module *m;
    cg_kernel *k;
    uint32_t *base;      /* symbol -> first slot */
    uint32_t nbase;      /* symbols that have one (not the aliases made) */
    seen *v;             /* per register slot */
    uint32_t made;       /* aliases made so far */
    sg_opnd_fn str;      /* the caller's, for every CG_O_STR operand of */
    void *strctx;        /* an instruction (sg_name_specials) */
    uint8_t *cand;       /* per register slot: a special's mov writes it (the
                            walk keeps account of those alone, so only
                            their v and to are set up) */
    uint32_t *to;        /* per register slot: the symbol that names it after
                            its alias is made, or CG_NOSYM */
    uint8_t *cand_sym;   /* per symbol: one of its slots is such a slot */
    sg_scratch movs;     /* mov: each such mov, in order */
    uint32_t next;       /* the walk: the first mov it has not met yet */
    sg_scratch uses;     /* use: every operand naming a candidate's register */
} specials;

typedef struct mov {
    cg_stmt *s;
    cg_stmt **link;      /* where it stands: set by the walk */
} mov;

static uint32_t slot(const specials *c, cg_symid s, int32_t idx)
{
    if (s >= c->nbase)
        return NEVER;
    const cg_sym *y = &c->k->syms[s];
    if (y->kind == CG_SYM_REGARRAY)
        return idx >= 0 && (uint32_t)idx < y->count ? c->base[s] + (uint32_t)idx : NEVER;
    return y->kind == CG_SYM_REG ? c->base[s] : NEVER;
}

/* Operand o (NULL: carried text) names register slot (s, idx). */
static void note(specials *c, cg_opnd *o, cg_symid s, int32_t idx, int writer, int carried)
{
    if (s >= c->nbase || !c->cand_sym[s])   /* (the common case: no table look) */
        return;
    uint32_t i = slot(c, s, idx);
    if (i == NEVER || !c->cand[i])
        return;
    if (!c->v[i].named)
        c->v[i].first = o;
    c->v[i].named = 1;
    c->v[i].writers += (uint32_t)writer;
    c->v[i].carried |= (uint8_t)carried;
    if (o) {
        use *u = (use *)ptx_buf_room(&c->uses, sizeof *u);
        u->o = o;
        u->slot = i;
        c->uses.n += sizeof *u;
    }
}

static void note_text(specials *c, const cg_text *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->v[i].sym != CG_NOSYM)
            note(c, NULL, t->v[i].sym, t->v[i].index, 0, 1);
}

/* Every register operand o (and those inside it) names;
   dst: the list's destination (its first operand, or NULL), which with
   the first element of a vector there counts as a possible writer; strs:
   its strings go to c->str.  Not a visitor with a callback: it
   runs on every operand of every kernel, most of them a register that is
   no candidate's, which the first test turns away. */
static void note_opnds(specials *c, cg_opnd *o, const cg_opnd *dst, int strs);

static void note_one(specials *c, cg_opnd *o, const cg_opnd *dst, int strs)
{
    if (o->kind == CG_O_SYM && o->sym < c->nbase && c->cand_sym[o->sym])
        note(c, o, o->sym, o->index,
             dst && (o == dst || (dst->kind == CG_O_VEC && o == dst->elems)), 0);
    else if (o->kind == CG_O_STR && strs && c->str)
        c->str(c->strctx, o);
    if (sg_text_names(o))
        note_text(c, &o->text);
    if (o->a)
        note_opnds(c, o->a, dst, strs);
    if (o->b)
        note_opnds(c, o->b, dst, strs);
    if (o->elems)
        note_opnds(c, o->elems, dst, strs);
}

static void note_opnds(specials *c, cg_opnd *o, const cg_opnd *dst, int strs)
{
    for (; o; o = o->next)
        note_one(c, o, dst, strs);
}

/* Every operand of the statements at *link and below; where the walk
   meets the next candidate mov (c->movs, in the order of the source, as
   the walk goes) in the kernel's own lists (`stands`: not in the
   statements a node of an earlier pass replaced), it notes where that mov
   stands. */
static void walk(specials *c, cg_stmt **link, int stands)
{
    mov *mv = (mov *)c->movs.p;
    for (; *link; link = &(*link)->next) {
        cg_stmt *s = *link, **body = cg_body(s);
        if (stands && c->next < c->movs.n / sizeof *mv && s == mv[c->next].s)
            mv[c->next++].link = link;
        if (s->kind == CG_S_INST) {
            note_opnds(c, s->u.inst.ops, s->u.inst.ops, 1);
            if (s->u.inst.guard)
                note_one(c, s->u.inst.guard, NULL, 0);
        } else if (s->kind == CG_S_RAW) {
            note_text(c, &s->u.raw.text);
        } else if (s->kind >= CG_S_EXT) {   /* nodes of earlier passes */
            cg_stmt *orig = sg_orig(s);
            if (orig)
                walk(c, &orig, 0);
            note_opnds(c, sg_args(s), NULL, 0);
        }
        if (body)
            walk(c, body, stands);
    }
}

/* The special register that s moves into a register, or NULL. */
static const char *special_mov(const cg_stmt *s)
{
    /* asked of every statement: the opcode turns most away, without a call */
    const char *op = s->kind == CG_S_INST ? s->u.inst.op : "";
    if (op[0] != 'm' || op[1] != 'o' || op[2] != 'v' || op[3] || !sg_inst_match(s, "mov.*", 2))
        return NULL;
    const char *t = s->u.inst.mods[0];
    const cg_opnd *d = s->u.inst.ops, *src = d->next;
    if ((strcmp(t, "u32") && strcmp(t, "b32") && strcmp(t, "s32")) ||
        d->kind != CG_O_SYM || src->kind != CG_O_SPECIAL)
        return NULL;
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
        if (src->text.v->n == strlen(names[i].ptx) &&
            !memcmp(src->text.v->p, names[i].ptx, src->text.v->n))
            return names[i].py;
    return NULL;
}

/* Marks the slots the movs of special registers write and notes each
   such mov (c->movs, in the order of the source); how many.  The build
   listed the instructions that read a special register (cg_kernel.
   special_reads): no rewrite has run yet, so they are the kernel's. */
static uint32_t candidates(specials *c)
{
    for (uint32_t j = 0; j < c->k->nspecial_reads; j++) {
        cg_stmt *s = c->k->special_reads[j];
        uint32_t i = special_mov(s) ? slot(c, s->u.inst.ops->sym, s->u.inst.ops->index) : NEVER;
        if (i == NEVER)
            continue;
        c->cand[i] = 1;
        c->cand_sym[s->u.inst.ops->sym] = 1;
        c->v[i] = (seen){ 0 };
        c->to[i] = CG_NOSYM;
        *(mov *)ptx_buf_room(&c->movs, sizeof(mov)) = (mov){ s, NULL };
        c->movs.n += sizeof(mov);
    }
    return (uint32_t)(c->movs.n / sizeof(mov));
}

/* A scalar register is renamed in Python (tid = reg.scalar(...)); for an
   element r[5], `py = r[5]` goes before the mov at *link and a register
   symbol stands for r[5] under the name py.  The symbol that names the
   register from now on, or CG_NOSYM. */
static cg_symid make_alias(specials *c, cg_stmt **link, const char *base)
{
    const cg_opnd *d = (*link)->u.inst.ops;
    const char *py = sg_py_fresh(c->m, c->k, base);
    if (!py)
        return CG_NOSYM;
    if (d->index < 0) {
        c->k->syms[d->sym].py = py;
        return d->sym;
    }
    char ptx[300];
    const cg_sym *y = &c->k->syms[d->sym];
    snprintf(ptx, sizeof ptx, "%s%d", y->ptx, d->index);
    const char *type = y->type;   /* y moves if the table grows */
    cg_symid s = cg_sym_add(c->m, c->k, CG_SYM_REG, cg_strndup(c->m, ptx, strlen(ptx)),
                            type, 0, 0);
    c->k->syms[s].py = py;
    c->k->syms[s].alias = 1;
    cg_stmt *alias = sg_node_new(c->m, SG_S_ALIAS, (*link)->first);
    sg_alias_of(alias)->name = s;
    sg_alias_of(alias)->elem = sg_copy_opnd(c->m, d);
    alias->next = *link;
    *link = alias;
    return s;
}

/* Aliases for the movs of special registers that qualify (nothing names
   the register before the mov, which alone writes it, and no carried text
   names it), in statement order; then every operand naming such an
   element names its alias (the walk noted them all: no second walk). */
static void make_aliases(specials *c, uint32_t *to)
{
    const mov *mv = (const mov *)c->movs.p;
    for (uint32_t j = 0; j < c->next; j++) {   /* (the walk met them all) */
        cg_stmt **link = mv[j].link;
        const cg_opnd *d = (*link)->u.inst.ops;
        uint32_t i = slot(c, d->sym, d->index);
        const seen *v = &c->v[i];
        if (v->first == d && v->writers == 1 && !v->carried &&
            (to[i] = make_alias(c, link, special_mov(*link))) != CG_NOSYM)
            c->made++;
    }
    use *u = (use *)c->uses.p;
    for (size_t j = 0; j < c->uses.n / sizeof *u; j++)
        if (to[u[j].slot] != CG_NOSYM && u[j].o->index >= 0) {   /* a scalar keeps its symbol */
            u[j].o->sym = to[u[j].slot];
            u[j].o->index = -1;
        }
}

uint32_t sg_name_specials(cg_module *m, cg_kernel *k, sg_opnd_fn str, void *ctx)
{
    specials c = { .m = m, .k = k, .str = str, .strctx = ctx };
    uint64_t total = 0;
    uint32_t nsyms = k->nsyms;
    c.base = cg_alloc(m, (nsyms + 1) * sizeof *c.base);
    c.nbase = nsyms;
    for (uint32_t i = 0; i < nsyms; i++) {
        c.base[i] = (uint32_t)total;
        total += k->syms[i].kind == CG_SYM_REGARRAY ? k->syms[i].count
                 : k->syms[i].kind == CG_SYM_REG;
    }
    if (total > SG_MAX_TRACKED_REGS) {
        c.nbase = 0;   /* no register tracked: the walk only hands strings over */
        walk(&c, &k->body, 1);
        return 0;
    }
    uint32_t nregs = (uint32_t)total;
    sg_scratch scratch = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &scratch, &c.movs, &c.uses, NULL);
    ptx_buf_reserve(&scratch, (nregs + 1) * (sizeof *c.v + sizeof(uint32_t) + 1) + nsyms + 1);
    c.v = (seen *)scratch.p;   /* set up for the candidates alone */
    c.to = (uint32_t *)(c.v + nregs + 1);
    c.cand = (uint8_t *)(c.to + nregs + 1);
    c.cand_sym = c.cand + nregs + 1;
    memset(c.cand, 0, nregs + 1 + nsyms + 1);
    if (candidates(&c)) {
        walk(&c, &k->body, 1);
        make_aliases(&c, c.to);
    } else {
        c.nbase = 0;   /* as above */
        walk(&c, &k->body, 1);
    }
    ptx_free_bufs(&ob);
    return c.made;
}

void sg_print_alias(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                    int depth, ptx_buf *out)
{
    sg_indent(out, depth);
    ptx_buf_printf(out, "%s = ", k->syms[sg_alias_of(s)->name].py);
    cg_print_opnd(m, k, sg_alias_of(s)->elem, out);
    ptx_buf_putc(out, '\n');
}
