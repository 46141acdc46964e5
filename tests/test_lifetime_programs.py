"""Random statements over values that print when they die
(``lifetime_programs.program``), each run as written and desugared and
compared: where each value died, between the program's steps. The long run
is ``python tests/lifetime_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast

import pytest
from difftest import assert_same, programs_with
from lifetime_programs import program

SEEDS = list(range(60))


@pytest.mark.parametrize("seed", SEEDS)
def test_lifetime_program(seed: int) -> None:
    assert_same(program(seed), check_names=False)


def test_the_programs_hold_the_shapes_that_found_faults() -> None:
    """Among the seeds tested: an ``if`` or ``while`` whose test makes a value,
    a ``with`` whose body may raise, a comprehension in a ``try``, a chained
    comparison, a decorated def, a ``yield`` inside an expression."""
    sources = [program(seed) for seed in SEEDS]
    makes_value = (ast.Call, ast.BinOp, ast.Subscript, ast.IfExp, ast.BoolOp)
    assert programs_with(sources, lambda node: isinstance(node, ast.If | ast.While)
                  and isinstance(node.test, makes_value)) >= 20
    assert programs_with(sources, lambda node: isinstance(node, ast.With) and any(
        isinstance(sub, ast.Raise) for sub in ast.walk(node))) >= 5
    assert programs_with(sources, lambda node: isinstance(node, ast.Try) and any(
        isinstance(sub, ast.ListComp) for sub in ast.walk(node))) >= 3
    assert programs_with(sources, lambda node: isinstance(node, ast.Compare) and len(node.ops) > 1) >= 15
    assert programs_with(sources, lambda node: isinstance(node, ast.FunctionDef) and node.decorator_list) >= 3
    assert programs_with(sources, lambda node: isinstance(node, ast.BoolOp) and any(
        isinstance(value, ast.Yield) for value in node.values)) >= 25
