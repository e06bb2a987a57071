/* cli/diff/cli.h - what pyptx-diff's files share: its options, and the tree
   mode (diff_tree.c) and its resource figures (diff_res.c). */
#ifndef PTX_CLI_DIFF_CLI_H
#define PTX_CLI_DIFF_CLI_H

#include "ptx/diff.h"

typedef struct diff_cli {
    ptx_diff_options o;
    int stat, json, brief, markdown;
    const char **funcs;
    size_t nfuncs;
    int resources, jit;      /* --resources, --jit */
    unsigned fail_on;        /* --fail-on: bit i for figure i (PTX_RES_*) */
    const char *ptxas;       /* --ptxas, or NULL: $PTXAS, PATH, CUDA's */
} diff_cli;

/* Is `arg` a tree (a directory, or @FILE listing paths)? */
int diff_is_tree(const char *arg);
/* Tree mode: the exit status (diff(1)'s, and 3 for a --fail-on
   regression). */
int diff_trees_main(const diff_cli *c, const char *a, const char *b);

#endif
