import os
from collections.abc import Sequence
from typing import Literal

__version__: str

class PTXSyntaxError(SyntaxError):
    """PTX that does not parse; filename, lineno, offset and text locate it."""

class PTXError(ValueError):
    """PTX that parses but cannot be done what was asked."""

class Statement:
    kind: str
    text: str
    line: int
    col: int
    statements: list[Statement]
    name: str | None
    function: Function | None
    opcode: str | None
    modifiers: tuple[str, ...]
    operands: tuple[str, ...]
    predicate: str | None
    negated: bool

class Function:
    name: str
    kind: Literal["entry", "func"]
    linking: tuple[str, ...]
    params: list[str]
    is_definition: bool
    statements: list[Statement]
    instructions: list[Statement]
    line: int
    col: int

class Module:
    filename: str
    statements: list[Statement]
    entries: list[Function]
    functions: list[Function]
    version: str | None
    target: tuple[str, ...]
    def emit(self) -> str: ...
    def canonical(self) -> str: ...
    def instructions(self) -> list[Statement]: ...

def parse(text: str | bytes, name: str = "<string>", *, jobs: int = 1) -> Module: ...
def ptx_to_python(source: str | bytes, *, sugar: bool | str = False,
                  kernel_name: str | None = None, jobs: int = 1,
                  verify: bool = False, debug: bool = True) -> str:
    """verify=True: traced by this interpreter's pyptx 0.1.1, every kernel
    gives back its PTX; a kernel that does not loses sugar passes (its own
    only) with a UserWarning saying which and why.  Raises ImportError
    without pyptx 0.1.1, PTXError when not even plain mode traces back.
    debug=False (pyptx-codegen --no-debug): .loc, .file, @@DWARF,
    .section .debug_*, the labels only they use and comment lines are
    dropped first; the
    result traces back to the source up to diff(..., ignore_debug=True)."""
def diff(a: str | bytes | Module, b: str | bytes | Module, *, ignore_debug: bool = False,
         ignore_labels: bool = False, ignore_names: bool = False, ignore_regs: bool = False,
         context: int = 3, format: Literal["unified", "stat", "json"] = "unified",
         jobs: int = 2) -> str: ...
def diff_trees(a: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
               b: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
               ignore_debug: bool = False, ignore_labels: bool = False,
               ignore_names: bool = False, ignore_regs: bool = False, context: int = 3,
               format: Literal["unified", "stat", "json", "markdown"] = "unified",
               resources: bool = False, jit: bool = False, ptxas: str | None = None,
               jobs: int = 2) -> str:
    """pyptx-diff's tree mode: a and b are directories (every *.ptx below)
    or lists of PTX files.  resources=True compiles the differing kernels'
    files (ptxas, or the CUDA driver with jit=True) and reports their
    figures.  Raises PTXError where the compiler cannot be run at all."""
def sugar_passes() -> list[tuple[str, str]]: ...
