"""Input at CPython's own limits desugars with the default recursion limit:
the rewrite runs on a thread with the headroom it needs (``pipeline.with_headroom``)."""

import argparse
import contextlib
import gc
import subprocess
import sys
from pathlib import Path

import pytest
from difftest import assert_same, run

from unsugar import desugar
from unsugar.checker import check_source
from unsugar.pipeline import RECURSION_LIMIT, with_headroom

ARMS = 1000
DEEP = {
    "1000_elif_arms": "for x in (0, 500, 999, 2000):\n    if x == 0:\n        y = 0\n"
    + "".join(f"    elif x == {i}:\n        y = {i}\n" for i in range(1, ARMS))
    + "    else:\n        y = -1\n    print(y)\n",
    "199_nested_parentheses": "x = " + "(" * 199 + "1" + ")" * 199 + "\nprint(x)\n",
    "199_nested_lists": "x = " + "[" * 199 + "]" * 199 + "\nprint(len(x), str(x)[:10])\n",
    "199_nested_calls": "def f(*a):\n    return len(a)\nx = " + "f(" * 199 + ")" * 199 + "\nprint(x)\n",
    "2000_term_and_chain": "x = " + " and ".join(["1"] * 1999 + ["2"]) + "\nprint(x)\n",
    "2000_term_or_chain": "x = " + " or ".join(["0"] * 1999 + ["3"]) + "\nprint(x)\n",
    # (3.12's compiler itself, called under pytest, stops short of 2,000 terms)
    "600_term_sum": "x = " + " + ".join(map(str, range(600))) + "\nprint(x)\n",
    "500_term_mixed_chain_in_a_call": "def f(*a):\n    return a\nlog = []\n"
    + "def v(i):\n    log.append(i)\n    return i\nx = f(v(-1), "
    + " - ".join(f"v({i})" for i in range(500)) + ", v(-2))\nprint(x, log[:5], log[-5:], len(log))\n",
    "300_if_else_expressions": "x = " + "0 if 0 else " * 300 + "2\nprint(x)\n",
    "100000_element_list": "x = [" + ", ".join(map(str, range(100_000))) + "]\nprint(len(x), sum(x))\n",
    "50_nested_functions": "".join("    " * i + f"def f{i}():\n" for i in range(50))
    + "    " * 50 + "return 7\n"
    + "".join("    " * i + f"return f{i + 1}()\n" for i in range(49, 0, -1)) + "print(f0())\n",
    # (CPython 3.12.1 itself crashes compiling 25 nested comprehensions, 3.13.0 at 30)
    # (3.11 nests f-strings as far as its four kinds of quotes go; 3.12 149 deep)
    "nested_f_strings": "x = " + (
        'f"{' * 149 + "1" + ':>{2}}"' * 149 if sys.version_info >= (3, 12)
        else "f'''{f" + '"""' + "{f'{f" + '"{1:>{2}}"' + "}'}" + '"""' + "}'''"
    ) + "\nprint(x)\n",
    "20_nested_comprehensions": "x = " + "[" * 20 + "y" + " for y in range(1)]" * 20
    + "\nprint(len(x), str(x)[:20])\n",
}


@pytest.mark.parametrize("shape", DEEP)
def test_deep_input_desugars_and_behaves_the_same(shape: str) -> None:
    assert sys.getrecursionlimit() < RECURSION_LIMIT  # the caller's limit is not raised for it
    assert_same(DEEP[shape], check_names=False)


