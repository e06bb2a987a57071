"""Structure-aware mutations of real PTX, for tools/fuzz_pipeline.py.

A mutation works on the lines of one function body (between the `{` of an
.entry/.func and its `}`) and keeps the text PTX in shape: it deletes,
duplicates or swaps statements; changes an immediate, an address offset,
a type or modifier, a register; adds labels and branches to them; wraps
statements in `{ }`; inserts loop shapes, mbarrier spin waits (pyptx's own
and CUTLASS's), blocks repeated with affine registers and offsets, and
`.loc` and `.file` lines; drops debug sections; renames a register
family.  Those are the shapes the sugar
passes look for, and with random operands, the near misses beside them.

mutate(text, rng) -> Mutant or None.  Mutant.text is the new module;
Mutant.change, for a single edit of one statement in place, is
(kind, seed_line, mutant_line) - 1-based lines, either None where the
statement is gone or new - so the diff oracle knows what pyptx-diff must
report; None where the edit is structural.
"""
import re

INT = re.compile(r"(?<![\w%$.])(\d+)(?![\w.])")
OFFSET = re.compile(r"\+(\d+)\]")
REG = re.compile(r"%([a-z]+)(\d+)\b")
LABEL = re.compile(r"^\s*([$\w.]+):\s*$")
SWAPS = [(".u32", ".s32", ".b32"), (".u64", ".s64", ".b64"), (".f32", ".b32"),
         (".shared", ".global", ".local"), (".lo", ".hi"), (".rn", ".rz", ".rm"),
         (".lt", ".le", ".gt", ".ge", ".eq", ".ne"), (".cta", ".gpu", ".sys"),
         (".shared::cta", ".shared::cluster", ".shared")]


class Mutant:
    def __init__(self, text, change):
        self.text = text
        self.change = change


def _bodies(lines):
    """(first, last) line indices of each function body, braces excluded."""
    out, depth, start, header = [], 0, None, False
    for i, ln in enumerate(lines):
        code = ln.split("//", 1)[0]
        if ".entry" in code or ".func" in code:
            header = True
        for c in code:
            if c == "{":
                depth += 1
                if depth == 1 and header:
                    start, header = i + 1, False
            elif c == "}":
                depth -= 1
                if depth == 0 and start is not None:
                    out.append((start, i - 1))
                    start = None
    return [b for b in out if b[1] >= b[0]]


def _is_inst(ln):
    s = ln.strip()
    return s.endswith(";") and not s.startswith(".") and "{" not in s and "}" not in s \
        and not s.startswith("//")


def _single_line_insts(lines, lo, hi):
    """Lines lo..hi that hold one whole instruction: the previous line with
    code ended a statement (the diff oracle names statements by line)."""
    out, ended = [], True
    for i in range(lo, hi + 1):
        code = lines[i].split("//", 1)[0].strip()
        if not code:
            continue
        if ended and _is_inst(lines[i]):
            out.append(i)
        ended = code.endswith((";", "{", "}", ":"))
    return out


class _Body:
    def __init__(self, lines, b, rng):
        self.lines, self.lo, self.hi, self.rng = lines, b[0], b[1], rng
        self.insts = _single_line_insts(lines, self.lo, self.hi)
        self.labels = [LABEL.match(lines[i]).group(1) for i in range(self.lo, self.hi + 1)
                       if LABEL.match(lines[i])]
        text = "".join(lines[self.lo:self.hi + 1])
        self.regs = sorted(set(REG.findall(text)))
        self.preds = [p for p in self.regs if p[0] == "p"]
        self.r32 = [p for p in self.regs if p[0] == "r"]
        self.indent = re.match(r"\s*", lines[self.insts[0]]).group(0) if self.insts else "\t"

    def reg(self, pool):
        p, n = self.rng.choice(pool)
        return "%%%s%s" % (p, n)

    def fresh_label(self, tag):
        return "$Lfz_%s%d" % (tag, self.rng.randrange(1 << 20))


def _in_place(body, i, new):
    if new == body.lines[i]:
        return None
    body.lines[i] = new
    return ("edit", i + 1, i + 1)


def m_delete(b):
    i = b.rng.choice(b.insts)
    del b.lines[i]
    return ("delete", i + 1, None)


def m_duplicate(b):
    i = b.rng.choice(b.insts)
    b.lines.insert(i + 1, b.lines[i])
    return ("insert", None, i + 2)


def m_swap(b):
    i = b.rng.choice(b.insts)
    if i + 1 > b.hi:
        return None
    b.lines[i], b.lines[i + 1] = b.lines[i + 1], b.lines[i]
    return "structural"


def m_immediate(b):
    cands = [i for i in b.insts if INT.search(b.lines[i].split("//")[0])]
    if not cands:
        return None
    i = b.rng.choice(cands)
    ms = list(INT.finditer(b.lines[i].split("//")[0]))
    m = b.rng.choice(ms)
    v = b.rng.choice([0, 1, 2, 3, 4, 7, 8, 16, 31, 32, 64, 127, 255, 1024, 4096, 65535,
                      int(m.group(1)) + 1, int(m.group(1)) * 2])
    ln = b.lines[i]
    return _in_place(b, i, ln[:m.start(1)] + str(v) + ln[m.end(1):])


