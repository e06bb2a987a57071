"""Tracing generated Python in this process (pyptx imported once), for the
fuzzer's oracles (tools/fuzz/oracles.py) and the pyptx_c tests
(tests/python/).  The file is read by the rule every checker shares
(_verify.Generated: its pyptx Kernels by PTX entry name, its module).
The comparisons are harness.py's: plain output must give
the input's tokens; sugar output may rename local names under one
bijection that every occurrence follows.

    why = trace_back(py, text, rename=True)      # None: it traces back
"""
import signal

import harness
import ptxtok


class Alarm(Exception):
    pass


def on_alarm(signum, frame):
    raise Alarm()


def trace_back(py, text, toks=None, rename=False, timeout=20, cache=None):
    """None if the generated file `py` runs under pyptx and traces back to
    the PTX `text` (tokens `toks`, made if None), else why not.  `cache`, a
    dict kept across calls on one text, saves its local-name scan."""
    toks = ptxtok.tokenize(text) if toks is None else toks
    cache = {} if cache is None else cache
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(timeout)
    try:
        g = ptxtok.rules.Generated(py, name="traced_generated")
        kern = {n: k.ptx() for n, k in g.kernels.items()}   # each traced once
        module = g.module()
    except Alarm:
        return "tracing timed out"
    except BaseException as e:  # the generated code must run: any error is a finding
        return "generated code raised %s: %s" % (type(e).__name__, str(e)[:300])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    entries = ptxtok.find_entries(toks)
    fixed = {e["name"] for e in entries}
    # (byte-identical: the same tokens; a module compared already in this
    # cache, under no more renaming, needs no second look)
    seen = cache.setdefault("modules", {})
    if module != text and seen.get(module, 2) > rename:
        if rename and "local" not in cache:
            cache["local"] = harness.local_names(toks)
        mt = ptxtok.tokenize(module)
        d = harness.compare(toks, mt, rename, cache["local"] if rename else (),
                            harness.local_names(mt) if rename else (), fixed)
        if d is not None:
            return "module: " + harness._fmt_diff(toks, mt, d, "printed")
        seen[module] = rename
    # every entry: its kernel traces to the text the module holds for it
    # (whose tokens, by the comparison above, are the input's)
    unsup = g.unsupported
    for e in entries:
        name = e["name"]
        if name in unsup:
            bad = harness.verify_unsupported(toks[e["start"]:e["end"]], unsup[name])
            if bad:
                return "entry %s: UNSUPPORTED wrong: %s" % (name, bad)
            continue
        k = kern.get(name)
        at = k.find(".entry " + name) if k is not None else -1
        if at < 0 or k[at:k.rindex("}") + 1] not in module:
            return "entry %s: kernel %r's ptx() is not the module's text for it" % (name, name)
    return None
