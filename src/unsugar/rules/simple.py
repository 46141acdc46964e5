"""Statements that vanish: ``pass`` and ``global``."""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule, stmt_rule
from unsugar.trees import GLOBAL_MARK


@stmt_rule(
    ast.Pass,
    id="pass",
    summary="pass does nothing, so it is dropped (an empty block gets a no-op)",
    before="if x:\n    pass",
    after="_us_if1 = x\nwhile _us_if1:\n    _us_if1 = 0",
    reference="simple_stmts.html#the-pass-statement",
)
def lower_pass(node: ast.Pass, cx: Lowerer) -> list[ast.stmt]:
    return []


@stmt_rule(
    ast.Global,
    id="global",
    summary="global is dropped; stores and deletes of the name go to the module's dict",
    before="def f():\n    global n\n    n = 1",
    after="def f():\n    _us_global_set(_us_s_n, 1)",
    reference="simple_stmts.html#the-global-statement",
)
def lower_global(node: ast.Global, cx: Lowerer) -> list[ast.stmt]:
    """Every binding of a declared name ends as a plain assignment, which the
    lowering turns into ``global_set``; ``del`` uses ``global_delete``. Reads
    mostly need nothing: a name the function never binds is global; the
    others are ``global-read``.
    """
    return []


@expr_rule(
    ast.Name,
    id="global-read",
    summary="a read of a global name that an enclosing function also binds "
    "looks in the module's dict, then the builtins",
    before="def f():\n    n = 0\n    def g():\n        global n\n        return n",
    after="def f():\n    n = 0\n    def g():\n        return _us_global_value(_us_s_n)",
    reference="simple_stmts.html#the-global-statement",
    applies=lambda node: isinstance(node.ctx, ast.Load),
    marked=GLOBAL_MARK,
)
def lower_global_read(node: ast.Name, cx: Lowerer) -> ast.expr:
    return b.call(cx.rt("global_value"), cx.string(cx.mangle(node.id)))
