/*
 * sugar/free.c - free names for the passes that rename or add names.
 *
 * A new PTX spelling must clash with no name of the module: no symbol of
 * any kernel (the harness and pyptx-diff compare a module under one
 * bijection), no kernel, no name the module text outside the kernels
 * declares or uses (a global it would shadow), no opcode, and no spelling
 * another pass gave.  Those names are hashed once per module (ptxwords;
 * only the words among them, which a new spelling could equal), every
 * spelling a pass gives joins them, so each test is one lookup and a pass
 * that renames every label of a module stays linear.  (Names inside
 * a kernel are its symbols: carried text refers to them by identity.)
 *
 * A word is a maximal run of [A-Za-z0-9_$] not right after '%' (that is
 * a register's tail: "%r1" makes no word "r1") or '.' (a directive or
 * modifier: ".global" is no name).  New spellings are always such words
 * and never start with a digit or hold a '$'.
 * The module text outside kernels (rawwords) is hashed apart, every word
 * of it: the debug sections of nvcc -G name kernel parameters and labels
 * there, text that no rename reaches, so those names keep their spelling.
 *
 * In pieces (pieces.c) the names of the pieces still to come are not
 * known yet, and a prelude runs after the rows of the pieces before it.
 * Each word is tagged with what put it there (W_*): a word answered free
 * is kept as asked (answered not pinned: its hash), and a piece that
 * brings it later (its text, kernel,
 * symbol, opcode or Python function name), or a prelude that gives a name
 * a row asked about or gave, is a clash: the whole module would have
 * answered otherwise, so the caller translates the whole module instead.
 * A prelude does not see the rows' names (the whole module's preludes run
 * before any row) and keeps a suffix memo of its own.  Without a clash
 * every answer is the whole module's, so the output is too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"
#include "util/alloc.h"

/* What put a word into ptxwords or rawwords (cg_mslot.val). */
enum {
    W_SOURCE = -1,      /* the module: cg_map_put's own value */
    W_ASKED_PRE = -2,   /* in pieces: answered free to a prelude */
    W_ASKED_ROW = -3,   /* in pieces: answered free to a row */
    W_GIVEN_PRE = -4,   /* given by a prelude */
    W_GIVEN_ROW = -5,   /* given by a row */
};

