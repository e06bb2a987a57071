#define _GNU_SOURCE   /* memmem */
/*
 * resources.c - what a compiled kernel uses, read from the cubin and the
 * compiler's info log (ptx_res_from), and the tuning key of a Triton
 * cache's metadata (ptx_tree_meta_json).
 *
 * The cubin gives what cuobjdump -res-usage prints, the way it counts it:
 * registers and stack from the .nv.info attributes of the kernel's symbol
 * (EIATTR_REGCOUNT; the stack from MAX_STACK_SIZE where a call graph sets
 * it, else MIN_STACK_SIZE, else FRAME_SIZE; all ones where recursion
 * leaves it unknown, which cuobjdump prints UNKNOWN and we -1), shared memory and constant
 * bank 0 as the sizes of .nv.shared.<k> and .nv.constant0.<k> (shared
 * memory includes what the architecture reserves, which ptxas -v leaves
 * out), local memory from .nv.local.<k>, and the SASS instructions as
 * .text.<k>'s size over 16 bytes (one instruction since sm_70).  Spills
 * are in no section: they come from the log's "Function properties for
 * <k>" line, which ptxas -v and the driver's JIT (with a verbose log) both
 * write.  A .func is no kernel of the cubin: where ptxas kept it a
 * function, its instructions and spills are given, and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cubin/elf64.h"
#include "ptx/diff.h"

enum { EIATTR_FRAME_SIZE = 0x11, EIATTR_MIN_STACK_SIZE = 0x12,
       EIATTR_MAX_STACK_SIZE = 0x23, EIATTR_REGCOUNT = 0x2f, EIFMT_SVAL = 4 };

/* The attributes of .nv.info that hold (symbol, value) and where they go:
   the stack's three in order of preference (slot STACK + rank). */
static const struct { uint8_t attr, slot, rank; } attrs[] = {
    { EIATTR_REGCOUNT, PTX_RES_REGS, 0 },
    { EIATTR_MAX_STACK_SIZE, PTX_RES_STACK, 0 },
    { EIATTR_MIN_STACK_SIZE, PTX_RES_STACK, 1 },
    { EIATTR_FRAME_SIZE, PTX_RES_STACK, 2 },
};

/* The sections sized per kernel: prefix + kernel name. */
static const struct { const char *prefix; uint8_t slot; uint8_t per; } sized[] = {
    { ".nv.shared.", PTX_RES_SHARED, 1 },
    { ".nv.constant0.", PTX_RES_CONST, 1 },
    { ".nv.local.", PTX_RES_LOCAL, 1 },
    { ".text.", PTX_RES_INSTS, 16 },
};

static long find_sym(const cb_elf *e, const char *name)
{
    for (size_t i = 0; i < e->nsym; i++)
        if ((e->sym[i].info & 0xf) == 2 && strcmp(e->sym[i].name, name) == 0)
            return (long)i;
    return -1;
}

/* A .func that ptxas kept as a function of its own lies in its callers'
   .text as the local symbol "$CALLER$NAME": its instructions, or -1. */
static long long callee_insts(const cb_elf *e, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < e->nsym; i++) {
        const char *s = e->sym[i].name;
        size_t k = strlen(s);
        if ((e->sym[i].info & 0xf) == 2 && s[0] == '$' && k > n + 1 && s[k - n - 1] == '$' &&
            strcmp(s + k - n, name) == 0)
            return (long long)(e->sym[i].size / 16);
    }
    return -1;
}

/* .nv.info's (symbol, value) attributes for symbol `sym`; rank[] keeps the
   preference of the value each slot holds. */
static void read_info(const cb_sec *s, long sym, ptx_res *r, int *rank)
{
    const uint8_t *p = s->data, *end = p ? p + s->size : p;
    while (p && end - p >= 4) {
        uint8_t fmt = p[0], attr = p[1];
        size_t len = fmt == EIFMT_SVAL ? cb_le16(p + 2) : 0;
        if ((size_t)(end - p - 4) < len)
            break;
        for (size_t a = 0; len >= 8 && a < sizeof attrs / sizeof *attrs; a++)
            if (attrs[a].attr == attr && cb_le32(p + 4) == (uint32_t)sym &&
                attrs[a].rank < rank[attrs[a].slot]) {
                r->v[attrs[a].slot] = cb_le32(p + 8);
                rank[attrs[a].slot] = attrs[a].rank;
            }
        p += 4 + len;
    }
}

