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
 * It only marks them (cg_inst.hook: 1 + the row; cg_inst.hook_data: what the row
 * prints from the modifiers, made once per opcode word): the instruction
 * printer hands a marked one to sg_print_call, so a module of a million
 * instructions gets no million new nodes, and printing matches no
 * modifiers again.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"
#include "util/buf.h"

/* A slot of a modifier pattern: takes one modifier from its domain.  A
   name ending in '?' may be absent.  Patterns name a slot by its very row
   of slot_names (a literal modifier is any other string), so telling them
   apart, and finding the slot (slot_named), is pointer arithmetic: every
   instruction printed through a wrapper matches its pattern again. */
#define SLOT_NAMES(X) \
    X(T, "T") X(CMP, "cmp") X(MODE, "mode") X(MODE_OPT, "mode?") X(RND, "rnd?") \
    X(FTZ, "ftz?") X(SAT, "sat?") X(SPACE, "space?") X(CACHE, "cache?") X(SHAPE, "shape") \
    X(ALAYOUT, "a_layout") X(BLAYOUT, "b_layout") X(WSHAPE, "wgmma shape") \
    X(WT, "wgmma T") X(LMSHAPE, "ldmatrix shape?") X(MCOUNT, "matrices") \
    X(TRANS, "trans?") X(STSHAPE, "stmatrix shape") X(CTAG, "cta_group") \
    X(TSPACE, "commit space") X(TSHAPE, "tcgen05 shape") X(TCOUNT, "tcgen05 count") \
    X(TDT, "tcgen05 dtype") X(PACK, "pack?") X(UNPACK, "unpack?")
#define ROW(id, text) SL_##id,
enum { SLOT_NAMES(ROW) NSLOTS, NAMELEN = 16 };
#undef ROW
#define ROW(id, text) [SL_##id] = text,
static const char slot_names[NSLOTS][NAMELEN] = { SLOT_NAMES(ROW) };
#undef ROW
#define S_T slot_names[SL_T]
#define S_CMP slot_names[SL_CMP]
#define S_MODE slot_names[SL_MODE]
#define S_MODE_OPT slot_names[SL_MODE_OPT]
#define S_RND slot_names[SL_RND]
#define S_FTZ slot_names[SL_FTZ]
#define S_SAT slot_names[SL_SAT]
#define S_SPACE slot_names[SL_SPACE]
#define S_CACHE slot_names[SL_CACHE]
#define S_SHAPE slot_names[SL_SHAPE]
#define S_ALAYOUT slot_names[SL_ALAYOUT]
#define S_BLAYOUT slot_names[SL_BLAYOUT]
#define S_WSHAPE slot_names[SL_WSHAPE]
#define S_WT slot_names[SL_WT]
#define S_LMSHAPE slot_names[SL_LMSHAPE]
#define S_MCOUNT slot_names[SL_MCOUNT]
#define S_TRANS slot_names[SL_TRANS]
#define S_STSHAPE slot_names[SL_STSHAPE]
#define S_CTAG slot_names[SL_CTAG]
#define S_TSPACE slot_names[SL_TSPACE]
#define S_TSHAPE slot_names[SL_TSHAPE]
#define S_TCOUNT slot_names[SL_TCOUNT]
#define S_TDT slot_names[SL_TDT]
#define S_PACK slot_names[SL_PACK]
#define S_UNPACK slot_names[SL_UNPACK]

typedef struct slot {
    const char *name;
    const char *domain;   /* " a b c ", or NULL: a pyptx type */
    const char *keyword;  /* keyword argument, or NULL: positional */
    const char *dflt;     /* the wrapper's default: printed as nothing */
    const char *absent;   /* printed for an absent modifier, or NULL */
    uint8_t flag;         /* keyword=True */
    uint8_t type;         /* a pyptx type: printed bare (and imported) */
    const char *strip;    /* a prefix the argument does not spell, or NULL */
    uint8_t bare;         /* printed as is (an int), not as a str */
} slot;

