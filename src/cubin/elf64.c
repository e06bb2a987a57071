/*
 * cubin/elf64.c - bounds-checked ELF64 reader (see elf64.h).
 *
 * Every offset and size read from the file is checked against the buffer
 * before use, with overflow-safe arithmetic, and every string must have its
 * NUL inside its string table.
 */
#include "cubin/elf64.h"
#include "util/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *why, size_t whylen, const char *who, const char *fmt,
                ...)
{
    if (why && whylen) {
        int k = snprintf(why, whylen, "%s: ", who ? who : "cubin");
        if (k < 0)
            k = 0;
        if ((size_t)k < whylen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(why + k, whylen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return -1;
}

/* Is [off, off+len) inside [0, n)? */
static int in_bounds(uint64_t off, uint64_t len, size_t n)
{
    return off <= (uint64_t)n && len <= (uint64_t)n - off;
}

/* A NUL-terminated string at offset `off` of string table `st`, or NULL. */
static const char *str_at(const cb_sec *st, uint64_t off)
{
    if (!st || !st->data || off >= st->size)
        return NULL;
    const uint8_t *p = st->data + off;
    if (!memchr(p, 0, (size_t)(st->size - off)))
        return NULL;
    return (const char *)p;
}

void cb_elf_free(cb_elf *e)
{
    if (!e)
        return;
    free(e->sec);
    free(e->sym);
    memset(e, 0, sizeof *e);
}

/* Free e and pass r on (the message is written before e is freed). */
static int bad(cb_elf *e, int r)
{
    cb_elf_free(e);
    return r;
}

/* Where the section headers are, from the ELF header. */
typedef struct shdrs {
    uint64_t off, num;
    uint16_t entsize;
    uint32_t strndx;
} shdrs;

/* Checks the ELF header of e->buf and finds the section header table. */
static int read_header(cb_elf *e, shdrs *t, const char *who, char *why,
                       size_t whylen)
{
    const uint8_t *b = e->buf;
    size_t n = e->n;
    if (!b || n < 64)
        return fail(why, whylen, who, "too short for an ELF header (%zu bytes)",
                    n);
    if (memcmp(b, "\177ELF", 4) != 0)
        return fail(why, whylen, who, "not an ELF file (bad magic)");
    if (b[4] != 2)
        return fail(why, whylen, who, "not ELF64 (EI_CLASS %u)", b[4]);
    if (b[5] != 1)
        return fail(why, whylen, who, "not little-endian (EI_DATA %u)", b[5]);
    e->type = cb_le16(b + 16);
    e->machine = cb_le16(b + 18);
    e->flags = cb_le32(b + 48);
    t->off = cb_le64(b + 40);
    uint16_t ehsize = cb_le16(b + 52);
    t->entsize = cb_le16(b + 58);
    t->num = cb_le16(b + 60);
    t->strndx = cb_le16(b + 62);
    if (ehsize < 64)
        return fail(why, whylen, who, "bad e_ehsize %u", ehsize);
    if (t->off == 0)
        return fail(why, whylen, who, "no section header table");
    if (t->entsize < 64)
        return fail(why, whylen, who, "bad e_shentsize %u", t->entsize);
    if (!in_bounds(t->off, 64, n))
        return fail(why, whylen, who, "section header table outside the file");
    /* Extended numbering: counts live in section header 0. */
    if (t->num == 0)
        t->num = cb_le64(b + t->off + 32);
    if (t->strndx == CB_SHN_XINDEX)
        t->strndx = cb_le32(b + t->off + 40);
    if (t->num == 0 || t->num > n / 64 ||
        !in_bounds(t->off, t->num * (uint64_t)t->entsize, n))
        return fail(why, whylen, who, "section header table outside the file");
    if (t->strndx >= t->num)
        return fail(why, whylen, who, "bad e_shstrndx %u", t->strndx);
    return 0;
}

/* The section headers, their data checked against the file, and names. */
static int read_sections(cb_elf *e, const shdrs *t, const char *who,
                         char *why, size_t whylen)
{
    e->nsec = (size_t)t->num;
    e->sec = ptx_calloc(e->nsec, sizeof *e->sec);
    if (!e->sec)
        return fail(why, whylen, who, PTX_OUT_OF_MEMORY);
    for (size_t i = 0; i < e->nsec; i++) {
        const uint8_t *h = e->buf + t->off + i * (uint64_t)t->entsize;
        cb_sec *s = &e->sec[i];
        s->type = cb_le32(h + 4);
        s->flags = cb_le64(h + 8);
        s->offset = cb_le64(h + 24);
        s->size = cb_le64(h + 32);
        s->link = cb_le32(h + 40);
        s->info = cb_le32(h + 44);
        s->addralign = cb_le64(h + 48);
        s->entsize = cb_le64(h + 56);
        if (s->type != CB_SHT_NOBITS && s->type != CB_SHT_NULL && s->size) {
            if (!in_bounds(s->offset, s->size, e->n))
                return fail(why, whylen, who,
                            "section %zu data [0x%llx, +0x%llx) outside "
                            "the file (%zu bytes)",
                            i, (unsigned long long)s->offset,
                            (unsigned long long)s->size, e->n);
            s->data = e->buf + s->offset;
        }
    }
    const cb_sec *shstr = &e->sec[t->strndx];
    if (shstr->type != CB_SHT_STRTAB || !shstr->data)
        return fail(why, whylen, who, "section name table is not a string table");
    for (size_t i = 0; i < e->nsec; i++) {
        const uint8_t *h = e->buf + t->off + i * (uint64_t)t->entsize;
        const char *nm = str_at(shstr, cb_le32(h));
        if (!nm)
            return fail(why, whylen, who, "section %zu: bad name offset", i);
        e->sec[i].name = nm;
    }
    return 0;
}

/* The symbols of symbol table s. */
static int read_symbols(cb_elf *e, const cb_sec *s, const char *who,
                        char *why, size_t whylen)
{
    uint64_t es = s->entsize ? s->entsize : 24;
    if (es < 24 || s->size % es)
        return fail(why, whylen, who, "%s: bad symbol entry size %llu",
                    s->name, (unsigned long long)s->entsize);
    if (s->link >= e->nsec || e->sec[s->link].type != CB_SHT_STRTAB)
        return fail(why, whylen, who, "%s: bad string table link %u", s->name,
                    s->link);
    const cb_sec *st = &e->sec[s->link];
    e->nsym = s->data ? (size_t)(s->size / es) : 0;
    if (e->nsym) {
        e->sym = ptx_calloc(e->nsym, sizeof *e->sym);
        if (!e->sym)
            return fail(why, whylen, who, PTX_OUT_OF_MEMORY);
    }
    for (size_t k = 0; k < e->nsym; k++) {
        const uint8_t *p = s->data + k * es;
        cb_sym *y = &e->sym[k];
        y->name = str_at(st, cb_le32(p));
        if (!y->name)
            return fail(why, whylen, who, "symbol %zu: bad name offset", k);
        y->info = p[4];
        y->other = p[5];
        y->shndx = cb_le16(p + 6);
        y->value = cb_le64(p + 8);
        y->size = cb_le64(p + 16);
    }
    return 0;
}

int cb_elf_parse(cb_elf *e, const void *buf, size_t n, const char *who,
                 char *why, size_t whylen)
{
    memset(e, 0, sizeof *e);
    e->buf = buf;
    e->n = n;
    shdrs t = { 0 };
    if (read_header(e, &t, who, why, whylen) != 0)
        return -1;
    if (read_sections(e, &t, who, why, whylen) != 0)
        return bad(e, -1);
    for (size_t i = 0; i < e->nsec; i++) { /* the (first) symbol table */
        if (e->sec[i].type != CB_SHT_SYMTAB)
            continue;
        if (read_symbols(e, &e->sec[i], who, why, whylen) != 0)
            return bad(e, -1);
        break;
    }
    return 0;
}
