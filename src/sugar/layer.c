/*
 * sugar/layer.c - where codegen and the sugar passes meet: the public
 * entry points (ptx_codegen, ptx_codegen_pieces: with passes, pieces.c)
 * build the IR (codegen), run the selected passes on it (driver.c) and
 * print it (codegen); and
 * what codegen asks of sugar while it prints: the rows of sugar's
 * statement kinds, and sg_layer (its operands, typed wrappers, and what
 * the file's head needs for them).  Both are constant: nothing is
 * registered at run time.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/diag.h"

#define ROW(k, type, print, nests, orig, args, sym, name, count)              \
    { { #k, print, sizeof(type), nests }, orig, args, sym, name, count },
const sg_kind sg_kinds[SG_S_END - CG_S_EXT] = { SG_STMT_KINDS(ROW) };
#undef ROW

/* ---- operands --------------------------------------------------------- */

/* Is the int operand o's decimal text `digits`? */
static int int_is(const cg_opnd *o, const char *digits)
{
    size_t n = strlen(digits);
    return o->text.n == 1 && o->text.v[0].n == n && !memcmp(o->text.v[0].p, digits, n);
}

/* base + stride*var (SG_O_AFFINE), terms that are 0 or 1 left out; the
   base an int, or the index of a loop inside (8 + 4*j + 256*i). */
static void affine(const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    const cg_text *s = &o->b->text;
    int zero = o->a->kind == CG_O_INT && int_is(o->a, "0");
    int neg = s->v[0].n && s->v[0].p[0] == '-';
    if (o->a->kind == SG_O_AFFINE)
        affine(k, o->a, out);
    else if (!zero)
        cg_text_ptx(k, &o->a->text, out);
    if (!zero)
        ptx_buf_puts(out, neg ? " - " : " + ");
    else if (neg)
        ptx_buf_putc(out, '-');
    if (!int_is(o->b, neg ? "-1" : "1")) {
        ptx_buf_put(out, s->v[0].p + neg, s->v[0].n - neg);
        ptx_buf_putc(out, '*');
    }
    cg_text_ptx(k, &o->text, out);
}

/* Python's binding strength of a binary operator (higher binds tighter),
   as far as pyptx's Reg operators go. */
static int oper_prec(const cg_text *op)
{
    static const struct { char op[3]; int prec; } prec[] = {
        { "|", 1 }, { "^", 2 }, { "&", 3 }, { "<<", 4 }, { ">>", 4 },
        { "+", 5 }, { "-", 5 }, { "*", 6 }, { "//", 6 }, { "%", 6 },
    };
    for (unsigned i = 0; i < sizeof prec / sizeof *prec; i++)
        if (op->n == 1 && op->v[0].n == strlen(prec[i].op) &&
            !memcmp(op->v[0].p, prec[i].op, op->v[0].n))
            return prec[i].prec;
    return 0;   /* comparisons: below all of them */
}

/* An operator's operand.  A loop's affine index takes parentheses where
   Python would otherwise apply the operator to its first term: `a + (8 +
   4*i)` adds once, where `a + 8 + 4*i` makes pyptx emit two adds. */
static void oper_side(const cg_module *m, const cg_kernel *k, const cg_opnd *o, int prec,
                      int right, ptx_buf *out)
{
    int own = 7;   /* an atom, or -var */
    if (o->kind == SG_O_AFFINE && o->sym == CG_NOSYM)
        own = o->a->kind == SG_O_AFFINE || !int_is(o->a, "0") ? 5
              : !int_is(o->b, "1") && !int_is(o->b, "-1") ? 6 : 7;
    int paren = own < prec || (right && own == prec);
    if (paren)
        ptx_buf_putc(out, '(');
    cg_print_opnd(m, k, o, out);
    if (paren)
        ptx_buf_putc(out, ')');
}

void sg_print_oper(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    int prec = oper_prec(&o->text);
    oper_side(m, k, o->a, prec, 0, out);
    ptx_buf_putc(out, ' ');
    cg_text_ptx(k, &o->text, out);
    ptx_buf_putc(out, ' ');
    oper_side(m, k, o->b, prec, 1, out);
}