static const slot slots[NSLOTS] = {
    [SL_T] = { S_T, NULL, NULL, NULL, NULL, 0, 1 },
    [SL_CMP] = { S_CMP, " lt le gt ge eq ne ", NULL, NULL, NULL, 0, 0 },
    [SL_MODE] = { S_MODE, " lo hi wide ", "mode", "lo", NULL, 0, 0 },
    [SL_MODE_OPT] = { S_MODE_OPT, " lo hi wide ", "mode", NULL, NULL, 0, 0 },
    [SL_RND] = { S_RND, " rn rz rm rp rni rzi rmi rpi ", "rounding", NULL, NULL, 0, 0 },
    [SL_FTZ] = { S_FTZ, " ftz ", "ftz", NULL, NULL, 1, 0 },
    [SL_SAT] = { S_SAT, " sat ", "sat", NULL, NULL, 1, 0 },
    [SL_SPACE] = { S_SPACE, " global shared local param const ", "space", "global", "generic", 0, 0 },
    [SL_CACHE] = { S_CACHE, " ca cg cs lu cv nc ", "cache", NULL, NULL, 0, 0 },
    [SL_SHAPE] = { S_SHAPE, "", NULL, NULL, NULL, 0, 0 },        /* mMnNkK, printed (M, N, K) */
    [SL_ALAYOUT] = { S_ALAYOUT, " row col ", NULL, "row", NULL, 0, 0 },
    [SL_BLAYOUT] = { S_BLAYOUT, " row col ", NULL, "col", NULL, 0, 0 },
    /* pyptx's spec (spec/ptx.py) takes these for wgmma.mma_async */
    [SL_WSHAPE] = { S_WSHAPE, "", NULL, NULL, NULL, 0, 0 },       /* m64nNk8/16/32, N = 8 ... 256 by 8 */
    [SL_WT] = { S_WT, " u8 s8 s32 f16 bf16 tf32 f32 e4m3 e5m2 ", NULL, NULL, NULL, 0, 1 },
    [SL_LMSHAPE] = { S_LMSHAPE, " m8n8 ", NULL, NULL, NULL, 0, 0 },   /* what pyptx's spec takes */
    [SL_MCOUNT] = { S_MCOUNT, " x1 x2 x4 ", NULL, NULL, NULL, 0, 0 },
    [SL_TRANS] = { S_TRANS, " trans ", NULL, NULL, NULL, 1, 0 },
    [SL_STSHAPE] = { S_STSHAPE, " m8n8 ", NULL, "m8n8", NULL, 0, 0 },
    /* ptx.tcgen05's keywords (ptx.py _Tcgen05) */
    [SL_CTAG] = { S_CTAG, " cta_group::1 cta_group::2 ", "cta_group", "cta_group::1", NULL, 0,
                  0, "cta_group::", 1 },
    [SL_TSPACE] = { S_TSPACE, " shared::cluster shared::cta ", "space", "shared::cluster", NULL,
                    0, 0, "shared::", 0 },
    [SL_TSHAPE] = { S_TSHAPE, " 16x64b 16x128b 16x256b 32x32b 16x32bx2 ", "shape", "16x128b",
                    NULL, 0, 0, NULL, 0 },
    [SL_TCOUNT] = { S_TCOUNT, " x1 x2 x4 x8 x16 x32 x64 x128 ", "count", "x1", NULL, 0, 0, "x",
                    1 },
    [SL_TDT] = { S_TDT, " b32 ", "dtype", "b32", NULL, 0, 0, NULL, 0 },
    [SL_PACK] = { S_PACK, " pack::16b ", "pack", NULL, NULL, 1, 0, NULL, 0 },
    [SL_UNPACK] = { S_UNPACK, " unpack::16b ", "unpack", NULL, NULL, 1, 0, NULL, 0 },
};

enum { TY_ANY, TY_BITS };        /* what T may be */
/* A wrapper and the instructions it emits: opcode, modifier pattern
   (literal modifiers and slots, in order), operand count and kinds, and
   how its arguments are written.
     opnds: a letter per operand ('.' any, A an address, M an address
            that pyptx makes itself (_make_address: an allocation in
            dynamic shared memory is passed as _dyn_smem(off)), I a decimal int,
            V a list of registers, P a predicate register, R a register,
            T a TMA address [map, {c0, ...}], C one [map, {0, r, (c >> 6)}],
            S the address of a whole parameter without an array part,
            | reg|pred), or NULL for any;
     args:  NULL: the positional slots, the operands, the keyword slots;
            else items "[kw=]src[?default]" joined by ", ", src being mN
            (pattern word N), mN+mM (the present ones of both, joined by
            '.', as one string), oN (operand N) or oN.a / oN.b (its parts)
            or oN.t (a TMA address's coordinates, as a tuple), oN.eK (its
            coordinate K), oN.eKa (that coordinate's left operand);
            an absent value, or one printed as the default, is left out;
     pred_kw: the guard's keyword, or NULL when the wrapper takes none. */
typedef struct wrapper {
    const char *call;
    const char *op;
    const char *const *mods;
    uint8_t nmin, nmax;
    uint8_t types;
    const char *opnds;
    const char *args;
    const char *pred_kw;
} wrapper;

#define P(...) ((const char *const[]){ __VA_ARGS__, NULL })
/* The bulk tensor copies of N dimensions (ptx.py _TmaTensorOp): the load,
   the load multicast to the cluster, the store. */
#define TMA(N) \
    { "ptx.cp.async_.bulk.tensor_" #N "d", "cp", P("async", "bulk", "tensor", #N "d", \
      "shared::cluster", "global", "mbarrier::complete_tx::bytes"), 3, 3, TY_ANY, "MTM", \
      "dst=o0, src=o1.a, coord=o1.t, mbar=o2", "pred" }, \
    { "ptx.cp.async_.bulk.tensor_" #N "d", "cp", P("async", "bulk", "tensor", #N "d", \
      "shared::cluster", "global", "mbarrier::complete_tx::bytes", "multicast::cluster"), 4, 4, \
      TY_ANY, "MTM.", "dst=o0, src=o1.a, coord=o1.t, mbar=o2, multicast_mask=o3", "pred" }, \
    { "ptx.cp.async_.bulk.tensor_" #N "d.store", "cp", P("async", "bulk", "tensor", #N "d", \
      "global", "shared::cta", "bulk_group"), 2, 2, TY_ANY, "TM", \
      "dst=o0.a, coord=o0.t, src=o1", "pred" }
