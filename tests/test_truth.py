"""Truth tests: ``__bool__``/``__len__`` called as often, and on the same objects, as CPython.

CPython compiles a test (``if``, ``elif``, ``while``, ``assert``, a
comprehension's ``if``, a conditional expression's test, a ``match`` guard)
into jumps: ``if a and b`` tests ``a`` once, ``if a < b < c`` tests the result
of ``a < b`` once. A value (``x = a and b``) is tested by each operator that
uses it, except that 3.11 threads a jump to a jump (an ``and``/``or`` that
stops early is not tested again by the ``and``/``or`` around it, when both
start on the same line).

Each case runs a test or value position over every truth assignment of its
operands: ``a`` and ``c`` are true or false by ``__bool__``, ``b`` by
``__len__``, and ``p < q < r < s < u`` has its first ``k`` links true.
"""

import textwrap

import pytest
from difftest import PRINTING_TRUTH, assert_same

PRELUDE = PRINTING_TRUTH + """class L:
    def __init__(self, name, size):
        self.name = name
        self.size = size
    def __len__(self):
        print("len", self.name)
        return self.size
    def __repr__(self):
        return self.name
class N:
    def __init__(self, name):
        self.name = name
    def __lt__(self, other):
        link = self.name + "<" + other.name
        print("compare", link)
        return T(link, link in TRUE)
    def __repr__(self):
        return self.name
p, q, r, s, u = N("p"), N("q"), N("r"), N("s"), N("u")
n0, n1 = T("n0", False), T("n1", True)
LINKS = ["p<q", "q<r", "r<s", "s<u"]
"""

LOOP = """
for bits in range({runs}):
    print("--", bits)
    a = T("a", bits % 2 == 1)
    b = L("b", bits // 2 % 2)
    c = T("c", bits // 4 % 2 == 1)
    TRUE = LINKS[:bits // 8]
    case()
"""

#: Positions that CPython compiles into jumps; ``{e}`` is the expression.
CONDITIONS = {
    "if": "if {e}:\n    print('then')\nelse:\n    print('else')",
    "elif": "if n0:\n    print('first')\nelif {e}:\n    print('then')",
    "while": "while {e}:\n    print('body')\n    break\nelse:\n    print('else')",
    "while_twice": "k = 0\nwhile {e}:\n    k = k + 1\n    if k == 2:\n        break\nprint(k)",
    "assert": "try:\n    assert {e}, 'message'\nexcept AssertionError as error:\n    print('failed', error)",
    "listcomp_if": "print([i for i in range(2) if {e}])",
    "genexp_if": "print(list(i for i in range(1) if i == 0 if {e}))",
    "ifexp_test": "print('then' if {e} else 'else')",
    "ifexp_chain_test": "print('first' if n0 else 'then' if {e} else 'else')",
    "match_guard": "match 0:\n    case 0 if {e}:\n        print('then')\n    case _:\n        print('else')",
    "if_not": "if not ({e}):\n    print('then')",
    "walrus": "if (w := {e}):\n    print('then', w)\nprint(w)",
}

#: Positions where the expression is a value.
VALUES = {
    "assign": "x = {e}\nprint(x)",
    "return": "def f():\n    return {e}\nprint(f())",
    "argument": "print({e}, 'argument')",
    "not": "x = not ({e})\nprint(x)",
    "and_operand": "x = ({e}) and n1\nprint(x)",
    "or_operand": "x = ({e}) or n0\nprint(x)",
    "ifexp_branch": "x = ({e}) if n1 else n0\nprint(x)",
}

EXPRESSIONS = {
    "and": "a and b",
    "or": "a or b",
    "not": "not a",
    "and3": "a and b and c",
    "or3": "a or b or c",
    "or_in_and": "(a or b) and c",
    "and_in_or": "(a and b) or c",
    "and_or_right": "a and (b or c)",
    "not_and_or": "not (a and b) or not c",
    "not_not": "not not a",
    "chain2": "p < q < r",
    "chain3": "p < q < r < s",
    "chain4": "p < q < r < s < u",
    "compare_and": "(p < q) and (q < r)",
    "mixed": "(a or b) and not (p < q < r)",
    "chain_in_or": "a or p < q < r < s",
    "ifexp": "a if b else c",
    "ifexp_of_boolops": "(a and b) if c else (b or a)",
    "ifexp_chain": "a if b else c if a else b",
    "walrus_of_and": "(x := a and b)",
    "walrus_operand": "(x := a) or (y := b)",
}


def program(position: str, expression: str, runs: int = 32) -> str:
    body = textwrap.indent(position.format(e=f"({expression})"), "    ")
    return PRELUDE + "def case():\n" + body + "\n" + LOOP.format(runs=runs)


@pytest.mark.parametrize("expression", EXPRESSIONS.values(), ids=EXPRESSIONS.keys())
@pytest.mark.parametrize("position", CONDITIONS.values(), ids=CONDITIONS.keys())
def test_condition(position: str, expression: str) -> None:
    assert_same(program(position, expression))


@pytest.mark.parametrize("expression", EXPRESSIONS.values(), ids=EXPRESSIONS.keys())
@pytest.mark.parametrize("position", VALUES.values(), ids=VALUES.keys())
def test_value(position: str, expression: str) -> None:
    assert_same(program(position, expression))


#: On 3.11, whether an ``and``/``or`` that stops early is tested again depends
#: on the lines the two start on, and on the branch of ``x if c else y``.
LINES = {
    "inner_starts_on_the_same_line": "x = (a and\n     b) or c",
    "inner_on_the_next_line": "x = (n1 and\n     (a and b) and c)",
    "inner_on_the_next_line_opposite": "x = (n0 or\n     (a and b) or c)",
    "outer_spans_lines": "x = (((a and b) and c)\n     or b)",
    "three_levels": "x = ((a or b) and c) or (b and a)",
    "middle_on_another_line": "x = ((a or\n       b) and\n     c) or a",
    "ifexp_body": "x = ((a and b) if c else b) and c",
    "ifexp_orelse": "x = (c if a else (a and b)) and c",
    "ifexp_orelse_on_the_next_line": "x = (c if a else\n     (a and b)) and c",
    "ifexp_chain_last": "x = (c if a else b if c else (a or b)) or c",
    "ifexp_nested_in_boolop": "x = (b or (a if c else (a and b))) and c",
    "walrus_in_between": "x = (y := (a and b)) or c",
}


@pytest.mark.parametrize("statement", LINES.values(), ids=LINES.keys())
def test_value_operand_lines(statement: str) -> None:
    assert_same(program(statement + "\nprint(x)", "", runs=8))


def test_conditions_in_loops_and_comprehensions_nest() -> None:
    assert_same(program("""
while p < q < r and not (a or b):
    print([i for i in range(3) if (i < 2 and c) or not n1 if not (q < r < s)])
    break
print(all(i for i in [c] if a or (b and c)))
""", "", runs=64))