/* ptx.wgmma.make_descriptor(base, ...): the keywords whose value is the
   int 0 (pyptx's default) are left out. */
static void print_desc(const cg_module *m, const cg_kernel *k, const cg_opnd *o, ptx_buf *out)
{
    static const char *const kw[] = { "leading_byte_offset", "stride_byte_offset", "swizzle",
                                      "base_offset", "addr_byte_offset" };
    ptx_buf_puts(out, "ptx.wgmma.make_descriptor(");
    if (o->a->kind == SG_O_DYN) {
        ptx_buf_puts(out, "_dyn_smem(");
        cg_print_opnd(m, k, o->a->a, out);
        ptx_buf_putc(out, ')');
    } else {
        cg_print_opnd(m, k, o->a, out);
    }
    unsigned i = 0;
    for (const cg_opnd *e = o->elems; e && i < 5; e = e->next, i++) {
        if (i >= 2 && e->kind == CG_O_INT && e->text.n == 1 && e->text.v[0].n == 1 &&
            e->text.v[0].p[0] == '0')
            continue;
        ptx_buf_printf(out, ", %s=", kw[i]);
        cg_print_opnd(m, k, e, out);
    }
    ptx_buf_putc(out, ')');
}

static void print_opnd(const cg_module *m, const cg_kernel *k, const cg_opnd *o, int bare,
                       ptx_buf *out)
{
    if (sg_print_pyopnd(m, k, o, out))
        return;
    switch (o->kind) {
    case SG_O_DYN:
        ptx_buf_puts(out, "_dyn_smem_addr(");
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_putc(out, ')');
        break;
    case SG_O_DESC:
        print_desc(m, k, o, out);
        break;
    case SG_O_OPER:   /* bare: a nested result, ptx.addr(a + b) */
        ptx_buf_puts(out, bare ? "" : "(");
        sg_print_oper(m, k, o, out);
        ptx_buf_puts(out, bare ? "" : ")");
        break;
    case SG_O_AFFINE:
        if (o->sym == CG_NOSYM) {
            affine(k, o, out);
            break;
        }
        ptx_buf_puts(out, k->syms[o->sym].py);
        ptx_buf_putc(out, '[');
        affine(k, o, out);
        ptx_buf_putc(out, ']');
        break;
    case SG_O_SLOT:
        ptx_buf_puts(out, "_slot_addr(");
        cg_text_str(k, &o->text, out);
        ptx_buf_put(out, ", ", 2);
        cg_print_opnd(m, k, o->b, out);
        ptx_buf_put(out, ", ", 2);
        cg_print_opnd(m, k, o->a, out);
        ptx_buf_putc(out, ')');
        break;
    }
}

/* ---- the file's head -------------------------------------------------- */

/* What the passes made, where the printed code still names it (a kernel
   that --verify printed without its passes no longer does). */
static void head_imports(const cg_module *m, const cg_uses *u, ptx_buf *out)
{
    if (sg_st(m)->uses_smem && cg_uses_name(u, "smem"))
        ptx_buf_puts(out, ", smem");
}

/* The helpers the operands above call. */
static void head_defs(const cg_module *m, const cg_uses *u, ptx_buf *out)
{
    const sg_state *st = sg_st(m);
    if (st->uses_dyn && cg_uses_name(u, "_dyn_smem"))
        ptx_buf_puts(out,
            "\ndef _dyn_smem(offset):\n"
            "    \"\"\"pyptx's handle for an allocation at `offset` in dynamic shared memory:\n"
            "    a helper that takes it emits `mov.b32 r, dyn_smem; add.s32 r, r, offset`.\"\"\"\n"
            "    return smem.SharedAlloc(\"dyn_smem\", b8, (1,), None, byte_offset=offset)\n");
    if (st->uses_dyn && cg_uses_name(u, "_dyn_smem_addr"))
        ptx_buf_puts(out,
            "\ndef _dyn_smem_addr(offset):\n"
            "    \"\"\"[dyn_smem + offset] in a fresh register, as pyptx materializes it.\"\"\"\n"
            "    r = reg.scalar(u32)\n"
            "    ptx.inst.mov.b32(r, \"dyn_smem\")\n"
            "    if offset:\n"
            "        ptx.inst.add.s32(r, r, offset)\n"
            "    return ptx.addr(r)\n");
    if (st->uses_slot && cg_uses_name(u, "_slot_addr"))
        ptx_buf_puts(out,
            "\ndef _slot_addr(name, offset, stage):\n"
            "    \"\"\"[name + offset + 8 * stage] in registers, as pyptx's barrier slot\n"
            "    .at(stage) computes it where an instruction takes it.\"\"\"\n"
            "    return ptx.addr(ptx.mbarrier.array(name, offset, 1).at(stage).addr_reg())\n");
}