def m_offset(b):
    cands = [i for i in b.insts if OFFSET.search(b.lines[i])]
    if not cands:
        return None
    i = b.rng.choice(cands)
    m = b.rng.choice(list(OFFSET.finditer(b.lines[i])))
    v = b.rng.choice([0, 4, 8, 16, 128, 1024, int(m.group(1)) + 4])
    ln = b.lines[i]
    return _in_place(b, i, ln[:m.start(1)] + str(v) + ln[m.end(1):])


def m_modifier(b):
    i = b.rng.choice(b.insts)
    ln = b.lines[i]
    for group in b.rng.sample(SWAPS, len(SWAPS)):
        for old in group:
            if old + "." in ln or old + " " in ln or old + "\t" in ln:
                new = b.rng.choice([g for g in group if g != old])
                at = ln.index(old)
                return _in_place(b, i, ln[:at] + new + ln[at + len(old):])
    return None


def m_register(b):
    i = b.rng.choice(b.insts)
    ms = list(REG.finditer(b.lines[i]))
    same = [m for m in ms if len([r for r in b.regs if r[0] == m.group(1)]) > 1]
    if not same:
        return None
    m = b.rng.choice(same)
    p, n = b.rng.choice([r for r in b.regs if r[0] == m.group(1)])
    ln = b.lines[i]
    return _in_place(b, i, ln[:m.start(2)] + n + ln[m.end(2):])


def m_label(b):
    i = b.rng.choice(b.insts)
    b.lines.insert(i, b.fresh_label("l") + ":\n")
    return ("insert", None, i + 1)


def m_branch(b):
    i = b.rng.choice(b.insts)
    target = b.rng.choice(b.labels) if b.labels and b.rng.random() < 0.7 else None
    if target is None:
        target = b.fresh_label("b")
        j = b.rng.choice(b.insts)
        b.lines.insert(j, target + ":\n")
        if j <= i:
            i += 1
        change = "structural"
    else:
        change = None
    guard = ""
    if b.preds and b.rng.random() < 0.7:
        guard = "@%s%s " % ("!" if b.rng.random() < 0.3 else "", b.reg(b.preds))
    op = "bra.uni" if not guard and b.rng.random() < 0.5 else "bra"
    b.lines.insert(i, "%s%s%s %s;\n" % (b.indent, guard, op, target))
    return change or ("insert", None, i + 1)


def m_scope(b):
    i = b.rng.choice(b.insts)
    n = b.rng.randint(1, 3)
    j = i
    while j + 1 <= b.hi and j + 1 - i < n and _is_inst(b.lines[j + 1]):
        j += 1
    b.lines.insert(j + 1, b.indent + "}\n")
    b.lines.insert(i, b.indent + "{\n")
    return "structural"


def m_loop(b):
    if not b.preds:
        return None
    i = b.rng.choice(b.insts)
    n = b.rng.randint(1, 4)
    j = min(i + n, b.hi + 1)
    lab = b.fresh_label("loop")
    guard = ("@!" if b.rng.random() < 0.3 else "@") + b.reg(b.preds)
    op = b.rng.choice(["bra", "bra", "bra.uni"])
    b.lines.insert(j, "%s%s %s %s;\n" % (b.indent, guard, op, lab))
    b.lines.insert(i, lab + ":\n")
    return "structural"


def m_wait(b):
    """pyptx's own spin loop, CUTLASS's, or Triton's, with operands of the body."""
    if not b.preds or len(b.r32) < 2:
        return None
    i = b.rng.choice(b.insts)
    p, bar, phase = b.reg(b.preds), b.reg(b.r32), b.reg(b.r32)
    ind = b.indent
    form = b.rng.randrange(3)
    if form == 0:
        lab = b.fresh_label("mbar_wait")
        text = ["%s:\n" % lab,
                "%smbarrier.try_wait.parity.shared.b64 %s, [%s], %s;\n" % (ind, p, bar, phase),
                "%s@!%s bra %s;\n" % (ind, p, lab)]
    elif form == 1:
        w, d = b.fresh_label("W"), b.fresh_label("D")
        text = ["%s{\n" % ind, "%s.reg .pred P1;\n" % ind, "%s:\n" % w,
                "%smbarrier.try_wait.parity.shared::cta.b64 P1, [%s], %s;\n" % (ind, bar, phase),
                "%s@P1 bra.uni %s;\n" % (ind, d), "%sbra.uni %s;\n" % (ind, w), "%s:\n" % d,
                "%s}\n" % ind]
    else:
        w = b.fresh_label("waitLoop")
        text = ["%s{\n" % ind, "%s.reg .pred complete;\n" % ind, "%s:\n" % w,
                "%smbarrier.try_wait.parity.shared.b64 complete, [%s], %s;\n" % (ind, bar, phase),
                "%s@!complete bra.uni %s;\n" % (ind, w), "%s}\n" % ind]
    b.lines[i:i] = text
    return "structural"