def test_headroom_restores_the_limit_and_raises_in_the_caller() -> None:
    before = sys.getrecursionlimit()
    assert with_headroom(sys.getrecursionlimit) == max(before, RECURSION_LIMIT)
    assert sys.getrecursionlimit() == before
    with pytest.raises(ZeroDivisionError):
        with_headroom(lambda: 1 // 0)
    assert sys.getrecursionlimit() == before


def _walk_calls(depth: int) -> str:
    """Call the result ``depth`` times; show the qualified names of the last two."""
    return (f"g = f\nnames = []\nfor i in range({depth}):\n"
            "    names = [g.__qualname__[-40:], g.__code__.co_qualname[-40:]]\n    g = g()\n"
            "print(type(g).__name__, g if type(g) is int else '', names)\n")


# Each nests defs in the output past the 100 indentation levels source text can
# have: the deepest are written at the top (unsugar.hoisting).
NESTED_DEFS = {
    "150_nested_lambdas": "f = " + "lambda: " * 150 + "0\n" + _walk_calls(150),
    "130_lambdas_closing_over_each_other": "f = " + "".join(f"lambda a{i}: " for i in range(130))
    + " + ".join(f"a{i}" for i in range(130)) + "\ng = f\nfor i in range(130):\n    g = g(i)\n"
    + "print(g)\n",
    "120_lambdas_with_defaults_in_a_function": "def outer(k):\n    return "
    + "".join(f"lambda d{i}=k + {i}: " for i in range(120)) + "d0 + d119\n"
    + "f = outer(5)\n" + _walk_calls(120).replace("g = g()", "g = g(d0=1) if i == 119 else g()"),
    "99_nested_classes": "".join("    " * i + f"class C{i}:\n" for i in range(99))
    + "    " * 99 + "x = [y for y in range(3)]\n"
    + "c = C0\nfor i in range(1, 99):\n    c = getattr(c, f'C{i}')\nprint(c.x, c.__qualname__[-30:])\n",
    "99_nested_defs_with_sugar": "".join("    " * i + f"def f{i}(n={i}):\n" for i in range(99))
    + "    " * 99 + "return [n, *range(2)] if n else None\n"
    + "".join("    " * i + f"return f{i + 1}\n" for i in range(98, 0, -1))
    + "g = f0()\nfor i in range(97):\n    g = g()\nprint(g(), g.__qualname__[-20:])\n",
    "generators_and_a_class_in_140_lambdas": "f = " + "lambda: " * 140
    + "(x for x in [type('K', (), {'v': 3})])\n" + _walk_calls(139)
    + "g = g()\nprint(g.__qualname__[-30:], next(g).v)\n",
}
if sys.version_info < (3, 12):  # (3.12.1 itself crashes compiling 25 nested comprehensions)
    NESTED_DEFS["99_nested_comprehensions"] = (
        "x = " + "[" * 99 + "y" + " for y in range(1)]" * 99 + "\nprint(str(x)[:120])\n"
    )


@pytest.mark.parametrize("shape", NESTED_DEFS)
def test_defs_nested_past_the_tokenizer_limit_are_hoisted(shape: str) -> None:
    source = NESTED_DEFS[shape]
    assert_same(source, check_names=False)
    assert "_us_hoisted(" in desugar(source)


def test_a_hoisted_def_keeps_its_cells_and_names() -> None:
    """The def made from the template shares the cells of the place it stood:
    a write through ``nonlocal`` there is seen outside, and back."""
    source = ("def outer():\n    box = 1\n    f = " + "lambda: " * 110
              + "[box, bump()]\n    def bump():\n        nonlocal box\n        box += 1\n"
              + "        return box\n    return f, bump\n"
              + "f, bump = outer()\n" + _walk_calls(110) + "print(g, bump())\n")
    assert_same(source, check_names=False)


def test_a_thousand_nested_lambdas() -> None:
    """CPython compiles them; so does the output (about 10 hoists deep)."""
    source = "f = " + "lambda: " * 1000 + "0\n" + _walk_calls(1000)
    output = desugar(source)
    assert not check_source(output)
    assert output.count("_us_hoisted(") >= 9
    assert run(output).stdout == run(source).stdout


def test_unsugar_run_has_the_headroom_too(tmp_path: Path) -> None:
    script = tmp_path / "deep.py"
    script.write_text(NESTED_DEFS["150_nested_lambdas"])
    done = subprocess.run([sys.executable, "-m", "unsugar", "run", "--no-cache", str(script)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == subprocess.run([sys.executable, str(script)], capture_output=True,
                                         text=True, check=True).stdout


def test_a_rewrite_leaves_no_reference_cycles() -> None:
    """A module's trees are freed when its rewrite ends, by reference counting
    alone: the collector finds nothing to free after it (the first rewrite of
    a text fills the process's caches; the second is counted)."""
    text = Path(argparse.__file__).read_text() + Path(contextlib.__file__).read_text()
    desugar(text)
    enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        desugar(text)
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
