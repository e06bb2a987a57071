/* build.h - internals shared by the IR builder, the printer and tables. */
#ifndef PTX_CODEGEN_BUILD_H
#define PTX_CODEGEN_BUILD_H

#include "codegen/ir.h"

/* names.c: tables and spelling rules */
extern const char *const cg_types[];
extern const unsigned cg_ntypes;
int cg_type_index(const char *s, size_t n);      /* -1 if not a pyptx type */
int cg_py_keyword(const char *s, size_t n);
const char *cg_special_py(const char *s, size_t n); /* ptx.special... or NULL */
int cg_is_decimal(const char *s, size_t n);      /* 0 | [1-9][0-9]* */
int cg_is_identifier(const char *s, size_t n);   /* [A-Za-z_][A-Za-z0-9_]* */
/* ptx.inst attribute name for an opcode/modifier; 0 if not expressible. */
size_t cg_mangle(const char *p, size_t n, char *out, size_t cap);

/* map.c: string -> int32 map in the module arena */
typedef struct cg_mslot {
    const char *k;
    uint32_t n, h;
    int32_t val;
} cg_mslot;
typedef struct cg_map {
    cg_mslot *v;
    uint32_t cap, n;
} cg_map;
/* Slot of key k, or NULL. */
cg_mslot *cg_map_get(const cg_map *mp, const char *k, size_t n);
/* A hint: key k is about to be looked up (its first slot is fetched). */
void cg_map_prefetch(const cg_map *mp, const char *k, size_t n);
/* Slot of key k, inserted with val = -1 if absent (k must outlive it). */
cg_mslot *cg_map_put(cg_module *m, cg_map *mp, const char *k, size_t n);
/* The suffix memo of base[0..n) in *map (made on first use): a slot whose
   val is the first suffix not known to be taken, `first` for a new base.
   Names are never given back, so a search for base_N starts there. */
cg_mslot *cg_suffix_next(cg_module *m, cg_map **map, const char *base, size_t n,
                         int32_t first);
int cg_pyset_has(cg_kernel *k, const char *name);
/* Takes name[0..n) as a Python name of k: its copy in the arena, or NULL
   if the kernel uses it already. */
const char *cg_pyset_claim(cg_module *m, cg_kernel *k, const char *name,
                           size_t n);

/* print.c: v in decimal, or "[v]" with brackets, at w (room for 12
   bytes); returns the end.  Two digits per division (register indices run
   to four or five). */
char *cg_put_digits(char *w, uint32_t v, int brackets);

/* Builder state for one kernel body. */
typedef struct cg_bind {
    cg_symid sym;
    int32_t prev;       /* binding it shadows, or -1 */
    uint16_t depth;
    uint8_t array;      /* in the array map */
    uint8_t shadowed;   /* a later binding of the same name hides it */
} cg_bind;

typedef struct cg_builder {
    cg_module *m;           /* what the statements allocate from */
    cg_module *keep;        /* what the symbols do: m, but for a kernel
                               built a piece at a time (build_open.c),
                               whose statements go with each piece */
    const ptx_module *pm;
    cg_kernel *k;
    cg_map exact, arrays;   /* PTX name / array base -> binding index */
    cg_bind *binds;
    uint32_t nbinds, capbinds;
    /* the bindings of register arrays (%r<N>), in declaration order, with
       the length of the base: few (%r %rd %f %fd %p ...), so resolving %r12
       scans them instead of hashing each way of splitting the name */
    struct cg_arr {
        uint32_t bind, len;
    } *arrs;
    uint32_t narrs, caparrs;
    /* names ever in the exact map, by their first two bytes (a bit per
       hash): most operands are array elements (%r12) and no exact name
       starts like them, so their exact lookup is skipped */
    uint64_t exact_lead[4];
    /* resolutions of names of up to 8 bytes (the register operands),
       valid while gen is unchanged: a binding of an array, made or undone,
       bumps it; one of another name empties that name's entry.  Between
       two, a kernel reads and writes the same %r12 many times. */
    uint32_t gen;
    uint8_t special;        /* the instruction being built names a special
                               register among its operands (special_reads) */
    /* p can be read 8 bytes at a time (within the source and its NUL)
       where p - load8_lo <= load8_span, as unsigned: one compare */
    uintptr_t load8_lo, load8_span;
    struct cg_rcache {
        uint64_t key;   /* the name's bytes, zero-padded (names have no NUL) */
        uint32_t gen;   /* 0: empty (gen starts at 1) */
        cg_symid sym;
        int32_t index;
    } rcache[256];
    /* array base (%r) -> its binding, valid while gen is unchanged */
    struct cg_bcache {
        uint64_t key;
        uint32_t gen;
        int32_t bind;
    } bcache[16];
    /* opcode word (ld.global.u32, up to 16 bytes) -> the module's opcode
       cache value: a kernel spells a few dozen words thousands of times */
    struct cg_ocache {
        uint64_t k0, k1;    /* the bytes, zero-padded; k0 == 0: empty */
        int32_t val;
    } ocache[64];
    uint16_t depth;         /* block nesting, 0 = kernel body */
    uint8_t phase;          /* the top level's (build_body.c), which a
                               body built a piece at a time carries on */
    uint16_t nscopes;       /* scopes opened so far (ids) */
    uint8_t digit_base;     /* an array base ends in a digit (%r1<4>): then
                               every split of %r12 must be tried */
} cg_builder;

