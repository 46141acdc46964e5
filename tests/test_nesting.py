"""Nesting up to CPython's limit of statically nested blocks: the output compiles and behaves the same.

Each program nests one kind of block (or a cycle of kinds, or an ``if`` at
every level) as deep as the running CPython compiles it, with a leaf
statement at the deepest level that jumps, returns, raises or just records
itself. The depth is found by asking CPython, so the programs sit at the
limit of every supported version (20 blocks, 21 on 3.13).
"""

from __future__ import annotations

import sys

import pytest
from difftest import assert_same, desugared

PRELUDE = """\
log = []
class CM:
    def __init__(self, n):
        self.n = n
    def __enter__(self):
        log.append(("enter", self.n))
    def __exit__(self, *exc):
        log.append(("exit", self.n, exc[0] and exc[0].__name__))
        return self.n == 0 and exc[0] is KeyError
"""

#: How each kind of block opens at depth ``k``: lines, then the lines that close it.
OPEN = {
    "for": (["for i{k} in range(1 if {k} < {n} - 2 else 3):"], []),
    "while": (["w{k} = 0", "while w{k} < (1 if {k} < {n} - 2 else 3):", "    w{k} += 1"], []),
    "with": (["with CM({k}):"], []),
    "try-except": (["try:"], ["except ValueError:", "    log.append(('caught', {k}))"]),
    "try-finally": (["try:"], ["finally:", "    log.append(('finally', {k}))"]),
    "try-except*": (["try:"], ["except* ValueError:", "    log.append(('caught*', {k}))"]),
    "match": (["match {k}:", "    case {k}:"], []),
    "if": (["if log is not None:"], []),
    "if-else": (["if len(log) < 0:", "    log.append('never')", "else:"], []),
}


def program(kinds: list[str], leaf: str) -> str:
    """``def f():`` with ``kinds`` nested (outermost first) and ``leaf`` inside."""
    n = len(kinds)
    lines = ["def f():"]
    closing: list[tuple[int, list[str]]] = []
    indent = 1
    for k, kind in enumerate(kinds):
        opening, closes = OPEN[kind]
        for line in opening:
            lines.append("    " * indent + line.format(k=k, n=n))
        closing.append((indent, [line.format(k=k, n=n) for line in closes]))
        indent += 2 if kind == "match" else 1
    for line in leaf.splitlines():
        lines.append("    " * indent + line)
    for at, closes in reversed(closing):
        lines.extend("    " * at + line for line in closes)
    lines.append("    return 'end'")
    return PRELUDE + "\n".join(lines) + "\ntry:\n    print(f())\nfinally:\n    print(log)\n"


def compiles(source: str) -> bool:
    try:
        compile(source, "<nest>", "exec")
    except SyntaxError:
        return False
    return True


def deepest(make, leaf: str) -> str:
    """The program of ``make(n)`` for the largest ``n`` that CPython compiles."""
    best = None
    for n in range(1, 30):
        source = program(make(n), leaf)
        if not compiles(source):
            break
        best = source
    assert best is not None
    return best


LEAVES = {
    "record": "log.append('leaf')",
    "break": "if len(log) > 1:\n    break\nlog.append('leaf')",
    "continue": "if len(log) % 2:\n    continue\nlog.append('leaf')",
    "return": "if len(log) > 1:\n    return 'early'\nlog.append('leaf')",
    "raise": "log.append('leaf')\nraise ValueError('deep')",
}
LOOP_LEAVES = ("break", "continue")

CYCLE = ["for", "with", "try-except", "while", "try-finally", "match", "if"]


def kinds_of(name: str, n: int) -> list[str]:
    if name == "cycle":
        return [CYCLE[i % len(CYCLE)] for i in range(n)]
    if name.endswith("+if"):  # an if between every two blocks
        return [name[:-3] if i % 2 == 0 else "if" for i in range(2 * n)]
    return [name] * n


SHAPES = [*OPEN, "cycle", "for+if", "while+if", "with+if", "try-finally+if", "try-except+if"]


def cases():
    for shape in SHAPES:
        for leaf in LEAVES:
            loops = shape.startswith(("for", "while")) or shape == "cycle"
            if leaf in LOOP_LEAVES and not loops:
                continue
            if shape == "try-except*" and leaf == "return":
                continue  # return is not allowed in an except* block body? (it is in the try body)
            yield pytest.param(shape, leaf, id=f"{shape}-{leaf}")


@pytest.mark.parametrize(("shape", "leaf"), cases())
def test_nested_to_the_limit(shape: str, leaf: str) -> None:
    source = deepest(lambda n: kinds_of(shape, n), LEAVES[leaf])
    assert_same(source)


def test_twenty_nested_for_loops_with_every_jump() -> None:
    limit = 21 if sys.version_info >= (3, 13) else 20
    leaf = (
        "log.append(i19)\n"
        "if i19 == 0:\n    continue\n"
        "if len(log) > 4:\n    return len(log)\n"
        "if i19 == 1:\n    break\n"
    )
    source = program(["for"] * limit, leaf)
    assert compiles(source)
    assert not compiles(program(["for"] * (limit + 1), leaf))
    assert_same(source)


def test_ninety_nested_ifs() -> None:
    source = program(["if"] * 90, "log.append('leaf')")
    assert_same(source)
    source = program(["if-else"] * 90, "log.append('leaf')")
    assert_same(source)


def test_long_elif_chain() -> None:
    arms = "\n".join(f"elif x == {i}:\n    log.append({i})" for i in range(1, 300))
    source = PRELUDE + "for x in (0, 150, 299, 400):\n    if x == 0:\n        log.append(0)\n" + \
        "\n".join("    " + line for line in arms.splitlines()) + "\n    else:\n        log.append('none')\n"
    assert_same(source)


def test_a_generator_yielding_at_the_limit_is_not_moved_into_a_function() -> None:
    """Known limitation: code that yields cannot become a function, so at
    the limit the output does not compile (never a silently wrong program)."""
    source = deepest(lambda n: ["for"] * n, "if len(log) < 3:\n    yield 1").replace(
        "print(f())", "print(list(f()))")
    with pytest.raises(SyntaxError, match="too many statically nested blocks"):
        compile(desugared(source), "<out>", "exec")


def test_a_generator_nested_to_the_limit_where_it_does_not_yield() -> None:
    """From 3.13 a generator's body sits in a block of its own (its
    ``StopIteration`` handler): the output of one nested to the limit must
    nest one block less than a plain function's."""
    def generator(n: int) -> str:
        return program(["for"] * n, "log.append('leaf')").replace(
            "def f():\n", "def f():\n    yield 'first'\n").replace("print(f())", "print(list(f()))")

    deepest_n = max(n for n in range(1, 30) if compiles(generator(n)))
    assert deepest_n == 20  # 3.13 allows 21 blocks, one of them the handler
    assert_same(generator(deepest_n))