const cg_layer sg_layer = {
    .print_inst = sg_print_call,
    .print_opnd = print_opnd,
    .head_imports = head_imports,
    .head_defs = head_defs,
    .readable = 1,
};

/* ---- the entry points ------------------------------------------------- */

/* Each kernel is printed as soon as the passes are done with it, while it
   is still cached: a library module's code is far larger than a core's
   cache, and a printer that walked it after all the passes met it cold.
   The head names what the passes used, so it is printed last and put in
   before the kernels. */
static void sugared(cg_module *m, const ptx_codegen_options *o, ptx_buf *out)
{
    size_t start = out->n;
    m->layer = &sg_layer;
    cg_passes_begin(m, o);
    for (uint32_t i = 0; i < m->nkernels; i++) {
        cg_kernel *k = &m->kernels[i];
        if (k->unsupported)
            continue;
        cg_passes_run(m, o, k);
        cg_print_kernel(m, k, out);
    }
    cg_print_head_at(m, start, out);
    cg_print_tail(m, out);
}

typedef struct codegen_call {
    const ptx_module *pm;
    const ptx_codegen_options *o;
    ptx_buf *out;
    ptx_diag *err;
    cg_module *m;       /* freed by ptx_codegen, however the call ends */
    int r;
} codegen_call;

static void codegen(void *ud)
{
    codegen_call *c = ud;
    const ptx_codegen_options *o = c->o;
    c->r = cg_build(c->pm, o, &c->m, c->err);
    if (c->r)
        return;
    if (o->stats)
        cg_count_stats(c->m, 0, o->stats);
    if (o->sugar)
        sugared(c->m, o, c->out);
    else   /* no passes: the kernels can be printed at once */
        cg_print_all(c->m, o->jobs, c->out);
}

int ptx_codegen(const ptx_module *pm, const ptx_codegen_options *o,
                ptx_buf *out, ptx_diag *err)
{
    ptx_codegen_options none = { 0 };
    codegen_call c = { pm, o ? o : &none, out, err, NULL, 0 };
    int r = ptx_protect_buf(out, codegen, &c);
    cg_module_free(c.m);
    if (r) {
        ptx_diag_none(err, pm->filename, PTX_OUT_OF_MEMORY);
        return -1;
    }
    return c.r ? -1 : 0;
}

typedef struct pieces_call {
    const char *name, *src;
    size_t size, piece;
    const ptx_codegen_options *o;
    ptx_buf *out;
    int r;
} pieces_call;

static void codegen_pieces(void *ud)
{
    pieces_call *c = ud;
    c->r = c->o->sugar ? sg_codegen_pieces(c->name, c->src, c->size, c->piece, c->o, c->out)
                       : cg_codegen_pieces(c->name, c->src, c->size, c->piece, c->o, c->out);
}

int ptx_codegen_pieces(const char *name, const char *src, size_t size,
                       size_t piece, const ptx_codegen_options *o, ptx_buf *out)
{
    if (!o)
        return 0;
    pieces_call c = { name, src, size, piece, o, out, 0 };
    /* out of memory: the whole module is taken, and says so */
    return ptx_protect_buf(out, codegen_pieces, &c) ? 0 : c.r;
}
