"""Blocks left empty by the rewriting: the output keeps a core statement there, never ``pass``.

A body made only of ``pass``, ``...``, a docstring or declarations lowers to
nothing; the block still needs a statement, and it must be core syntax (and
compile, also with rules kept). An empty loop still evaluates its test on
every iteration.
"""

import textwrap

import pytest
from difftest import assert_same

from unsugar import desugar
from unsugar.checker import check_source

#: A test that is true ``n`` times and records its calls.
COUNTER = """\
calls = []
def times(n):
    def test():
        calls.append(n)
        return len(calls) <= n
    return test
"""


def counted(source: str) -> str:
    """``source`` after the definition of ``times``."""
    return COUNTER + textwrap.dedent(source)

CASES = {
    "while_false_pass": "while False: pass\nr = 1\n",
    "while_false_ellipsis": "while False: ...\n",
    "while_test_each_time": counted("t = times(3)\nwhile t(): pass\n"),
    "while_test_each_time_ellipsis": counted("t = times(2)\nwhile t():\n    ...\n"),
    "while_pass_else": counted("t = times(2)\nwhile t(): pass\nelse: print('else', calls)\n"),
    "while_docstring_body": counted("t = times(1)\nwhile t():\n    'not a docstring'\n"),
    "while_compound_test": counted("t = times(2)\nwhile t() and t(): pass\nelse: print(calls)\n"),
    "while_in_function": counted("""
        def f():
            t = times(2)
            while t(): pass
            return calls
        r = f()
    """),
    "while_global_body": counted("""
        def f():
            t = times(2)
            while t():
                global g
            g = 1
        f()
    """),
    "nested_empty_whiles": counted("""
        t = times(2)
        while t():
            while False: pass
            while False: ...
    """),
    "while_in_if": "x = 0\nif x:\n    while x: pass\nelse:\n    while x: pass\n",
    "for_pass": "for x in [1, 2]: pass\n",
    "for_pass_else": "for x in [1, 2]: pass\nelse: print(x)\n",
    "for_unpack_pass": "for a, *b in [(1, 2, 3)]: pass\n",
    "if_pass": "x = 1\nif x: pass\n",
    "if_else_pass": "x = 0\nif x: pass\nelse: pass\n",
    "elif_pass": "x = 0\nif x: pass\nelif x + 1: ...\nelse: pass\n",
    "try_except_pass": "try: pass\nexcept: pass\n",
    "try_typed_pass": "try: pass\nexcept ValueError as e: pass\n",
    "try_everything_pass": "try: pass\nexcept ValueError: pass\nelse: pass\nfinally: pass\n",
    "try_finally_pass": "try: pass\nfinally: pass\n",
    "try_raise_finally_pass": "try:\n    try: 1 / 0\n    finally: pass\nexcept ZeroDivisionError: print('ok')\n",
    "except_star_pass": "try: pass\nexcept* ValueError: pass\n",
    "with_pass": "import contextlib\nwith contextlib.nullcontext() as c: pass\n",
    "class_pass": "class C: pass\nr = C.__name__, C.__doc__\n",
    "class_docstring": "class C:\n    'doc'\nr = C.__doc__\n",
    "class_ellipsis": "class C: ...\n",
    "def_pass": "def f(): pass\nr = f()\n",
    "def_ellipsis": "def f(): ...\nr = f()\n",
    "def_docstring": "def f():\n    'doc'\nr = f(), f.__doc__\n",
    "def_global": "def f():\n    global g\nr = f()\n",
    "def_nonlocal": "def f():\n    x = 1\n    def g():\n        nonlocal x\n    return g()\nr = f()\n",
    "lambda_and_def_default": "def f(a=1, *, b: int = 2) -> int: pass\nr = f()\n",
    "match_pass": "match [1, 2]:\n    case [1, *rest]: pass\n    case _: pass\nr = rest\n",
    "nested_all": """
        x = 0
        while x:
            if x:
                pass
            else:
                for y in x: pass
        for y in []:
            while False: pass
        else:
            try: pass
            except: pass
            finally:
                while False: pass
    """,
    "class_with_empty_loops": "class C:\n    while False: pass\n    for x in []: pass\nr = sorted(vars(C))\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_empty_blocks(name: str) -> None:
    assert_same(CASES[name])


#: Bodies that lower to nothing.
EMPTY_BODIES = ["pass", "...", "'text'", "pass; pass", "global g"]

#: Statements with one block left empty and the others not.
TEMPLATES = {
    "while": "while w:\n    {}\n",
    "while_else": "while w:\n    {}\nelse:\n    print(1)\n",
    "while_prelude_else": "while w and w:\n    {}\nelse:\n    print(1)\n",
    "for_else": "for x in y:\n    {}\nelse:\n    print(1)\n",
    "if_body": "if w:\n    {}\nelse:\n    print(1)\n",
    "if_else": "if w:\n    print(1)\nelse:\n    {}\n",
    "try_body": "try:\n    {}\nexcept ValueError:\n    print(1)\nfinally:\n    print(2)\n",
    "finally_body": "try:\n    print(1)\nfinally:\n    {}\n",
    "with": "with m:\n    {}\n",
    "class": "class C:\n    {}\n",
    "async": "async def f():\n    async for x in y:\n        {}\n    async with m:\n        {}\n",
    "match": "match w:\n    case 1:\n        {}\n",
}

#: Rules kept by users; the output must still compile and hold no ``pass``.
KEEPS = [(), ("while-else",), ("if",), ("for",), ("with",), ("try-finally",), ("except",), ("class",),
         ("match",), ("if", "for", "with", "while-else", "try-finally", "except", "try-else")]


@pytest.mark.parametrize("keep", KEEPS, ids=lambda keep: "+".join(keep) or "none")
@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_empty_blocks_compile_without_pass(name: str, keep: tuple[str, ...]) -> None:
    for body in EMPTY_BODIES:
        source = TEMPLATES[name].replace("{}", body) + "g = 0\n"  # (after: CPython rejects
        # ``global g`` at module level once g is assigned)
        out = desugar(source, keep=keep)
        compile(out, "<out>", "exec")
        leftover = [f for f in check_source(out) if f.rule == "pass"]
        assert not leftover, f"{source!r} kept {keep}:\n{out}"
