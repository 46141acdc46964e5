"""What a function sees of its own variables: ``locals()`` and ``vars()``."""

from __future__ import annotations

import ast

from unsugar import builder as b
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule


def _reads_locals(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id in ("locals", "vars") \
        and not node.args and not node.keywords


@expr_rule(
    ast.Call,
    id="locals",
    summary="locals() (and vars()) in a function leave out the compiler's temporaries and "
    "the variables del has unbound",
    before="def f(x):\n    del x\n    return locals()",
    after="def f(x):\n    x = _us_unbind_local(x, _us_s_x)\n    _us_t_1 = locals\n"
    "    return _us_visible_locals(_us_t_1(), _us_t_1, _us_s__us_)",
    reference="executionmodel.html#naming-and-binding",
    applies=_reads_locals,
)
def lower_locals(node: ast.Call, cx: Lowerer) -> ast.expr:
    """Only in a function (a module's or a class's ``locals()`` is its
    namespace), and only when the name is the builtin's at run time."""
    if cx.scope.kind != "function":
        return node
    function = cx.spill(node.func)
    return b.call(cx.rt("visible_locals"), b.call(function), function,
                  cx.string(cx.unit.names.prefix))
