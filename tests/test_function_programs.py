"""Random function definitions whose making and calling are logged
(``function_programs.program``), each run as written and desugared and
compared: when each decorator, default and annotation is evaluated (and the
text of an annotation under ``from __future__ import annotations``), what
decorators return, every attribute a function shows (names, qualified
names, defaults, annotations, docstrings, argument counts and parameter
names, ``__wrapped__``, its own attributes, its signature), and what calls
with every kind of argument return or raise (the ``TypeError`` messages of
wrong calls included). The long run is ``python tests/function_programs.py FIRST COUNT``."""

from __future__ import annotations

import ast
from functools import partial

import pytest
from difftest import assert_same, programs_with
from function_programs import program

#: seeds 0 to 29
SEEDS = list(range(30))


@pytest.mark.parametrize("seed", SEEDS)
def test_function_program(seed: int) -> None:
    assert_same(program(seed))


def _defs(node: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda]:
    return [item for item in ast.walk(node)
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]


def _decorated_by(name: str, node: ast.AST) -> bool:
    """A def with a decorator that calls ``name`` (or names it)."""
    return isinstance(node, ast.FunctionDef) and any(
        isinstance(item, ast.Name) and item.id == name
        for decorator in node.decorator_list for item in ast.walk(decorator))


def _logged(expr: ast.expr | None) -> bool:
    return expr is not None and any(isinstance(item, ast.Call) and getattr(item.func, "id", "") == "log"
                                    for item in ast.walk(expr))


def _arguments(node: ast.AST) -> ast.arguments | None:
    return node.args if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) else None


def _yield_in_header(node: ast.AST) -> bool:
    """A def whose decorator, default or annotation yields (to the generator around it)."""
    if not isinstance(node, ast.FunctionDef):
        return False
    arguments = node.args
    header = [*node.decorator_list, *arguments.defaults, *filter(None, arguments.kw_defaults),
              *(arg.annotation for arg in [*arguments.args, *arguments.kwonlyargs] if arg.annotation)]
    return any(isinstance(item, ast.Yield) for expr in header for item in ast.walk(expr))


def test_the_programs_hold_the_shapes_they_are_for() -> None:
    """Among the seeds tested: the future import and not, stacked decorators
    of each kind (one that raises), logged defaults, keyword-only defaults and
    annotations, mutable defaults, positional-only parameters, ``*args`` and
    ``**kwargs``, calls with ``*`` and ``**``, methods, static and class
    methods, nested classes, lambdas, closures with ``nonlocal``, defs under
    ``global``, defs in loops and under an ``if``, recursion, coroutine and
    generator functions, and defs whose header yields."""
    sources = [program(seed) for seed in SEEDS]
    count = partial(programs_with, sources)
    future = sum(source.startswith("from __future__ import annotations") for source in sources)
    assert 6 <= future <= 24
    assert count(lambda node: isinstance(node, ast.FunctionDef) and len(node.decorator_list) >= 2) >= 14
    for name in ("deco", "wrapping", "replacing", "to_class", "staticmethod", "classmethod", "raising"):
        assert count(partial(_decorated_by, name)) >= 4, name
    assert count(partial(_decorated_by, "with_attr")) >= 2
    assert count(lambda node: (args := _arguments(node)) is not None
                 and any(_logged(default) for default in args.defaults)) >= 25
    assert count(lambda node: (args := _arguments(node)) is not None
                 and any(_logged(default) for default in args.kw_defaults)) >= 14
    assert count(lambda node: (args := _arguments(node)) is not None
                 and any(_logged(arg.annotation) for arg in [*args.posonlyargs, *args.args])) >= 10
    assert count(lambda node: isinstance(node, ast.FunctionDef) and _logged(node.returns)) >= 10
    assert count(lambda node: (args := _arguments(node)) is not None and len(args.posonlyargs) > 0) >= 25
    assert count(lambda node: (args := _arguments(node)) is not None and args.vararg is not None) >= 25
    assert count(lambda node: (args := _arguments(node)) is not None and args.kwarg is not None) >= 25
    assert count(lambda node: isinstance(node, ast.Starred) and _logged(node.value)) >= 15
    assert count(lambda node: isinstance(node, ast.keyword) and node.arg is None) >= 15
    assert count(lambda node: isinstance(node, ast.ClassDef)
                 and any(isinstance(item, ast.FunctionDef) for item in node.body)) >= 15
    assert count(lambda node: isinstance(node, ast.ClassDef)
                 and any(isinstance(item, ast.ClassDef) for item in node.body)) >= 5
    assert count(lambda node: isinstance(node, ast.Nonlocal)) >= 6
    assert count(lambda node: isinstance(node, ast.Global)) >= 3
    assert count(lambda node: isinstance(node, ast.For)
                 and any(isinstance(item, ast.FunctionDef) for item in node.body)) >= 3
    assert count(lambda node: isinstance(node, ast.If)
                 and any(isinstance(item, ast.FunctionDef) for item in node.body)) >= 3
    assert count(lambda node: isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda)) >= 12
    assert count(lambda node: isinstance(node, ast.AsyncFunctionDef)) >= 2
    assert count(_yield_in_header) >= 4
    assert count(lambda node: isinstance(node, ast.NamedExpr)) >= 5
