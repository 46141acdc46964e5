"""The operator helpers against the interpreter's own operators, over a matrix of values.

Each helper is run on every pair of values (built-in ones and classes that
exercise the dispatch rules) and must give what the real operator gives: the
same result, or the same exception type and message, after the same calls of
special methods. The matrix runs on the plain runtime module, then, for each
semantics (``python``, and ``native``: the interpreter's ``_operator``
functions), on the runtime compiled to core syntax (every helper linked into
one module) and through a desugared driver module that uses the operators'
syntax.
"""

from __future__ import annotations

import ast
import functools
import re
import textwrap

import pytest
from difftest import desugared

from unsugar import linked_runtime as plain_runtime
from unsugar.checker import check_source
from unsugar.linker import link
from unsugar.unit import Unit

CLASSES = '''
from fractions import Fraction
from decimal import Decimal
from collections import deque

LOG = []

def _log(*event):
    LOG.append(event)

BINARY_NAMES = ["add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow",
                "lshift", "rshift", "or", "xor", "and"]
COMPARE_NAMES = ["eq", "ne", "lt", "le", "gt", "ge"]

def _answer(tag, name):
    def method(self, other=None):
        _log(tag, name, type(other).__name__)
        return (tag, name)
    return method

def _decline(tag, name):
    def method(self, other=None):
        _log(tag, name, type(other).__name__)
        return NotImplemented
    return method

class Plain:
    def __repr__(self):
        return "Plain()"

class Num:
    """Answers every operator, its reflection, and the comparisons."""
    def __repr__(self):
        return type(self).__name__ + "()"
    __hash__ = object.__hash__
for _n in BINARY_NAMES:
    setattr(Num, f"__{_n}__", _answer("Num", _n))
    setattr(Num, f"__r{_n}__", _answer("Num", "r" + _n))
for _n in COMPARE_NAMES + ["neg", "pos", "invert"]:
    setattr(Num, f"__{_n}__", _answer("Num", _n))

class SubNum(Num):
    """Overrides the reflected methods (and __gt__, reflection of <)."""
for _n in BINARY_NAMES:
    setattr(SubNum, f"__r{_n}__", _answer("SubNum", "r" + _n))
SubNum.__gt__ = _answer("SubNum", "gt")

class SameNum(Num):
    """A subclass that does not override anything."""

class INum(Num):
    """In-place methods that decline half the time (by name)."""
for _i, _n in enumerate(BINARY_NAMES):
    setattr(INum, f"__i{_n}__", (_answer if _i % 2 else _decline)("INum", "i" + _n))

class NI:
    """Declines everything, logging each call."""
    def __repr__(self):
        return "NI()"
    __hash__ = object.__hash__
for _n in BINARY_NAMES:
    setattr(NI, f"__{_n}__", _decline("NI", _n))
    setattr(NI, f"__r{_n}__", _decline("NI", "r" + _n))
    setattr(NI, f"__i{_n}__", _decline("NI", "i" + _n))
for _n in COMPARE_NAMES:
    setattr(NI, f"__{_n}__", _decline("NI", _n))

class SubInt(int):
    def __radd__(self, other):
        _log("SubInt", "radd", type(other).__name__)
        return "SubInt.radd"
    def __rsub__(self, other):
        _log("SubInt", "rsub", type(other).__name__)
        return NotImplemented
    def __gt__(self, other):
        _log("SubInt", "gt", type(other).__name__)
        return "SubInt.gt"

class SubStr(str):
    def __radd__(self, other):
        _log("SubStr", "radd", type(other).__name__)
        return "SubStr.radd"
    def __rmod__(self, other):
        _log("SubStr", "rmod", type(other).__name__)
        return NotImplemented

class SubList(list):
    def __add__(self, other):
        _log("SubList", "add", type(other).__name__)
        return NotImplemented
    def __rmul__(self, other):
        _log("SubList", "rmul", type(other).__name__)
        return "SubList.rmul"

class Idx:
    def __index__(self):
        _log("Idx", "index")
        return 2
    def __repr__(self):
        return "Idx()"

class OldSeq:
    """Only the old __getitem__ protocol."""
    def __getitem__(self, i):
        _log("OldSeq", "getitem", i)
        if i < 3:
            return i
        raise IndexError(i)
    def __repr__(self):
        return "OldSeq()"

class Box:
    """A mapping-like container; __contains__ answers a non-bool."""
    def __init__(self):
        self.data = {}
    def __contains__(self, item):
        _log("Box", "contains", item)
        return len(self.data)
    def __getitem__(self, key):
        _log("Box", "getitem", key)
        return self.data[key]
    def __setitem__(self, key, value):
        _log("Box", "setitem", key)
        self.data[key] = value
    def __delitem__(self, key):
        _log("Box", "delitem", key)
        del self.data[key]
    def __repr__(self):
        return f"Box({self.data})"

class OnlyDel:
    def __delitem__(self, key):
        _log("OnlyDel", "delitem", key)
    def __repr__(self):
        return "OnlyDel()"

class Nones:
    """Special methods set to None."""
    __add__ = None
    __contains__ = None
    __neg__ = None
    __getitem__ = None
    def __repr__(self):
        return "Nones()"

class Odd:
    """Special methods that are not functions: a builtin, a staticmethod, a classmethod."""
    __add__ = repr
    __sub__ = staticmethod(lambda other: ("static", other))
    __mul__ = classmethod(lambda cls, other: ("class", cls.__name__, other))
    def __repr__(self):
        return "Odd()"

class Generic:
    def __class_getitem__(cls, key):
        _log("Generic", "class_getitem", key)
        return ("Generic", key)

class PlainList(list):
    """Inherits list's slots: its += is list's in-place concatenation, tried first."""

class PlainStr(str):
    pass

class RmulList(list):
    """Redefining __rmul__ takes the sequence repetition away."""
    def __rmul__(self, other):
        _log("RmulList", "rmul", type(other).__name__)
        return NotImplemented

class PlainDeque(deque):
    pass

class MetaItem(type):
    def __add__(cls, other):
        return ("MetaItem", "add")
    def __getitem__(cls, key):
        if isinstance(key, int) and key > 1:
            raise IndexError(key)
        return ("MetaItem", key)

class ByMeta(metaclass=MetaItem):
    def __class_getitem__(cls, key):
        return ("never", key)

Long = type("L" * 150, (), {"__repr__": lambda self: "Long()"})
'''

