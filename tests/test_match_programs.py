"""Random ``match`` statements whose every protocol step is logged
(``match_programs.program``), each run as written and desugared, in a
function and at module level, and compared: the case taken, the log of each
match (``len``, items, keys, ``get``, attributes, ``isinstance``, ``==``,
guards, in order), where an error stopped it, and the names each case left
bound. The long run is ``python tests/match_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast
from functools import partial

import pytest
from difftest import assert_same, programs_with
from match_programs import program

SEEDS = list(range(40))


@pytest.mark.parametrize("seed", SEEDS)
def test_match_program(seed: int) -> None:
    assert_same(program(seed))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: a sequence pattern with a star, a mapping
    pattern with ``**rest``, a class pattern with positional and keyword
    parts, an or-pattern, a guard."""
    count = partial(programs_with, [program(seed) for seed in SEEDS])
    assert count(lambda node: isinstance(node, ast.MatchStar)) >= 15
    assert count(lambda node: isinstance(node, ast.MatchMapping) and node.rest) >= 10
    assert count(lambda node: isinstance(node, ast.MatchClass) and node.patterns and node.kwd_patterns) >= 5
    assert count(lambda node: isinstance(node, ast.MatchOr)) >= 8
    assert count(lambda node: isinstance(node, ast.match_case) and node.guard is not None) >= 15


def test_the_programs_match_deep() -> None:
    """Most matches are drawn for their subjects: cases are taken, and
    nested subjects' steps are logged."""
    from difftest import run
    outputs = [run(program(seed)).stdout for seed in SEEDS[:10]]
    taken = sum(line.count("case (") - line.count("case (None") for line in outputs)
    assert taken >= 30
    assert sum(output.count("('getitem'") + output.count("('get'") for output in outputs) >= 10
