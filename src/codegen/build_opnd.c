/*
 * build_opnd.c - instruction operands and ptx.inst calls (DESIGN.md 4.5, 5).
 */
#include <string.h>
#include "codegen/build.h"

static ptx_str tstr(const cg_builder *b, ptx_tok t)
{
    return ptx_tok_str(b->pm, t);
}

ptx_tok cg_expr_last(const ptx_expr *e)
{
    switch (e->kind) {
    case PTX_E_UNARY: case PTX_E_CAST: return cg_expr_last(e->a);
    case PTX_E_BINARY: return cg_expr_last(e->b);
    case PTX_E_COND: return cg_expr_last(e->c);
    case PTX_E_PAREN: case PTX_E_VECTOR: case PTX_E_ADDRESS: case PTX_E_CALL:
        return e->close;
    default: return e->tok;
    }
}

static ptx_tok expr_first(const ptx_expr *e)
{
    if (e->kind == PTX_E_BINARY || e->kind == PTX_E_COND)
        return expr_first(e->a);
    return e->tok;
}

static int tok_is(const cg_builder *b, ptx_tok t, char c)
{
    return b->pm->toks[t].kind == (uint32_t)(unsigned char)c;
}

/* Special registers that get ptx.sreg(...) (the harness's list). */
static const char *const sreg_prefix[] = {
    "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid",
    "%smid", "%nsmid", "%gridid", "%clock", "%clock64", "%clock_hi",
    "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%lanemask_eq",
    "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
    "%total_smem_size", "%aggr_smem_size", "%dynamic_smem_size",
    "%current_graph_exec", "%cluster_ctarank", "%cluster_nctarank",
    "%is_explicit_cluster", "%clusterid", "%nclusterid", "%cluster_ctaid",
    "%cluster_nctaid", "%envreg", "%pm", "%reserved_smem_offset",
};

static int is_special(ptx_str s)
{
    size_t n = s.n;
    if (n > 2 && s.p[n - 2] == '.' && s.p[n - 1] >= 'x' && s.p[n - 1] <= 'z')
        n -= 2;
    for (unsigned i = 0; i < sizeof sreg_prefix / sizeof *sreg_prefix; i++) {
        size_t l = strlen(sreg_prefix[i]);
        if (n < l || memcmp(s.p, sreg_prefix[i], l))
            continue;
        if (n == l)
            return 1;
        /* %envreg3, %pm0_64, %reserved_smem_offset_begin */
        char c = s.p[l];
        if ((c >= '0' && c <= '9') || (c == '_' && l > 3 && s.p[l - 1] == 't'))
            return !strcmp(sreg_prefix[i], "%envreg") ||
                   !strcmp(sreg_prefix[i], "%pm") ||
                   !strcmp(sreg_prefix[i], "%reserved_smem_offset");
    }
    return 0;
}

static cg_opnd *lit(cg_builder *b, cg_opnd_kind kind, const char *p, size_t n)
{
    cg_opnd *o = cg_opnd_new(b->m, kind);
    o->text = cg_text_lit(b->m, p, n);
    return o;
}

static cg_opnd *str_of(cg_builder *b, const ptx_expr *e)
{
    cg_opnd *o = cg_opnd_new(b->m, CG_O_STR);
    o->text = cg_text_span(b, expr_first(e), cg_expr_last(e) + 1, PTX_NOTOK);
    return o;
}

static cg_opnd *sym_opnd(cg_builder *b, cg_symid id, int32_t idx)
{
    cg_opnd *o = cg_opnd_new(b->m, CG_O_SYM);
    o->sym = id;
    o->index = idx;
    b->k->syms[id].uses++;
    b->k->syms[id].elem0 |= idx == 0;
    return o;
}

static cg_opnd *name_opnd(cg_builder *b, const ptx_expr *e)
{
    ptx_str s = tstr(b, e->tok);
    int32_t idx;
    cg_symid id = cg_resolve(b, s.p, s.n, &idx);
    if (id != CG_NOSYM)
        return sym_opnd(b, id, idx);
    if (s.p[0] == '%' && is_special(s)) {
        b->special = 1;
        return lit(b, CG_O_SPECIAL, s.p, s.n);
    }
    if (s.n > 2 && s.p[0] == '$' && s.p[1] == '_')
        b->k->stray_fresh_like = 1;
    return lit(b, CG_O_STR, s.p, s.n);
}