#define NONE ((const char *const[]){ NULL })
static const wrapper wrappers[] = {
    { "ptx.param", "ld", P("param", S_T), 2, 2, TY_ANY, ".S", "m1, o1.a, o0", NULL },
    { "ptx.ret", "ret", NONE, 0, 0, TY_ANY, NULL, NULL, "pred" },
    { "ptx.bra", "bra", NONE, 1, 1, TY_ANY, NULL, NULL, "pred" },
    { "ptx.mov", "mov", P(S_T), 2, 2, TY_ANY, NULL, NULL, "pred" },
    { "ptx.add", "add", P(S_T), 3, 3, TY_ANY, NULL, NULL, "pred" },
    { "ptx.sub", "sub", P(S_T), 3, 3, TY_ANY, NULL, NULL, "pred" },
    { "ptx.mul", "mul", P(S_MODE_OPT, S_T), 3, 3, TY_ANY, NULL, NULL, "pred" },
    { "ptx.mad", "mad", P(S_MODE, S_T), 4, 4, TY_ANY, NULL, NULL, "pred" },
    { "ptx.shl", "shl", P(S_T), 3, 3, TY_BITS, NULL, NULL, "pred" },
    { "ptx.shr", "shr", P(S_T), 3, 3, TY_ANY, NULL, NULL, "pred" },
    { "ptx.and_", "and", P(S_T), 3, 3, TY_BITS, NULL, NULL, "pred" },
    { "ptx.or_", "or", P(S_T), 3, 3, TY_BITS, NULL, NULL, "pred" },
    { "ptx.xor_", "xor", P(S_T), 3, 3, TY_BITS, NULL, NULL, "pred" },
    { "ptx.not_", "not", P(S_T), 2, 2, TY_BITS, NULL, NULL, "pred" },
    { "ptx.setp", "setp", P(S_CMP, S_T), 3, 3, TY_ANY, NULL, NULL, "pred_negate" },
    { "ptx.selp", "selp", P(S_T), 4, 4, TY_ANY, "...P", NULL, "pred" },
    { "ptx.cvt", "cvt", P(S_RND, S_FTZ, S_SAT, S_T, S_T), 2, 2, TY_ANY, NULL, NULL, "pred" },
    { "ptx.ld", "ld", P(S_SPACE, S_CACHE, S_T), 2, 2, TY_ANY, ".M", NULL, "pred" },
    /* smem.py store: st.shared.T [addr], reg (no pred=); before ptx.st */
    { "smem.store", "st", P("shared", S_T), 2, 2, TY_ANY, "AR", "m1, o0, o1", NULL },
    { "ptx.st", "st", P(S_SPACE, S_T), 2, 2, TY_ANY, "M.", NULL, "pred" },
    { "ptx.bar.sync", "bar", P("sync"), 1, 2, TY_ANY, NULL, NULL, "pred" },
    { "ptx.fence.proxy_async", "fence", P("proxy", "async"), 0, 0, TY_ANY, NULL, NULL, "pred" },
    { "ptx.fence.proxy_async_shared_cta", "fence", P("proxy", "async", "shared::cta"), 0, 0,
      TY_ANY, NULL, NULL, "pred" },
    { "ptx.fence.mbarrier_init", "fence", P("mbarrier_init", "release", "cluster"), 0, 0,
      TY_ANY, NULL, NULL, "pred" },
    { "ptx.wgmma.fence", "wgmma", P("fence", "sync", "aligned"), 0, 0, TY_ANY, NULL, NULL, "pred" },
    { "ptx.wgmma.commit_group", "wgmma", P("commit_group", "sync", "aligned"), 0, 0,
      TY_ANY, NULL, NULL, "pred" },
    { "ptx.wgmma.wait_group", "wgmma", P("wait_group", "sync", "aligned"), 1, 1,
      TY_ANY, NULL, NULL, "pred" },
    { "ptx.cp.async_.commit_group", "cp", P("async", "commit_group"), 0, 0, TY_ANY, NULL, NULL, "pred" },
    { "ptx.cp.async_.wait_group", "cp", P("async", "wait_group"), 1, 1, TY_ANY, "I", NULL,
      "pred" },
    { "ptx.cp.async_.wait_all", "cp", P("async", "wait_all"), 0, 0, TY_ANY, NULL, NULL, "pred" },
    { "ptx.cp.async_.cg", "cp", P("async", "cg", "shared", "global"), 3, 3, TY_ANY, "AAI",
      NULL, "pred" },
    { "ptx.cp.async_.ca", "cp", P("async", "ca", "shared", "global"), 3, 3, TY_ANY, "AAI",
      NULL, "pred" },
    { "ptx.mbarrier.init", "mbarrier", P("init", "shared::cta", "b64"), 2, 2, TY_ANY, "MI",
      NULL, "pred" },
    { "ptx.mbarrier.inval", "mbarrier", P("inval", "shared", "b64"), 1, 1, TY_ANY, "M",
      NULL, "pred" },
    { "ptx.mbarrier.expect_tx", "mbarrier", P("expect_tx", "shared", "b64"), 2, 2, TY_ANY,
      "M.", NULL, "pred" },
    { "ptx.setmaxnreg_inc", "setmaxnreg", P("inc", "sync", "aligned", "u32"), 1, 1, TY_ANY,
      "I", NULL, "pred" },
    { "ptx.setmaxnreg_dec", "setmaxnreg", P("dec", "sync", "aligned", "u32"), 1, 1, TY_ANY,
      "I", NULL, "pred" },
    { "ptx.elect_sync", "elect", P("sync"), 2, 2, TY_ANY, "|.", "o0.a, o0.b, o1", NULL },
    { "ptx.ldmatrix", "ldmatrix", P("sync", "aligned", S_LMSHAPE, S_MCOUNT, S_TRANS, "shared",
      "b16"), 2, 2, TY_ANY, "V.", "dst=o0, src=o1, layout=m2+m3, trans=m4", "pred" },
    { "ptx.stmatrix", "stmatrix", P("sync", "aligned", S_STSHAPE, S_MCOUNT, S_TRANS,
      "shared::cta", "b16"), 2, 2, TY_ANY, ".V", "smem=o0, regs=o1, layout=m3, trans=m4, "
      "shape=m2", "pred" },
    { "ptx.mma.sync", "mma", P("sync", "aligned", S_SHAPE, S_ALAYOUT, S_BLAYOUT, S_T, S_T,
      S_T, S_T), 4, 4, TY_ANY, "VVVV", "shape=m2, dtype_d=m5, dtype_a=m6, dtype_b=m7, "
      "dtype_c=m8, d=o0, a=o1, b=o2, c=o3, a_layout=m3, b_layout=m4", "pred" },
    { "ptx.wgmma.mma_async", "wgmma", P("mma_async", "sync", "aligned", S_WSHAPE, S_WT, S_WT, S_WT),
      8, 8, TY_ANY, "V..PIIII", "shape=m3, dtype_d=m4, dtype_a=m5, dtype_b=m6, d=o0, a=o1, "
      "b=o2, scale_d=o3, scale_a=o4?1, scale_b=o5?1, trans_a=o6?0, trans_b=o7?0", "pred" },
    TMA(1), TMA(2), TMA(3), TMA(4), TMA(5),
    { "ptx.tcgen05.alloc", "tcgen05", P("alloc", S_CTAG, "sync", "aligned", "shared::cta", "b32"),
      2, 2, TY_ANY, "M.", "o0, o1, cta_group=m1", "pred" },
    { "ptx.tcgen05.dealloc", "tcgen05", P("dealloc", S_CTAG, "sync", "aligned", "b32"), 2, 2,
      TY_ANY, NULL, "o0, o1, cta_group=m1", "pred" },
    { "ptx.tcgen05.relinquish_alloc_permit", "tcgen05", P("relinquish_alloc_permit", S_CTAG,
      "sync", "aligned"), 0, 0, TY_ANY, NULL, "cta_group=m1", "pred" },
    { "ptx.tcgen05.fence_before_thread_sync", "tcgen05", P("fence::before_thread_sync"), 0, 0,
      TY_ANY, NULL, NULL, "pred" },
    { "ptx.tcgen05.fence_after_thread_sync", "tcgen05", P("fence::after_thread_sync"), 0, 0,
      TY_ANY, NULL, NULL, "pred" },
    { "ptx.tcgen05.commit", "tcgen05", P("commit", S_CTAG, "mbarrier::arrive::one", S_TSPACE,
      "b64"), 1, 1, TY_ANY, "M", "o0, cta_group=m1, space=m3", "pred" },
    { "ptx.tcgen05.wait_ld", "tcgen05", P("wait::ld", "sync", "aligned"), 0, 0, TY_ANY, NULL,
      NULL, "pred" },
    { "ptx.tcgen05.wait_st", "tcgen05", P("wait::st", "sync", "aligned"), 0, 0, TY_ANY, NULL,
      NULL, "pred" },
    { "ptx.tcgen05.ld", "tcgen05", P("ld", "sync", "aligned", S_TSHAPE, S_TCOUNT, S_TDT, S_PACK),
      2, 2, TY_ANY, "VM", "o0, o1, shape=m3, count=m4, dtype=m5, pack=m6", "pred" },
    { "ptx.tcgen05.st", "tcgen05", P("st", "sync", "aligned", S_TSHAPE, S_TCOUNT, S_TDT,
      S_UNPACK), 2, 2, TY_ANY, "MV", "o0, o1, shape=m3, count=m4, dtype=m5, unpack=m6", "pred" },
    /* ptx.tma's 3-D forms: with row= and col= (a register col: it emits
       col >> 6 into a fresh u32 itself, merge.c's operator), else with the
       coordinates given (coords=) */
    { "ptx.tma.load_3d", "cp", P("async", "bulk", "tensor", "3d", "shared::cluster", "global",
      "tile", "mbarrier::complete_tx::bytes"), 3, 3, TY_ANY, "MCM",
      "o0, o1.a, row=o1.e1, col=o1.e2a, mbar=o2", "pred" },
    { "ptx.tma.load_3d", "cp", P("async", "bulk", "tensor", "3d", "shared::cluster", "global",
      "tile", "mbarrier::complete_tx::bytes"), 3, 3, TY_ANY, "MTM",
      "o0, o1.a, mbar=o2, coords=o1.t", "pred" },
    { "ptx.tma.load_3d_multicast", "cp", P("async", "bulk", "tensor", "3d", "shared::cluster",
      "global", "tile", "mbarrier::complete_tx::bytes", "multicast::cluster"), 4, 4, TY_ANY,
      "MTM.", "o0, o1.a, mbar=o2, mask=o3, coords=o1.t", "pred" },
    { "ptx.tma.store_3d", "cp", P("async", "bulk", "tensor", "3d", "global", "shared::cta",
      "tile", "bulk_group"), 2, 2, TY_ANY, "TM", "o0.a, o1, coords=o0.t", "pred" },
};
#undef TMA
#undef P
#undef NONE

