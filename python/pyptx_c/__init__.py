"""pyptx_c: the pyptx-c PTX toolchain (libptx, in C) for Python.

    import pyptx_c
    py = pyptx_c.ptx_to_python(open("k.ptx").read(), sugar=True)  # as pyptx.codegen's
    m = pyptx_c.parse(text, name="k.ptx")       # raises PTXSyntaxError
    assert m.emit() == text                     # byte for byte
    for f in m.entries:
        print(f.name, len(f.instructions))
    print(pyptx_c.diff(old_text, new_text, ignore_debug=True))

The programs pyptx-codegen, pyptx-roundtrip and pyptx-diff come with the
package.  The GIL is released while PTX is parsed, printed, translated or
compared.
"""
from ._core import (  # noqa: F401
    Function,
    Module,
    PTXError,
    PTXSyntaxError,
    Statement,
    __version__,
    diff,
    parse,
    ptx_to_python,
    sugar_passes,
)

__all__ = [
    "Function", "Module", "PTXError", "PTXSyntaxError", "Statement", "__version__",
    "diff", "parse", "ptx_to_python", "sugar_passes",
]