static cg_opnd *reg_of(cg_builder *b, const ptx_expr *e)
{
    if (e->kind != PTX_E_NAME)
        return NULL;
    ptx_str s = tstr(b, e->tok);
    int32_t idx;
    cg_symid id = cg_resolve_reg(b, s.p, s.n, &idx);
    return id == CG_NOSYM ? NULL : sym_opnd(b, id, idx);
}

/* -N with N plain decimal, not 0: a Python int prints the same tokens. */
static cg_opnd *neg_int(cg_builder *b, const ptx_expr *e, const char *prefix)
{
    if (e->kind != PTX_E_UNARY || !tok_is(b, e->tok, '-') ||
        e->a->kind != PTX_E_INT)
        return NULL;
    ptx_str d = tstr(b, e->a->tok);
    if (!cg_is_decimal(d.p, d.n) || (d.n == 1 && d.p[0] == '0'))
        return NULL;
    size_t pl = strlen(prefix);
    char *t = cg_alloc(b->m, pl + d.n + 1);
    memcpy(t, prefix, pl);
    memcpy(t + pl, d.p, d.n);
    return lit(b, pl == 1 ? CG_O_INT : CG_O_STR, t, pl + d.n);
}

/* Most operands, and nearly all vector elements, are plain names: they
   skip cg_build_opnd's dispatch (and its frame). */
static inline cg_opnd *one_opnd(cg_builder *b, const ptx_expr *e)
{
    return e->kind == PTX_E_NAME ? name_opnd(b, e) : cg_build_opnd(b, e, PTX_NOTOK);
}

static cg_opnd *list_opnds(cg_builder *b, const ptx_expr *e, cg_opnd_kind k)
{
    cg_opnd *o = cg_opnd_new(b->m, k), **tail = &o->elems;
    uint32_t n = 0;
    for (const ptx_expr *x = e; x; x = x->next, n++) {
        if (x->next && x->sep == PTX_NOTOK)
            return NULL;
        if (!(*tail = one_opnd(b, x)))
            return NULL;
        tail = &(*tail)->next;
    }
    if (k == CG_O_VEC && n > b->k->max_vec)
        b->k->max_vec = n;
    return o;
}

/* Address base: a register, a symbol, a number (as a string). */
static cg_opnd *addr_base(cg_builder *b, const ptx_expr *e)
{
    if (e->kind == PTX_E_NAME)
        return name_opnd(b, e);
    if (e->kind == PTX_E_INT) {
        ptx_str s = tstr(b, e->tok);
        return lit(b, CG_O_STR, s.p, s.n);
    }
    return NULL;
}

/* The offset after `+`: pyptx writes "+" itself when the text starts with
   a letter, digit, '_' or '%' (emitter: AddressOperand). */
static cg_opnd *plus_offset(cg_builder *b, const ptx_expr *e)
{
    if (e->kind == PTX_E_INT) {
        ptx_str s = tstr(b, e->tok);
        return lit(b, cg_is_decimal(s.p, s.n) ? CG_O_INT : CG_O_STR, s.p, s.n);
    }
    if (e->kind == PTX_E_UNARY && e->a->kind == PTX_E_INT)
        return neg_int(b, e, "+-");
    if (e->kind != PTX_E_NAME)
        return NULL;
    cg_opnd *o = name_opnd(b, e);
    ptx_str s = tstr(b, e->tok);
    char c = s.p[0];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
             c == '%' || (c >= '0' && c <= '9');
    return ok ? o : NULL;
}

