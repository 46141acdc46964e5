"""Definitions follow-ups: ``global``, ``del`` of names, annotations, ``__future__``,
defaults and the names tracebacks show."""

from __future__ import annotations

import pytest

from tests.difftest import assert_same

GLOBAL = [
    # a global read where an enclosing function binds the same name
    "def outer():\n    x = 'local'\n    def inner():\n        global x\n        return x\n"
    "    return inner()\ntry:\n    outer()\nexcept NameError as e:\n    print(e, e.name)\n"
    "x = 'g'\nprint(outer())",
    # ... and in a function nested in the one that declares it
    "def outer():\n    x = 'local'\n    def mid():\n        global x\n        def inner():\n"
    "            return x\n        return inner()\n    return mid()\nx = 'g'\nprint(outer())",
    # a builtin through a global declaration
    "def outer():\n    len = 'local'\n    def inner():\n        global len\n        return len('ab')\n"
    "    return inner()\nprint(outer())",
    "def outer():\n    w = 1\n    def inner():\n        global w\n        w = 2\n        w += 3\n"
    "        return w\n    return inner(), w\nprint(outer(), w)",
    "def outer():\n    y = 'local'\n    class C:\n        global y\n        print(y)\n    return C\n"
    "y = 'g'\nouter()",
    "class C:\n    global z\n    z = 5\n    print(z)\nprint(z, 'z' in C.__dict__)",
    "def f():\n    global g\n    del g\ng = 1\nf()\nprint('g' in globals())\nf()",
    "def f():\n    global never\n    return never\nf()",
    "def f():\n    global n\n    n = 0\n    for n in range(3):\n        pass\n    return n\nprint(f(), n)",
]


@pytest.mark.parametrize("source", GLOBAL)
def test_global(source: str) -> None:
    assert_same(source)


DEL_NAME = [
    "def f():\n    x = 1\n    del x\n    return x\nf()",
    "def f():\n    x = 1\n    del x\n    x = 2\n    return x\nprint(f())",
    "def f():\n    x = 1\n    def g():\n        return x\n    del x\n    return g()\nf()",
    "def f():\n    x = 1\n    del x\n    del x\nf()",
    "x = 1\ndel x\nx",
    "x = 1\ndel x\ndel x",
    "class C:\n    a = 1\n    del a\n    a",
]


@pytest.mark.parametrize("source", DEL_NAME)
def test_del_name(source: str) -> None:
    """The messages are those of the running interpreter (3.11's wording differs)."""
    assert_same(source)


CLASS_ANNOTATIONS = [
    "class C:\n    x: int = 1\n    y: str\n    z: 'list[int]' = []\n"
    "print(C.__annotations__, C.x, hasattr(C, 'y'))",
    "class C:\n    __p: int = 1\n    (q): int = 2\nprint(C.__annotations__, C._C__p, C.q)",
    "def log(x):\n    print('eval', x)\n    return x\nclass C:\n    a: log('A') = log(1)\n    b: log('B')\n"
    "print(C.__annotations__)",
    "class C:\n    pass\nprint('__annotations__' in C.__dict__)",
]


@pytest.mark.parametrize("source", CLASS_ANNOTATIONS)
def test_class_annotations(source: str) -> None:
    assert_same(source)


FUTURE = [
    "def f(a: list[int] = 1, *, b: (int|  str)=2, **k: lambda x: x+1) -> 'a' 'b':\n    pass\n"
    "print(f.__annotations__)",
    "class C:\n    x: dict[str,   (int, ...)] = 1\n    y: [1, 2, *a]\n    z: f'x{y!r:>3}'\n"
    "print(C.__annotations__)",
    "v: a if b else c\nw: not x and (y or z) or q is None\nu: {1: 2, **d}\n"
    "print(__annotations__)",
    "def f(x: 'quoted', y: \"double\", z: b'bytes', *a: int, **k: -1 ** 2) -> None: pass\n"
    "print(f.__annotations__)",
    "def f(a: (x for x in y), b: [x async for x in y], c: x[1:2, ::3], d: x @ y // z) -> ...: pass\n"
    "print(f.__annotations__)",
    "def f(a: 1_000, b: 0x1F, c: 1e10, d: 1j, e: ~x, f: (lambda: 0)()) -> a.b.c: pass\n"
    "print(f.__annotations__)",
    # f-strings: ``f`` and the repr of the inside, specs as written (not ``ast.unparse``'s quoting)
    "a: f\"{'s'}\"\nb: f\"{x:'>5}\"\nc: f'{x:\">5}'\nd: f\"{f'\t{i}'}\"\ne: f\"\"\"'\"{i}\"\"\"\n"
    "g: f\"{'\u200b'}\"\nh: f\"{ {1: 2}[1]}{x!r:{'w'}>{n}}{y=:>3}a\\n{{}}\"\n"
    "def f(p: f\"{x:'>5}\", q: f\"{f'\t{i}'}\", r: f\"{'\u200b'}\" f'{z!a}') -> f'{a and b or c}': pass\n"
    "print(ascii(__annotations__))\nprint(ascii(f.__annotations__))",
]


@pytest.mark.parametrize("source", FUTURE)
def test_future_annotations(source: str) -> None:
    """Annotations become strings exactly as CPython writes them back."""
    assert_same("from __future__ import annotations\n" + source)


DEFAULTS = [
    "def log(x):\n    print('eval', x)\n    return x\n"
    "def f(a=log(1), b=log(2), *, c=log(3), d=log(4)) -> log(5):\n    return a, b, c, d\n"
    "print(f(), f.__defaults__, f.__kwdefaults__)",
    "def log(x):\n    print('eval', x)\n    return x\n"
    "def deco(name):\n    print('decorator', name)\n    return lambda f: print('apply', name) or f\n"
    "@deco(1)\n@deco(2)\ndef f(a: log('a') = log(1), *b: log('b'), c: log('c') = log(2)):\n    return a\n"
    "print(f.__annotations__, f.__defaults__, f.__kwdefaults__)",
    "def f(a=[]):\n    a.append(1)\n    return a\nprint(f(), f(), f.__defaults__)",
    "def f(a, /, b=1, *, c):\n    return a, b, c\nprint(f(0, c=2), f.__defaults__, f.__kwdefaults__)",
]


@pytest.mark.parametrize("source", DEFAULTS)
def test_defaults(source: str) -> None:
    assert_same(source)


CO_NAME = """
def names(e):
    tb = e.__traceback__
    found = []
    while tb is not None:
        code = tb.tb_frame.f_code
        if not code.co_name.startswith('_us'):
            found.append(code.co_name)
        tb = tb.tb_next
    return found
def fa(x=1):
    raise ValueError('x')
l = lambda: fa()
class K:
    def m(self):
        return l()
@staticmethod
def decorated():
    return K().m()
def outer():
    def inner():
        return decorated()
    return inner()
try:
    outer()
except ValueError as e:
    print(names(e))
print(decorated.__name__, decorated.__qualname__, l.__code__.co_name)
"""


def test_co_name_in_tracebacks() -> None:
    assert_same(CO_NAME)
