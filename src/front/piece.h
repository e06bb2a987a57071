/* piece.h - a module's text a piece at a time, pieces that may start and
 * end inside a function's body (the round trip in pieces, emit/pieces.c).
 *
 * A piece ends after a statement or an item (ptx_cut_stmt_after), and is
 * parsed on its own with a start token that says where it starts: among
 * the module's items, or in a body, where the piece before it ended
 * (parser.y, `module`).  The grammar, not the cut, decides what a piece
 * is: pieces that parse, each starting where the one before ended, are
 * the whole module's items, token for token; where a cut fell inside a
 * block within a body, or a debug section, the piece does not parse.
 */
#ifndef PTX_FRONT_PIECE_H
#define PTX_FRONT_PIECE_H

#include "ptx/ptx.h"

/* The text parsed on its own, serially: where `in_body`, it starts after
   a statement of a function's body, else among the module's items; and
   it may end after a statement of a body (*open_end is then 1).  NULL
   where it does not parse (diag says why about the piece; the whole
   module is what a user is told about). */
ptx_module *ptx_parse_piece(const char *name, const char *data, size_t size,
                            int in_body, int *open_end, ptx_diag *diag);

/* The first offset at or after `at` where a piece may end: a cut among
   the items (ptx_cut_after), or one after a ';' ending a line or a '}'
   starting one at a function body's level, as the braces after `at`
   suggest (the text before `at` is not read, so that is a guess, which
   the grammar checks); `size` if there is none. */
size_t ptx_cut_stmt_after(const char *src, size_t size, size_t at);

#endif