/* symtab.c */
cg_symid cg_declare(cg_builder *b, cg_sym_kind kind, const char *p, size_t n,
                    const char *type, uint32_t count);
void cg_scope_enter(cg_builder *b);
void cg_scope_leave(cg_builder *b, uint32_t mark);
/* cg_resolve when the name is not in the cache (key 0: not cacheable). */
cg_symid cg_resolve_slow(cg_builder *b, const char *p, size_t n, uint64_t key,
                         int32_t *index);

/* The name as an integer, or 0 (not cached) if it is longer than 8 bytes
   or the byte order is not little-endian. */
static inline uint64_t cg_short_key(const cg_builder *b, const char *p, size_t n)
{
    if (n > 8 || n == 0 || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
        return 0;
    uint64_t key = 0;
    if ((uintptr_t)p - b->load8_lo <= b->load8_span) {
        /* one load; the bytes after the name are masked off */
        memcpy(&key, p, 8);
        if (n < 8)
            key &= (1ull << (8 * n)) - 1;
        return key;
    }
    for (size_t i = 0; i < n; i++)
        key |= (uint64_t)(unsigned char)p[i] << (8 * i);
    return key;
}

static inline struct cg_rcache *cg_rcache_slot(cg_builder *b, uint64_t key)
{
    return &b->rcache[(key * 0x9e3779b97f4a7c15ull) >> 56];
}

/* Resolve a name used in the body: sym and array index (or -1).  Inline
   for a cached name, the common case (a call was a tenth of its cost). */
static inline cg_symid cg_resolve(cg_builder *b, const char *p, size_t n,
                                  int32_t *index)
{
    uint64_t key = cg_short_key(b, p, n);
    const struct cg_rcache *c = cg_rcache_slot(b, key);
    if (key && c->key == key && c->gen == b->gen) {
        *index = c->index;
        return c->sym;
    }
    return cg_resolve_slow(b, p, n, key, index);
}
/* Register-like resolution only (CG_SYM_REG / CG_SYM_REGARRAY). */
cg_symid cg_resolve_reg(cg_builder *b, const char *p, size_t n, int32_t *index);

/* text.c: source text as cg_text pieces */
/* The first slash followed by c (the start of a comment) in p[0..n), or
   NULL: memchr for the slash, where glibc's memmem costs a few hundred
   instructions a call. */
const char *cg_find_slash(const char *p, size_t n, char c);
/* Bytes of tokens [i, j) with the trivia between them. */
ptx_str cg_span(const ptx_module *pm, ptx_tok i, ptx_tok j);
/* The pieces of tokens [i, j): words that name symbols become references;
   token `skip` (e.g. the opcode) is never resolved. */
cg_text cg_text_span(cg_builder *b, ptx_tok i, ptx_tok j, ptx_tok skip);
cg_text cg_text_lit(cg_module *m, const char *p, size_t n);

/* build_opnd.c */
cg_opnd *cg_build_opnd(cg_builder *b, const ptx_expr *e, ptx_tok end);
/* Build ptx.inst.* for an instruction, or NULL (+ *why) if it must be raw. */
cg_stmt *cg_build_inst(cg_builder *b, const ptx_stmt *s, const char **why);
/* Last token of an expression. */
ptx_tok cg_expr_last(const ptx_expr *e);

/* build_body.c: a whole body; or a body a piece at a time, each piece's
   part of it (its labels declared first, as the whole body's are), the
   first after cg_build_body_start */
void cg_build_body(cg_builder *b, const ptx_block *body, cg_stmt **out);
void cg_build_body_start(cg_builder *b);
void cg_build_body_part(cg_builder *b, const ptx_block *part, cg_stmt **out);

/* build_module.c: one kernel after its name (the rest of cg_build); its
   head alone (parameters, directives, comments: NULL, or why pyptx
   cannot express it), with a builder for its body, whose pm is set */
void cg_build_kernel(cg_module *m, cg_kernel *k);
const char *cg_build_kernel_head(cg_builder *b, cg_kernel *k);
/* The builder reads the source of pm from here on. */
void cg_builder_at(cg_builder *b, const ptx_module *pm);
/* build_jobs.c: cg_build_kernel on kernels [from, to), on up to `jobs`
   threads, their IR in `ir` where it is not NULL (cg_build_items) */
void cg_build_kernels(cg_module *m, uint32_t from, uint32_t to, unsigned jobs,
                      ptx_arena *ir);

/* build_open.c: a kernel whose text runs on past the piece that holds its
   head (codegen/pieces.c), built and printed a part of its body at a
   time.  Its symbols, parameters and directives are kept in an arena of
   its own until its '}'; each part's statements go once printed. */
struct cg_open {
    cg_module keep;     /* a copy of the module, for its arena */
    cg_builder b;       /* the body's builder, carried from part to part */
    cg_kernel k;        /* the kernel (the module's list holds its names) */
    const ptx_block *first; /* the body's part in the piece of the head */
    size_t printed;     /* bytes of the body printed so far */
    int active;         /* a kernel is open */
};
/* The head of m->kernels[i], whose body pm does not close: where pyptx
   can express it, the kernel is then open (o->active), its first part
   o->first, its head printed by cg_print_kernel_head(m, &o->k); else it
   is carried raw, as any such kernel. */
void cg_open_begin(cg_open *o, cg_module *m, const ptx_module *pm, uint32_t i);
/* The body's part in pm (the open function's body, or the block a piece
   that starts in the body begins with), built, counted, printed and
   freed; where it ends with the body's '}', the kernel is closed, and the
   raw text of _MODULE goes on after it (pm begins at byte `at`). */
void cg_open_part(cg_open *o, cg_module *m, const ptx_module *pm, size_t at,
                  const ptx_block *part, ptx_codegen_stats *st, ptx_buf *out);
/* What an open kernel holds, given back: at its '}', or where the text
   ends or fails before it. */
void cg_open_free(cg_open *o);

/* pieces.c: a piece's tree and the arena of its IR, held while it is
   built and printed, freed by cg_release_piece (a ptx_own release). */
typedef struct cg_piece_held {
    ptx_module *pm;
    ptx_arena *ir;
} cg_piece_held;
void cg_release_piece(void *h);

/* uses.c: `found` and the bits of names[0..nnames) (nnames <= 64) that
   the Python code p[0..n) uses: as words outside literals and comments,
   not after a '.', not numbers. */
uint64_t cg_scan_uses(const char *p, size_t n, const char *const *names, unsigned nnames,
                      uint64_t found);
/* The same in blocks of `block` bytes: 64 where the processor has
   AVX-512BW (else 16, as cg_scan_uses takes it), or 16; the tests try
   both. */
uint64_t cg_scan_uses_in(const char *p, size_t n, const char *const *names, unsigned nnames,
                         uint64_t found, unsigned block);

/* codegen.c, for pieces.c: the stats of kernels from `from` on (counted
   before the layer above rewrites them), and those of a list; the head printed once the
   kernels are, and put in before them at `start`; the kernels [from, to)
   printed in plain mode on up to `jobs` threads. */
void cg_count_stats(const cg_module *m, uint32_t from, ptx_codegen_stats *st);
void cg_count_stmts(cg_stmt *s, ptx_codegen_stats *st);
void cg_print_head_at(const cg_module *m, size_t start, ptx_buf *out);
void cg_print_plain(const cg_module *m, uint32_t from, uint32_t to, unsigned jobs,
                    ptx_buf *out);
/* The whole file of a module no layer rewrites: head, the kernels on up
   to `jobs` threads, tail. */
void cg_print_all(const cg_module *m, unsigned jobs, ptx_buf *out);
/* pieces.c: ptx_codegen_pieces of a module no layer rewrites (0 where
   --name asks for the whole module). */
int cg_codegen_pieces(const char *name, const char *src, size_t size,
                      size_t piece, const ptx_codegen_options *o, ptx_buf *out);
/* pieces.c, for the layer above's pieces too: the kernels from `from`
   on, printed, reduced to their names (all the tail needs); what a piece
   src[from, end) held of kernels' text given back (m->opt->release) once
   printed, the segments it closed numbered from s0 (`open`: a kernel is
   open at its end); statistics added up. */
void cg_forget_kernels(cg_module *m, uint32_t from);
void cg_give_back(const cg_module *m, const char *src, uint32_t s0, size_t from,
                  size_t end, int open);
void cg_add_stats(ptx_codegen_stats *to, const ptx_codegen_stats *st);


#endif
