# Hand-written harness fixture: an entry declared in UNSUPPORTED (a false claim).
import sys

KERNELS = {}
UNSUPPORTED = {"k": 'parameter "a" has type .u32, not a pyptx scalar type'}
_MODULE = ('.version 8.5\n.target sm_90a\n.address_size 64\n\n.visible .entry k(\n\t.param .u32 a\n)\n{\n\tret;\n}\n',)


def module_ptx():
    return "".join(_MODULE)


if __name__ == "__main__":
    sys.stdout.write(module_ptx())
