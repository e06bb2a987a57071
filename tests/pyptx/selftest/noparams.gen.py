# Hand-written harness fixture: an entry declared in UNSUPPORTED (a true claim).
import sys

KERNELS = {}
UNSUPPORTED = {"k": 'no parameter list: pyptx always writes "NAME()"'}
_MODULE = ('.version 8.5\n.target sm_90a\n.address_size 64\n\n.visible .entry k\n{\n\tret;\n}\n',)


def module_ptx():
    return "".join(_MODULE)


if __name__ == "__main__":
    sys.stdout.write(module_ptx())
