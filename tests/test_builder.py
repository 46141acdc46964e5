"""The builder's node makers (``unsugar.trees.node_maker``): a node made by
setting its fields, as 3.13 makes them, is the node its class makes."""

from __future__ import annotations

import ast
from collections.abc import Callable

import pytest

from unsugar import builder as b
from unsugar.trees import node_maker

NAME = ast.Name("x", ast.Load())
MADE = [
    (b.make_name, ast.Name, ("x", b.LOAD)),
    (b.make_constant, ast.Constant, (1,)),
    (b.make_call, ast.Call, (NAME, [NAME], [])),
    (b.make_assign, ast.Assign, ([ast.Name("t", b.STORE)], NAME)),
    (b.make_expr, ast.Expr, (NAME,)),
    (b.make_return, ast.Return, (None,)),
    (b.make_raise, ast.Raise, (NAME, None)),
    (b.make_if, ast.If, (NAME, [ast.Pass()], [])),
    (b.make_while, ast.While, (NAME, [ast.Pass()], [])),
    (b.make_try, ast.Try, ([ast.Pass()], [], [], [ast.Pass()])),
    (b.make_handler, ast.ExceptHandler, (None, None, [ast.Pass()])),
    (b.make_function, ast.FunctionDef, ("f", ast.arguments([], [], None, [], [], None, []), [ast.Pass()], [], None)),
    (b.make_arguments, ast.arguments, ([], [ast.arg("a")], None, [], [], None, [])),
    (b.make_arg, ast.arg, ("a",)),
]


@pytest.mark.parametrize(("make", "cls", "fields"), MADE, ids=[cls.__name__ for _, cls, _ in MADE])
def test_a_node_maker_makes_what_the_class_makes(
    make: Callable[..., ast.AST], cls: type[ast.AST], fields: tuple[object, ...]
) -> None:
    made, constructed = make(*fields), cls(*fields)
    assert type(made) is cls
    assert list(made.__dict__.items()) == list(constructed.__dict__.items())
    assert ast.dump(made, include_attributes=True) == ast.dump(constructed, include_attributes=True)


def test_a_node_maker_takes_the_first_fields_in_order() -> None:
    with pytest.raises(ValueError, match="not"):
        node_maker(ast.Assign, "value", "targets")
