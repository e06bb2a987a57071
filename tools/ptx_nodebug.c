/*
 * ptx_nodebug - print a PTX file without its debug data: the text that
 * pyptx-codegen --no-debug translates (ptx_emit_nodebug), for the tests
 * (tests/pyptx/harness.py --no-debug) and tools/debug_lines.py.
 *
 *     ptx_nodebug FILE.ptx > filtered.ptx
 */
#include <stdio.h>
#include "ptx/ptx.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: ptx_nodebug FILE.ptx   (FILE '-' reads standard input)\n", stderr);
        return 2;
    }
    ptx_diag d;
    ptx_module *m = ptx_parse_file(argv[1], &d);
    if (!m) {
        ptx_diag_print(stderr, &d);
        return 1;
    }
    ptx_buf out = { 0 };
    ptx_emit_nodebug(m, &out);
    int ok = (!out.n || fwrite(out.p, 1, out.n, stdout) == out.n) &&   /* p: NULL if empty */
             fflush(stdout) == 0;
    ptx_buf_free(&out);
    ptx_module_free(m);
    if (!ok)
        perror("ptx_nodebug: standard output");
    return ok ? 0 : 2;
}