/* The figures of kernel `name`, symbol `sym` of e. */
static void from_cubin(const cb_elf *e, const char *name, long sym, ptx_res *r)
{
    int rank[PTX_RES_N];
    for (unsigned i = 0; i < PTX_RES_N; i++)
        rank[i] = 99;
    for (size_t k = 0; k < sizeof sized / sizeof *sized; k++)
        r->v[sized[k].slot] = 0;
    for (size_t i = 0; i < e->nsec; i++) {
        const cb_sec *s = &e->sec[i];
        if (strcmp(s->name, ".nv.info") == 0)
            read_info(s, sym, r, rank);
        for (size_t k = 0; k < sizeof sized / sizeof *sized; k++) {
            size_t n = strlen(sized[k].prefix);
            if (strncmp(s->name, sized[k].prefix, n) == 0 && strcmp(s->name + n, name) == 0)
                r->v[sized[k].slot] = (long long)(s->size / sized[k].per);
        }
    }
    if (rank[PTX_RES_STACK] == 99)
        r->v[PTX_RES_STACK] = 0;
    else if (r->v[PTX_RES_STACK] == 0xFFFFFFFF)   /* recursion: not known */
        r->v[PTX_RES_STACK] = -1;
}

/* "Function properties for NAME" and, on the next line, "S bytes stack
   frame, T bytes spill stores, U bytes spill loads". */
static void from_log(const char *log, const char *name, ptx_res *r)
{
    static const char head[] = "Function properties for ";
    size_t n = strlen(name);
    for (const char *p = log; p && (p = strstr(p, head)) != NULL; p++) {
        const char *q = p + sizeof head - 1;
        if (strncmp(q, name, n) || (q[n] != '\n' && q[n] != '\r'))
            continue;
        long long frame, st, ld;
        if (sscanf(q + n, " %lld bytes stack frame, %lld bytes spill stores, %lld bytes "
                   "spill loads", &frame, &st, &ld) == 3) {
            r->v[PTX_RES_SPILL_STORES] = st;
            r->v[PTX_RES_SPILL_LOADS] = ld;
        }
        return;
    }
}

int ptx_res_from(const char *log, const void *cubin, size_t n, const char *name, ptx_res *r)
{
    for (unsigned i = 0; i < PTX_RES_N; i++)
        r->v[i] = -1;
    r->error = NULL;
    if (log)
        from_log(log, name, r);
    cb_elf e;
    char why[128];
    if (!cubin)
        return -1;
    if (cb_elf_parse(&e, cubin, n, "cubin", why, sizeof why) != 0)
        return strstr(why, PTX_OUT_OF_MEMORY) ? -2 : -1;
    long sym = find_sym(&e, name);
    int found = sym >= 0;
    if (found)
        from_cubin(&e, name, sym, r);
    else if ((r->v[PTX_RES_INSTS] = callee_insts(&e, name)) >= 0)
        found = 1;   /* a function a kernel calls: its code and spills */
    cb_elf_free(&e);
    return found ? 0 : -1;
}

/* ---- Triton's metadata --------------------------------------------- */

/* The fields a tuner sets, in the key's order. */
static const char *const tuning[] = {
    "num_warps", "num_stages", "num_ctas", "maxnreg", "cluster_dims", "constants",
    "constexprs",
};

/* The end of the JSON value at p (a scalar, or a bracketed value with
   strings inside), or NULL. */
static const char *value_end(const char *p, const char *e)
{
    int depth = 0;
    for (; p < e; p++) {
        if (*p == '"') {
            for (p++; p < e && *p != '"'; p++)
                p += *p == '\\';
            if (p >= e)
                return NULL;
        } else if (*p == '[' || *p == '{') {
            depth++;
        } else if (*p == ']' || *p == '}') {
            if (depth-- == 0)
                return p;
        } else if (*p == ',' && depth == 0) {
            return p;
        }
    }
    return depth ? NULL : e;
}

int ptx_tree_meta_json(const char *json, size_t n, char *buf, size_t cap)
{
    const char *e = json + n;
    size_t at = 0;
    if (cap)
        buf[0] = 0;
    for (size_t f = 0; f < sizeof tuning / sizeof *tuning; f++) {
        char key[32];
        int kn = snprintf(key, sizeof key, "\"%s\"", tuning[f]);
        const char *p = json;
        while ((p = memmem(p, (size_t)(e - p), key, (size_t)kn)) != NULL) {
            const char *v = p + kn;
            while (v < e && (*v == ' ' || *v == '\t' || *v == '\n'))
                v++;
            if (v < e && *v == ':')
                break;
            p = v;
        }
        if (!p)
            continue;
        const char *v = memchr(p, ':', (size_t)(e - p)) + 1;
        while (v < e && (*v == ' ' || *v == '\t' || *v == '\n'))
            v++;
        const char *z = value_end(v, e);
        if (!z)
            return -1;
        while (z > v && (z[-1] == ' ' || z[-1] == '\n' || z[-1] == '\t'))
            z--;
        int w = snprintf(buf + at, at < cap ? cap - at : 0, "%s%s=%.*s", at ? ";" : "",
                         tuning[f], (int)(z - v), v);
        at += (size_t)w;
    }
    return at && at < cap ? 0 : -1;
}
