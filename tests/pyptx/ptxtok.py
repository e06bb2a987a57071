"""Whitespace- and comment-insensitive PTX tokenizer used by harness.py.

Tokens: strings, numbers, words (identifiers / registers / labels / dotted
opcodes such as ld.global.v4.u32, %tid.x, cp.async.bulk.tensor.2d.shared::cluster),
dotted names (.reg, .shared::cta), multi-char operators and single-character
punctuation.  // and /* */ comments are dropped.  Each token is (text, line).

The rules live in python/pyptx_c/_verify.py, which pyptx-codegen --verify
and pyptx_c.ptx_to_python(verify=True) apply too: one copy of them.  It is
loaded here by path (as `rules`), so that the tests need no built package.
"""
import importlib.util
import os
import sys

_NAME = "pyptx_c_verify_rules"
_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "python", "pyptx_c", "_verify.py")


def _load():
    if _NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(_NAME, _PATH)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = mod
        spec.loader.exec_module(mod)
    return sys.modules[_NAME]


rules = _load()
PATH = os.path.abspath(_PATH)   # for a runner under another python (harness.py)
tokenize, texts, find_entries = rules.tokenize, rules.texts, rules.find_entries
