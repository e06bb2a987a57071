/*
 * sugar/comments.c - pass "comments": drop the _raw("") / _raw("//...")
 * lines that plain mode keeps for byte identity (blank and comment-only
 * source lines inside bodies, and trailing comments that plain mode moves
 * onto a line of their own).  They carry no PTX token, so the traced tokens
 * do not change; sugar output is compared by tokens only.
 */
#include <string.h>
#include "sugar/sugar.h"

static int trivia_only(const cg_stmt *s)
{
    if (s->kind != CG_S_RAW)
        return 0;
    /* belt and braces: only whitespace and // comments */
    int in_comment = 0;
    for (uint32_t i = 0; i < s->u.raw.text.n; i++) {
        const cg_piece *p = &s->u.raw.text.v[i];
        if (p->sym != CG_NOSYM) {
            if (!in_comment)
                return 0;
            continue;
        }
        for (uint32_t j = 0; j < p->n; j++) {
            char c = p->p[j];
            if (in_comment) {   /* to the line's end at once: most of the text */
                const char *nl = memchr(p->p + j, '\n', p->n - j);
                if (!nl)
                    break;
                j = (uint32_t)(nl - p->p);
                in_comment = 0;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
                continue;
            if (c == '/' && j + 1 < p->n && p->p[j + 1] == '/') {
                in_comment = 1;
                continue;
            }
            return 0;
        }
    }
    return 1;
}

static int strip(void *ctx, cg_stmt **link)
{
    if (!trivia_only(*link))
        return SG_VISIT_ON;
    *link = (*link)->next;
    ++*(uint32_t *)ctx;
    return SG_VISIT_GONE;
}

uint32_t sugar_comments(cg_module *m, cg_kernel *k)
{
    (void)m;
    uint32_t n = 0;
    sg_visit_stmts(&k->body, strip, &n);
    return n;
}
