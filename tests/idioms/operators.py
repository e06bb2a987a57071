#!/usr/bin/env python3
"""The "expr" sugar pass's operators against pyptx 0.1.1's Reg operators.

    operators.py CODEGEN

pyptx is the oracle.  Inside one traced kernel this script applies every
integer operator, in place (`a += b`, on array elements and on scalars)
and into an array slot (`r[k] = a + b`), to registers of every integer
dtype, with ints and registers of both widths on the right; an operator
pyptx refuses, or one that emits more than one instruction, is left out.
Beside them stand instructions of the same shapes that no operator emits
(nvcc's `add.s32 %r5, %r5, %r6` on a .b32 register), written through
ptx.inst.  Every instruction is recorded with the pyptx function that
emitted it.

`CODEGEN --sugar=expr` decompiles the traced module, which is traced
again under the same recorder; the recordings must agree instruction by
instruction (the same instruction, from the same pyptx function).  So the
pass writes an operator exactly where pyptx's operator emits that very
instruction.  The last line is `N passed, N failed`."""
import os
import sys

import oracle

import pyptx._trace as TR
import pyptx.ptx as P
from pyptx import kernel, ptx, reg
import pyptx.types as T

RECORD = []
_emit = TR.TraceContext.emit
# the library's frames by where they live: "pyptx" may be in any path,
# this checkout's (a clone named pyptx-c) included
LIB = os.path.dirname(TR.__file__) + os.sep


def recording_emit(self, stmt):
    """Records each instruction with the pyptx function that made it."""
    if type(stmt).__name__ == "Instruction":
        f = sys._getframe(1)
        while f.f_code.co_name in ("emit", "_emit", "__call__"):
            f = f.f_back
        # operands are left out: an operator's destination is renamed
        # after the fact (RegArray.__setitem__); the texts are compared
        # whole at the end
        RECORD.append((f.f_code.co_name if f.f_code.co_filename.startswith(LIB) else "inst",
                       stmt.opcode, stmt.modifiers))
    _emit(self, stmt)


TR.TraceContext.emit = recording_emit

INT_TYPES = (T.b32, T.u32, T.s32, T.b64, T.u64, T.s64)
INPLACE = ("__iadd__", "__isub__", "__imul__", "__ilshift__", "__irshift__",
           "__iand__", "__ixor__")
BINARY = ("__add__", "__sub__", "__mul__", "__lshift__", "__rshift__", "__and__",
          "__or__", "__xor__")


def one_instruction(f):
    """Runs f; keeps what it emitted only if it is one instruction and no
    register declaration (else the trace is rolled back)."""
    ctx = TR.get_ctx()
    n, nd, nr = len(ctx.statements), len(ctx.reg_decls), len(RECORD)
    try:
        f()
        if len(ctx.statements) == n + 1 and len(ctx.reg_decls) == nd:
            return True
    except (TypeError, ValueError):
        pass
    del ctx.statements[n:]
    del ctx.reg_decls[nd:]
    del RECORD[nr:]
    return False


@kernel(arch="sm_90a", version=(8, 5))
def oracle_kernel():
    r = reg.array(T.b32, 40, name="%r")
    rd = reg.array(T.b64, 40, name="%rd")
    arrays = {t: reg.array(t, 8, name="%" + t.name + "a") for t in INT_TYPES}
    scalars = {t: reg.scalar(t, name="%" + t.name + "s") for t in INT_TYPES}
    rights = (7, r[1], rd[1])
    for t in INT_TYPES:
        for a in (arrays[t], None):
            for name in INPLACE:
                for b in rights:
                    def inplace(a=a, name=name, b=b):
                        if a is None:
                            getattr(scalars[t], name)(b)
                        else:
                            x = a[2]
                            x = getattr(x, name)(b)
                            a[2] = x
                    one_instruction(inplace)
    for dst, src in ((r, r), (rd, rd)):
        for name in BINARY:
            for b in rights:
                def binary(name=name, b=b, dst=dst, src=src):
                    dst[3] = getattr(src[4], name)(b)
                one_instruction(binary)
    # shapes no operator emits: nvcc's in-place add.s32 on .b32, mul.wide,
    # a 64-bit add of a 32-bit register, sub.u32, a 16-bit add
    ptx.inst.add.s32(r[5], r[5], r[6])
    ptx.inst.mul.wide.u32(rd[5], r[5], 4)
    ptx.inst.add.s64(rd[6], rd[6], r[6])
    ptx.inst.sub.u32(r[7], r[7], 1)
    ptx.inst.add.s16(r[8], r[8], 1)
    ptx.inst.ret()


def main():
    return oracle.decompile(sys.argv[1], "expr", oracle_kernel, "oracle_kernel", RECORD)


if __name__ == "__main__":
    sys.exit(main())