VALUES = [
    "0", "7", "-3", "True", "2 ** 100", "2.5", "1j", "'ab'", "b'ab'", "bytearray(b'ab')",
    "[1, 2]", "(1, 2)", "{1: 'x'}", "{1, 2}", "frozenset({2})", "None", "Fraction(1, 3)",
    "Decimal('1.5')", "deque([1, 2])", "range(3)", "Plain()", "Num()", "SubNum()",
    "SameNum()", "INum()", "NI()", "SubInt(5)", "SubStr('s')", "SubList([9])", "Idx()",
    "OldSeq()", "Box()", "OnlyDel()", "Nones()", "Odd()", "int", "type", "Generic",
    "ByMeta", "Long()", "PlainList([3])", "PlainStr('p')", "RmulList([4])", "PlainDeque([5])",
    "Num",
]

BINARY = {
    "add": "+", "sub": "-", "mult": "*", "matmult": "@", "div": "/", "floordiv": "//",
    "mod": "%", "pow": "**", "lshift": "<<", "rshift": ">>", "bitor": "|", "bitxor": "^",
    "bitand": "&",
}
COMPARE = {
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "is": "is",
    "is_not": "is not", "in": "in", "not_in": "not in",
}
UNARY = {"neg": "-", "pos": "+", "invert": "~"}


def _cases() -> dict[str, tuple[str, str, str]]:
    """helper -> (source of the real operation, source calling the helper, driver source).

    Each source defines ``op(a, b)``; ``H`` is the helper in the second one.
    """
    cases = {}
    for name, symbol in BINARY.items():
        cases[f"binary_{name}"] = (f"def op(a, b):\n    return a {symbol} b",
                                   "def op(a, b):\n    return H(a, b)",
                                   f"def op(a, b):\n    return a {symbol} b")
        cases[f"inplace_{name}"] = (
            f"def op(a, b):\n    c = a\n    c {symbol}= b\n    return (c, c is a)",
            "def op(a, b):\n    c = H(a, b)\n    return (c, c is a)", "")
    for name, symbol in COMPARE.items():
        cases[f"compare_{name}"] = (f"def op(a, b):\n    return a {symbol} b",
                                    "def op(a, b):\n    return H(a, b)",
                                    f"def op(a, b):\n    return a {symbol} b")
    for name, symbol in UNARY.items():
        cases[f"unary_{name}"] = (f"def op(a, b):\n    return {symbol}a",
                                  "def op(a, b):\n    return H(a)",
                                  f"def op(a, b):\n    return {symbol}a")
    cases["subscript_get"] = ("def op(a, b):\n    return a[b]", "def op(a, b):\n    return H(a, b)",
                              "def op(a, b):\n    return a[b]")
    cases["subscript_set"] = ("def op(a, b):\n    a[b] = 'v'\n    return a",
                              "def op(a, b):\n    H(a, b, 'v')\n    return a", "")
    cases["subscript_delete"] = ("def op(a, b):\n    del a[b]\n    return a",
                                 "def op(a, b):\n    H(a, b)\n    return a", "")
    return cases


CASES = _cases()
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")
HUGE_RESULT = {"binary_pow", "inplace_pow", "binary_lshift", "inplace_lshift"}


