"""not, and, or and the conditional expression (ifexp)."""

import textwrap

import pytest
from difftest import PRINTING_TRUTH, assert_same

# A value whose truth tests are printed, and a logging identity function.
TRUTHY = PRINTING_TRUTH + """def v(x):
    print("eval", x)
    return x
"""

NOT = {
    "ints": """
        r = not 0, not 5, not not 7
    """,
    "returns_a_real_bool": """
        r = not (), not [1]
        k = type(not 0).__name__
    """,
    "bool_called_once": """
        r = not T("a", True)
        s = not not T("b", False)
    """,
    "len_called_once": """
        class L:
            def __len__(self):
                print("len")
                return 0
        r = not L()
    """,
    "bool_returning_int": """
        class B:
            def __bool__(self):
                return 1
        not B()
    """,
    "negative_len": """
        class L:
            def __len__(self):
                return -1
        not L()
    """,
    "bool_raises": """
        class B:
            def __bool__(self):
                raise KeyError("no truth")
        not B()
    """,
    "shadowed_bool": """
        def bool(x):
            return 7
        r = not 0, not 3
    """,
}

AND = {
    "value_is_an_operand": """
        r1 = 0 and 5
        r2 = 3 and 5
        r3 = 3 and 0 and 9
        r4 = 1 and 2 and 3
    """,
    "short_circuit_order": """
        r = v(1) and v(0) and v(2)
    """,
    "truth_tested_once": """
        r = T("a", True) and T("b", True) and T("c", False) and T("d", True)
        s = T("e", True) and T("f", False) and T("g", True) and T("h", True)
        t = T("i", False) and T("j", True) and T("k", True)
    """,
    "two_operands_truth_once": """
        r = T("a", False) and v(1)
        s = T("b", True) and T("c", False)
    """,
    "in_arguments_keeps_order": """
        def f(*args):
            print("call", args)
            return args
        r = f(v(1), v(2) and v(3), v(4))
    """,
    "bool_error_in_chain": """
        class B:
            def __bool__(self):
                return 2
        r = v(1) and B() and v(2)
    """,
    "long_chain_stays_flat": "r = " + " and ".join(f"v({i + 1})" for i in range(40)) + "\n"
    + "s = " + " and ".join(["v(1)"] * 30 + ["v(0)"] + ["v(2)"] * 10) + "\n",
}

OR = {
    "value_is_an_operand": """
        r1 = 0 or 5
        r2 = 3 or 5
        r3 = 0 or 0 or 0
        r4 = 0 or 0 or 9 or 4
    """,
    "short_circuit_order": """
        r = v(0) or v(3) or v(2)
    """,
    "truth_tested_once": """
        r = T("a", False) or T("b", False) or T("c", True) or T("d", True)
        s = T("e", False) or T("f", False)
        t = T("g", False) or T("h", True) or T("i", False) or T("j", False)
        u = T("k", True) or T("l", True) or T("m", True)
    """,
    "mixed_with_and": """
        r1 = v(0) and v(1) or v(2)
        r2 = v(1) or v(2) and v(3)
        r3 = (v(0) or v(4)) and (v(5) or v(6))
        r4 = not v(0) and v(7) or not v(8)
    """,
    "nested_in_calls": """
        def f(a, b):
            print("f", a, b)
            return a or b
        r = f(v(0) or v(1), f(v(2) and v(0), v(0) or v(0)))
    """,
    "long_chain_stays_flat": "r = " + " or ".join(["v(0)"] * 35 + ["v(5)", "v(6)"]) + "\n",
    "in_while_test": """
        n = 3
        def step():
            global n
            n = n - 1
            return n
        while v(step()) or v(0):
            print("body")
    """,
    "in_generator": """
        def g():
            r = (yield 1) or (yield 2)
            print("r", r)
        it = g()
        a = next(it)
        b = it.send(0)
        try:
            it.send(9)
        except StopIteration:
            pass
    """,
}

IFEXP = {
    "chooses_one_branch": """
        r1 = v(1) if v(1) else v(2)
        r2 = v(3) if v(0) else v(4)
    """,
    "condition_truth_once": """
        r = v(1) if T("a", True) else v(2)
        s = v(3) if T("b", False) else v(4)
    """,
    "chain": """
        def pick(n):
            return v(1) if n == 1 else v(2) if n == 2 else v(3) if n == 3 else v(0)
        r = pick(1), pick(2), pick(3), pick(4)
    """,
    "chain_truth_once": """
        r = v(1) if T("a", False) else v(2) if T("b", False) else v(3) if T("c", True) else v(4)
        s = v(5) if T("d", True) else v(6) if T("e", True) else v(7)
        t = v(8) if T("f", False) else v(9) if T("g", True) else v(10) if T("h", True) else v(11)
    """,
    "nested_in_branches": """
        r = (v(1) if v(0) else v(2)) if (v(3) if v(0) else v(0)) else (v(4) if v(5) else v(6))
    """,
    "with_and_or_inside": """
        r = (v(1) and v(2)) if (v(0) or v(3)) else (v(4) or v(5))
    """,
    "error_in_condition": """
        class B:
            def __bool__(self):
                return "yes"
        r = v(1) if B() else v(2)
    """,
    "error_in_branch": """
        r = v(1) if v(0) else (1).nope
    """,
    "long_chain_stays_flat": "r = " + " else ".join(f"v({i}) if v({i % 2 if i < 30 else 1})"
                                                   for i in range(35)) + " else v(-1)\n",
    "in_arguments_keeps_order": """
        def f(*args):
            return args
        r = f(v(1), v(2) if v(0) else v(3), v(4))
    """,
    "lazy_branch_in_loop": """
        i = 3
        out = []
        while i:
            out.append(v(i) if i % 2 else v(-i))
            i = i - 1
    """,
}

FAMILIES = {"not": NOT, "and": AND, "or": OR, "ifexp": IFEXP}


@pytest.mark.parametrize(
    ("rule", "name"), [(rule, name) for rule, cases in FAMILIES.items() for name in sorted(cases)]
)
def test_boolean(rule, name):
    assert_same(source(FAMILIES[rule][name]))


def source(snippet: str) -> str:
    return TRUTHY + textwrap.dedent(snippet)
