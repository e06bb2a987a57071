/*
 * cubin/elf64.h - a small, bounds-checked, read-only ELF64 (little-endian)
 * reader for cubins.  Internal to src/cubin.
 */
#ifndef PTX_CUBIN_ELF64_H
#define PTX_CUBIN_ELF64_H

#include <stddef.h>
#include <stdint.h>

#define CB_SHT_NULL 0u
#define CB_SHT_SYMTAB 2u
#define CB_SHT_STRTAB 3u
#define CB_SHT_RELA 4u
#define CB_SHT_NOBITS 8u
#define CB_SHT_REL 9u
#define CB_SHF_INFO_LINK 0x40u
#define CB_SHN_LORESERVE 0xff00u
#define CB_SHN_XINDEX 0xffffu

typedef struct cb_sec {
    const char *name;       /* NUL-terminated, inside the file's .shstrtab */
    uint32_t type;
    uint64_t flags;
    uint64_t offset;
    uint64_t size;
    uint32_t link;
    uint32_t info;
    uint64_t addralign;
    uint64_t entsize;
    const uint8_t *data;    /* size bytes; NULL for NOBITS or size 0 */
} cb_sec;

typedef struct cb_sym {
    const char *name;       /* NUL-terminated, inside the symbol string table */
    uint8_t info;           /* binding << 4 | type */
    uint8_t other;
    uint16_t shndx;
    uint64_t value;
    uint64_t size;
} cb_sym;

typedef struct cb_elf {
    const uint8_t *buf;
    size_t n;
    uint16_t type;          /* e_type */
    uint16_t machine;       /* e_machine (190: EM_CUDA) */
    uint32_t flags;         /* e_flags */
    size_t nsec;
    cb_sec *sec;            /* nsec entries (malloc'ed) */
    size_t nsym;
    cb_sym *sym;            /* nsym entries (malloc'ed); 0 if no .symtab */
} cb_elf;

/* Parse buf[0..n).  Returns 0, or -1 with a message in why (prefixed by
   `who`, e.g. "A"). The cb_elf keeps pointers into buf. */
int cb_elf_parse(cb_elf *e, const void *buf, size_t n, const char *who,
                 char *why, size_t whylen);
void cb_elf_free(cb_elf *e);

/* Little-endian loads from a byte pointer. */
static inline uint16_t cb_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t cb_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}
static inline uint64_t cb_le64(const uint8_t *p)
{
    return (uint64_t)cb_le32(p) | ((uint64_t)cb_le32(p + 4) << 32);
}

#endif
