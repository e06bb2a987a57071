# Renames the parameter in the entry but not in the debug section, whose
# reference then resolves to nothing (hand-written harness fixture).
import sys
from pyptx import kernel, reg, ptx
from pyptx.types import b64


@kernel(arch="sm_90a", version=(8, 5), raw_params=[("u64", "param0")])
def tiny():
    rd = reg.array(b64, 2, name="%rd")
    ptx.inst.ld.param.u64(rd[0], ptx.addr("param0"))
    ptx.inst.ret()


KERNELS = {"tiny": tiny}

_MODULE = (
    ".version 8.5\n.target sm_90a\n.address_size 64\n\n.visible ",
    tiny,
    "\n\t.section\t.debug_info\n\t{\n.b64 tiny_param_0\n\t}\n",
)


def _entry_text(k):
    t = k.ptx()
    i = t.index(".visible .entry ") + len(".visible ")
    return t[i:t.rindex("}") + 1]


def module_ptx():
    return "".join(s if isinstance(s, str) else _entry_text(s) for s in _MODULE)


if __name__ == "__main__":
    sys.stdout.buffer.write(module_ptx().encode("utf-8", "surrogateescape"))
