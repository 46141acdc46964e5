"""Attribute access: ``x.y`` is ``getattr(x, "y")``.

Stores and deletes (``x.y = v``, ``del x.y``) belong to the assignment and
deletion rules; this family reads attributes.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule


@expr_rule(
    ast.Attribute,
    id="attribute",
    summary="x.y is getattr(x, 'y'), with private names mangled inside classes",
    before="x.y",
    after="_us_getattr(x, _us_s_y)",
    reference="expressions.html#attribute-references",
    applies=lambda node: isinstance(node.ctx, ast.Load),
)
def lower_attribute(node: ast.Attribute, cx: Lowerer) -> ast.expr:
    """``x.__p`` in class ``C`` reads ``getattr(x, "_C__p")``."""
    return b.call(cx.builtin("getattr"), node.value, cx.string(cx.mangle(node.attr)))