static int wbyte(unsigned char c)
{
    return c == '_' || c == '$' || (c >= '0' && c <= '9') ||
           ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* Is the word of slot s (or none) a name of the module, as the asker (a
   prelude or a row) would see it in the whole module? */
static int taken(const sg_state *st, const cg_mslot *s)
{
    return s && (s->val == W_SOURCE || s->val == W_GIVEN_PRE ||
                 (s->val == W_GIVEN_ROW && !st->in_prelude));
}

/* A name's hash for sg_state.pinasked (never 0, the empty slot). */
static uint64_t name_hash(const char *p, size_t n)
{
    uint64_t h = cg_text_hash(p, n);
    return (h ^ h >> 31) | 1;
}

/* The slot of hash h in the set (where it is, or where it would go). */
static uint64_t *hash_slot(const sg_hashes *set, uint64_t h)
{
    for (uint32_t i = (uint32_t)(h >> 32) & (set->cap - 1);; i = (i + 1) & (set->cap - 1))
        if (set->v[i] == h || !set->v[i])
            return &set->v[i];
}

static void hash_add(cg_module *m, sg_hashes *set, uint64_t h)
{
    if (2 * (set->n + 1) > set->cap) {   /* (the old array stays in the arena) */
        sg_hashes big = { cg_alloc(sg_keep(m), 2 * (set->cap ? set->cap : 512) * 8), 0,
                          2 * (set->cap ? set->cap : 512) };
        memset(big.v, 0, big.cap * sizeof *big.v);
        for (uint32_t i = 0; i < set->cap; i++)
            if (set->v[i]) {
                *hash_slot(&big, set->v[i]) = set->v[i];
                big.n++;
            }
        *set = big;
    }
    uint64_t *slot = hash_slot(set, h);
    set->n += !*slot;
    *slot = h;
}

/* Was a spelling of hash h answered not pinned (sg_ptx_pinned)?  The
   answers are logged as they are given, a store each, and put into the
   set here: a lookup in a set of every label and parameter of a library
   module was a cache miss per answer (a tenth of pass "labels"). */
static int was_asked(cg_module *m, uint64_t h)
{
    sg_state *st = sg_st(m);
    for (; st->pinlogged < st->npinlog; st->pinlogged++)
        hash_add(m, &st->pinasked, st->pinlog[st->pinlogged]);
    return st->pinasked.n && *hash_slot(&st->pinasked, h);
}

/* p[0..n) (which outlives the map, else copied) into map as a word of the
   module: a clash where it was asked about or given before (for
   rawwords: answered not pinned, sg_state.pinasked). */
static void add_source(cg_module *m, cg_map *map, const char *p, size_t n, int copy)
{
    sg_state *st = sg_st(m);
    uint32_t before = map->n;
    cg_mslot *s = cg_map_put(sg_keep(m), map, p, n);
    int fresh = map->n != before;
    if (fresh && copy)
        s->k = cg_strndup(sg_keep(m), p, n);
    if (!fresh && s->val != W_SOURCE)
        st->clash = 1;
    if (fresh && map == st->rawwords && was_asked(m, name_hash(p, n)))
        st->clash = 1;
}

/* In pieces, name[0..n) answered free (slot s, or none): kept as asked,
   so that a piece that brings it later clashes. */
static void asked(cg_module *m, cg_map *map, const char *name, size_t n, cg_mslot *s)
{
    sg_state *st = sg_st(m);
    if (!st->ahead)
        return;
    if (!s) {
        s = cg_map_put(sg_keep(m), map, name, n);
        s->k = cg_strndup(sg_keep(m), name, n);
        s->val = st->in_prelude ? W_ASKED_PRE : W_ASKED_ROW;
    } else if (s->val == W_ASKED_PRE && !st->in_prelude) {
        s->val = W_ASKED_ROW;
    }
}

/* The words of p[0..n) into map (keys point into p, which outlives it):
   all of them, or (names_only) those a new spelling could be. */
static void add_words(cg_module *m, cg_map *map, const char *p, size_t n, int names_only)
{
    for (size_t i = 0; i < n;) {
        if (!wbyte((unsigned char)p[i])) {
            i++;
            continue;
        }
        size_t j = i;
        int dollar = 0;
        while (j < n && wbyte((unsigned char)p[j]))
            dollar |= p[j++] == '$';
        int name = i == 0 || (p[i - 1] != '%' && p[i - 1] != '.');
        if (!names_only || (name && !dollar && !(p[i] >= '0' && p[i] <= '9')))
            add_source(m, map, p + i, j - i, 0);
        i = j;
    }
}

/* A new spelling is such a word, without '$' and not starting with a
   digit (sg_ptx_name_free). */
static int could_be_new(const char *p)
{
    if (!*p || (*p >= '0' && *p <= '9'))
        return 0;
    for (; *p; p++)
        if (*p == '$' || !wbyte((unsigned char)*p))
            return 0;
    return 1;
}

/* A register (%r1) or an nvcc label ($L__BB0_1) can never be a new
   spelling, so the map leaves them out (most of a module's symbols).
   In pieces the name goes with its piece: the map keeps a copy. */
static void add_name(cg_module *m, const char *p)
{
    if (p && p[0] != '%' && p[0] != '$')
        add_source(m, sg_st(m)->ptxwords, p, strlen(p), sg_st(m)->ahead);
}

/* The names of the module's kernels from k0, its raw segments from s0
   and its opcodes from o0 into ptxwords; with raw_too, the segments'
   words into rawwords too. */
static void learn_ptx(cg_module *m, uint32_t k0, uint32_t s0, uint32_t o0, int raw_too)
{
    sg_state *st = sg_st(m);
    for (uint32_t i = s0; i < m->nsegs; i++)
        if (m->segs[i].kernel < 0) {
            add_words(m, st->ptxwords, m->segs[i].p, m->segs[i].n, 1);
            if (raw_too)
                add_words(m, st->rawwords, m->segs[i].p, m->segs[i].n, 0);
        }
    for (uint32_t i = o0; i < m->nopcodes; i++)
        add_name(m, m->opcodes_v[i].op);
    for (uint32_t i = k0; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        add_name(m, k->ptx_name);
        for (uint32_t s = 0; s < k->nsyms; s++)
            add_name(m, k->syms[s].ptx);
    }
}

/* A kernel function's Python name py (build_module.c's, or a prelude's,
   given) into pyasked: a clash where it was answered free before (to a
   row, where a prelude gives it). */
static void py_function(cg_module *m, const char *py, int given)
{
    sg_state *st = sg_st(m);
    size_t n = strlen(py);
    cg_mslot *s = cg_map_get(st->pyasked, py, n);
    if (s && (!given || s->val == W_ASKED_ROW || s->val == W_GIVEN_ROW))
        st->clash = 1;
    if (given && !s) {
        s = cg_map_put(sg_keep(m), st->pyasked, py, n);
        s->k = cg_strndup(sg_keep(m), py, n);
    }
    if (given)
        s->val = W_GIVEN_PRE;
}

void sg_learn(cg_module *m, uint32_t k0, uint32_t s0, uint32_t o0)
{
    sg_state *st = sg_st(m);
    learn_ptx(m, k0, s0, o0, 1);
    for (uint32_t i = k0; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        /* a _k<i> name where the PTX name is a prelude's: the whole
           module's build had not met that name */
        cg_mslot *p = k->py_name[0] == '_' && k->py_name[1] == 'k'
                          ? cg_map_get(st->pyasked, k->ptx_name, strlen(k->ptx_name)) : NULL;
        if (p && p->val == W_GIVEN_PRE)
            st->clash = 1;
        py_function(m, k->py_name, 0);
    }
}

void sg_ahead_begin(cg_module *m, cg_module *keep)
{
    sg_state *st = sg_st(m);
    st->ahead = 1;
    st->keep = keep;
    st->ptxwords = cg_alloc(m, sizeof *st->ptxwords);
    st->rawwords = cg_alloc(m, sizeof *st->rawwords);
    st->pyasked = cg_alloc(m, sizeof *st->pyasked);
}

static cg_map *ptxwords(cg_module *m)
{
    sg_state *st = sg_st(m);
    if (!st->ptxwords) {   /* the whole module: every name at once */
        st->ptxwords = cg_alloc(m, sizeof *st->ptxwords);
        learn_ptx(m, 0, 0, 0, 0);
    }
    return st->ptxwords;
}

int sg_ptx_pinned(cg_module *m, const char *ptx)
{
    sg_state *st = sg_st(m);
    if (!st->rawwords) {
        st->rawwords = cg_alloc(m, sizeof *st->rawwords);
        for (uint32_t i = 0; i < m->nsegs; i++)
            if (m->segs[i].kernel < 0)
                add_words(m, st->rawwords, m->segs[i].p, m->segs[i].n, 0);
    }
    size_t n = strlen(ptx);
    if (cg_map_get(st->rawwords, ptx, n))
        return 1;
    if (st->ahead) {   /* a hash is enough, and keeps rawwords small */
        st->pinlog = cg_grow(sg_keep(m), st->pinlog, st->npinlog, &st->cappinlog,
                             sizeof *st->pinlog);
        st->pinlog[st->npinlog++] = name_hash(ptx, n);
    }
    return 0;
}

int sg_ptx_name_free(cg_module *m, const char *name)
{
    if (!could_be_new(name))
        return 0;
    size_t n = strlen(name);
    cg_map *map = ptxwords(m);
    cg_mslot *s = cg_map_get(map, name, n);
    if (taken(sg_st(m), s))
        return 0;
    asked(m, map, name, n, s);
    return 1;
}

/* Candidate i of a new name into buf (256 bytes): base itself for i = 1,
   else base_i with base cut to 240 bytes (bn = strlen(base) < 256). */
static void candidate(char *buf, const char *base, size_t bn, uint32_t i)
{
    if (i == 1) {
        memcpy(buf, base, bn + 1);
        return;
    }
    bn = bn > 240 ? 240 : bn;
    memcpy(buf, base, bn);
    buf[bn] = '_';
    *cg_put_digits(buf + bn + 1, i, 0) = 0;
}

/* The memo of the first suffixes not known to be taken, where the rows or
   the preludes ask (in pieces a prelude, which sees fewer names, keeps its
   own).  A name once taken stays taken to whoever asks. */
static cg_map **suffix_memo(cg_module *m)
{
    sg_state *st = sg_st(m);
    return st->ahead && st->in_prelude ? &st->preptxnext : &st->ptxnext;
}

/* base_2, base_3 ... into buf: the first free one (a Python name too,
   with py_too), or 0 after 1000 tries. */
static int suffixed(cg_module *m, const cg_kernel *k, const char *base, size_t bn,
                    int py_too, char *buf)
{
    /* the ones below `taken` are known to be taken already, so a module
       whose 1000 kernels each want param0 does not try them all a
       thousand times */
    cg_mslot *taken = cg_suffix_next(sg_keep(m), suffix_memo(m), base, bn, 1);
    uint32_t i = (uint32_t)taken->val, limit = i + 1000;
    for (;; i++) {
        candidate(buf, base, bn, i);   /* called for every label: no printf */
        if (!sg_ptx_name_free(m, buf)) {
            if ((uint32_t)taken->val == i)
                taken->val = (int32_t)i + 1;
        } else if (!py_too || sg_py_name_free(m, k, buf)) {
            return 1;
        }
        if (i == limit)
            return 0;
    }
}

int sg_rename_ptx(cg_module *m, cg_kernel *k, cg_symid s, const char *base,
                  int py_too)
{
    if (sg_ptx_pinned(m, k->syms[s].ptx))
        return 0;
    char buf[256];
    size_t bn = strlen(base);
    if (bn > 255)
        return 0;
    /* base itself, unless its memo says it is taken: a library module's
       kernels share a few names, and the module's words are a cache miss */
    const cg_map *memo = *suffix_memo(m);
    const cg_mslot *known = memo ? cg_map_get(memo, base, bn) : NULL;
    if ((!known || known->val < 2) && sg_ptx_name_free(m, base) &&
        (!py_too || sg_py_name_free(m, k, base)))
        memcpy(buf, base, bn + 1);   /* the common case: no suffix to look for */
    else if (!suffixed(m, k, base, bn, py_too, buf))
        return 0;
    sg_ptx_give(m, k, s, buf);
    return 1;
}

void sg_ptx_give(cg_module *m, cg_kernel *k, cg_symid s, const char *name)
{
    k->syms[s].ptx = cg_strndup(m, name, strlen(name));
    sg_ptx_claim(m, k->syms[s].ptx);
}

/* The PTX word `name`'s slot (n bytes), put in the module's words;
   *fresh: it was not there before. */
static cg_mslot *word_slot(cg_module *m, const char *name, size_t n, int *fresh)
{
    cg_map *map = ptxwords(m);
    uint32_t before = map->n;
    cg_mslot *s = cg_map_put(sg_keep(m), map, name, n);
    *fresh = map->n != before;
    return s;
}

void sg_ptx_prefetch(cg_module *m, const char *name)
{
    cg_map_prefetch(ptxwords(m), name, strlen(name));
}

int sg_ptx_take(cg_module *m, cg_kernel *k, cg_symid sym, const char *name)
{
    if (!could_be_new(name))
        return 0;
    sg_state *st = sg_st(m);
    size_t n = strlen(name);
    int fresh;
    cg_mslot *s = word_slot(m, name, n, &fresh);
    if (!fresh && taken(st, s))
        return 0;
    /* what sg_ptx_name_free's asked() and sg_ptx_claim leave: the slot
       given, a clash where a prelude gives what a row asked about or gave */
    k->syms[sym].ptx = cg_strndup(m, name, n);
    if (fresh)
        s->k = st->ahead ? cg_strndup(sg_keep(m), name, n) : k->syms[sym].ptx;
    else if (st->in_prelude && (s->val == W_ASKED_ROW || s->val == W_GIVEN_ROW))
        st->clash = 1;
    s->val = st->in_prelude ? W_GIVEN_PRE : W_GIVEN_ROW;
    return 1;
}

void sg_ptx_claim(cg_module *m, const char *name)
{
    sg_state *st = sg_st(m);
    size_t n = strlen(name);
    int fresh;
    cg_mslot *s = word_slot(m, name, n, &fresh);
    if (fresh && st->ahead)
        s->k = cg_strndup(sg_keep(m), name, n);   /* name goes with its piece */
    if (st->in_prelude && (s->val == W_ASKED_ROW || s->val == W_GIVEN_ROW))
        st->clash = 1;   /* the whole module's prelude gave it first */
    if (fresh || !taken(st, s))
        s->val = st->in_prelude ? W_GIVEN_PRE : W_GIVEN_ROW;
}

int sg_py_name_free(const cg_module *m, const cg_kernel *k, const char *name)
{
    size_t n = strlen(name);
    if (!cg_is_identifier(name, n) || cg_py_reserved(name, n))
        return 0;
    if (cg_pyset_has((cg_kernel *)k, name))
        return 0;
    if (m->pyfns && cg_map_get(m->pyfns, name, n))
        return 0;
    const sg_state *st = sg_st(m);
    if (st->ahead)
        asked((cg_module *)m, st->pyasked, name, n, cg_map_get(st->pyasked, name, n));
    return 1;
}

void sg_py_function(cg_module *m, const char *py)
{
    cg_map_put(m, m->pyfns, py, strlen(py));
    if (sg_st(m)->ahead)
        py_function(m, py, 1);
}

const char *sg_py_fresh(cg_module *m, cg_kernel *k, const char *base)
{
    char buf[256];
    size_t bn = strlen(base);
    if (bn > 255)
        return NULL;
    /* as suffixed: the suffixes below `taken` are function names
       already (a module of 800 kernels named splitKreduce_kernel) */
    cg_mslot *taken = cg_suffix_next(sg_keep(m), &sg_st(m)->pynext, base, bn, 1);
    for (uint32_t i = (uint32_t)taken->val, limit = i + 1000;; i++) {
        candidate(buf, base, bn, i);
        if (sg_py_name_free(m, k, buf))
            return cg_pyset_claim(m, k, buf, strlen(buf));
        if ((uint32_t)taken->val == i && m->pyfns && cg_map_get(m->pyfns, buf, strlen(buf)))
            taken->val = (int32_t)i + 1;
        if (i == limit)
            return NULL;
    }
}

void sg_py_reserve(cg_module *m, const cg_kernel *k, const char *name)
{
    cg_pyset_claim(m, (cg_kernel *)k, name, strlen(name));
}

/* ---- the labels pyptx invents ---------------------------------------- */

/* fresh_label's prefixes in pyptx 0.1.1 (ptx.if_, ptx.range_,
   ptx.mbarrier.wait): a label spelled $_<prefix>_<N> may meet one that a
   recognized construct makes. */
static const char *const pyptx_label_prefixes[] = {
    "$_else_", "$_endif_", "$_loop_", "$_endloop_", "$_mbar_wait_",
};

/* The name after "$_" if p is spelled like a label pyptx makes, else NULL. */
static const char *pyptx_label_like(const char *p)
{
    for (size_t i = 0; i < sizeof pyptx_label_prefixes / sizeof *pyptx_label_prefixes; i++) {
        size_t n = strlen(pyptx_label_prefixes[i]);
        if (!strncmp(p, pyptx_label_prefixes[i], n) && cg_is_decimal(p + n, strlen(p + n)))
            return p + 2;
    }
    return NULL;
}

int sg_pyptx_label_pinned(cg_module *m, const cg_kernel *k, const uint32_t *refs)
{
    if (k->stray_fresh_like)
        return 1;
    for (uint32_t i = 0; i < k->nsyms; i++)
        if (k->syms[i].kind == CG_SYM_LABEL && refs[i] && pyptx_label_like(k->syms[i].ptx) &&
            sg_ptx_pinned(m, k->syms[i].ptx))
            return 1;
    return 0;
}

/* The fresh labels a raised construct takes when traced, in the order
   pyptx takes them (pre-order: a with's or for's header runs before its
   body): per prefix (the index into pyptx_label_prefixes), gen[N] = 1
   for each $_<prefix>_<N> made; *n counts them. */
static void fresh_made(const cg_stmt *s, uint32_t *n, uint8_t *const *gen)
{
    for (; s; s = s->next) {
        int first = -1, count = 0;
        if (sg_with_is(s, "ptx.if_"))
            first = 0, count = 2;                  /* $_else_N, $_endif_N+1 */
        else if (s->kind == SG_S_FOR && sg_for_of(s)->range)
            first = 2, count = 2;                  /* $_loop_N, $_endloop_N+1 */
        else if (s->kind == SG_S_WAIT && !strcmp(sg_wait_of(s)->helper, "ptx.mbarrier.wait"))
            first = 4, count = 1;                  /* $_mbar_wait_N */
        for (int i = 0; i < count; i++, (*n)++)
            if (gen)
                gen[first + i][*n] = 1;
        /* a helper made by a pass (def ...) runs where it is called, and its
           caller keeps the copies it stands for in orig (kloop.c, outline.c);
           a Python `for` (repeat.c: no args) runs its body count times when
           traced */
        cg_stmt **body = cg_body((cg_stmt *)s);
        uint32_t times = s->kind == SG_S_FOR && !sg_for_of(s)->range ? sg_for_of(s)->count : 1;
        cg_stmt *calls = s->kind == SG_S_ASSIGN ? sg_orig(s) : NULL;
        if (calls)
            fresh_made(calls, n, gen);
        else if (body && s->kind != SG_S_DEF) {
            uint32_t before = *n;
            fresh_made(*body, n, gen);
            for (uint32_t t = 1; t < times && *n != before; t++)
                fresh_made(*body, n, gen);     /* (a body that makes none: once) */
        }
    }
}

void sg_fix_pyptx_labels(cg_module *m, cg_kernel *k)
{
    enum { NP = sizeof pyptx_label_prefixes / sizeof *pyptx_label_prefixes };
    uint32_t n = 0;
    fresh_made(k->body, &n, NULL);
    if (!n)
        return;
    sg_scratch sc = { 0 };
    ptx_bufs ob;
    ptx_own_bufs(&ob, &sc, NULL);
    uint8_t *gen[NP];
    uint32_t *refs = sg_scratch_get(&sc, (k->nsyms + 1) * sizeof *refs + NP * (n + 1));
    for (unsigned p = 0; p < NP; p++)
        gen[p] = (uint8_t *)(refs + k->nsyms + 1) + p * (n + 1);
    n = 0;
    fresh_made(k->body, &n, gen);
    sg_count_refs(k->body, refs);
    for (uint32_t i = 0; i < k->nsyms; i++) {
        const char *p = k->syms[i].ptx, *tail;
        if (k->syms[i].kind != CG_SYM_LABEL || !refs[i] || !(tail = pyptx_label_like(p)))
            continue;
        for (unsigned j = 0; j < NP; j++) {
            size_t len = strlen(pyptx_label_prefixes[j]);
            unsigned long v = strtoul(p + len, NULL, 10);
            if (!strncmp(p, pyptx_label_prefixes[j], len) && v < n && gen[j][v])
                sg_rename_ptx(m, k, i, tail, 0);   /* the trace would make it again */
        }
    }
    ptx_free_bufs(&ob);
}
