"""Random async generators driven through their whole protocol
(``async_programs.program``), each run as written and desugared and
compared: the values, the errors and the log of every step, suspensions
included. The long run is ``python tests/async_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast

import pytest
from async_programs import program
from difftest import assert_same

SEEDS = list(range(30))


@pytest.mark.parametrize("seed", SEEDS)
def test_async_program(seed: int) -> None:
    assert_same(program(seed))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: ``athrow``, ``aclose``, an async comprehension,
    an ``async for`` in a generator, an ``await`` in a ``finally`` block, a
    value taken from ``asend``."""
    sources = [program(seed) for seed in SEEDS]

    def count(found, where=lambda node: True) -> int:
        return sum(any(found(node) for scope in ast.walk(ast.parse(source)) if where(scope)
                       for node in ast.walk(scope)) for source in sources)

    def calls(name: str):
        return lambda node: isinstance(node, ast.Attribute) and node.attr == name

    def generators(node: ast.AST) -> bool:
        return isinstance(node, ast.AsyncFunctionDef) and node.name.startswith("agen")
    assert count(calls("athrow")) >= 10
    assert count(calls("aclose")) >= 25
    assert count(lambda node: isinstance(node, ast.comprehension) and node.is_async) >= 6
    assert count(lambda node: isinstance(node, ast.AsyncFor), generators) >= 10
    assert count(lambda node: isinstance(node, ast.Try) and any(
        isinstance(item, ast.Await) for stmt in node.finalbody for item in ast.walk(stmt)), generators) >= 4
    assert count(lambda node: isinstance(node, ast.Assign) and isinstance(node.value, ast.Yield)) >= 10
