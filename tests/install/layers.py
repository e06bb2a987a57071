#!/usr/bin/env python3
"""The library's stages include only the stages below them (docs/design.md,
"Layers"): a lower layer never names a higher one, so each can be read,
tested and reused with only what is under it.

    layers.py SRC_DIR

Prints every include that crosses the table the wrong way; exit 1 if any."""
import os
import re
import sys

# stage -> the stages it may include (besides itself and include/ptx/)
ALLOWED = {
    "util": set(),
    "front": {"util"},
    "emit": {"util", "front"},
    "codegen": {"util", "front"},
    "sugar": {"util", "front", "codegen"},
    "cubin": {"util"},
    "jit": {"util", "cubin"},
    "diff": {"util", "front", "emit", "codegen", "cubin", "jit"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)


def main():
    src = sys.argv[1]
    bad = 0
    for stage, allowed in ALLOWED.items():
        for root, _, files in os.walk(os.path.join(src, stage)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8") as fh:
                    for other in INCLUDE.findall(fh.read()):
                        if other not in (stage, "ptx") and other in ALLOWED | {"cli": 0, "python": 0} \
                                and other not in allowed:
                            print("%s: includes %s/, above %s/" % (os.path.relpath(path, src),
                                                                   other, stage))
                            bad += 1
    print("%d stages, %d includes the wrong way" % (len(ALLOWED), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
