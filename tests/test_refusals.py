"""``may_refuse``: the quick walk that tells which modules must be compiled to
find CPython's compile-time errors (``unsugar.analysis``, asking the checks of ``unsugar.refusals``).

It must flag every module CPython's compiler refuses: the test package of the
running interpreter holds hundreds of snippets that parse but do not compile
(in ``compile()`` calls, doctests, ``assertRaises`` strings), and each must be
flagged, and ``desugar`` must raise CPython's error for it. And it must leave
ordinary modules alone, or it saves nothing.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import os
import sys
import sysconfig
import textwrap
import warnings
from pathlib import Path

import pytest
from generated_checks import compile_error as cpython_error
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from unsugar import desugar
from unsugar.analysis import may_refuse

# the test package's strings hold invalid escapes (SyntaxWarning when parsed)
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")

#: one snippet per check, each refused by CPython's compiler (3.11 to 3.13)
REFUSED = {
    "return at module level": "return 1",
    "return in a class body": "class C:\n    return 1",
    "yield at module level": "yield 1",
    "yield in a class body": "class C:\n    x = yield",
    "yield in a comprehension": "def f():\n    return [(yield x) for x in y]",
    "yield in a generator expression": "def f():\n    return ((yield x) for x in y)",
    "yield from in async def": "async def f():\n    yield from g()",
    "return value in async generator": "async def f():\n    yield 1\n    return 2",
    "await at module level": "await x",
    "await in def": "def f():\n    await x",
    "await in lambda": "async def f():\n    return lambda: await x",
    "await in a default": "async def f(a=await b):\n    pass",
    "await in a nested def": "async def f():\n    def g():\n        await x",
    "async for in def": "def f():\n    async for x in y:\n        pass",
    "async with in def": "def f():\n    async with x:\n        pass",
    "async comprehension outside async": "def f():\n    return [x async for x in y]",
    "break outside loop": "break",
    "continue outside loop": "if x:\n    continue",
    "break in a loop's else": "for x in y:\n    pass\nelse:\n    break",
    "break in a def in a loop": "while x:\n    def f():\n        break",
    "duplicate parameter": "def f(a, *, a):\n    pass",
    "duplicate lambda parameter": "lambda a, a: 1",
    "keyword repeated": "f(a=1, a=2)",
    "class keyword repeated": "class C(metaclass=M, metaclass=N):\n    pass",
    "assign to __debug__": "__debug__ = 1",
    "delete __debug__": "del __debug__",
    "__debug__ attribute": "x.__debug__ = 1",
    "__debug__ parameter": "def f(__debug__):\n    pass",
    "__debug__ keyword": "f(__debug__=1)",
    "__debug__ import": "import os as __debug__",
    "__debug__ loop target": "for __debug__ in x:\n    pass",
    "starred expression alone": "*a",
    "starred value": "x = *a",
    "starred target alone": "*a = b",
    "two starred targets": "a, *b, *c = d",
    "import * in def": "def f():\n    from os import *",
    "future not first": "import os\nfrom __future__ import annotations",
    "future feature unknown": "from __future__ import braces",
    "bare except not last": "try:\n    pass\nexcept:\n    pass\nexcept E:\n    pass",
    "global after use": "def f():\n    print(x)\n    global x",
    "global after assignment": "x = 1\nglobal x",
    "global parameter": "def f(x):\n    global x",
    "global annotated": "def f():\n    global x\n    x: int = 1",
    "global twice around an assignment": "def f():\n    global x\n    x = 1\n    global x",
    "nonlocal at module level": "nonlocal x",
    "nonlocal without binding": "def f():\n    nonlocal x",
    "nonlocal in a class body without binding": "class C:\n    nonlocal x",
    "nonlocal parameter": "def f():\n    x = 1\n    def g(x):\n        nonlocal x",
    "nonlocal after use": "def f():\n    x = 1\n    def g():\n        print(x)\n        nonlocal x",
    "nonlocal annotated": "def f():\n    x = 1\n    def g():\n        nonlocal x\n        x: int = 2",
    "nonlocal and global": "def f():\n    x = 1\n    def g():\n        global x\n        nonlocal x",
    "nonlocal of a global": "def f():\n    global x\n    def g():\n        nonlocal x",
    "nonlocal of a class's name": "def f():\n    class C:\n        x = 1\n        def g(self):\n"
    "            nonlocal x",
    "walrus in a comprehension's iterable": "[i for i in (j := y)]",
    "walrus rebinds the iteration variable": "[i := 0 for i in y]",
    "walrus in a lambda in a comprehension's iterable": "[i for i in (lambda: (j := y))()]",
    "match wildcard not last": "match x:\n    case _:\n        pass\n    case 1:\n        pass",
    "too many nested blocks": "".join(f"{'    ' * i}for x{i} in y:\n" for i in range(25))
    + "    " * 25 + "pass",
}

#: code near the checks that CPython compiles: none of it is flagged
ACCEPTED = {
    "global first": "def f(y):\n    global x\n    x = y\n    return x",
    "global in a class": "class C:\n    global x\n    x = 1",
    "global read in another function first": "def g():\n    return x\ndef f():\n    global x\n    x = 1",
    "global twice": "def f():\n    global x\n    global x\n    x = 1",
    "starred in displays and calls": "a, *b = c\n[*a, *b]\n{*a}\n(*a, 1)\nf(*a, *b, **c)\nx[*a]",
    "starred base": "class C(*bases):\n    pass",
    "starred in for targets": "for a, *b in c:\n    pass",
    "keywords": "f(a=1, b=2, **c, **d)\nclass C(B, metaclass=M):\n    pass",
    "__debug__ read": "if __debug__:\n    x = __debug__",
    "__debug__ attribute read": "x = y.__debug__",
    "attribute chains": "x = a.b.c.d\na.b.c = d.e.f\ndel a.b.c\nf(a.b).c.d[e.f].g = h",
    "break and continue in loops": "while x:\n    try:\n        continue\n    finally:\n        break\n"
    "for y in z:\n    if y:\n        break\nelse:\n    pass",
    "generators": "def f():\n    yield 1\n    yield from g()\n    x = lambda: (yield)\n    return 2",
    "coroutines": "async def f():\n    await x\n    async for y in z:\n        async with w:\n"
    "            return [a for a in b]",
    "async generator": "async def f():\n    yield 1\n    return",
    "comprehensions": "[x for x in y if x]\n{k: v for k, v in d}\n(x for x in y)",
    "walrus outside comprehensions": "if (n := len(a)) > 10:\n    pass\nlambda: (m := 1)",
    "future first": '"""doc"""\nfrom __future__ import annotations\nfrom __future__ import division',
    "import * at module level": "from os import *",
    "annotations": "x: int = 1\ndef f(a: int, *b: str) -> None:\n    y: list[int] = []",
    "try": "try:\n    pass\nexcept E as e:\n    pass\nexcept:\n    pass\nelse:\n    pass\nfinally:\n    pass",
    "nonlocal": "def f(a):\n    def g():\n        nonlocal a, b\n        a = b = 1\n    b = 2\n    return g",
    "nonlocal through a class and a def": "def f():\n    x = 1\n    class C:\n        def g(self):\n"
    "            def h():\n                nonlocal x\n            nonlocal x\n    return C",
}


@pytest.mark.parametrize("name", REFUSED)
def test_each_refusal_is_flagged(name: str) -> None:
    source = REFUSED[name]
    assert cpython_error(source) is not None, "CPython compiles it: not a refusal"
    assert may_refuse(ast.parse(source))


def test_nesting_past_the_compilers_limits_is_flagged() -> None:
    """Deep enough to reach CPython's recursion limits, a module is compiled
    (though it may compile): an attribute chain counts each attribute."""
    from unsugar.refusals import DEEPEST as _DEEPEST

    for deep in ("x = a" + ".b" * (_DEEPEST + 5), "x = " + "f(" * (_DEEPEST + 5) + ")" * (_DEEPEST + 5),
                 "x = " + "f(" * (_DEEPEST // 2) + "a" + ".b" * (_DEEPEST // 2 + 5) + ")" * (_DEEPEST // 2)):
        assert may_refuse(ast.parse(deep))
    for shallow in ("x = a" + ".b" * (_DEEPEST - 5), "x = " + "f(" * (_DEEPEST - 5) + ")" * (_DEEPEST - 5)):
        assert not may_refuse(ast.parse(shallow))


@pytest.mark.parametrize("name", ACCEPTED)
def test_code_near_the_checks_is_not_flagged(name: str) -> None:
    source = ACCEPTED[name]
    assert cpython_error(source) is None
    assert not may_refuse(ast.parse(source))


def test_most_modules_of_the_library_are_not_flagged() -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    names = ["textwrap", "json/decoder", "argparse", "fractions", "csv",
             "configparser", "difflib", "pprint", "calendar", "string", "shlex", "heapq"]
    flagged = [name for name in names
               if may_refuse(ast.parse((stdlib / f"{name}.py").read_text(encoding="utf-8")))]
    assert flagged == []


def _strings_of_the_test_package() -> list[str]:
    """Every str constant, and every doctest example, of the files of the
    interpreter's test package that mention ``SyntaxError``."""
    test = pytest.importorskip("test")
    found: dict[str, None] = {}
    parser = doctest.DocTestParser()
    for folder, _, files in os.walk(os.path.dirname(test.__file__)):
        for file in files:
            if not file.endswith(".py"):
                continue
            try:
                text = Path(folder, file).read_text(encoding="utf-8")
                tree = ast.parse(text) if "SyntaxError" in text else None
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            for node in ast.walk(tree) if tree else ():
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 5000:
                    found[node.value] = found[textwrap.dedent(node.value)] = None
                    if ">>>" in node.value:
                        with warnings.catch_warnings(), contextlib.suppress(ValueError):
                            warnings.simplefilter("ignore")  # (a docstring doctest cannot read)
                            for example in parser.get_examples(node.value):
                                found[example.source] = None
    return list(found)


