"""What code sees of its own variables: ``locals()``, ``vars()``, ``dir()``, ``exec``, ``eval``."""

from __future__ import annotations

import ast

from unsugar import builder as b
from unsugar.lowering import Lowerer
from unsugar.namespaces import ClassNamespace
from unsugar.registry import expr_rule
from unsugar.trees import NAMESPACE_CALL_MARK


def _reads_locals(node: ast.Call) -> bool:
    """A call of ``locals``, ``vars`` or ``dir`` by that name (one in a module
    or class body is ``namespace-callee``'s)."""
    return isinstance(node.func, ast.Name) and node.func.id in ("locals", "vars", "dir") \
        and not hasattr(node, NAMESPACE_CALL_MARK)


@expr_rule(
    ast.Call,
    id="locals",
    summary="locals(), vars() and dir() in a function leave out the compiler's temporaries and "
    "the variables del has unbound",
    before="def f(x):\n    del x\n    return locals()",
    after="def f(x):\n    x = _us_unbind_local(x, _us_s_x)\n    _us_t_1 = locals\n"
    "    return _us_visible_locals(_us_t_1(), _us_t_1, _us_s__us_)",
    reference="executionmodel.html#naming-and-binding",
    applies=_reads_locals,
)
def lower_locals(node: ast.Call, cx: Lowerer) -> ast.expr:
    """Only when the name is the builtin's at run time: the helper checks."""
    if cx.scope.kind != "function" or node.args or node.keywords:
        return node
    function = cx.spill(node.func)
    return b.call(cx.rt("visible_locals"), b.call(function), function,
                  cx.string(cx.unit.names.prefix))


def _may_read_namespace(node: ast.Call) -> bool:
    return hasattr(node, NAMESPACE_CALL_MARK)


@expr_rule(
    ast.Call,
    id="namespace-callee",
    summary="in a module or class body, exec, eval, locals, vars and dir read its namespace, "
    "under their names or others (six's exec_ = exec): a call of anything but a def, a class "
    "or another builtin looks at its callee when it runs",
    before="exec_ = exec\nexec_('def f(): pass')",
    after="exec_ = exec\n_us_namespace_callee(_us_namespace, exec_)(_us_str_1)",
    reference="executionmodel.html#naming-and-binding",
    applies=_may_read_namespace,
)
def lower_namespace_callee(node: ast.Call, cx: Lowerer) -> ast.expr:
    """The calls of the input in a module or class body that becomes a function
    (the ``del`` analysis marks them); a function body's calls read its own
    frame, as CPython's do."""
    namespace = cx.scope.namespace
    if namespace is None:  # a class body kept (a generic class's, with its rule kept)
        return node
    cells = namespace.synced_cells if isinstance(namespace, ClassNamespace) else 0
    if cells:  # the body's cells are synced into its namespace as it is read
        node.func = b.call(cx.rt("namespace_callee_synced"), b.load(namespace.param), node.func,
                           b.int_(cells))
    else:
        node.func = b.call(cx.rt("namespace_callee"), b.load(namespace.param), node.func)
    return node


#: the names a call of ``warnings.warn`` is written with: ``warnings.warn``,
#: ``warn`` (``from warnings import warn``), and ``_warn``
WARN_NAMES = frozenset({"warn", "_warn"})


def _may_be_warn(node: ast.Call) -> bool:
    """A call of ``.warn`` or of a name of :data:`WARN_NAMES` (one of a module or
    class body is ``namespace-callee``'s)."""
    func = node.func
    named = func.attr == "warn" if isinstance(func, ast.Attribute) else \
        isinstance(func, ast.Name) and func.id in WARN_NAMES
    return named and not hasattr(node, NAMESPACE_CALL_MARK)


@expr_rule(
    ast.Call,
    id="warn-callee",
    summary="warnings.warn(message, stacklevel=n) names the frame n - 1 callers out: a call that may "
    "be of warn counts them over the frames CPython runs, not the runtime's helpers",
    before="def deprecated():\n    warnings.warn('old', stacklevel=2)",
    after="def deprecated():\n    _us_warn_callee(_us_getattr(warnings, _us_s_warn))(_us_s_old, stacklevel=2)",
    reference="expressions.html#calls",
    applies=_may_be_warn,
)
def lower_warn_callee(node: ast.Call, cx: Lowerer) -> ast.expr:
    """A call of ``.warn`` or of ``warn`` (``namespace-callee`` covers the
    calls of a module or class body): the helper looks at the callee when the
    call runs, and gives ``warn_counted`` for ``warnings.warn``."""
    node.func = b.call(cx.rt("warn_callee"), node.func)
    return node