static cg_opnd *address(cg_builder *b, const ptx_expr *e)
{
    const ptx_expr *x = e->a;
    cg_opnd *o = cg_opnd_new(b->m, CG_O_ADDR);
    if (!x)
        return NULL;
    if (x->next) { /* [base, {c0, c1}] */
        if (x->next->next || x->next->kind != PTX_E_VECTOR)
            return NULL;
        o->kind = CG_O_TMA;
        cg_opnd *v = list_opnds(b, x->next->a, CG_O_VEC);
        if (!v || !(o->a = addr_base(b, x)))
            return NULL;
        o->elems = v->elems;
        for (cg_opnd *c = o->elems; c; c = c->next)
            if (c->kind > CG_O_STR)
                return NULL;
        return o;
    }
    if (x->kind != PTX_E_BINARY) {
        o->a = addr_base(b, x);
        return o->a ? o : NULL;
    }
    if (!(o->a = addr_base(b, x->a)))
        return NULL;
    if (tok_is(b, x->tok, '+'))
        o->b = plus_offset(b, x->b);
    else if (tok_is(b, x->tok, '-') && x->b->kind == PTX_E_INT) {
        ptx_expr neg = { .kind = PTX_E_UNARY, .tok = x->tok, .a = x->b };
        o->b = neg_int(b, &neg, "-");
    }
    return o->b ? o : NULL;
}

cg_opnd *cg_build_opnd(cg_builder *b, const ptx_expr *e, ptx_tok end)
{
    cg_opnd *o;
    switch (e->kind) {
    case PTX_E_NAME:
        return name_opnd(b, e);
    case PTX_E_INT: {
        ptx_str s = tstr(b, e->tok);
        return lit(b, cg_is_decimal(s.p, s.n) ? CG_O_INT : CG_O_STR, s.p, s.n);
    }
    case PTX_E_UNARY:
        if ((o = neg_int(b, e, "-")))
            return o;
        if (tok_is(b, e->tok, '!') && (o = reg_of(b, e->a))) {
            cg_opnd *n = cg_opnd_new(b->m, CG_O_NOT);
            n->a = o;
            return n;
        }
        return str_of(b, e);
    case PTX_E_BINARY:
        if (tok_is(b, e->tok, '|')) {
            cg_opnd *l = reg_of(b, e->a), *r = l ? reg_of(b, e->b) : NULL;
            if (l && r) {
                o = cg_opnd_new(b->m, CG_O_PIPE);
                o->a = l;
                o->b = r;
                return o;
            }
        }
        return str_of(b, e);
    case PTX_E_VECTOR:
        return list_opnds(b, e->a, CG_O_VEC);
    case PTX_E_PAREN:
        return list_opnds(b, e->a, CG_O_TUPLE);
    case PTX_E_ADDRESS:
        return address(b, e);
    default:
        return str_of(b, e);
    }
}

/* The opcode token must be exactly opcode(.mod)*, as pyptx rebuilds it. */
static int op_matches(cg_builder *b, const ptx_instr *in)
{
    ptx_str t = tstr(b, in->op);
    size_t at = in->opcode.n;
    if (t.n < at || (in->opcode.p != t.p && memcmp(t.p, in->opcode.p, at)))
        return 0;
    for (uint32_t i = 0; i < in->nmods; i++) {
        ptx_str md = in->mods[i];
        /* the parser's parts point into the word itself */
        if (at + 1 + md.n > t.n || t.p[at] != '.' ||
            (md.p != t.p + at + 1 && memcmp(t.p + at + 1, md.p, md.n)))
            return 0;
        at += 1 + md.n;
    }
    return at == t.n;
}

static cg_opnd *guard(cg_builder *b, const ptx_instr *in)
{
    ptx_str s = tstr(b, in->pred);
    int32_t idx;
    cg_symid id = cg_resolve_reg(b, s.p, s.n, &idx);
    cg_opnd *g = id != CG_NOSYM ? sym_opnd(b, id, idx)
                                : lit(b, CG_O_SPECIAL, s.p, s.n);
    if (in->bang != PTX_NOTOK) {
        cg_opnd *n = cg_opnd_new(b->m, CG_O_NOT);
        n->a = g;
        return n;
    }
    return g;
}

/* Split and mangle an opcode word for ptx.inst: 0 if it cannot be one.
   Runs once per opcode word and module (the caller caches the result);
   most parts take cg_mangle's common-part path. */
