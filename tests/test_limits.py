"""Input at CPython's own limits desugars with the default recursion limit:
the rewrite runs on a thread with the headroom it needs (``pipeline.with_headroom``)."""

import sys

import pytest
from difftest import assert_same

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


@pytest.mark.parametrize(("source", "message"), [
    ("f = " + "lambda: " * 120 + "0\n", "too many levels of indentation"),
])
def test_known_limitation_output_nested_past_the_tokenizer(source: str, message: str) -> None:
    """README, Known limitations: CPython compiles this input, not its output."""
    from unsugar import desugar

    compile(source, "<in>", "exec")
    with pytest.raises(SyntaxError, match=message):
        compile(desugar(source), "<out>", "exec")
