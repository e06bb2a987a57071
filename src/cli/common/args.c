/* args.c - what the cubin and JIT programs share (args.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/common/args.h"

int cli_rename_parse(char *arg, ptx_cubin_rename *r)
{
    char *eq = arg ? strchr(arg, '=') : NULL;
    if (!eq || eq == arg || !eq[1])
        return -1;
    *eq = '\0';
    r->a = arg;
    r->b = eq + 1;
    return 0;
}

int cli_read_file(const char *path, void **data, size_t *n, char *err, size_t errlen)
{
    *data = NULL;
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *p = malloc(cap);
    for (;;) {
        if (!p) {
            fclose(f);
            snprintf(err, errlen, "%s: out of memory", path);
            return -1;
        }
        len += fread(p + len, 1, cap - len, f);
        if (len < cap)
            break;
        unsigned char *q = cap <= SIZE_MAX / 2 ? realloc(p, cap * 2) : NULL;
        if (!q)
            free(p);
        p = q;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(p);
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    *data = p;
    *n = len;
    return 0;
}
