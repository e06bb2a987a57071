/* piece.h - a module's text a piece at a time, pieces that may start and
 * end inside a function's body or a variable's initializer (the round
 * trip in pieces, emit/pieces.c; codegen's, codegen/pieces.c).
 *
 * A piece ends after a statement, an item or a value of a variable's list
 * (ptx_cut_stmt_after), and is parsed on its own with a start token that
 * says where it starts: among the module's items, in a body, or in an
 * initializer, where the piece before it ended (parser.y, `module`).  The
 * grammar, not the cut, decides what a piece is: pieces that parse, each
 * starting where the one before ended, are the whole module's items,
 * token for token; where a cut fell inside a block within a body, or a
 * debug section, the piece does not parse.
 */
#ifndef PTX_FRONT_PIECE_H
#define PTX_FRONT_PIECE_H

#include "ptx/ptx.h"

/* Where a piece starts or ends: among the module's items, in a
   function's body after a statement, or in a variable's initializer (a
   flat list of values) after a ','. */
typedef enum ptx_piece_at { PTX_AT_ITEMS, PTX_AT_BODY, PTX_AT_INIT } ptx_piece_at;

/* The text parsed on its own, serially, starting `at` where the piece
   before it ended; *end says where it ends.  NULL where it does not parse
   (diag says why about the piece; the whole module is what a user is
   told about); where memory runs out, it unwinds (util/alloc.h), so that
   a caller that takes NULL for a piece to cut again, or for the whole
   module to take, does not take running out for either.  whole_opcodes: an instruction's opcode is its whole word,
   without modifiers (ptx_instr's opcode, mods and nmods), for a caller
   that needs no parts: the exact printer prints the word's token, the
   canonical printer an opcode without modifiers, the same word; splitting
   it was 4% of the exact round trip's instructions on library PTX. */
ptx_module *ptx_parse_piece(const char *name, const char *data, size_t size,
                            ptx_piece_at at, int whole_opcodes, ptx_piece_at *end,
                            ptx_diag *diag);

/* The first offset at or after `at` where a piece that starts at `from`
   may end: where `at` falls in a module variable's flat list of values
   (on the line of its '{', with no comment or string before), after the
   list's next ','; else a cut among the items (ptx_cut_after), or one
   after a ';' ending a line or a '}' starting one at a function body's
   level, as the braces after `at` suggest (the text before `at` is not
   read).  Each a guess, which the grammar checks; `size` if there is
   none. */
size_t ptx_cut_stmt_after(const char *src, size_t size, size_t from, size_t at);

/* ptx_cut_after's cuts after a '}' alone (a function's end): a scan for
   the '}' (memchr) rather than line by line, for a caller that cuts
   after whole functions (sugar/pieces.c); `size` if there is none. */
size_t ptx_cut_after_brace(const char *src, size_t size, size_t at);

#endif
