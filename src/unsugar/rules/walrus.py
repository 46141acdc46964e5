"""Assignment expressions: ``(x := v)``."""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule
from unsugar.trees import copy_tree


@expr_rule(
    ast.NamedExpr,
    id="walrus",
    summary="(x := v) stores v in x before the statement goes on; its value is v",
    before="y = (x := g())",
    after="_us_walrus_1 = g()\nx = _us_walrus_1\ny = _us_walrus_1",
    reference="expressions.html#assignment-expressions",
    custom_order=True,
)
def lower_walrus(node: ast.NamedExpr, cx: Lowerer) -> ast.expr:
    """The value is kept in a temporary: reading ``x`` again later in the
    statement could see another value. The store is an ordinary assignment,
    so ``global`` names and private-name mangling are handled there. (Custom
    order: the target is not an expression to evaluate.)
    """
    value = cx.spill(cx.expr(node.value), "walrus")
    cx.emit(*cx.block([b.assign_to(b.store(node.target.id), value)]))
    return copy_tree(value)  # (one node, one place)