def m_repeat(b):
    """A statement with a register index and an immediate, k times, both
    growing by a stride (what `repeat` rolls), sometimes with one copy off."""
    cands = [i for i in b.insts if REG.search(b.lines[i]) and INT.search(b.lines[i])]
    if not cands:
        return None
    i = b.rng.choice(cands)
    ln = b.lines[i]
    k, rs, vs = b.rng.randint(2, 6), b.rng.choice([1, 2, 4]), b.rng.choice([4, 8, 16])
    off = b.rng.randrange(k) if b.rng.random() < 0.3 else -1
    out = []
    for c in range(k):
        t = REG.sub(lambda m: "%%%s%d" % (m.group(1), int(m.group(2)) + rs * c), ln, count=1)
        bump = vs * c + (3 if c == off else 0)
        t = INT.sub(lambda m: str(int(m.group(1)) + bump), t, count=1)
        out.append(t)
    b.lines[i + 1:i + 1] = out
    return "structural"


def m_loc(b):
    locs = [i for i in range(b.lo, b.hi + 1) if b.lines[i].strip().startswith(".loc")]
    if locs and b.rng.random() < 0.5:
        i = b.rng.choice(locs)
        del b.lines[i]
        return ("delete", i + 1, None)
    i = b.rng.choice(b.insts)
    b.lines.insert(i, "%s.loc\t1 %d %d\n" % (b.indent, b.rng.randint(1, 500), b.rng.randint(0, 40)))
    return ("insert", None, i + 1)


def m_rename(b):
    fams = sorted({r[0] for r in b.regs})
    if not fams:
        return None
    fam = b.rng.choice(fams)
    new = b.rng.choice(["fz", fam + "z", "q"])
    pat = re.compile(r"%" + fam + r"(?=[\d<])")
    for i in range(b.lo, b.hi + 1):
        b.lines[i] = pat.sub("%" + new, b.lines[i])
    return "structural"


def m_file(lines, rng):
    """Module level: drop a `.file` line, or add one after `.address_size`."""
    files = [i for i, ln in enumerate(lines) if ln.lstrip().startswith(".file")]
    if files and rng.random() < 0.5:
        del lines[rng.choice(files)]
        return "structural"
    at = [i for i, ln in enumerate(lines) if ln.lstrip().startswith(".address_size")]
    if not at:
        return None
    lines.insert(at[0] + 1, '.file\t%d "/tmp/fuzz_%d.cu"\n' % (rng.randint(1, 9), rng.randrange(100)))
    return "structural"


def m_debug_section(lines, rng):
    """Module level: drop one `.section .debug_*` block, or every @@DWARF line."""
    starts = [i for i, ln in enumerate(lines) if ln.lstrip().startswith(".section")]
    if starts and rng.random() < 0.7:
        i = rng.choice(starts)
        j = i
        while j < len(lines) and "}" not in lines[j].split("//")[0]:
            j += 1
        del lines[i:j + 1]
        return "structural"
    dwarf = [i for i, ln in enumerate(lines) if "@@DWARF" in ln]
    if not dwarf:
        return None
    for i in reversed(dwarf):
        del lines[i]
    return "structural"


MODULE_MUTATIONS = [m_file, m_debug_section]

MUTATIONS = [m_delete, m_duplicate, m_swap, m_immediate, m_offset, m_modifier, m_register,
             m_label, m_branch, m_scope, m_loop, m_wait, m_repeat, m_loc, m_rename]


def mutate(text, rng):
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    bodies = _bodies(lines)
    if not bodies:
        return None
    n = rng.choice([1, 1, 1, 2, 3])
    changes = []
    for _ in range(n * 4):
        if len(changes) == n:
            break
        if rng.random() < 0.05:
            c = rng.choice(MODULE_MUTATIONS)(lines, rng)
        else:
            bodies = _bodies(lines)
            if not bodies:
                break
            body = _Body(lines, rng.choice(bodies), rng)
            if not body.insts:
                continue
            c = rng.choice(MUTATIONS)(body)
        if c is not None:
            changes.append(c)
    if not changes:
        return None
    change = changes[0] if len(changes) == 1 else _compose(changes, len(text.splitlines()))
    return Mutant("".join(lines), change if isinstance(change, tuple) else None)


def _compose(changes, nlines):
    """Several line edits of a seed of nlines lines as one: ("multi", seed
    lines edited or deleted, mutant lines new or edited), following each
    edit's line numbers (those of the text it was made on) back to the seed
    through `origin` (current line -> seed line, or None for a line made by
    an edit).  None when an edit is structural (no line numbers)."""
    origin = list(range(1, nlines + 1))
    gone = set()
    for c in changes:
        if not isinstance(c, tuple):
            return None
        kind, a, b = c
        if kind == "insert":
            origin.insert(b - 1, None)
            continue
        if origin[a - 1] is not None:
            gone.add(origin[a - 1])
        if kind == "edit":
            origin[a - 1] = None
        else:
            del origin[a - 1]
    return ("multi", sorted(gone), [j + 1 for j, o in enumerate(origin) if o is None])
