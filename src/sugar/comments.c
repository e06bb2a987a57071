/*
 * sugar/comments.c - pass "comments": drop the _raw("") / _raw("//...")
 * lines that plain mode keeps for byte identity (blank and comment-only
 * source lines inside bodies, and trailing comments that plain mode moves
 * onto a line of their own).  In pieces the build leaves them out instead
 * (cg_module.drop_trivia: the same tree, built for less and with no walk
 * here), as this row comes first.  They carry no PTX token, so the traced tokens
 * do not change; sugar output is compared by tokens only.
 */
#include <string.h>
#include "sugar/sugar.h"

static int strip(void *ctx, cg_stmt **link)
{
    if ((*link)->kind != CG_S_RAW || !cg_text_trivia(&(*link)->u.raw.text))
        return SG_VISIT_ON;
    *link = (*link)->next;
    ++*(uint32_t *)ctx;
    return SG_VISIT_GONE;
}

uint32_t sugar_comments(cg_module *m, cg_kernel *k)
{
    if (m->drop_trivia)   /* the build left them out (pieces.c) */
        return k->trivia_dropped;
    uint32_t n = 0;
    sg_visit_stmts(&k->body, strip, &n);
    return n;
}
