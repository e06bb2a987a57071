/*
 * build_open.c - a kernel built and printed a part of its body at a time.
 *
 * A module translated in pieces (pieces.c) may cut a kernel's body, so
 * that a kernel of megabytes is not held whole: its tree or its IR.  A
 * plain kernel's Python is its statements' printed one after another, and
 * what a statement prints depends, beyond itself, on the kernel's symbols
 * alone (ir.h, rule 1).  So the symbols, with the parameters and
 * directives that the lines after the body print again, are kept in an
 * arena of the kernel's own (the builder's `keep`), and each part's
 * statements in one of the part's, freed once they are printed.  The
 * builder goes on from part to part as over the whole body: its
 * bindings, and the top level's phase (build_body.c).
 *
 * One thing differs from a whole body's build: labels are declared a part
 * at a time, so a branch to a label of a later part names it as a string.
 * A string prints as the label does ("$L__BB0_7"), and only the layer above,
 * which never works on pieces, tells the two apart.  (A label spelled as a
 * special register, %tid, would be printed as that register, which traces
 * the same PTX.)
 */
#include <stdlib.h>
#include <string.h>
#include "codegen/build.h"
#include "util/arena.h"
#include "util/alloc.h"

/* A copy of m that allocates from arenas of its own (none for statements
   where `stmts` is 0), with an opcode cache and types of its own. */
/* A part's copy of the module: its arenas freed when the part is printed,
   or where memory runs out (util/alloc.h). */
static void release_copy(void *p)
{
    cg_module *c = p;
    ptx_arena_free(c->arena);
    ptx_arena_free(c->stmts);
}

static cg_module copy_of(const cg_module *m, int stmts)
{
    cg_module c = *m;
    c.arena = ptx_arena_new();
    ptx_owned own;
    ptx_own(&own, ptx_arena_release, c.arena);
    c.stmts = stmts ? ptx_arena_new() : NULL;
    ptx_disown(&own);
    c.opcodes = NULL;
    c.opcodes_v = NULL;
    c.nopcodes = c.capopcodes = 0;
    c.types_used = 0;
    return c;
}

void cg_open_begin(cg_open *o, cg_module *m, const ptx_module *pm, uint32_t i)
{
    cg_kernel *k = &m->kernels[i];
    o->keep = copy_of(m, 0);
    o->active = 1;      /* (its arena is cg_open_free's from here on) */
    o->k = *k;
    o->b = (cg_builder){ .m = &o->keep, .keep = &o->keep, .k = &o->k, .gen = 1 };
    o->first = k->src->u.func.body;
    o->printed = 0;
    cg_builder_at(&o->b, pm);
    const char *why = cg_build_kernel_head(&o->b, &o->k);
    m->types_used |= o->keep.types_used;
    if (why) {  /* carried raw: what the module keeps of it, in its arena */
        k->unsupported = cg_strndup(m, why, strlen(why));
        k->ptx_name = cg_strndup(m, o->k.ptx_name, strlen(o->k.ptx_name));
        cg_open_free(o);
        return;
    }
    o->k.src = NULL;    /* the tree goes with its piece */
    cg_build_body_start(&o->b);
}

void cg_open_part(cg_open *o, cg_module *m, const ptx_module *pm, size_t at,
                  const ptx_block *part, ptx_codegen_stats *st, ptx_buf *out)
{
    cg_module p = copy_of(m, 1);
    ptx_owned own;
    ptx_own(&own, release_copy, &p);
    cg_builder *b = &o->b;
    b->m = &p;
    cg_builder_at(b, pm);
    memset(b->ocache, 0, sizeof b->ocache);    /* it indexes p's opcodes */
    o->k.special_reads = NULL;                 /* (p's, as its statements) */
    o->k.nspecial_reads = o->k.capspecial_reads = 0;
    cg_stmt *list = NULL;
    cg_build_body_part(b, part, &list);
    m->types_used |= p.types_used;
    if (st)
        cg_count_stmts(list, st);
    size_t n0 = out->n;
    cg_print_list(m, &o->k, list, 1, out);
    o->printed += out->n - n0;
    ptx_disown(&own);
    release_copy(&p);
    b->m = NULL;
    if (part->rbrace == PTX_NOTOK)
        return;
    if (!o->printed)    /* `pass`, as an empty body prints */
        cg_print_stmts(m, &o->k, NULL, 1, out);
    cg_print_kernel_foot(m, &o->k, out);
    const ptx_token *rb = &pm->toks[part->rbrace];
    m->seg_pos = at + rb->start + rb->len;
    cg_open_free(o);
}

void cg_open_free(cg_open *o)
{
    if (o->active)
        ptx_arena_free(o->keep.arena);
    o->active = 0;
}
