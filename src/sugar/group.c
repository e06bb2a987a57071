/*
 * sugar/group.c - pass "group": declarations in a row that allocate alike
 * become one line.
 *
 *     f37 = reg.scalar(f32)                 f37, f38 = reg.scalar(f32), reg.scalar(f32)
 *     f38 = reg.scalar(f32)          ->     f33, f34, f35 = [reg.scalar(f32, init=0.0) for _ in range(3)]
 *
 * Python evaluates the right side left to right before it binds the
 * names, so the registers are taken in the same order (pyptx's counters
 * and declaration list see the same calls).  Only declarations whose
 * right side is a reg.scalar call and the same text, printed by their own
 * printer, and only as the last pass, since the other passes match the
 * declarations one by one.
 */
#include <string.h>
#include "codegen/build.h"
#include "sugar/sugar.h"

#define MAXGROUP 8

/* The printed right side of s (`x = reg.scalar(...)`) into b: its
   length, or 0. */
static size_t rhs_of(const cg_module *m, const cg_kernel *k, const cg_stmt *s, ptx_buf *b)
{
    const cg_sym *y = s->kind == CG_S_REG ? &k->syms[s->u.reg] : NULL;
    if (!((y && y->kind == CG_SYM_REG && y->implicit) || s->kind == SG_S_ALLOC))
        return 0;
    b->n = 0;
    sg_print_inline(m, k, s, b);
    const char *eq = memchr(b->p, '=', b->n);
    if (!eq || eq + 2 > b->p + b->n || memchr(b->p, '\n', b->n) ||
        strncmp(eq + 2, "reg.scalar(", 11) || eq[-1] != ' ' || eq[1] != ' ')
        return 0;
    size_t lhs = (size_t)(eq - 1 - b->p);
    return memchr(b->p, ',', lhs) ? 0 : b->n;   /* one name on the left */
}

typedef struct grouping {
    cg_module *m;
    cg_kernel *k;
    ptx_buf a, b;        /* two right sides */
    uint32_t made;
} grouping;

static int group_at(void *ctx, cg_stmt **link)
{
    grouping *g = ctx;
    cg_module *m = g->m;
    cg_kernel *k = g->k;
    ptx_buf *a = &g->a, *b = &g->b;
    cg_stmt *s = *link, *t = s;
    if (cg_body(s) || !rhs_of(m, k, s, a))
        return SG_VISIT_ON;
    const char *eq = memchr(a->p, '=', a->n);
    size_t rhs = (size_t)(eq + 2 - a->p), nr = a->n - rhs;
    unsigned n = 1;
    while (n < MAXGROUP && t->next && rhs_of(m, k, t->next, b)) {
        const char *e2 = memchr(b->p, '=', b->n);
        if ((size_t)(b->p + b->n - (e2 + 2)) != nr || memcmp(e2 + 2, a->p + rhs, nr))
            break;
        t = t->next;
        n++;
    }
    if (n < 2)
        return SG_VISIT_ON;
    ptx_buf out = { 0 };
    const cg_stmt *u = s;
    for (unsigned i = 0; i < n; i++, u = u->next) {   /* the names */
        rhs_of(m, k, u, b);
        ptx_buf_put(&out, b->p, (size_t)((char *)memchr(b->p, '=', b->n) - 1 - b->p));
        ptx_buf_puts(&out, i + 1 < n ? ", " : " = ");
    }
    if (n == 2) {
        ptx_buf_put(&out, a->p + rhs, nr);
        ptx_buf_puts(&out, ", ");
        ptx_buf_put(&out, a->p + rhs, nr);
    } else {
        ptx_buf_putc(&out, '[');
        ptx_buf_put(&out, a->p + rhs, nr);
        ptx_buf_printf(&out, " for _ in range(%u)]", n);
    }
    sg_py_splice(m, link, t, out.p, out.n);
    ptx_buf_free(&out);
    g->made++;
    return SG_VISIT_ON;
}

uint32_t sugar_group(cg_module *m, cg_kernel *k)
{
    /* two right sides print alike only without name=, i.e. for registers
       pyptx names itself: a kernel with none has nothing to group */
    if (!sg_any_fresh_reg(k))
        return 0;
    grouping g = { .m = m, .k = k };
    sg_visit_stmts(&k->body, group_at, &g);
    ptx_buf_free(&g.a);
    ptx_buf_free(&g.b);
    return g.made;
}
