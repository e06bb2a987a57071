/*
 * sugar/calls.c - pass "calls": instructions that one of pyptx 0.1.1's
 * typed wrappers emits are written as that wrapper:
 *
 *     ptx.inst.add.s32(r[3], r[1], 4)            ->  ptx.add(s32, r[3], r[1], 4)
 *     ptx.inst.setp.lt.u32(p[1], r[1], r[2])     ->  ptx.setp("lt", u32, p[1], r[1], r[2])
 *     ptx.inst.ld.shared.f32(f[1], ptx.addr(..)) ->  ptx.ld(f32, f[1], ptx.addr(..), space="shared")
 *     ptx.inst.ld.param.u64(rd[1], ptx.addr("n")) ->  ptx.param(u64, "n", rd[1])
 *     ptx.inst.bra.uni("L")                      ->  (stays: ptx.bra writes `bra`)
 *
 * Every wrapper below ends in pyptx's _emit(opcode, modifiers, operands,
 * pred) with the operands as given, exactly as ptx.inst.<opcode>.<mods>
 * does, so the PTX is the same; what differs is that a wrapper's
 * instruction is validated strictly (an instruction pyptx's spec rejects
 * raises), so each row's domains are what pyptx accepts.  Those domains
 * come from pyptx itself: tests/idioms/wrappers.py calls every wrapper
 * with every value, traces it, and fails unless this pass writes exactly
 * the instructions pyptx accepts through exactly those wrappers.
 *
 * The pass runs last, so the instructions it rewrites are those no other
 * idiom took (a wrapper returns None, so expression chains keep ptx.inst).
 * It only marks them (cg_inst.wrapper: the row): the instruction printer
 * hands a marked one to sg_print_call, so a module of a million
 * instructions gets no million new nodes.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

/* A slot of a modifier pattern: takes one modifier from its domain.  A
   name ending in '?' may be absent.  Patterns name a slot by the very
   array below (a literal modifier is any other string), so telling them
   apart is a pointer comparison. */
static const char S_T[] = "T", S_CMP[] = "cmp", S_MODE[] = "mode", S_MODE_OPT[] = "mode?",
                  S_RND[] = "rnd?", S_FTZ[] = "ftz?", S_SAT[] = "sat?", S_SPACE[] = "space?",
                  S_CACHE[] = "cache?";

typedef struct slot {
    const char *name;
    const char *domain;   /* " a b c ", or NULL: a pyptx type */
    const char *keyword;  /* keyword argument, or NULL: positional */
    const char *dflt;     /* the wrapper's default: printed as nothing */
    const char *absent;   /* printed for an absent modifier, or NULL */
    uint8_t flag;         /* keyword=True */
} slot;

static const slot slots[] = {
    { S_T, NULL, NULL, NULL, NULL, 0 },
    { S_CMP, " lt le gt ge eq ne ", NULL, NULL, NULL, 0 },
    { S_MODE, " lo hi wide ", "mode", "lo", NULL, 0 },
    { S_MODE_OPT, " lo hi wide ", "mode", NULL, NULL, 0 },
    { S_RND, " rn rz rm rp rni rzi rmi rpi ", "rounding", NULL, NULL, 0 },
    { S_FTZ, " ftz ", "ftz", NULL, NULL, 1 },
    { S_SAT, " sat ", "sat", NULL, NULL, 1 },
    { S_SPACE, " global shared local param const ", "space", "global", "generic", 0 },
    { S_CACHE, " ca cg cs lu cv nc ", "cache", NULL, NULL, 0 },
};

enum { TY_ANY, TY_BITS };        /* what T may be */
enum { OPS_ANY, OPS_INT, OPS_ADDR0, OPS_ADDR1, /* what the operands must be */
       OPS_PARAM };   /* ld.param of a whole parameter that is no array:
                         ptx.param(T, "name", dst) */

/* A wrapper and the instructions it emits: opcode, modifier pattern
   (literal modifiers and slots, in order), operand count. */
typedef struct wrapper {
    const char *call;
    const char *op;
    const char *const *mods;
    uint8_t nmin, nmax;
    uint8_t types, ops;
    const char *pred_kw;
} wrapper;