#define MAXWORDS 12   /* words of a pattern (mma.sync has 9) */
_Static_assert(sizeof wrappers / sizeof *wrappers < 255, "a row fits cg_inst.hook");

static const slot *slot_named(const char *w)
{
    uintptr_t d = (uintptr_t)w - (uintptr_t)slot_names;
    return d < sizeof slot_names && d % NAMELEN == 0 ? &slots[d / NAMELEN] : NULL;
}

static int in_domain(const char *domain, const char *mod)
{
    size_t n = strlen(mod);
    for (const char *p = domain; (p = strstr(p, mod)); p += n)
        if (p[-1] == ' ' && p[n] == ' ')
            return 1;
    return 0;
}

/* m64n256k16 -> its three numbers; 0 if not that form */
static int shape_of(const char *mod, unsigned v[3])
{
    const char *p = mod;
    for (unsigned i = 0; i < 3; i++) {
        if (*p++ != "mnk"[i] || *p < '1' || *p > '9')
            return 0;
        v[i] = 0;
        while (*p >= '0' && *p <= '9' && v[i] < 100000)
            v[i] = v[i] * 10 + (unsigned)(*p++ - '0');
    }
    return !*p;
}

static int slot_takes(const wrapper *w, const slot *sl, const char *mod)
{
    unsigned v[3];
    if (sl->name == S_SHAPE)
        return shape_of(mod, v);
    if (sl->name == S_WSHAPE)
        return shape_of(mod, v) && v[0] == 64 && v[1] % 8 == 0 && v[1] >= 8 &&
               v[1] <= 256 && (v[2] == 8 || v[2] == 16 || v[2] == 32);
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
        if (i == MAXWORDS)
            return 0;
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

static int is_pred_reg(const cg_kernel *k, const cg_opnd *o)
{
    return o && o->kind == CG_O_SYM && k->syms[o->sym].is_pred &&
           cg_sym_is_reg(&k->syms[o->sym]);
}

/* [map, {0, row, (col >> 6)}]: what ptx.tma.load_3d(row=, col=) writes
   for a register col. */
static int tma_row_col(const cg_opnd *o)
{
    const cg_opnd *z = o->elems, *r = z ? z->next : NULL, *c = r ? r->next : NULL;
    char b[8];
    return c && !c->next && z->kind == CG_O_INT && sg_text_lit(&z->text, b, sizeof b) &&
           !strcmp(b, "0") && c->kind == SG_O_OPER && c->text.n == 1 && c->text.v[0].n == 2 &&
           !memcmp(c->text.v[0].p, ">>", 2) && c->a->kind == CG_O_SYM && c->b->kind == CG_O_INT &&
           sg_text_lit(&c->b->text, b, sizeof b) && !strcmp(b, "6");
}

/* Operand o is of kind c (wrapper.opnds). */
static int operand_is(const cg_kernel *k, char c, const cg_opnd *o)
{
    switch (c) {
    case 'A': case 'M': return o->kind == CG_O_ADDR || o->kind == SG_O_DYN || o->kind == SG_O_SLOT;
    case 'T': return o->kind == CG_O_TMA;
    case 'C': return o->kind == CG_O_TMA && tma_row_col(o);
    case 'I': return o->kind == CG_O_INT;
    case 'V': return o->kind == CG_O_VEC || o->kind == SG_O_CONCAT;   /* a slice */
    case 'P': return is_pred_reg(k, o);
    case 'R': return o->kind == CG_O_SYM && cg_sym_is_reg(&k->syms[o->sym]);
    case 'S': return whole_param(k, o);
    case '|': return o->kind == CG_O_PIPE && o->a->kind == CG_O_SYM &&
                     cg_sym_is_reg(&k->syms[o->a->sym]) && is_pred_reg(k, o->b);
    default: return 1;
    }
}

static int operands_fit(const cg_kernel *k, const wrapper *w, const cg_inst *in)
{
    unsigned n = sg_nops(in->ops), i = 0;
    if (n < w->nmin || n > w->nmax || (in->guard && !w->pred_kw))
        return 0;
    for (const cg_opnd *o = in->ops; o && w->opnds && w->opnds[i]; o = o->next, i++)
        if (!operand_is(k, w->opnds[i], o))
            return 0;
    return 1;
}

/* (Scans of the table: asked of few instructions, before the pass runs.) */
static const wrapper *row_for(const cg_kernel *k, const cg_inst *in)
{
    for (unsigned r = 0; r < sizeof wrappers / sizeof *wrappers; r++) {
        const wrapper *w = &wrappers[r];
        if (w->op[0] != in->op[0] || strcmp(w->op, in->op) || !operands_fit(k, w, in))
            continue;
        const char *vals[MAXWORDS] = { 0 };
        if (match_mods(w, in, vals))
            return w;
    }
    return NULL;
}

int sg_wrapper_takes_address(const cg_kernel *k, const cg_inst *in, unsigned i)
{
    const wrapper *w = row_for(k, in);
    return w && w->opnds && i < strlen(w->opnds) && w->opnds[i] == 'M';
}

int sg_has_wrapper(const cg_kernel *k, const cg_inst *in)
{
    return row_for(k, in) != NULL;
}

const char *sg_wrapper_call(const cg_inst *in)
{
    return in->hook ? wrappers[in->hook - 1].call : NULL;
}

/* ---- printing --------------------------------------------------------- */

static void put_value(ptx_buf *out, const slot *sl, const char *v)
{
    unsigned shape[3];
    if (sl->flag) {
        ptx_buf_puts(out, "True");
    } else if ((sl->name == S_SHAPE || sl->name == S_WSHAPE) && shape_of(v, shape)) {
        char buf[48];
        snprintf(buf, sizeof buf, "(%u, %u, %u)", shape[0], shape[1], shape[2]);
        ptx_buf_puts(out, buf);
    } else if (sl->type) {
        ptx_buf_puts(out, v);       /* a pyptx type, imported */
    } else if (sl->strip || sl->bare) {
        size_t n = sl->strip ? strlen(sl->strip) : 0;
        const char *q = sl->bare ? "" : "\"";
        ptx_buf_printf(out, "%s%s%s", q, v + (strncmp(v, sl->strip ? sl->strip : "", n) ? 0 : n), q);
    } else {
        ptx_buf_putc(out, '"');
        ptx_buf_puts(out, v);
        ptx_buf_putc(out, '"');
    }
}

/* What a wrapper prints from an opcode word's modifiers: the pattern's
   values, and for a row without a template the positional values and the
   keyword items (each joined by ", "), which stand before and after the
   operands.  The pass makes one per word and row (sg_st(m)->forms). */
typedef struct sg_form {
    const char *vals[MAXWORDS];
    const char *open;    /* "call(" and the positional values: one copy */
    const char *tail;
    uint32_t nopen, ncall, ntail;   /* ncall: the bytes of "call(" */
    uint8_t no_addr;     /* no operand is printed as an address ('M') */
} sg_form;

/* The positional slots (keyword 0) or the keyword slots (1) of w. */
static void put_slots(const wrapper *w, const char **vals, int keyword, ptx_buf *out)
{
    for (unsigned i = 0; w->mods[i]; i++) {
        const slot *sl = slot_named(w->mods[i]);
        const char *v = sl && vals[i] ? vals[i] : sl ? sl->absent : NULL;
        if (!sl || !sl->keyword != !keyword)
            continue;
        if (keyword && (!v || (sl->dflt && !strcmp(v, sl->dflt))))
            continue;
        if (out->n)
            ptx_buf_put(out, ", ", 2);
        if (keyword) {
            ptx_buf_puts(out, sl->keyword);
            ptx_buf_putc(out, '=');
        }
        put_value(out, sl, keyword ? v : vals[i]);
    }
}

/* The form of row w for modifiers that gave `vals`: its index.  Forms
   outlive a piece (sg_keep): the values are copied from its modifiers. */
static uint32_t make_form(cg_module *m, const wrapper *w, const char **vals)
{
    sg_state *st = sg_st(m);
    cg_module *keep = sg_keep(m);
    st->forms = cg_grow(keep, st->forms, st->nforms, &st->capforms, sizeof *st->forms);
    sg_form *f = &st->forms[st->nforms];
    memset(f, 0, sizeof *f);
    for (unsigned i = 0; i < MAXWORDS; i++)
        f->vals[i] = vals[i] ? cg_strndup(keep, vals[i], strlen(vals[i])) : NULL;
    f->no_addr = !w->opnds || !strchr(w->opnds, 'M');
    ptx_buf open = { 0 }, b = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &open, &b, NULL);
    ptx_buf_puts(&open, w->call);
    ptx_buf_putc(&open, '(');
    f->ncall = (uint32_t)open.n;
    if (!w->args) {
        put_slots(w, vals, 0, &b);
        if (b.n)
            ptx_buf_put(&open, b.p, b.n);
        b.n = 0;
        put_slots(w, vals, 1, &b);
        f->tail = cg_strndup(keep, b.p ? b.p : "", b.n);
        f->ntail = (uint32_t)b.n;
    }
    f->open = cg_strndup(keep, open.p, open.n);
    f->nopen = (uint32_t)open.n;
    ptx_free_bufs(&ob);
    return st->nforms++;
}

