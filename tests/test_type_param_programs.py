"""Random generic functions, classes and ``type`` aliases
(``type_param_programs.program``), each run as written and desugared and
compared: when each bound, constraint, default and alias value is evaluated
(and that it is once), what it reads (a class's names first, a function's
variables, names bound later or never), and everything the objects show.
The long run is ``python tests/type_param_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast
import sys
from functools import partial

import pytest
from difftest import assert_same, programs_with
from type_param_programs import program

pytestmark = pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameters are 3.12+")

#: seeds 0 to 29
SEEDS = list(range(30))


@pytest.mark.parametrize("seed", SEEDS)
def test_type_param_program(seed: int) -> None:
    assert_same(program(seed))


def _generic(node: ast.AST) -> bool:
    return bool(getattr(node, "type_params", None))


def _lazy_values(node: ast.AST) -> list[ast.expr]:
    """The lazily evaluated expressions of a definition: bounds, defaults, an alias's value."""
    values: list[ast.expr] = []
    for param in getattr(node, "type_params", None) or []:
        values += [value for value in (getattr(param, "bound", None), getattr(param, "default_value", None))
                   if value is not None]
    if isinstance(node, ast.TypeAlias):
        values.append(node.value)
    return values


def _reads(expr: ast.expr, name: str) -> bool:
    return any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(expr))


def _annotation_scope(node: ast.AST) -> list[ast.expr]:
    """What a generic definition evaluates in its annotation scope: lazy values,
    annotations, bases and keywords."""
    values = _lazy_values(node)
    if isinstance(node, ast.FunctionDef):
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                 *filter(None, [arguments.vararg, arguments.kwarg])]
        values += [arg.annotation for arg in every if arg.annotation is not None]
        values += [node.returns] if node.returns is not None else []
    if isinstance(node, ast.ClassDef):
        values += [*node.bases, *(keyword.value for keyword in node.keywords)]
    return values


def _class_scope_read(node: ast.AST) -> bool:
    """A class holding a generic definition whose annotation scope reads a name the class binds."""
    if not isinstance(node, ast.ClassDef):
        return False
    bound = {target.id for item in node.body if isinstance(item, ast.Assign)
             for target in item.targets if isinstance(target, ast.Name)}
    return any(_generic(item) and any(_reads(value, name) for value in _annotation_scope(item) for name in bound)
               for item in node.body)


def _in_function(node: ast.AST) -> bool:
    """A plain function holding a generic definition (in a class in it too)."""
    return isinstance(node, ast.FunctionDef) and not _generic(node) and any(
        _generic(item) for item in ast.walk(node) if item is not node)


def _raising(node: ast.AST) -> bool:
    """A lazy value that reads a name nothing binds when the definition is made."""
    return any(isinstance(name, ast.Name) and name.id.startswith("missing")
               for value in _lazy_values(node) for name in ast.walk(value))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: bounds, constraints, defaults (3.13), starred
    defaults, aliases (generic ones too), generic classes (one in another),
    ``ParamSpec`` and ``TypeVarTuple``, definitions in functions, lazy values
    that read a class's names, that print when evaluated and that raise."""
    sources = [program(seed) for seed in SEEDS]
    count = partial(programs_with, sources)
    type_vars = [ast.TypeVar, ast.ParamSpec, ast.TypeVarTuple]
    assert count(lambda node: isinstance(node, ast.TypeVar) and node.bound is not None
                 and not isinstance(node.bound, ast.Tuple)) >= 25
    assert count(lambda node: isinstance(node, ast.TypeVar) and isinstance(node.bound, ast.Tuple)) >= 10
    if sys.version_info >= (3, 13):
        assert count(lambda node: isinstance(node, tuple(type_vars))
                     and node.default_value is not None) >= 25
        assert count(lambda node: isinstance(node, ast.TypeVarTuple)
                     and isinstance(node.default_value, ast.Starred)) >= 12
    assert count(lambda node: isinstance(node, ast.TypeAlias)) >= 22
    assert count(lambda node: isinstance(node, ast.TypeAlias) and _generic(node)) >= 20
    assert count(lambda node: isinstance(node, ast.ClassDef) and _generic(node)) >= 25
    assert count(lambda node: isinstance(node, ast.ClassDef) and _generic(node) and any(
        isinstance(item, ast.ClassDef) and _generic(item) for item in node.body)) >= 4
    assert count(lambda node: isinstance(node, ast.FunctionDef) and _generic(node)) >= 25
    assert count(lambda node: isinstance(node, ast.ParamSpec)) >= 20
    assert count(lambda node: isinstance(node, ast.TypeVarTuple)) >= 20
    assert count(_in_function) >= 20
    assert count(lambda node: isinstance(node, ast.Nonlocal)) >= 12
    assert count(_class_scope_read) >= 6
    assert count(_raising) >= 15
    assert count(lambda node: any(isinstance(call, ast.Call) and getattr(call.func, "id", "") == "note"
                                  for value in _lazy_values(node) for call in ast.walk(value))) >= 15