def _skip(helper: str, left: str, right: str) -> bool:
    """Pairs whose real computation would not end (``x ** 2 ** 100``)."""
    if helper in HUGE_RESULT and right in ("2 ** 100", "SubInt(5)", "True", "7", "Idx()"):
        return right == "2 ** 100" or left in ("2 ** 100", "Fraction(1, 3)", "Decimal('1.5')")
    return helper.startswith("unary_") and right != VALUES[0]


def _namespace() -> dict[str, object]:
    namespace: dict[str, object] = {"__name__": "matrix"}
    exec(textwrap.dedent(CLASSES), namespace)
    namespace["MAKERS"] = {value: eval(f"lambda: {value}", namespace) for value in VALUES}
    return namespace


def _outcome(namespace: dict[str, object], op, left: str, right: str) -> tuple:
    """What running ``op`` on fresh values shows: result or exception, and the calls made."""
    log = namespace["LOG"]
    log.clear()
    makers = namespace["MAKERS"]
    a = makers[left]()
    b = makers[right]()
    try:
        result = ("ok", _ADDRESS.sub("", repr(op(a, b))))
    except Exception as exc:  # noqa: BLE001  (the point is to compare it)
        result = ("error", type(exc).__name__, str(exc))
    return result, [_ADDRESS.sub("", repr(event)) for event in log]


SEMANTICS = ("python", "native")


@functools.cache
def _compiled_helpers(semantics: str) -> dict[str, object]:
    """Every helper of the runtime, compiled to core syntax and linked into one module."""
    unit = Unit.for_tree(ast.parse(""), semantics=semantics)
    for helper in CASES:
        unit.helper(helper)
    module = ast.fix_missing_locations(ast.Module(body=link(unit, []), type_ignores=[]))
    source = ast.unparse(module)
    assert not check_source(source), [f.format("<runtime>") for f in check_source(source)][:5]
    namespace: dict[str, object] = {}
    exec(compile(source, "<compiled runtime>", "exec"), namespace)
    return {helper: namespace[unit.names.fixed(helper)] for helper in CASES}


@functools.cache
def _driver_ops(semantics: str) -> dict[str, object]:
    """``op`` of each case that has a driver, from one desugared module."""
    parts = []
    for helper, (_, _, driver) in CASES.items():
        if driver:
            parts.append(driver.replace("def op(", f"def op_{helper}("))
    namespace: dict[str, object] = {}
    exec(desugared("\n".join(parts), semantics=semantics), namespace)
    return {helper: namespace[f"op_{helper}"] for helper, case in CASES.items() if case[2]}


def _mismatches(helper: str, make_op) -> list[str]:
    real_ns, helper_ns = _namespace(), _namespace()
    exec(CASES[helper][0], real_ns)
    real = real_ns["op"]
    tested = make_op(helper_ns)
    found = []
    for left in VALUES:
        for right in VALUES:
            if _skip(helper, left, right):
                continue
            expected = _outcome(real_ns, real, left, right)
            got = _outcome(helper_ns, tested, left, right)
            if got != expected:
                found.append(f"{left} , {right}:\n  real   {expected}\n  helper {got}")
    return found


def _helper_op(helper: str, function: object):
    def make(namespace: dict[str, object]):
        namespace["H"] = function
        exec(CASES[helper][1], namespace)
        return namespace["op"]

    return make


@pytest.mark.parametrize("helper", sorted(CASES))
def test_plain_runtime_matches_interpreter(helper: str) -> None:
    found = _mismatches(helper, _helper_op(helper, getattr(plain_runtime, helper)))
    assert not found, f"{len(found)} mismatches:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("helper", sorted(CASES))
def test_compiled_runtime_matches_interpreter(helper: str, semantics: str) -> None:
    found = _mismatches(helper, _helper_op(helper, _compiled_helpers(semantics)[helper]))
    assert not found, f"{len(found)} mismatches:\n" + "\n".join(found[:10])


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("helper", sorted(h for h, case in CASES.items() if case[2]))
def test_desugared_operators_match_interpreter(helper: str, semantics: str) -> None:
    found = _mismatches(helper, lambda namespace: _driver_ops(semantics)[helper])
    assert not found, f"{len(found)} mismatches:\n" + "\n".join(found[:10])


def test_matrix_sees_differences() -> None:
    """The comparison is not vacuous: a wrong helper is caught."""
    found = _mismatches("binary_add", _helper_op("binary_add", plain_runtime.binary_sub))
    assert len(found) > 100


def test_native_helpers_are_the_interpreters() -> None:
    """With native semantics the operators are ``_operator``'s functions, not the runtime's."""
    import _operator

    native = _compiled_helpers("native")
    assert native["binary_add"] is _operator.add
    assert native["inplace_mult"] is _operator.imul
    assert native["compare_le"] is _operator.le
    assert native["subscript_get"] is _operator.getitem
    assert _compiled_helpers("python")["binary_add"] is not _operator.add
