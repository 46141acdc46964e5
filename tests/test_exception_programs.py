"""Random functions that raise, catch, chain and raise again
(``exception_programs.program``), each run as written and desugared and
compared: the exception each handler and final block sees, with its whole
chain, and what each call returns or raises. The long run is ``python
tests/exception_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast

import pytest
from difftest import assert_same, programs_with
from exception_programs import program

SEEDS = list(range(60))


@pytest.mark.parametrize("seed", SEEDS)
def test_exception_program(seed: int) -> None:
    assert_same(program(seed), check_names=False)


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: ``raise ... from``, a bare ``raise`` in a
    handler, a ``raise`` of a caught error, a ``raise`` in a final block."""
    sources = [program(seed) for seed in SEEDS]
    assert programs_with(sources, lambda node: isinstance(node, ast.Raise) and node.cause is not None) >= 30
    assert programs_with(sources, lambda node: isinstance(node, ast.ExceptHandler) and any(
        isinstance(sub, ast.Raise) and sub.exc is None for sub in ast.walk(node))) >= 10
    assert programs_with(sources, lambda node: isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name)) >= 10
    assert programs_with(sources, lambda node: isinstance(node, ast.Try) and any(
        isinstance(sub, ast.Raise) for stmt in node.finalbody for sub in ast.walk(stmt))) >= 10