def test_every_refusal_in_cpythons_tests_is_flagged_and_reported() -> None:
    refused = missed = 0
    wrong: list[str] = []
    for source in _strings_of_the_test_package():
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            continue
        error = cpython_error(source)  # (None too for a lone surrogate 3.13 parses but cannot compile)
        if error is None:
            continue
        refused += 1
        if not may_refuse(tree):
            missed += 1
            wrong.append(f"not flagged: {source[:80]!r} ({error.msg})")
            continue
        with pytest.raises(SyntaxError) as ours:
            desugar(source, filename="<test>")
        if (ours.value.msg, ours.value.lineno) != (error.msg, error.lineno):
            wrong.append(f"{source[:80]!r}: {ours.value.msg} at {ours.value.lineno}, "
                         f"CPython {error.msg} at {error.lineno}")
    assert refused > 300, f"only {refused} refused snippets found ({sys.version})"
    assert not wrong, "\n".join(wrong)


#: statements put into generated programs, some of which CPython refuses where they land
INSERTED = ("return 1", "break", "continue", "x = yield 1", "x = yield from y", "await x",
            "global {name}", "nonlocal {name}", "from m import *", "{name}: int = 1",
            "async for a in b:\n    pass", "async with a:\n    pass", "[{name} := 1 for a in b]",
            "*a, *b = c", "f(a=1, a=2)", "{name} = [a async for a in b]", "del {name}",
            "print({name})", "def f({name}, {name}=1):\n    pass", "from __future__ import annotations")


