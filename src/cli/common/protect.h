/* protect.h - a program's main under ptx_protect (util/alloc.h): memory
   that runs out in the program's own buffers ends it with a message,
   as the library's calls return "out of memory". */
#ifndef PTX_CLI_PROTECT_H
#define PTX_CLI_PROTECT_H

/* run(argc, argv)'s status; where memory ran out, "PROG: error: out of
   memory" on stderr and 2 (PTX_EXIT_TROUBLE). */
int cli_main(const char *prog, int (*run)(int argc, char **argv), int argc, char **argv);

/* The message and status of a library call that ran out of memory. */
int cli_out_of_memory(const char *prog);

#endif
