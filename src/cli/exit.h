/*
 * cli/exit.h - the exit statuses of the programs that use the JIT
 * (jit_check, pyptx-roundtrip --jit, the JIT's tests).  A program's
 * convention, not the library's: libptx returns results, never exits.
 *
 *     0   PTX_EXIT_OK         identical / passed
 *     1   PTX_EXIT_DIFFERENT  different / failed
 *     2   PTX_EXIT_TROUBLE    usage error, unreadable input, undecidable
 *     77  PTX_EXIT_SKIP       no CUDA driver or no usable GPU: skipped
 *
 * 77 is the automake convention for a skipped test; such tests are
 * registered in CTest with SKIP_RETURN_CODE 77, so that they report
 * "Skipped", not "Passed", on machines without a GPU.
 */
#ifndef PTX_CLI_EXIT_H
#define PTX_CLI_EXIT_H

#define PTX_EXIT_OK 0
#define PTX_EXIT_DIFFERENT 1
#define PTX_EXIT_TROUBLE 2
#define PTX_EXIT_SKIP 77

#endif
