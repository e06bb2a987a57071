/* walk.h - command-line paths into a sorted list of PTX files. */
#ifndef PTX_CLI_WALK_H
#define PTX_CLI_WALK_H

#include <stddef.h>

typedef struct path_list {
    char **v;
    size_t n, cap;
} path_list;

/* Adds `path` itself if it is a file (any name), or every *.ptx file below
   it if it is a directory.  Returns 0 on success, -1 (and prints a
   "path: error: ..." line) if it cannot be read. */
int paths_add(path_list *l, const char *path);
/* Sorts and removes duplicates, so runs are deterministic. */
void paths_sort(path_list *l);
void paths_free(path_list *l);

#endif
