"""Random assignments whose every step is logged (``assignment_programs.program``),
each run as written and desugared, in a function and at module level, and
compared: the log of each statement (what was evaluated, looked up and
stored, in order) and where an error stopped it. The long run is ``python
tests/assignment_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast
from functools import partial

import pytest
from assignment_programs import program
from difftest import assert_same, programs_with

SEEDS = list(range(40))


@pytest.mark.parametrize("seed", SEEDS)
def test_assignment_program(seed: int) -> None:
    assert_same(program(seed))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: a starred target, a chained assignment, an
    augmented store to an item, a slice target."""
    count = partial(programs_with, [program(seed) for seed in SEEDS])
    assert count(lambda node: isinstance(node, ast.Starred) and isinstance(node.ctx, ast.Store)) >= 15
    assert count(lambda node: isinstance(node, ast.Assign) and len(node.targets) > 1) >= 15
    assert count(lambda node: isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript)) >= 5
    assert count(lambda node: isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                 and isinstance(node.slice, ast.Slice)) >= 5