static int make_opcode(cg_builder *b, const ptx_instr *in, cg_opcode *oc)
{
    ptx_str t = tstr(b, in->op);
    if (!op_matches(b, in))
        return 0;
    /* a part's attribute is at most a byte longer than the part */
    char *path = cg_alloc(b->m, t.n + in->nmods + 2), *at = path;
    for (uint32_t part = 0; part <= in->nmods; part++) {
        ptx_str w = part ? in->mods[part - 1] : in->opcode;
        char buf[300];
        size_t o = cg_mangle(w.p, w.n, buf, sizeof buf);
        char c = buf[0];
        if (!o || (!part && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                              c == '_')))
            return 0;
        if (part)
            *at++ = '.';
        memcpy(at, buf, o);
        at += o;
    }
    /* the names: the word once, its dots made NULs */
    char *names = cg_strndup(b->m, t.p, t.n);
    const char **mods = cg_alloc(b->m, (in->nmods + 1) * sizeof *mods);
    for (uint32_t part = 1, i = in->opcode.n; part <= in->nmods; part++) {
        names[i] = 0;
        mods[part - 1] = names + i + 1;
        i += 1 + in->mods[part - 1].n;
    }
    oc->op = names;
    oc->op_bit = cg_op_bit(names);
    oc->word_bit = cg_word_bit(t.p, t.n);
    oc->mods = mods;
    oc->nmods = in->nmods;
    oc->path = path;
    oc->pathlen = (uint32_t)(at - path);
    return 1;
}

/* The instruction's opcode, from the module's cache; NULL if it cannot be
   a ptx.inst call. */
static const cg_opcode *opcode(cg_builder *b, const ptx_instr *in)
{
    cg_module *m = b->m;
    ptx_str w = tstr(b, in->op);
    uint64_t k0 = w.n <= 16 ? cg_short_key(b, w.p, w.n < 8 ? w.n : 8) : 0;
    uint64_t k1 = w.n > 8 && k0 ? cg_short_key(b, w.p + 8, w.n - 8) : 0;
    struct cg_ocache *c =
        &b->ocache[((k0 ^ k1 * 0xff51afd7ed558ccdull) * 0x9e3779b97f4a7c15ull) >> 58];
    if (k0 && c->k0 == k0 && c->k1 == k1)
        return c->val >= 0 ? &m->opcodes_v[c->val] : NULL;
    if (!m->opcodes)
        m->opcodes = cg_alloc(m, sizeof *m->opcodes);
    cg_mslot *s = cg_map_put(m, m->opcodes, w.p, w.n);
    if (s->val == -1) {
        cg_opcode oc = { 0 };
        if (!make_opcode(b, in, &oc)) {
            s->val = -2;
        } else {
            m->opcodes_v = cg_grow(m, m->opcodes_v, m->nopcodes, &m->capopcodes,
                                   sizeof *m->opcodes_v);
            m->opcodes_v[m->nopcodes] = oc;
            s->val = (int32_t)m->nopcodes++;
        }
    }
    if (k0)
        *c = (struct cg_ocache){ k0, k1, s->val };
    return s->val >= 0 ? &m->opcodes_v[s->val] : NULL;
}

cg_stmt *cg_build_inst(cg_builder *b, const ptx_stmt *s, const char **why)
{
    const ptx_instr *in = &s->u.instr;
    *why = "opcode or modifier cannot be spelled as a ptx.inst attribute";
    const cg_opcode *oc = opcode(b, in);
    if (!oc)
        return NULL;
    b->k->ops |= oc->op_bit;
    if (in->pred == PTX_NOTOK)
        b->k->words |= oc->word_bit;
    cg_stmt *st = cg_stmt_new(b->m, CG_S_INST, s->first);
    cg_inst *ci = &st->u.inst;
    ci->op = oc->op;
    ci->mods = oc->mods;
    ci->nmods = oc->nmods;
    ci->path = oc->path;
    ci->pathlen = oc->pathlen;
    *why = "operand form has no pyptx operand object";
    cg_opnd **tail = &ci->ops;
    b->special = 0;
    for (const ptx_expr *e = in->operands; e; e = e->next) {
        if (e->next && e->sep == PTX_NOTOK)
            return NULL;
        if (!(*tail = one_opnd(b, e)))
            return NULL;
        tail = &(*tail)->next;
    }
    if (b->special) {
        cg_kernel *k = b->k;
        k->special_reads = cg_grow(b->m, k->special_reads, k->nspecial_reads,
                                   &k->capspecial_reads, sizeof *k->special_reads);
        k->special_reads[k->nspecial_reads++] = st;
    }
    if (in->pred != PTX_NOTOK)
        ci->guard = guard(b, in);
    return st;
}
