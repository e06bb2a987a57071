/*
 * cubin/compare.c - compare two cubins' code-bearing sections
 * (see include/ptx/cubin.h for what is compared and how).
 */
#include "ptx/cubin.h"
#include "cubin/elf64.h"
#include "util/alloc.h"
#include "util/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Small helpers                                                      */

static void say(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || !whylen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* Debug sections: never code-bearing unless include_debug. */
static int is_debug(const char *nm)
{
    if (starts(nm, ".rela."))
        nm += 5;
    else if (starts(nm, ".rel."))
        nm += 4;
    return starts(nm, ".debug") || starts(nm, ".nv_debug");
}

static int is_compared(const char *nm, int include_debug)
{
    if (is_debug(nm))
        return include_debug;
    static const char *const pre[] = {
        ".text.",     ".nv.info",   ".nv.constant", ".nv.shared",
        ".nv.global", ".nv.callgraph", ".nv.compat", ".rel",
    };
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (starts(nm, pre[i]))
            return 1;
    return 0;
}

/* Is nm[0..plen) (ending in '.') a prefix that names a per-function section,
   such as ".text.", ".nv.info.", ".nv.constant0.", ".rela.text."? */
static int is_func_prefix(const char *nm, size_t plen)
{
    const char *p = nm, *end = nm + plen;
    if ((size_t)(end - p) > 5 && !strncmp(p, ".rela.", 6))
        p += 5;
    else if ((size_t)(end - p) > 4 && !strncmp(p, ".rel.", 5))
        p += 4;
    size_t len = (size_t)(end - p);
    static const char *const fixed[] = {".text.", ".nv.info.", ".nv.shared.",
                                        ".nv.local.", ".nv.global."};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (len == strlen(fixed[i]) && !strncmp(p, fixed[i], len))
            return 1;
    if (len > 13 && !strncmp(p, ".nv.constant", 12)) {
        const char *q = p + 12;
        while (q < end - 1 && *q >= '0' && *q <= '9')
            q++;
        return q == end - 1 && q > p + 12;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* One side of the comparison                                          */

typedef struct side {
    cb_elf e;
    const char *who;            /* "A" or "B" */
    size_t nk;                  /* kernels: .text.<k> sections */
    const char **kname;         /* kernel names (into the file) */
    char **canon;               /* per section: the name used for pairing */
    char *matched;              /* per section: already paired */
} side;

static void side_free(side *s)
{
    if (s->canon)
        for (size_t i = 0; i < s->e.nsec; i++)
            free(s->canon[i]);
    free(s->canon);
    free(s->kname);
    free(s->matched);
    cb_elf_free(&s->e);
}

static int side_kernels(side *s)
{
    s->kname = ptx_calloc(s->e.nsec ? s->e.nsec : 1, sizeof *s->kname);
    if (!s->kname)
        return -1;
    for (size_t i = 0; i < s->e.nsec; i++) {
        const char *nm = s->e.sec[i].name;
        if (starts(nm, ".text.") && nm[6])
            s->kname[s->nk++] = nm + 6;
    }
    return 0;
}

/* Index of kernel `k` (a NUL-terminated name, or k[0..klen)) or -1. */
static long find_kernel(const side *s, const char *k, size_t klen)
{
    for (size_t i = 0; i < s->nk; i++)
        if (strlen(s->kname[i]) == klen && !strncmp(s->kname[i], k, klen))
            return (long)i;
    return -1;
}

static const char *rename_a(const ptx_cubin_options *o, const char *k)
{
    for (size_t i = 0; o->renames && i < o->nrenames; i++)
        if (o->renames[i].a && o->renames[i].b && !strcmp(o->renames[i].a, k))
            return o->renames[i].b;
    return k;
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ptx_malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Fill s->canon.  When `by_kernel` is 0, canonical names are the literal
   names.  Otherwise a per-function section P<k> becomes P "\x01" key, where
   key is "#<index>" (ORDER) or the B-side kernel name (NAME). */
static int side_canon(side *s, const ptx_cubin_options *o, int by_kernel,
                      int order, int is_a)
{
    s->canon = ptx_calloc(s->e.nsec ? s->e.nsec : 1, sizeof *s->canon);
    s->matched = ptx_calloc(s->e.nsec ? s->e.nsec : 1, 1);
    if (!s->canon || !s->matched)
        return -1;
    for (size_t i = 0; i < s->e.nsec; i++) {
        const char *nm = s->e.sec[i].name;
        const char *dot = strrchr(nm, '.');
        long ki = -1;
        if (by_kernel && dot && dot[1] &&
            is_func_prefix(nm, (size_t)(dot + 1 - nm)))
            ki = find_kernel(s, dot + 1, strlen(dot + 1));
        if (ki < 0) {
            s->canon[i] = dupstr(nm);
        } else {
            char key[32];
            const char *k = s->kname[ki];
            if (order) {
                snprintf(key, sizeof key, "#%ld", ki);
                k = key;
            } else if (is_a) {
                k = rename_a(o, k);
            }
            size_t plen = (size_t)(dot + 1 - nm);
            size_t klen = strlen(k);
            char *c = ptx_malloc(plen + 1 + klen + 1);
            if (c) {
                memcpy(c, nm, plen);
                c[plen] = '\x01';
                memcpy(c + plen + 1, k, klen + 1);
            }
            s->canon[i] = c;
        }
        if (!s->canon[i])
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Resolving indices                                                   */

typedef struct cmpctx {
    side *a, *b;
    int names_may_differ;
} cmpctx;

/* Do section index ia (in A) and ib (in B) name corresponding sections? */
static int sec_ref_eq(const cmpctx *c, uint32_t ia, uint32_t ib)
{
    int ra = ia == 0 || ia >= CB_SHN_LORESERVE || ia >= c->a->e.nsec;
    int rb = ib == 0 || ib >= CB_SHN_LORESERVE || ib >= c->b->e.nsec;
    if (ra || rb)
        return ra && rb && ia == ib;
    return strcmp(c->a->canon[ia], c->b->canon[ib]) == 0;
}

/* Do symbol index ia (in A) and ib (in B) name corresponding symbols?
   Without names_may_differ the names must be equal too. */
static int sym_ref_eq(const cmpctx *c, uint64_t ia, uint64_t ib)
{
    int oa = ia >= c->a->e.nsym, ob = ib >= c->b->e.nsym;
    if (oa || ob)
        return oa && ob && ia == ib;
    const cb_sym *x = &c->a->e.sym[ia], *y = &c->b->e.sym[ib];
    if (x->info != y->info || x->other != y->other || x->value != y->value ||
        x->size != y->size)
        return 0;
    if (!sec_ref_eq(c, x->shndx, y->shndx))
        return 0;
    return c->names_may_differ || strcmp(x->name, y->name) == 0;
}

static const char *sym_name(const side *s, uint64_t i)
{
    return i < s->e.nsym ? s->e.sym[i].name : "?";
}

/* ------------------------------------------------------------------ */
/* Contents                                                            */

/* Display name of a pair: "X" or "X (B: Y)". */
static void pair_name(char *dst, size_t n, const cb_sec *x, const cb_sec *y)
{
    if (!strcmp(x->name, y->name))
        snprintf(dst, n, "%s", x->name);
    else
        snprintf(dst, n, "%s (B: %s)", x->name, y->name);
}

static int raw_diff(const uint8_t *p, const uint8_t *q, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i]) {
            *at = i;
            return 1;
        }
    return 0;
}

/* Sections made of entries (relocations, .nv.info attributes, call-graph
   edges) are compared entry by entry with symbol indices resolved.  An
   entry is a byte range of the section. */
typedef struct ent {
    size_t off, len;
} ent;

typedef int (*ent_eq_fn)(const cmpctx *c, const uint8_t *p, const uint8_t *q,
                         size_t len, char *detail, size_t dlen);

/* Relocation entry: r_offset, r_info (symbol << 32 | type), [r_addend]. */
static int rel_eq(const cmpctx *c, const uint8_t *p, const uint8_t *q,
                  size_t len, char *detail, size_t dlen)
{
    uint64_t ia = cb_le64(p + 8), ib = cb_le64(q + 8);
    size_t at;
    if (cb_le64(p) != cb_le64(q) || (uint32_t)ia != (uint32_t)ib ||
        raw_diff(p + 16, q + 16, len - 16, &at)) {
        say(detail, dlen,
            "relocation at 0x%llx type %u vs relocation at 0x%llx type %u",
            (unsigned long long)cb_le64(p), (unsigned)(uint32_t)ia,
            (unsigned long long)cb_le64(q), (unsigned)(uint32_t)ib);
        return 0;
    }
    if (!sym_ref_eq(c, ia >> 32, ib >> 32)) {
        say(detail, dlen, "relocation at 0x%llx against symbol '%s' in A, "
                          "'%s' in B",
            (unsigned long long)cb_le64(p), sym_name(c->a, ia >> 32),
            sym_name(c->b, ib >> 32));
        return 0;
    }
    return 1;
}

/* EIATTR codes whose SVAL payload starts with a symbol index. */
static int attr_has_sym(unsigned attr)
{
    switch (attr) {
    case 0x0a: /* EIATTR_PARAM_CBANK */
    case 0x11: /* EIATTR_FRAME_SIZE */
    case 0x12: /* EIATTR_MIN_STACK_SIZE */
    case 0x23: /* EIATTR_MAX_STACK_SIZE */
    case 0x2f: /* EIATTR_REGCOUNT */
        return 1;
    default:
        return 0;
    }
}
#define EIATTR_EXTERNS 0x0f
#define EIFMT_SVAL 0x04

/* .nv.info attribute: a 4-byte header (format, attribute, u16); for format
   SVAL the u16 is the size of the payload that follows.  Symbol-index
   fields are resolved; the rest is compared raw. */
static int attr_eq(const cmpctx *c, const uint8_t *p, const uint8_t *q,
                   size_t len, char *detail, size_t dlen)
{
    unsigned attr = p[1];
    size_t at, k = 0;
    if (memcmp(p, q, 4) != 0) {
        say(detail, dlen, "attribute 0x%02x (format %u) vs 0x%02x (format %u)",
            p[1], p[0], q[1], q[0]);
        return 0;
    }
    if (p[0] == EIFMT_SVAL &&
        (attr == EIATTR_EXTERNS || attr_has_sym(attr))) {
        size_t nsyms = attr == EIATTR_EXTERNS ? (len - 4) / 4 : (len >= 8);
        for (; k < nsyms; k++) {
            uint32_t sa = cb_le32(p + 4 + 4 * k), sb = cb_le32(q + 4 + 4 * k);
            if (!sym_ref_eq(c, sa, sb)) {
                say(detail, dlen,
                    "attribute 0x%02x refers to symbol '%s' in A, '%s' in B",
                    attr, sym_name(c->a, sa), sym_name(c->b, sb));
                return 0;
            }
        }
    }
    if (raw_diff(p + 4 + 4 * k, q + 4 + 4 * k, len - 4 - 4 * k, &at)) {
        say(detail, dlen, "attribute 0x%02x, payload byte %zu", attr,
            4 * k + at);
        return 0;
    }
    return 1;
}

/* Call-graph edge: two 32-bit words; those below the symbol count are
   symbol indices, the rest (sentinels such as 0xffffffff) are raw. */
static int edge_eq(const cmpctx *c, const uint8_t *p, const uint8_t *q,
                   size_t len, char *detail, size_t dlen)
{
    for (size_t off = 0; off + 4 <= len; off += 4) {
        uint32_t sa = cb_le32(p + off), sb = cb_le32(q + off);
        int ok = (sa < c->a->e.nsym && sb < c->b->e.nsym)
                     ? sym_ref_eq(c, sa, sb)
                     : sa == sb;
        if (!ok) {
            say(detail, dlen, "edge word %zu", off / 4);
            return 0;
        }
    }
    size_t at, whole = len & ~(size_t)3;
    if (raw_diff(p + whole, q + whole, len - whole, &at)) {
        say(detail, dlen, "trailing bytes");
        return 0;
    }
    return 1;
}

/* Split a section into entries: fixed size `es`, or (es == 0) .nv.info
   attributes.  Returns the count, or -1 if the data does not split. */
static long split(const cb_sec *s, size_t es, ent **out)
{
    size_t n = (size_t)s->size, cap = es ? n / es + 1 : n / 4 + 1, k = 0;
    ent *v = ptx_malloc(cap * sizeof *v);
    if (!v)
        return -1;
    for (size_t off = 0; off < n;) {
        size_t len = es;
        if (!es) {
            if (n - off < 4)
                break;
            len = 4;
            if (s->data[off] == EIFMT_SVAL)
                len += cb_le16(s->data + off + 2);
        }
        if (len > n - off || k == cap)
            break;
        v[k].off = off;
        v[k].len = len;
        k++;
        off += len;
        if (off == n) {
            *out = v;
            return (long)k;
        }
    }
    if (n == 0) {
        *out = v;
        return 0;
    }
    free(v);
    return -1;
}

/* Compare two sections of entries.  Ordered: entry i with entry i.
   Unordered: each entry of A with a distinct equal entry of B (a multiset
   match).  Returns 1 same, 0 different, 2 could not split. */
static int cmp_entries(const cmpctx *c, const cb_sec *x, const cb_sec *y,
                       size_t es, ent_eq_fn eq, int ordered, const char *nm,
                       char *why, size_t whylen)
{
    ent *ea = NULL, *eb = NULL;
    long ka = split(x, es, &ea), kb = split(y, es, &eb);
    int r = 2;
    char detail[400];
    if (ka < 0 || kb < 0)
        goto out;
    r = 0;
    if (ka != kb) {
        say(why, whylen, "section %s: %ld entries in A, %ld in B", nm, ka, kb);
        goto out;
    }
    char *used = ordered ? NULL : ptx_calloc((size_t)kb + 1, 1);
    if (!ordered && !used) {
        say(why, whylen, PTX_OUT_OF_MEMORY);
        goto out;
    }
    for (long i = 0; i < ka; i++) {
        const uint8_t *p = x->data + ea[i].off;
        if (ordered) {
            if (ea[i].len != eb[i].len ||
                !eq(c, p, y->data + eb[i].off, ea[i].len, detail,
                    sizeof detail)) {
                if (ea[i].len != eb[i].len)
                    say(detail, sizeof detail, "entry sizes %zu and %zu",
                        ea[i].len, eb[i].len);
                say(why, whylen, "section %s differs at offset 0x%zx (%s)", nm,
                    ea[i].off, detail);
                goto out;
            }
            continue;
        }
        long j = 0;
        for (; j < kb; j++)
            if (!used[j] && ea[i].len == eb[j].len &&
                eq(c, p, y->data + eb[j].off, ea[i].len, NULL, 0))
                break;
        if (j == kb) {
            /* explain against the entry at the same position */
            detail[0] = '\0';
            if (i < kb && ea[i].len == eb[i].len)
                eq(c, p, y->data + eb[i].off, ea[i].len, detail, sizeof detail);
            say(why, whylen,
                "section %s differs: entry at offset 0x%zx has no "
                "counterpart in B%s%s%s",
                nm, ea[i].off, detail[0] ? " (same position: " : "", detail,
                detail[0] ? ")" : "");
            free(used);
            goto out;
        }
        used[j] = 1;
    }
    free(used);
    r = 1;
out:
    free(ea);
    free(eb);
    return r;
}

/* The section headers of a pair: fields, and the sections and symbols
   that sh_link and sh_info name.  1 if they agree. */
static int cmp_headers(const cmpctx *c, const cb_sec *x, const cb_sec *y,
                       const char *nm, char *why, size_t whylen)
{
#define HDR(field, label)                                                     \
    if (x->field != y->field) {                                               \
        say(why, whylen, "section %s: %s differs (A 0x%llx, B 0x%llx)", nm,   \
            label, (unsigned long long)x->field,                              \
            (unsigned long long)y->field);                                    \
        return 0;                                                             \
    }
    HDR(type, "sh_type")
    HDR(flags, "sh_flags")
    HDR(size, "size")
    HDR(addralign, "sh_addralign")
    HDR(entsize, "sh_entsize")
#undef HDR
    if (!sec_ref_eq(c, x->link, y->link)) {
        say(why, whylen, "section %s: sh_link names different sections", nm);
        return 0;
    }
    if (x->type == CB_SHT_REL || x->type == CB_SHT_RELA ||
        (x->flags & CB_SHF_INFO_LINK)) {
        if (!sec_ref_eq(c, x->info, y->info)) {
            say(why, whylen, "section %s: sh_info names different sections",
                nm);
            return 0;
        }
    } else if (starts(x->name, ".text.")) {
        /* low 24 bits: the function's symbol; high 8 bits: raw */
        if ((x->info >> 24) != (y->info >> 24) ||
            !sym_ref_eq(c, x->info & 0xffffffu, y->info & 0xffffffu)) {
            say(why, whylen, "section %s: sh_info differs (A 0x%x, B 0x%x)",
                nm, x->info, y->info);
            return 0;
        }
    } else if (x->info != y->info) {
        say(why, whylen, "section %s: sh_info differs (A 0x%x, B 0x%x)", nm,
            x->info, y->info);
        return 0;
    }
    return 1;
}

/* Where names may differ, the sections whose entries refer to symbols are
   compared entry by entry: 1 or 0, or 2 for a section compared as bytes. */
static int cmp_by_entries(const cmpctx *c, const cb_sec *x, const cb_sec *y,
                          const char *nm, char *why, size_t whylen)
{
    if (x->type == CB_SHT_REL || x->type == CB_SHT_RELA) {
        size_t es = x->type == CB_SHT_RELA ? 24 : 16;
        if (!x->entsize || x->entsize == es)
            return cmp_entries(c, x, y, es, rel_eq, 0, nm, why, whylen);
    } else if (starts(x->name, ".nv.info")) {
        /* the shared .nv.info lists functions in file order */
        int ordered = strcmp(x->name, ".nv.info") != 0;
        return cmp_entries(c, x, y, 0, attr_eq, ordered, nm, why, whylen);
    } else if (!strcmp(x->name, ".nv.callgraph")) {
        return cmp_entries(c, x, y, 8, edge_eq, 0, nm, why, whylen);
    }
    return 2;
}

static int cmp_pair(const cmpctx *c, size_t ia, size_t ib, char *why,
                    size_t whylen)
{
    const cb_sec *x = &c->a->e.sec[ia], *y = &c->b->e.sec[ib];
    char nm[600];
    pair_name(nm, sizeof nm, x, y);
    if (!cmp_headers(c, x, y, nm, why, whylen))
        return 0;
    if (x->type == CB_SHT_NOBITS || x->size == 0)
        return 1;
    if (!x->data || !y->data) /* cannot happen: size > 0 and not NOBITS */
        return 1;
    if (c->names_may_differ) {
        int r = cmp_by_entries(c, x, y, nm, why, whylen);
        if (r != 2)
            return r;
    }
    size_t at;
    if (raw_diff(x->data, y->data, (size_t)x->size, &at)) {
        say(why, whylen, "section %s differs at offset 0x%zx (A 0x%llx bytes, "
                         "B 0x%llx bytes)",
            nm, at, (unsigned long long)x->size, (unsigned long long)y->size);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */

static int name_sets_equal(const side *a, const side *b,
                           const ptx_cubin_options *o)
{
    if (a->nk != b->nk)
        return 0;
    for (size_t i = 0; i < a->nk; i++) {
        const char *k = rename_a(o, a->kname[i]);
        if (find_kernel(b, k, strlen(k)) < 0)
            return 0;
    }
    return 1;
}

/* Parses both sides and canonicalizes their section names: 0, or -1 with
   why set.  *nmd: names may differ; *order: kernels pair by order. */
static int load_sides(side *A, side *B, const void *abuf, size_t na,
                      const void *bbuf, size_t nb, const ptx_cubin_options *o,
                      int *nmd, int *order, char *why, size_t whylen)
{
    if (cb_elf_parse(&A->e, abuf, na, "A", why, whylen) ||
        cb_elf_parse(&B->e, bbuf, nb, "B", why, whylen))
        return -1;
    if (side_kernels(A) || side_kernels(B)) {
        say(why, whylen, PTX_OUT_OF_MEMORY);
        return -1;
    }
    /* Renamings and pairing by order imply that names may differ. */
    *nmd = o->names_may_differ || o->nrenames ||
           o->match == PTX_CUBIN_MATCH_ORDER;
    int by_kernel = *nmd;
    *order = o->match == PTX_CUBIN_MATCH_ORDER ||
             (o->match == PTX_CUBIN_MATCH_AUTO && *nmd &&
              !name_sets_equal(A, B, o));
    if (side_canon(A, o, by_kernel, *order, 1) ||
        side_canon(B, o, by_kernel, *order, 0)) {
        say(why, whylen, PTX_OUT_OF_MEMORY);
        return -1;
    }
    return 0;
}

/* The ELF header fields and the kernel count that must agree: 1 if they
   do, else 0 with why set. */
static int headers_agree(const side *A, const side *B, const ptx_cubin_options *o,
                         int order, char *why, size_t whylen)
{
    if (A->e.machine != B->e.machine) {
        say(why, whylen, "ELF e_machine differs (A %u, B %u)", A->e.machine,
            B->e.machine);
        return 0;
    }
    if (!o->ignore_elf_flags && A->e.flags != B->e.flags) {
        say(why, whylen, "ELF e_flags differ (A 0x%x, B 0x%x): different "
                         "target architecture or ABI",
            A->e.flags, B->e.flags);
        return 0;
    }
    if (order && A->nk != B->nk) {
        say(why, whylen, "A has %zu kernels (.text.*), B has %zu", A->nk, B->nk);
        return 0;
    }
    return 1;
}

/* Pairs every compared section of A with one of B and compares the pair:
   code first (.text.*), so that a change of code is reported as such
   rather than through a consequence of it elsewhere; then the rest, in
   section-header order.  1 if all agree and B has no section left over. */
static int cmp_sections(const cmpctx *c, const ptx_cubin_options *o, char *why,
                        size_t whylen)
{
    side *A = c->a, *B = c->b;
    for (size_t k = 0; k < 2 * A->e.nsec; k++) {
        size_t i = k % A->e.nsec;
        int text = starts(A->e.sec[i].name, ".text.");
        if ((k < A->e.nsec) != text ||
            !is_compared(A->e.sec[i].name, o->include_debug))
            continue;
        size_t j = 0;
        for (; j < B->e.nsec; j++)
            if (!B->matched[j] && !strcmp(A->canon[i], B->canon[j]))
                break;
        if (j == B->e.nsec) {
            say(why, whylen, "section %s present in A only", A->e.sec[i].name);
            return 0;
        }
        B->matched[j] = 1;
        if (!cmp_pair(c, i, j, why, whylen))
            return 0;
    }
    for (size_t j = 0; j < B->e.nsec; j++)
        if (!B->matched[j] && is_compared(B->e.sec[j].name, o->include_debug)) {
            say(why, whylen, "section %s present in B only", B->e.sec[j].name);
            return 0;
        }
    return 1;
}

int ptx_cubin_compare(const void *abuf, size_t na, const void *bbuf, size_t nb,
                      const ptx_cubin_options *opts, char *why, size_t whylen)
{
    static const ptx_cubin_options zero;
    const ptx_cubin_options *o = opts ? opts : &zero;
    side A, B;
    memset(&A, 0, sizeof A);
    memset(&B, 0, sizeof B);
    A.who = "A";
    B.who = "B";
    say(why, whylen, "%s", "");
    int r = -1, nmd = 0, order = 0;
    if (load_sides(&A, &B, abuf, na, bbuf, nb, o, &nmd, &order, why, whylen) == 0) {
        cmpctx c = {&A, &B, nmd};
        r = headers_agree(&A, &B, o, order, why, whylen) &&
            cmp_sections(&c, o, why, whylen);
    }
    side_free(&A);
    side_free(&B);
    return r;
}

int ptx_cubin_check(const void *buf, size_t n, ptx_diag *err)
{
    cb_elf e;
    size_t whylen;
    char *why = ptx_diag_msgbuf(err, &whylen);
    if (cb_elf_parse(&e, buf, n, "cubin", why, whylen))
        return -1;
    cb_elf_free(&e);
    return 0;
}

int ptx_cubin_kernels(const void *buf, size_t n, const char **names,
                      size_t max)
{
    cb_elf e;
    if (cb_elf_parse(&e, buf, n, "cubin", NULL, 0))
        return -1;
    int k = 0;
    for (size_t i = 0; i < e.nsec; i++) {
        const char *nm = e.sec[i].name;
        if (starts(nm, ".text.") && nm[6]) {
            if (names && (size_t)k < max)
                names[k] = nm + 6;
            k++;
        }
    }
    cb_elf_free(&e);
    return k;
}