#define P(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define NONE ((const char *const[]){ NULL })
static const wrapper wrappers[] = {
    { "ptx.param", "ld", P("param", S_T), 2, 2, TY_ANY, OPS_PARAM, NULL },
    { "ptx.ret", "ret", NONE, 0, 0, TY_ANY, OPS_ANY, "pred" },
    { "ptx.bra", "bra", NONE, 1, 1, TY_ANY, OPS_ANY, "pred" },
    { "ptx.mov", "mov", P(S_T), 2, 2, TY_ANY, OPS_ANY, "pred" },
    { "ptx.add", "add", P(S_T), 3, 3, TY_ANY, OPS_ANY, "pred" },
    { "ptx.sub", "sub", P(S_T), 3, 3, TY_ANY, OPS_ANY, "pred" },
    { "ptx.mul", "mul", P(S_MODE_OPT, S_T), 3, 3, TY_ANY, OPS_ANY, "pred" },
    { "ptx.mad", "mad", P(S_MODE, S_T), 4, 4, TY_ANY, OPS_ANY, "pred" },
    { "ptx.shl", "shl", P(S_T), 3, 3, TY_BITS, OPS_ANY, "pred" },
    { "ptx.shr", "shr", P(S_T), 3, 3, TY_ANY, OPS_ANY, "pred" },
    { "ptx.and_", "and", P(S_T), 3, 3, TY_BITS, OPS_ANY, "pred" },
    { "ptx.or_", "or", P(S_T), 3, 3, TY_BITS, OPS_ANY, "pred" },
    { "ptx.xor_", "xor", P(S_T), 3, 3, TY_BITS, OPS_ANY, "pred" },
    { "ptx.not_", "not", P(S_T), 2, 2, TY_BITS, OPS_ANY, "pred" },
    { "ptx.setp", "setp", P(S_CMP, S_T), 3, 3, TY_ANY, OPS_ANY, "pred_negate" },
    { "ptx.cvt", "cvt", P(S_RND, S_FTZ, S_SAT, S_T, S_T), 2, 2, TY_ANY, OPS_ANY, "pred" },
    { "ptx.ld", "ld", P(S_SPACE, S_CACHE, S_T), 2, 2, TY_ANY, OPS_ADDR1, "pred" },
    { "ptx.st", "st", P(S_SPACE, S_T), 2, 2, TY_ANY, OPS_ADDR0, "pred" },
    { "ptx.bar.sync", "bar", P("sync"), 1, 2, TY_ANY, OPS_ANY, "pred" },
    { "ptx.fence.proxy_async", "fence", P("proxy", "async"), 0, 0, TY_ANY, OPS_ANY, "pred" },
    { "ptx.wgmma.fence", "wgmma", P("fence", "sync", "aligned"), 0, 0, TY_ANY, OPS_ANY, "pred" },
    { "ptx.wgmma.commit_group", "wgmma", P("commit_group", "sync", "aligned"), 0, 0,
      TY_ANY, OPS_ANY, "pred" },
    { "ptx.wgmma.wait_group", "wgmma", P("wait_group", "sync", "aligned"), 1, 1,
      TY_ANY, OPS_ANY, "pred" },
    { "ptx.cp.async_.commit_group", "cp", P("async", "commit_group"), 0, 0, TY_ANY,
      OPS_ANY, "pred" },
    { "ptx.cp.async_.wait_group", "cp", P("async", "wait_group"), 1, 1, TY_ANY, OPS_INT,
      "pred" },
    { "ptx.cp.async_.wait_all", "cp", P("async", "wait_all"), 0, 0, TY_ANY, OPS_ANY, "pred" },
};
#undef P
#undef NONE

#define MAXWORDS 8
_Static_assert(sizeof wrappers / sizeof *wrappers < 255, "a row fits cg_inst.wrapper");

static const slot *slot_named(const char *w)
{
    for (unsigned i = 0; i < sizeof slots / sizeof *slots; i++)
        if (slots[i].name == w)
            return &slots[i];
    return NULL;
}

