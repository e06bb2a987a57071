/* args.h - what the cubin and JIT programs share: a --rename argument and
   a whole file read, with their messages. */
#ifndef PTX_CLI_ARGS_H
#define PTX_CLI_ARGS_H

#include <stddef.h>
#include "ptx/cubin.h"

/* Split "A_NAME=B_NAME" (a command line's --rename) in place into r:
   arg's '=' becomes a NUL.  Returns 0, or -1 (arg unchanged) if either
   name is empty or there is no '='. */
int cli_rename_parse(char *arg, ptx_cubin_rename *r);

/* Read a whole file into a malloc'ed buffer (caller frees).  Returns 0, or
   -1 with a message in `err`. */
int cli_read_file(const char *path, void **data, size_t *n, char *err, size_t errlen);

#endif
