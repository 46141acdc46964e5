"""Random classes whose special methods answer, decline or raise, under
random operators (``operator_programs.program``), each run as written and
desugared and compared: each value or error (its message included) and the
log of the special methods called, in order. The long run is ``python
tests/operator_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast

import pytest
from difftest import assert_same
from operator_programs import program

#: seeds 0 to 39 (seed 9 has ``~True``, which CPython's compiler folds: from
#: 3.12 with a warning at compile time, which the output gave at run time)
SEEDS = list(range(40))


@pytest.mark.parametrize("seed", SEEDS)
def test_operator_program(seed: int) -> None:
    assert_same(program(seed))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: a subclass that overrides a reflected method,
    a method that declines, a special method set to None, an augmented
    assignment, a comparison of two objects."""
    sources = [program(seed) for seed in SEEDS]

    def count(text: str) -> int:
        return sum(text in source for source in sources)
    assert count("return NotImplemented") >= 30
    assert count("__ = None") >= 20
    assert sum(any(isinstance(node, ast.AugAssign) for node in ast.walk(ast.parse(source)))
               for source in sources) >= 20
    reflected = 0
    for source in sources:
        classes = {node.name: {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
                   for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ClassDef)}
        reflected += any(name.startswith("__r") for name in classes["B"] & classes["A"])
    assert reflected >= 3