static int in_domain(const char *domain, const char *mod)
{
    size_t n = strlen(mod);
    for (const char *p = domain; (p = strstr(p, mod)); p += n)
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

static int slot_takes(const wrapper *w, const slot *sl, const char *mod)
{
    if (sl->domain)
        return in_domain(sl->domain, mod);
    if (cg_type_index(mod, strlen(mod)) < 0)
        return 0;
    return w->types == TY_ANY || (mod[0] == 'b' && mod[1] != 'f'); /* b8..b128 */
}

/* Matches the modifiers against w's pattern: vals[i] is the modifier
   pattern word i took (NULL: an optional slot left empty). */
static int match_mods(const wrapper *w, const cg_inst *in, const char **vals)
{
    uint32_t j = 0;
    for (unsigned i = 0; w->mods[i]; i++) {
        const slot *sl = slot_named(w->mods[i]);
        const char *mod = j < in->nmods ? in->mods[j] : NULL;
        vals[i] = NULL;
        if (!sl) {                                   /* a literal modifier */
            if (!mod || strcmp(mod, w->mods[i]))
                return 0;
        } else if (!mod || !slot_takes(w, sl, mod)) {
            if (sl->name[strlen(sl->name) - 1] != '?')
                return 0;
            continue;
        }
        vals[i] = mod;
        j++;
    }
    return j == in->nmods;
}

/* [name] of a kernel parameter declared without an array part (ptx.param
   emits a mov for those). */
static int whole_param(const cg_kernel *k, const cg_opnd *a)
{
    if (a->kind != CG_O_ADDR || a->b || a->a->kind != CG_O_SYM || a->a->index >= 0 ||
        k->syms[a->a->sym].kind != CG_SYM_PARAM)
        return 0;
    for (const cg_param *p = k->params; p; p = p->next)
        if (p->sym == a->a->sym)
            return !strstr(p->typestr, "array") && !*p->rest;
    return 0;
}

static int operands_fit(const cg_kernel *k, const wrapper *w, const cg_inst *in)
{
    unsigned n = sg_nops(in->ops);
    if (n < w->nmin || n > w->nmax)
        return 0;
    switch (w->ops) {
    case OPS_PARAM: return !in->guard && whole_param(k, in->ops->next);
    case OPS_INT:
        for (const cg_opnd *o = in->ops; o; o = o->next)
            if (o->kind != CG_O_INT)
                return 0;
        return 1;
    case OPS_ADDR0: return in->ops->kind == CG_O_ADDR;
    case OPS_ADDR1: return in->ops->next->kind == CG_O_ADDR;
    default: return 1;
    }
}

/* The wrapper that emits instruction `in`, with its pattern's values
   (the first row that fits). */
static const wrapper *find_wrapper(const cg_kernel *k, const cg_inst *in,
                                   const char **vals)
{
    for (unsigned i = 0; i < sizeof wrappers / sizeof *wrappers; i++) {
        const wrapper *w = &wrappers[i];
        if (w->op[0] == in->op[0] && !strcmp(w->op, in->op) &&
            operands_fit(k, w, in) && match_mods(w, in, vals))
            return w;
    }
    return NULL;
}

/* ---- printing --------------------------------------------------------- */

static void put_value(ptx_buf *out, const slot *sl, const char *v)
{
    if (sl->flag) {
        ptx_buf_puts(out, "True");
    } else if (sl->domain) {
        ptx_buf_putc(out, '"');
        ptx_buf_puts(out, v);
        ptx_buf_putc(out, '"');
    } else {
        ptx_buf_puts(out, v);       /* a pyptx type, imported */
    }
}

/* wrapper(positional slots..., operands..., keywords..., pred=guard) */
void sg_print_call(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out)
{
    const cg_inst *in = &s->u.inst;
    const char *vals[MAXWORDS];
    const wrapper *w = &wrappers[in->wrapper - 1];
    match_mods(w, in, vals);
    const char *sep = "";
    sg_indent(out, depth);
    ptx_buf_puts(out, w->call);
    ptx_buf_putc(out, '(');
    if (w->ops == OPS_PARAM) {   /* ptx.param(T, "name", dst) */
        cg_opnd dst = *in->ops;
        dst.next = NULL;
        ptx_buf_puts(out, vals[1]);
        ptx_buf_puts(out, ", ");
        cg_print_opnd(m, k, in->ops->next->a, out);
        ptx_buf_puts(out, ", ");
        cg_print_opnd(m, k, &dst, out);
        ptx_buf_puts(out, ")\n");
        return;
    }
    for (unsigned i = 0; w->mods[i]; i++) {
        const slot *sl = slot_named(w->mods[i]);
        if (sl && !sl->keyword) {
            ptx_buf_puts(out, sep);
            put_value(out, sl, vals[i]);
            sep = ", ";
        }
    }
    for (const cg_opnd *o = in->ops; o; o = o->next) {
        cg_opnd one = *o;
        one.next = NULL;
        ptx_buf_puts(out, sep);
        cg_print_opnd(m, k, &one, out);
        sep = ", ";
    }
    for (unsigned i = 0; w->mods[i]; i++) {
        const slot *sl = slot_named(w->mods[i]);
        const char *v = sl && vals[i] ? vals[i] : sl ? sl->absent : NULL;
        if (!sl || !sl->keyword || !v || (sl->dflt && !strcmp(v, sl->dflt)))
            continue;
        ptx_buf_puts(out, sep);
        ptx_buf_puts(out, sl->keyword);
        ptx_buf_putc(out, '=');
        put_value(out, sl, v);
        sep = ", ";
    }
    if (in->guard) {
        ptx_buf_puts(out, sep);
        ptx_buf_puts(out, w->pred_kw);
        ptx_buf_putc(out, '=');
        cg_print_opnd(m, k, in->guard, out);
    }
    ptx_buf_puts(out, ")\n");
}

/* ---- the pass ---------------------------------------------------------- */

static uint32_t wrap_list(cg_module *m, const cg_kernel *k, cg_stmt *s)
{
    uint32_t made = 0;
    for (; s; s = s->next) {
        cg_stmt **body = cg_body(s);
        const char *vals[MAXWORDS];
        const wrapper *w;
        if (body) {
            made += wrap_list(m, k, *body);
            continue;
        }
        if (s->kind != CG_S_INST || !(w = find_wrapper(k, &s->u.inst, vals)))
            continue;
        for (unsigned i = 0; w->mods[i]; i++)      /* the types it names */
            if (vals[i] && slot_named(w->mods[i]) == &slots[0])
                m->types_used |= 1u << cg_type_index(vals[i], strlen(vals[i]));
        s->u.inst.wrapper = (uint8_t)(w - wrappers + 1);
        made++;
    }
    return made;
}

uint32_t sugar_calls(cg_module *m, cg_kernel *k)
{
    return wrap_list(m, k, k->body);
}
