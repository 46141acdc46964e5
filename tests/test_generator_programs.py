"""Random generators driven through their whole protocol
(``generator_programs.program``), each run as written and desugared and
compared: the values, the errors, what ``return`` gave and the log of every
step, what runs as a suspended generator is freed included. The long run is
``python tests/generator_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast

import pytest
from difftest import assert_same, programs_with
from generator_programs import program

SEEDS = list(range(40))


@pytest.mark.parametrize("seed", SEEDS)
def test_generator_program(seed: int) -> None:
    assert_same(program(seed))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: ``yield from`` another generator of the
    program and an iterator with ``throw``, ``throw`` and ``close`` by the
    driver, a ``GeneratorExit`` handler, a value taken from ``send`` and one
    from ``yield from``, a ``StopIteration`` raised in a generator."""
    sources = [program(seed) for seed in SEEDS]

    def delegates_to(prefix: str):
        return lambda node: isinstance(node, ast.YieldFrom) and isinstance(node.value, ast.Call) \
            and isinstance(node.value.func, ast.Name) and node.value.func.id.startswith(prefix)

    def calls(name: str):
        return lambda node: isinstance(node, ast.Attribute) and node.attr == name

    assert programs_with(sources, delegates_to("gen")) >= 8
    assert programs_with(sources, delegates_to("ItAll")) >= 10
    assert programs_with(sources, calls("throw")) >= 8
    assert programs_with(sources, calls("close")) >= 8
    assert programs_with(sources, lambda node: isinstance(node, ast.Name) and node.id == "GeneratorExit") >= 10
    assert programs_with(sources, lambda node: isinstance(node, ast.Assign)
                         and isinstance(node.value, ast.Yield)) >= 18
    assert programs_with(sources, lambda node: isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                         and node.func.id == "StopIteration" and node.args
                         and isinstance(node.args[0], ast.Constant)) >= 5
