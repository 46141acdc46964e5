"""The package's code is desugared: its functions hold no loop, operator or attribute."""

import dis
import importlib
import inspect
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
MODULES = sorted(
    ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")
    for path in SRC.rglob("*.py")
)
SUGAR = {"FOR_ITER", "COMPARE_OP", "BINARY_OP", "LOAD_ATTR"}


def codes(module):
    """The code objects of the module's own functions and methods, nested ones too."""
    found = []
    for value in vars(module).values():
        members = vars(value).values() if inspect.isclass(value) else [value]
        for member in members:
            member = getattr(member, "fget", member)
            code = getattr(member, "__code__", None)
            if code is not None and code.co_filename == module.__file__:
                found.append(code)
    for code in found:
        found.extend(const for const in code.co_consts if inspect.iscode(const))
    return found


@pytest.mark.parametrize("name", MODULES)
def test_desugared(name):
    module = importlib.import_module(name)
    assert codes(module)
    assert {op.opname for code in codes(module) for op in dis.get_instructions(code)} & SUGAR == set()
