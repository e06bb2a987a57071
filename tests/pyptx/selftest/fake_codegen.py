#!/usr/bin/env python3
"""Stand-in for pyptx-codegen used by the harness self-test.

fake_codegen.py [--sugar] DIR/NAME.ptx prints DIR/NAME.gen.py (or
DIR/NAME.sugar.py with --sugar); a missing fixture exits with status 3."""
import os
import sys

args = sys.argv[1:]
sugar = "--sugar" in args
files = [a for a in args if not a.startswith("--")]
if len(files) != 1:
    sys.stderr.write("usage: fake_codegen.py [--sugar] FILE.ptx\n")
    sys.exit(2)
stem = files[0][:-4] if files[0].endswith(".ptx") else files[0]
fixture = stem + (".sugar.py" if sugar else ".gen.py")
if not os.path.exists(fixture):
    sys.stderr.write("fake_codegen: no fixture %s\n" % fixture)
    sys.exit(3)
sys.stdout.write(open(fixture).read())
