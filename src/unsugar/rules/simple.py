"""Statements that vanish: ``pass`` and ``global``."""

from __future__ import annotations

import ast

from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule


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
    need nothing: a name the function never binds is global.
    """
    return []
