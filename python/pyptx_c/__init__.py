"""pyptx_c: the pyptx-c PTX toolchain (libptx, in C) for Python.

    import pyptx_c
    py = pyptx_c.ptx_to_python(open("k.ptx").read(), sugar=True)  # as pyptx.codegen's
    m = pyptx_c.parse(text, name="k.ptx")       # raises PTXSyntaxError
    assert m.emit() == text                     # byte for byte
    for f in m.entries:
        print(f.name, len(f.instructions))
    print(pyptx_c.diff(old_text, new_text, ignore_debug=True))
    print(pyptx_c.diff_trees("cache_old", "cache_new", format="markdown", resources=True))

The programs pyptx-codegen, pyptx-roundtrip and pyptx-diff come with the
package.  The GIL is released while PTX is parsed, printed, translated or
compared.
"""
import os as _os

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
from ._core import diff_trees as _diff_trees


def _ptx_files(tree):
    """A directory's *.ptx files below it, sorted, or the paths as given."""
    if isinstance(tree, (str, bytes, _os.PathLike)) and _os.path.isdir(tree):
        found = []
        for d, dirs, files in _os.walk(tree):
            dirs[:] = [x for x in dirs if not _os.fsdecode(x).startswith(".")]
            found += [_os.path.join(d, f) for f in files
                      if _os.fsdecode(f).endswith(".ptx") and not _os.fsdecode(f).startswith(".")]
        return sorted(found)
    if isinstance(tree, (str, bytes, _os.PathLike)):
        return [tree]
    return list(tree)


def diff_trees(a, b, **options):
    """pyptx-diff's tree mode: `a` and `b` are directories (every *.ptx file
    below each) or lists of PTX file paths; options and the report as
    _core.diff_trees (help(pyptx_c._core.diff_trees))."""
    return _diff_trees(_ptx_files(a), _ptx_files(b), **options)


diff_trees.__doc__ += "\n\n" + (_diff_trees.__doc__ or "")

__all__ = [
    "Function", "Module", "PTXError", "PTXSyntaxError", "Statement", "__version__",
    "diff", "diff_trees", "parse", "ptx_to_python", "sugar_passes",
]
