"""The summary run.py prints: classes, throughput, line ratios, constructs,
kinds of failure."""
import statistics

CLASSES = ("faithful", "unfaithful", "crashed", "invalid")


class Stats:
    def __init__(self):
        self.counts = dict.fromkeys(CLASSES, 0)
        self.identical = 0
        self.ratios = []                 # per kernel, where both counts exist
        self.lines_in = self.lines_out = 0
        self.constructs = {}             # name -> [kernels, faithful]
        self.sigs = {}                   # kind of failure -> count

    def add(self, res):
        cls = res["cls"]
        self.counts[cls] += 1
        self.identical += bool(res.get("identical"))
        if cls in ("faithful", "unfaithful") and res["lines_in"] and res["lines_out"]:
            self.ratios.append(res["lines_out"] / res["lines_in"])
            self.lines_in += res["lines_in"]
            self.lines_out += res["lines_out"]
        if cls != "invalid":
            for c in res["constructs"]:
                row = self.constructs.setdefault(c, [0, 0])
                row[0] += 1
                row[1] += cls == "faithful"
        if cls != "faithful":
            self.sigs[res["sig"]] = self.sigs.get(res["sig"], 0) + 1

    def total(self):
        return sum(self.counts.values())

    def failed(self):
        return self.counts["unfaithful"] + self.counts["crashed"]


def pct(n, d):
    return 100.0 * n / d if d else 0.0


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def summary(st, seconds, firsts, mins, seed):
    n = st.total()
    print("\n== dslgen summary (seed %d) ==" % seed)
    print("programs: %d in %.1f s: %.1f programs/s" % (n, seconds, n / max(seconds, 1e-9)))
    for c in CLASSES:
        print("  %-10s %6d  %5.1f%%" % (c, st.counts[c], pct(st.counts[c], n)))
    print("  byte-identical %d (%.1f%% of the faithful)" % (
        st.identical, pct(st.identical, st.counts["faithful"])))
    r = st.ratios
    if r:
        print("line ratio (decompiled/generated kernel function, %d kernels): total %.2f, "
              "median %.2f, p90 %.2f, p95 %.2f, max %.2f; <= 2x: %.1f%%" % (
                  len(r), st.lines_out / max(st.lines_in, 1), statistics.median(r),
                  quantile(r, 0.9), quantile(r, 0.95), max(r), pct(sum(x <= 2 for x in r), len(r))))
    print("constructs (kernels containing it, faithful among them):")
    rows = sorted(st.constructs.items(), key=lambda kv: kv[1][1] / kv[1][0])
    for name, (k, f) in rows:
        print("  %-12s %6d %6d  %5.1f%%" % (name, k, f, pct(f, k)))
    if st.sigs:
        print("kinds of failure (count, first program):")
        for sig, cnt in sorted(st.sigs.items(), key=lambda kv: -kv[1]):
            first = firsts.get(sig)
            where = " [--show %d:%d]" % (seed, first["i"]) if first else ""
            print("  %5d  %s%s" % (cnt, sig, where))
    for sig, m in sorted(mins.items()):
        print("\n-- minimized: %s --\n%s%s" % (sig, m["small"], indent(m["first"])))
    print("%d passed, %d failed" % (st.counts["faithful"], st.failed()))


def indent(text):
    return "".join("   > " + ln + "\n" for ln in text.strip().splitlines()[:6])
