"""Random literals and f-strings (``literal_programs.program``), each run as
written and desugared and compared: the type, ``ascii()``, length, hash and
signs of every str, bytes, int, float and complex literal (escapes,
surrogates, raw and long ones, implicit concatenations, docstrings, folded
constants, ``match`` patterns, defaults), and each f-string's value or
error, with the log of the ``__format__``, ``__str__`` and ``__repr__``
calls and of the fields evaluated, in order. The long run is ``python
tests/literal_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast
from functools import partial

import pytest
from difftest import assert_same, programs_with
from literal_programs import program

#: seeds 0 to 29
SEEDS = list(range(30))

@pytest.mark.parametrize("seed", SEEDS)
def test_literal_program(seed: int) -> None:
    assert_same(program(seed))


def _constant(kind: type) -> partial[bool]:
    return partial(lambda kind, node: isinstance(node, ast.Constant) and type(node.value) is kind, kind)


def _fields(node: ast.AST) -> list[ast.FormattedValue]:
    return [value for value in getattr(node, "values", []) if isinstance(value, ast.FormattedValue)]


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: str literals with escapes, surrogates and non-BMP
    characters, long ones, bytes with all 256 values, huge ints, floats that
    overflow or are subnormal, complex literals, every conversion of an
    f-string, nested specs, nested f-strings, the ``=`` form, fields that log,
    values whose ``__format__`` misbehaves, docstrings, ``match`` on literals,
    ``%`` formatting of bytes."""
    sources = [program(seed) for seed in SEEDS]
    count = partial(programs_with, sources)
    assert count(lambda node: isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and any(0xD800 <= ord(c) < 0xE000 for c in node.value)) >= 20
    assert count(lambda node: isinstance(node, ast.Constant) and isinstance(node.value, str)
                 and any(ord(c) > 0xFFFF for c in node.value)) >= 20
    assert count(lambda node: isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
                 and len(node.value) >= 1000) >= 4
    assert count(lambda node: isinstance(node, ast.Constant) and isinstance(node.value, bytes)
                 and len(set(node.value)) == 256) >= 2
    assert count(lambda node: isinstance(node, ast.Constant) and type(node.value) is int
                 and node.value > 10**100) >= 2
    assert count(lambda node: isinstance(node, ast.Constant) and node.value == float("inf")) >= 15
    assert count(lambda node: isinstance(node, ast.Constant) and type(node.value) is float
                 and 0 < node.value < 2.3e-308) >= 3
    assert count(_constant(complex)) >= 15
    for conversion in (ord("r"), ord("s"), ord("a")):
        assert count(lambda node, conversion=conversion: isinstance(node, ast.FormattedValue)
                     and node.conversion == conversion) >= 15
    assert count(lambda node: isinstance(node, ast.FormattedValue) and node.format_spec is not None
                 and _fields(node.format_spec)) >= 10
    assert count(lambda node: isinstance(node, ast.FormattedValue)
                 and isinstance(node.value, ast.JoinedStr)) >= 10
    assert sum("=}" in source or "= }" in source or "=!" in source for source in sources) >= 15
    assert sum("{note(" in source for source in sources) >= 8
    assert sum("{Bad(" in source for source in sources) >= 8
    assert count(lambda node: isinstance(node, ast.ClassDef | ast.FunctionDef)
                 and ast.get_docstring(node, clean=False) is not None) >= 15
    assert count(lambda node: isinstance(node, ast.MatchValue)) >= 6
    assert count(lambda node: isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
                 and isinstance(node.left, ast.Constant) and isinstance(node.left.value, bytes)) >= 4
    assert count(lambda node: isinstance(node, ast.AnnAssign)) >= 3
