"""opcount.py - instruction count per opcode of a PTX file (examples/opcount.c in Python).
usage: python opcount.py FILE.ptx"""
import collections
import sys

import pyptx_c

m = pyptx_c.parse(open(sys.argv[1], "rb").read(), name=sys.argv[1])
n = collections.Counter(i.opcode for f in m.entries + m.functions for i in f.instructions)
for op, k in sorted(n.items(), key=lambda x: (-x[1], x[0])):
    print("%7u %s" % (k, op))
