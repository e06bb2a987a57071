/*
 * ptx/cubin.h - compare two CUDA cubins (ELF64) by their code-bearing
 * sections.
 *
 *     ptx_cubin_options o = {0};               // strict: same names, same bytes
 *     char why[256];
 *     int r = ptx_cubin_compare(a, na, b, nb, &o, why, sizeof why);
 *     // r == 1 same, 0 different (why says where), -1 malformed (why says
 *     // which file and what is wrong with it)
 *
 * What is compared.  Sections are paired by name.  A section takes part
 * when its name starts with one of
 *     .text.  .nv.info  .nv.constant  .nv.shared  .nv.global  .nv.callgraph
 *     .nv.compat  .rel (relocations: .rel.* and .rela.*)
 * and is not a debug section (.debug*, .nv_debug*, or relocations against
 * those, e.g. .rela.debug_frame; ptxas emits .debug_frame even without -g).
 * .symtab, .strtab, .shstrtab, .note.* (tool name, version, command line)
 * and the file layout (offsets, section order, program headers) are not
 * compared directly.  For each pair, sh_type, sh_flags, sh_size,
 * sh_addralign, sh_entsize and the sections/symbols named by sh_link and
 * sh_info must agree, and then the contents, byte for byte.  The ELF
 * header's e_machine and e_flags (which hold the SM architecture) must
 * agree as well.  The first difference is reported, looking at the .text.*
 * sections first and then at the others, in section-header order.
 *
 * What ptxas (CUDA 13.0) was seen to do: assembling the same PTX twice gives
 * byte-identical cubins, and so does PTX that differs only in whitespace,
 * comments, label names, parameter names or register names.  Renaming a
 * kernel changes only .strtab/.shstrtab (and so the file offsets of every
 * later section); reordering kernels changes section order and symbol
 * indices, which appear inside .nv.info (EIATTR_REGCOUNT, FRAME_SIZE, ...),
 * .nv.info.<k> (EIATTR_PARAM_CBANK), .nv.callgraph and relocations.
 *
 * names_may_differ.  When set, symbol names are not compared: every
 * reference to a symbol (relocation entries; symbol-index fields of
 * .nv.info attributes; .nv.callgraph; .text sh_info) is resolved to
 * (binding, type, other, size, value, section) on each side and those must
 * agree; the entries of relocation sections, of the shared .nv.info and of
 * .nv.callgraph are compared as unordered collections (their order follows
 * the order of the functions in the file), those of .nv.info.<k> in order;
 * and per-kernel sections (.text.<k>, .nv.info.<k>, .nv.shared.<k>,
 * .nv.constant<N>.<k>, .rel[a].text.<k>, ...) are paired by kernel through
 * `match` and `renames` rather than by literal name.
 *
 * Kernel pairing ("function by function"): the kernels of a file are the
 * <k> of its .text.<k> sections.  PTX_CUBIN_MATCH_NAME pairs A's kernel k
 * with B's kernel rename(k) (rename() is the `renames` map, identity for
 * names not in it); PTX_CUBIN_MATCH_ORDER pairs the i-th .text.* section of
 * A (section-header order) with the i-th of B.  PTX_CUBIN_MATCH_AUTO is
 * NAME unless names_may_differ is set and the renamed name sets differ, in
 * which case it is ORDER.  Giving `renames` or PTX_CUBIN_MATCH_ORDER implies
 * names_may_differ.
 *
 * The reader is plain C, checks every offset and size against the buffer
 * and never reads outside it; any inconsistency gives -1.
 */
#ifndef PTX_CUBIN_H
#define PTX_CUBIN_H

#include <stddef.h>
#include "ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ptx_cubin_match {
    PTX_CUBIN_MATCH_AUTO = 0,
    PTX_CUBIN_MATCH_NAME = 1,
    PTX_CUBIN_MATCH_ORDER = 2
} ptx_cubin_match;

/* One renaming: kernel `a` in file A is kernel `b` in file B. */
typedef struct ptx_cubin_rename {
    const char *a;
    const char *b;
} ptx_cubin_rename;

typedef struct ptx_cubin_options {
    int names_may_differ;             /* see above; 0 = names must match */
    ptx_cubin_match match;            /* kernel pairing */
    const ptx_cubin_rename *renames;  /* may be NULL */
    size_t nrenames;
    int include_debug;                /* 1: compare debug sections too */
    int ignore_elf_flags;             /* 1: don't compare e_flags (arch) */
} ptx_cubin_options;

/* Compare cubins a[0..na) and b[0..nb).  `o` may be NULL (all zero).
   Returns 1 same, 0 different, -1 malformed; `why` (if non-NULL, whylen > 0)
   receives a one-line, NUL-terminated explanation for 0 and -1 ("" for 1),
   e.g.
       section .text.add_one differs at offset 0x1d4 (A 0x300 bytes, B ...)
       section .nv.info.scale present in A only
       B: section header table outside the file                               */
int ptx_cubin_compare(const void *a, size_t na, const void *b, size_t nb,
                      const ptx_cubin_options *o, char *why, size_t whylen);

/* Check that buf[0..n) is an ELF64 cubin this reader accepts.  Returns 0,
   or -1 with the message in *err (line 0; err may be NULL). */
int ptx_cubin_check(const void *buf, size_t n, ptx_diag *err);

/* The kernels (names of .text.<k> sections, in section-header order) of a
   cubin.  Returns the number of kernels (writing at most `max` name pointers
   into `names`; they point into buf and are NUL-terminated) or -1 if the
   cubin is malformed. */
int ptx_cubin_kernels(const void *buf, size_t n, const char **names,
                      size_t max);

#ifdef __cplusplus
}
#endif

#endif /* PTX_CUBIN_H */