/* An operand the letter `kind` of w->opnds stands for ('M': an address;
   the printers of one operand never look at those after it). */
static void print_operand(const cg_module *m, const cg_kernel *k, char kind, const cg_opnd *o,
                          ptx_buf *out)
{
    if (kind == 'M')
        sg_print_addr_arg(m, k, o, out);
    else
        cg_print_opnd(m, k, o, out);
}

/* The positional slots, the operands, the keyword slots. */
static void print_default(const cg_module *m, const cg_kernel *k, const cg_inst *in,
                          const wrapper *w, const sg_form *f, ptx_buf *out)
{
    int any = f->nopen > f->ncall;   /* positional values, in f->open */
    if (f->no_addr) {   /* most: codegen's list, registers inline */
        if (any && in->ops)
            ptx_buf_put(out, ", ", 2);
        cg_print_opnds(m, k, in->ops, out);
        any |= in->ops != NULL;
    } else {
        const char *kind = w->opnds;   /* each operand's letter, as far as it goes */
        for (const cg_opnd *o = in->ops; o; o = o->next, kind += *kind != 0) {
            if (any++)
                ptx_buf_put(out, ", ", 2);
            print_operand(m, k, *kind, o, out);
        }
    }
    if (f->ntail) {
        if (any)
            ptx_buf_put(out, ", ", 2);
        ptx_buf_put(out, f->tail, f->ntail);
    }
}

