"""Whitespace- and comment-insensitive PTX tokenizer used by harness.py.

Tokens: strings, numbers, words (identifiers / registers / labels / dotted
opcodes such as ld.global.v4.u32, %tid.x, cp.async.bulk.tensor.2d.shared::cluster),
dotted names (.reg, .shared::cta), multi-char operators and single-character
punctuation.  // and /* */ comments are dropped.  Each token is (text, line).
"""
import re

# Alternatives are tried in order.  word, the most frequent kind, comes
# second: its first character begins no other kind but punct, the last, so
# its place changes no token.
_TOKEN_RE = re.compile(r"""
  (?P<ws>[ \t\r\f\v]+)
| (?P<word>[A-Za-z_$%][\w$]*(?:(?:\.|::)[\w$]+)*)
| (?P<nl>\n)
| (?P<lc>//[^\n]*)
| (?P<bc>/\*.*?\*/)
| (?P<str>"(?:[^"\\\n]|\\.)*")
| (?P<dwarf>@@DWARF[^\n]*)
| (?P<pp>\#[^\n]*)
| (?P<num>0[fF][0-9a-fA-F]{8}(?![\w$])
        |0[dD][0-9a-fA-F]{16}(?![\w$])
        |0[xX][0-9a-fA-F]+[uU]?
        |0[bB][01]+[uU]?
        |\d+\.\d*(?:[eE][+-]?\d+)?
        |\.\d+(?:[eE][+-]?\d+)?
        |\d+[eE][+-]?\d+
        |\d[\w$]*)
| (?P<dot>\.[A-Za-z_$][\w$]*(?:(?:\.|::)[\w$]+)*)
| (?P<op><<|>>|<=|>=|==|!=|&&|\|\|)
| (?P<punct>.)
""", re.X | re.S)


def tokenize(text, spans=False):
    """Return a list of (token_text, line_number) for PTX source text;
    with spans=True, (token_text, line_number, start, end) byte offsets."""
    out = []
    append = out.append
    line = 1
    # every character starts a match (punct takes any other), so the
    # matches cover the text: an unterminated /* or string is punctuation
    for mo in _TOKEN_RE.finditer(text):
        kind = mo.lastgroup
        if kind == "ws" or kind == "lc":
            continue
        if kind == "nl":
            line += 1
            continue
        s = mo.group()
        if kind == "bc":
            line += s.count("\n")
            continue
        append((s, line, mo.start(), mo.end()) if spans else (s, line))
    return out


def texts(tokens):
    return [t[0] for t in tokens]


def find_entries(tokens):
    """Find .entry definitions.

    Returns a list of dicts {name, start, end, body_start} where
    tokens[start] is the `.entry` keyword and tokens[end-1] is the `}` that
    closes the body (declarations without a body are skipped).  The linking
    directive in front of `.entry` (.visible/.weak/.extern) is NOT part of the
    span.
    """
    res = []
    i = 0
    n = len(tokens)
    while i < n:
        if tokens[i][0] != ".entry":
            i += 1
            continue
        start = i
        name = tokens[i + 1][0] if i + 1 < n else ""
        j = i + 2
        depth = 0
        # skip to the body '{' or a terminating ';' at paren depth 0
        while j < n:
            t = tokens[j][0]
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            elif depth == 0 and t in ("{", ";"):
                break
            j += 1
        if j >= n or tokens[j][0] == ";":
            i = j + 1
            continue
        body_start = j
        depth = 0
        while j < n:
            t = tokens[j][0]
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        end = min(j + 1, n)
        res.append({"name": name, "start": start, "end": end,
                    "body_start": body_start})
        i = end
    return res
