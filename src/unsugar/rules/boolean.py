"""``not``, ``and``, ``or`` and the conditional expression ``x if c else y``.

``and``/``or`` and ``x if c else y`` run only some of their operands, so they
become statements before the current one. Each operand's truth is tested
once; long chains stay flat (a flag says whether to go on) so that the
nesting of the output does not grow with the length of the chain.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from unsugar import builder as b
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule


@expr_rule(
    ast.UnaryOp,
    id="not",
    summary="not x tests the truth of x once and returns a real bool",
    before="not x",
    after="_us_logical_not(x)",
    reference="expressions.html#boolean-operations",
    applies=lambda node: isinstance(node.op, ast.Not),
)
def lower_not(node: ast.UnaryOp, cx: Lowerer) -> ast.expr:
    return b.call(cx.rt("logical_not"), node.operand)


@expr_rule(
    ast.BoolOp,
    id="and",
    summary="a and b: b is evaluated only when a is true; the value is an operand",
    before="r = a and b",
    after="_us_and_1 = a\nif _us_and_1:\n    _us_and_1 = b\nr = _us_and_1",
    reference="expressions.html#boolean-operations",
    applies=lambda node: isinstance(node.op, ast.And),
    custom_order=True,
)
def lower_and(node: ast.BoolOp, cx: Lowerer) -> ast.expr:
    """``a and b and c`` (three operands or more) goes on while a flag is set::

    t = a; more = bool(t)
    if more: t = b; more = bool(t)
    if more: t = c
    """
    return _chain(node.values, cx, "and", lambda t: t, lambda t: b.call(cx.builtin("bool"), t))


@expr_rule(
    ast.BoolOp,
    id="or",
    summary="a or b: b is evaluated only when a is false; the value is an operand",
    before="r = a or b",
    after="_us_or_1 = a\nif _us_logical_not(_us_or_1):\n    _us_or_1 = b\nr = _us_or_1",
    reference="expressions.html#boolean-operations",
    applies=lambda node: isinstance(node.op, ast.Or),
    custom_order=True,
)
def lower_or(node: ast.BoolOp, cx: Lowerer) -> ast.expr:
    """``a or b or c``: as ``and``, with ``more = logical_not(t)``."""

    def negate(t: ast.expr) -> ast.expr:
        return b.call(cx.rt("logical_not"), t)

    return _chain(node.values, cx, "or", negate, negate)


def _chain(
    values: list[ast.expr],
    cx: Lowerer,
    hint: str,
    test: Callable[[ast.expr], ast.expr],
    go_on: Callable[[ast.expr], ast.expr],
) -> ast.expr:
    """Evaluate ``values`` into one temporary until one decides the result.

    ``test(t)`` is the ``if`` test of a two-operand form, ``go_on(t)`` the
    flag of a longer chain; each tests the truth of ``t`` once.
    """
    result = cx.temp(hint)
    cx.emit(b.assign(result, cx.expr(values[0])))
    if len(values) == 2:
        cx.emit(b.if_(test(b.load(result)), _evaluate_into(result, values[1], cx)))
        return b.load(result)
    more = cx.temp("more")
    cx.emit(b.assign(more, go_on(b.load(result))))
    for value in values[1:-1]:
        then = _evaluate_into(result, value, cx)
        cx.emit(b.if_(b.load(more), [*then, b.assign(more, go_on(b.load(result)))]))
    cx.emit(b.if_(b.load(more), _evaluate_into(result, values[-1], cx)))
    return b.load(result)


@expr_rule(
    ast.IfExp,
    id="ifexp",
    summary="x if c else y: c first, then only the chosen branch",
    before="r = x if c else y",
    after="if c:\n    _us_ifexp_1 = x\nelse:\n    _us_ifexp_1 = y\nr = _us_ifexp_1",
    reference="expressions.html#conditional-expressions",
    custom_order=True,
)
def lower_ifexp(node: ast.IfExp, cx: Lowerer) -> ast.expr:
    """A chain ``x if c else y if d else z`` stays flat::

    pending = 1
    if c: pending = 0; t = x
    if pending:
        if d: pending = 0; t = y
    if pending: t = z
    """
    result = cx.temp("ifexp")
    branches: list[tuple[ast.expr, ast.expr]] = []
    last: ast.expr = node
    while isinstance(last, ast.IfExp):
        branches.append((last.test, last.body))
        last = last.orelse
    if len(branches) == 1:
        test = cx.expr(node.test)
        then = _evaluate_into(result, node.body, cx)
        cx.emit(b.if_(test, then, _evaluate_into(result, last, cx)))
        return b.load(result)
    pending = cx.temp("pending")
    cx.emit(b.assign(pending, b.int_(1)))
    for i, (condition, value) in enumerate(branches):
        stmts, test = cx.capture(lambda condition=condition: cx.expr(condition))
        chosen = [b.assign(pending, b.int_(0)), *_evaluate_into(result, value, cx)]
        stmts.append(b.if_(test, chosen))
        if i == 0:
            cx.emit(*stmts)
        else:
            cx.emit(b.if_(b.load(pending), stmts))
    cx.emit(b.if_(b.load(pending), _evaluate_into(result, last, cx)))
    return b.load(result)


def _evaluate_into(name: str, value: ast.expr, cx: Lowerer) -> list[ast.stmt]:
    """The statements that evaluate ``value`` and store it in ``name``."""
    stmts, lowered = cx.capture(lambda: cx.expr(value))
    return [*stmts, b.assign(name, lowered)]