/* One template item (`[kw=]src[?default]`, at most `n` bytes) into out;
   0 if it is left out. */
static int print_item(const cg_module *m, const cg_kernel *k, const cg_inst *in,
                      const wrapper *w, const char *const *vals, const char *it, size_t n,
                      ptx_buf *out)
{
    const char *eq = memchr(it, '=', n), *src = eq ? eq + 1 : it;
    const char *q = memchr(src, '?', n - (size_t)(src - it));
    unsigned idx = (unsigned)(src[1] - '0');
    size_t mark = out->n;
    if (eq) {
        ptx_buf_put(out, it, (size_t)(eq - it + 1));
    }
    if (src[0] == 'm' && src[2] == '+') {   /* two words as one "a.b" */
        const char *a = vals[idx], *b = vals[(unsigned)(src[4] - '0')];
        if (!a && !b) {
            out->n = mark;
            return 0;
        }
        ptx_buf_putc(out, '"');
        ptx_buf_puts(out, a ? a : "");
        ptx_buf_puts(out, a && b ? "." : "");
        ptx_buf_puts(out, b ? b : "");
        ptx_buf_putc(out, '"');
        return 1;
    }
    if (src[0] == 'm') {                 /* a pattern word's value */
        const slot *sl = slot_named(w->mods[idx]);
        const char *v = vals[idx] ? vals[idx] : sl->absent;
        if (!v || (sl->dflt && !strcmp(v, sl->dflt))) {
            out->n = mark;
            return 0;
        }
        put_value(out, sl, v);
        return 1;
    }
    const cg_opnd *o = sg_op(in, idx);   /* an operand, or a part */
    cg_opnd tuple;
    if (src[2] == '.' && src[3] == 't') {
        tuple = (cg_opnd){ .kind = CG_O_TUPLE, .elems = o->elems };   /* TMA coordinates */
        o = &tuple;
    } else if (src[2] == '.' && src[3] == 'e') {          /* coordinate K [its left] */
        const cg_opnd *e = o->elems;
        for (int i = src[4] - '0'; i > 0 && e; i--)
            e = e->next;
        o = src[5] == 'a' ? e->a : e;
    } else if (src[2] == '.') {
        o = src[3] == 'a' ? o->a : o->b;
    }
    size_t at = out->n;
    if (src[2] == '.')
        cg_print_opnd(m, k, o, out);
    else
        print_operand(m, k, w->opnds && strnlen(w->opnds, idx + 1) > idx ? w->opnds[idx] : 0,
                      o, out);
    if (q && out->n - at == (size_t)(it + n - q - 1) && !memcmp(out->p + at, q + 1, out->n - at)) {
        out->n = mark;                   /* the wrapper's default */
        return 0;
    }
    return 1;
}

