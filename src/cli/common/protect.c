/* protect.c - a program's main under ptx_protect. */
#include <stdio.h>
#include "cli/common/protect.h"
#include "cli/exit.h"
#include "ptx/ptx.h"
#include "util/alloc.h"

typedef struct main_call {
    int (*run)(int argc, char **argv);
    int argc;
    char **argv;
    int rc;
} main_call;

static void run_main(void *ud)
{
    main_call *c = ud;
    c->rc = c->run(c->argc, c->argv);
}

int cli_out_of_memory(const char *prog)
{
    fprintf(stderr, "%s: error: " PTX_OUT_OF_MEMORY "\n", prog);
    return PTX_EXIT_TROUBLE;
}

int cli_main(const char *prog, int (*run)(int argc, char **argv), int argc, char **argv)
{
    main_call c = { run, argc, argv, 0 };
    if (ptx_protect(run_main, &c) != 0)
        return cli_out_of_memory(prog);
    return c.rc;
}