def _bodies(tree: ast.Module) -> list[list[ast.stmt]]:
    """Every list of statements in ``tree``, the module's first (even empty)."""
    return [tree.body, *(value for node in ast.walk(tree) if node is not tree
                         for field in ("body", "orelse", "finalbody")
                         if isinstance(value := getattr(node, field, None), list) and value
                         and isinstance(value[0], ast.stmt))]


@settings(deadline=None, database=None, max_examples=150, suppress_health_check=list(HealthCheck))
@seed(20261205)
@given(st.deferred(lambda: __import__("hypothesmith").from_grammar()), st.data())
def test_statements_put_anywhere_in_generated_programs(source: str, data: st.DataObject) -> None:
    """A statement from :data:`INSERTED` at any place of a generated program:
    where CPython refuses the result, it is flagged, and ``desugar`` raises
    CPython's error."""
    tree = ast.parse(source)
    names = sorted({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} | {"x"})
    for _ in range(data.draw(st.integers(1, 3))):
        body = data.draw(st.sampled_from(_bodies(tree)))
        text = data.draw(st.sampled_from(INSERTED)).format(name=data.draw(st.sampled_from(names)))
        body.insert(data.draw(st.integers(0, len(body))), *ast.parse(text).body)
    mutant = ast.unparse(tree)
    error = cpython_error(mutant)
    if error is None:
        return
    assert may_refuse(ast.parse(mutant)), f"{error.msg}:\n{mutant}"
    with pytest.raises(SyntaxError) as ours:
        desugar(mutant, filename="<test>")
    assert (ours.value.msg, ours.value.lineno) == (error.msg, error.lineno)