/* The items of w->args, joined by ", ". */
static void print_template(const cg_module *m, const cg_kernel *k, const cg_inst *in,
                           const wrapper *w, const char *const *vals, ptx_buf *out)
{
    const char *p = w->args;
    int any = 0;
    while (*p) {
        const char *e = strstr(p, ", ");
        size_t n = e ? (size_t)(e - p) : strlen(p), mark = out->n;
        if (any)
            ptx_buf_puts(out, ", ");
        if (print_item(m, k, in, w, vals, p, n, out))
            any = 1;
        else
            out->n = mark;
        p += n + (e ? 2 : 0);
    }
}

/* wrapper(arguments..., pred=guard) */
void sg_print_call(const cg_module *m, const cg_kernel *k, const cg_stmt *s,
                   int depth, ptx_buf *out)
{
    const cg_inst *in = &s->u.inst;
    const wrapper *w = &wrappers[in->hook - 1];
    const sg_form *f = &sg_st(m)->forms[in->hook_data];
    size_t lead = depth > 0 ? (size_t)depth * 4 : 0;
    char *at = ptx_buf_room(out, lead + f->nopen);   /* indent and "call(": one copy */
    memset(at, ' ', lead);
    memcpy(at + lead, f->open, f->nopen);
    out->n += lead + f->nopen;
    size_t start = out->n - (f->nopen - f->ncall);
    if (w->args)
        print_template(m, k, in, w, f->vals, out);
    else
        print_default(m, k, in, w, f, out);
    if (in->guard) {
        if (out->n > start)
            ptx_buf_puts(out, ", ");
        ptx_buf_puts(out, w->pred_kw);
        ptx_buf_putc(out, '=');
        cg_print_opnd(m, k, in->guard, out);
    }
    ptx_buf_puts(out, ")\n");
}

