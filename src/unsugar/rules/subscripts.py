"""Subscription and slicing: ``x[k]`` is ``subscript_get(x, k)``.

``x[a:b:c]`` passes ``slice(a, b, c)`` (a missing bound is ``None``);
``x[a, b]`` passes the tuple ``(a, b)``, built by the tuple display rule.
Stores and deletes (``x[k] = v``, ``del x[k]``) belong to the assignment and
deletion rules, which call ``subscript_set`` and ``subscript_delete``.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule


@expr_rule(
    ast.Subscript,
    id="subscript",
    summary="x[k] calls __getitem__ of x's type, or __class_getitem__ of a class",
    before="x[k]",
    after="_us_subscript_get(x, k)",
    reference="expressions.html#subscriptions",
    applies=lambda node: isinstance(node.ctx, ast.Load),
)
def lower_subscript(node: ast.Subscript, cx: Lowerer) -> ast.expr:
    """A slice kept as ``a:b`` (``--keep slice``) cannot be an argument: keep ``x[a:b]``."""
    if isinstance(node.slice, ast.Slice):
        return node
    return b.call(cx.rt("subscript_get"), node.value, node.slice)


@expr_rule(
    ast.Slice,
    id="slice",
    summary="a:b:c in a subscript is slice(a, b, c), None for a missing part",
    before="x[a:b]",
    after="_us_subscript_get(x, _us_slice(a, b, _us_none))",
    reference="expressions.html#slicings",
)
def lower_slice(node: ast.Slice, cx: Lowerer) -> ast.expr:
    parts = [cx.none() if part is None else part for part in (node.lower, node.upper, node.step)]
    return b.call(cx.builtin("slice"), *parts)
