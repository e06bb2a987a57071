/*
 * sugar/free.c - free names for the passes that rename or add names.
 *
 * A new PTX spelling must clash with no name of the module: no symbol of
 * any kernel (the harness and pyptx-diff compare a module under one
 * bijection), no kernel, no name the module text outside the kernels
 * declares or uses (a global it would shadow), no opcode, and no spelling
 * another pass gave.  Those names are hashed once per module (ptxwords),
 * every spelling a pass gives joins them, so each test is one lookup and
 * a pass that renames every label of a module stays linear.  (Names inside
 * a kernel are its symbols: carried text refers to them by identity.)
 *
 * A word is a maximal run of [A-Za-z0-9_$] not right after '%' (that is
 * a register's tail: "%r1" makes no word "r1") or '.' (a directive or
 * modifier: ".global" is no name).  New spellings are always such words
 * and never start with a digit or hold a '$'.
 * The module text outside kernels (rawwords) is hashed apart, every word
 * of it: the debug sections of nvcc -G name kernel parameters and labels
 * there, text that no rename reaches, so those names keep their spelling.
 */
#include <stdio.h>
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

static int wbyte(unsigned char c)
{
    return c == '_' || c == '$' || (c >= '0' && c <= '9') ||
           ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static int is_word(const char *p)
{
    if (!*p)
        return 0;
    for (; *p; p++)
        if (!wbyte((unsigned char)*p))
            return 0;
    return 1;
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
            cg_map_put(m, map, p + i, j - i);
        i = j;
    }
}

static void add_name(cg_module *m, const char *p)
{
    if (p)
        cg_map_put(m, m->ptxwords, p, strlen(p));
}

static cg_map *ptxwords(cg_module *m)
{
    if (m->ptxwords)
        return m->ptxwords;
    m->ptxwords = cg_alloc(m, sizeof *m->ptxwords);
    for (uint32_t i = 0; i < m->nsegs; i++)
        if (m->segs[i].kernel < 0)
            add_words(m, m->ptxwords, m->segs[i].p, m->segs[i].n, 1);
    for (uint32_t i = 0; i < m->nopcodes; i++)
        add_name(m, m->opcodes_v[i].op);
    for (uint32_t i = 0; i < m->nkernels; i++) {
        const cg_kernel *k = &m->kernels[i];
        add_name(m, k->ptx_name);
        for (uint32_t s = 0; s < k->nsyms; s++)
            add_name(m, k->syms[s].ptx);
    }
    return m->ptxwords;
}

int sg_ptx_pinned(cg_module *m, const char *ptx)
{
    if (!m->rawwords) {
        m->rawwords = cg_alloc(m, sizeof *m->rawwords);
        for (uint32_t i = 0; i < m->nsegs; i++)
            if (m->segs[i].kernel < 0)
                add_words(m, m->rawwords, m->segs[i].p, m->segs[i].n, 0);
    }
    return cg_map_get(m->rawwords, ptx, strlen(ptx)) != NULL;
}

int sg_ptx_name_free(cg_module *m, const char *name)
{
    return is_word(name) && !strchr(name, '$') && !(name[0] >= '0' && name[0] <= '9') &&
           !cg_map_get(ptxwords(m), name, strlen(name));
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

int sg_rename_ptx(cg_module *m, cg_kernel *k, cg_symid s, const char *base,
                  int py_too)
{
    if (sg_ptx_pinned(m, k->syms[s].ptx))
        return 0;
    char buf[256];
    size_t bn = strlen(base);
    if (bn > 255)
        return 0;
    /* base, base_2, base_3 ...: the ones below `taken` are known to be
       taken already (names are never given back), so a module whose 1000
       kernels each want param0 does not try them all a thousand times */
    if (!m->ptxnext)
        m->ptxnext = cg_alloc(m, sizeof *m->ptxnext);
    cg_mslot *taken = cg_map_put(m, m->ptxnext, base, bn);
    if (taken->val < 0) {
        taken->k = cg_strndup(m, base, bn);
        taken->val = 1;
    }
    uint32_t i = (uint32_t)taken->val, limit = i + 1000;
    for (;; i++) {
        candidate(buf, base, bn, i);   /* called for every label: no printf */
        if (!sg_ptx_name_free(m, buf)) {
            if ((uint32_t)taken->val == i)
                taken->val = (int32_t)i + 1;
        } else if (!py_too || sg_py_name_free(m, k, buf)) {
            break;
        }
        if (i == limit)
            return 0;
    }
    k->syms[s].ptx = cg_strndup(m, buf, strlen(buf));
    sg_ptx_claim(m, k->syms[s].ptx);
    return 1;
}

void sg_ptx_claim(cg_module *m, const char *name)
{
    cg_map_put(m, ptxwords(m), name, strlen(name));
}

int sg_py_name_free(const cg_module *m, const cg_kernel *k, const char *name)
{
    size_t n = strlen(name);
    if (!cg_is_identifier(name, n) || cg_py_reserved(name, n))
        return 0;
    if (cg_pyset_has((cg_kernel *)k, name))
        return 0;
    return !m->pyfns || !cg_map_get(m->pyfns, name, n);
}

const char *sg_py_fresh(cg_module *m, cg_kernel *k, const char *base)
{
    char buf[256];
    size_t bn = strlen(base);
    if (bn > 255)
        return NULL;
    for (uint32_t i = 1;; i++) {
        candidate(buf, base, bn, i);
        if (sg_py_name_free(m, k, buf))
            return cg_pyset_claim(m, k, buf, strlen(buf));
        if (i == 1000)
            return NULL;
    }
}

void sg_py_reserve(cg_module *m, const cg_kernel *k, const char *name)
{
    cg_pyset_claim(m, (cg_kernel *)k, name, strlen(name));
}
