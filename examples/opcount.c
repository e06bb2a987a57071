/* opcount - instruction count per opcode of a PTX file, using only the
   public libptx API.   usage: opcount FILE.ptx */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ptx/ptx.h>

typedef struct count { char name[64]; unsigned n; } count;
static count table[512];
static int ntable;

static void tally(ptx_str op)
{
    for (int i = 0; i < ntable; i++)
        if (strlen(table[i].name) == op.n && !memcmp(table[i].name, op.p, op.n)) {
            table[i].n++;
            return;
        }
    if (ntable < 512 && op.n < sizeof table[0].name) {
        memcpy(table[ntable].name, op.p, op.n);
        table[ntable++].n = 1;
    }
}

static void walk(const ptx_stmt *s)
{
    for (; s; s = s->next) {
        if (s->kind == PTX_S_INSTR)
            tally(s->u.instr.opcode);
        else if (s->kind == PTX_S_BLOCK)
            walk(s->u.block.stmts);
        else if (s->kind == PTX_S_FUNC && s->u.func.body)
            walk(s->u.func.body->stmts);
    }
}

static int by_count(const void *a, const void *b)
{
    const count *x = a, *y = b;
    return x->n != y->n ? (x->n < y->n) - (x->n > y->n) : strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: opcount FILE.ptx\n");
        return 2;
    }
    ptx_diag d;
    ptx_module *m = ptx_parse_file(argv[1], &d);
    if (!m) {
        ptx_diag_print(stderr, &d);
        return 1;
    }
    walk(m->items);
    qsort(table, (size_t)ntable, sizeof *table, by_count);
    for (int i = 0; i < ntable; i++)
        printf("%7u %s\n", table[i].n, table[i].name);
    ptx_module_free(m);
    return 0;
}