/* ---- the pass ---------------------------------------------------------- */

/* What one opcode word fits: the rows whose opcode and modifier pattern
   take it (bit i: wrappers[i]) and the pyptx types each of them names.
   An instruction's row is the first of those its operands fit, so the
   modifiers are matched once per word of the module, not once per
   instruction: by the word's text, since a module rewritten in pieces
   builds each piece's instructions with op and mods arrays of its own. */
#define NWRAPPERS (sizeof wrappers / sizeof *wrappers)
#define NROWWORDS ((NWRAPPERS + 63) / 64)

typedef struct word_fit {
    uint64_t rows[NROWWORDS];
    uint32_t types[NWRAPPERS];   /* m->types_used bits of each row */
    uint32_t form[NWRAPPERS];    /* each row's form (sg_st(m)->forms) */
} word_fit;

/* Every word's fit, by its number (sg_word_id; NULL: not worked out
   yet): kept for the module (sg_st(m)->word_fits, in sg_keep), since what
   a word fits depends on neither the kernel nor the piece. */
struct sg_word_fits {
    word_fit **v;
    uint32_t cap;
};

typedef struct wrapping {
    cg_module *m;
    const cg_kernel *k;
    struct sg_word_fits *fits;
    uint32_t made;
} wrapping;

static word_fit *new_fit(wrapping *c, const cg_inst *in)
{
    word_fit *f = cg_alloc(sg_keep(c->m), sizeof *f);
    memset(f, 0, sizeof *f);
    for (unsigned i = 0; i < NWRAPPERS; i++) {
        const wrapper *w = &wrappers[i];
        if (w->op[0] != in->op[0] || strcmp(w->op, in->op))
            continue;
        const char *vals[MAXWORDS] = { 0 };   /* (cleared for the op's rows alone) */
        if (!match_mods(w, in, vals))
            continue;
        f->rows[i / 64] |= 1ull << (i % 64);
        f->form[i] = make_form(c->m, w, vals);
        for (unsigned j = 0; w->mods[j]; j++)      /* the types it names */
            if (vals[j] && slot_named(w->mods[j]) && slot_named(w->mods[j])->type)
                f->types[i] |= 1u << cg_type_index(vals[j], strlen(vals[j]));
    }
    return f;
}

static const word_fit *fit_of(wrapping *c, const cg_inst *in)
{
    uint32_t id = sg_word_id(c->m, in);
    struct sg_word_fits *all = c->fits;
    all->v = sg_word_array(c->m, all->v, &all->cap, id, sizeof *all->v);
    if (!all->v[id])
        all->v[id] = new_fit(c, in);
    return all->v[id];
}

static int wrap(void *ctx, cg_stmt **link)
{
    wrapping *c = ctx;
    cg_stmt *s = *link;
    if (s->kind != CG_S_INST)
        return SG_VISIT_ON;
    const word_fit *f = fit_of(c, &s->u.inst);
        int found = 0;
        for (unsigned w = 0; w < NROWWORDS && !found; w++)
            for (uint64_t rows = f->rows[w]; rows && !found; rows &= rows - 1) {
                unsigned i = 64 * w + (unsigned)__builtin_ctzll(rows);
                if (operands_fit(c->k, &wrappers[i], &s->u.inst)) {
                    c->m->types_used |= f->types[i];
                    s->u.inst.hook = (uint8_t)(i + 1);
                    sg_st(c->m)->uses_smem |= wrappers[i].call[0] == 's';   /* smem.* */
                    s->u.inst.hook_data = f->form[i];
                    c->made++;
                    found = 1;
                }
            }
    return SG_VISIT_ON;
}

uint32_t sugar_calls(cg_module *m, cg_kernel *k)
{
    sg_state *st = sg_st(m);
    if (!st->word_fits)
        st->word_fits = cg_alloc(sg_keep(m), sizeof *st->word_fits);
    wrapping c = { .m = m, .k = k, .fits = st->word_fits };
    sg_visit_stmts(&k->body, wrap, &c);
    return c.made;
}
