"""What code sees of its own variables: ``locals()``, ``vars()``, ``dir()``, ``exec``, ``eval``."""

from __future__ import annotations

import sys

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.namespaces import ClassNamespace
from unsugar.registry import expr_rule
from unsugar.rules.coroutines import COROUTINE_MARK
from unsugar.rules.functions import names_function_type
from unsugar.trees import NAMESPACE_CALL_MARK, copy_tree

#: whether a comprehension inlined in a module or class body (3.12) shows its
#: namespace too: from 3.13 it shows only its own variables
INLINED_SHOWS_NAMESPACE = sys.version_info < (3, 13)


#: the names of the builtins that show a frame's variables
LOCALS_NAMES = frozenset({"locals", "vars", "dir"})


def _reads_locals(node: ast.Call) -> bool:
    """A call of ``locals``, ``vars`` or ``dir`` by that name (one in a module
    or class body is ``namespace-callee``'s)."""
    return isinstance(node.func, ast.Name) and node.func.id in LOCALS_NAMES \
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
    selects=LOCALS_NAMES,
)
def lower_locals(node: ast.Call, cx: Lowerer) -> ast.expr:
    """Only when the name is the builtin's at run time: the helper checks. In
    the def of a comprehension, it shows the variables of the frames CPython's
    frame holds (:func:`_frames_shown`)."""
    if cx.scope.kind != "function" or node.args or node.keywords:
        return node
    function = cx.spill(node.func)
    prefix = cx.string(cx.unit.names.prefix)
    frames = _frames_shown(cx)
    if frames is None:
        return b.call(cx.rt("visible_locals"), b.call(function), copy_tree(function), prefix)
    return b.call(cx.rt("comprehension_locals"), b.call(function), copy_tree(function), prefix,
                  *map(cx.string, frames))


def _frames_shown(cx: Lowerer) -> list[str] | None:
    """In the def of a comprehension, what ``locals()`` shows, one item for each
    frame from the outermost (``comprehension_locals``): the name of its
    iterator argument, shown as ``.0``, or ``""``. Up to 3.11 and for a
    generator expression, the def's own frame with its ``.0``; a list, set or
    dict comprehension inlined from 3.12 shows the frame it runs in as well
    (with its ``.0`` if that is a generator expression's; a module or class
    body's namespace only on 3.12). None outside a comprehension."""
    if getattr(cx.scope.node, "comprehension_frame", None) is None:
        return None
    frames: list[str] = []
    for scope in reversed(cx.scopes):
        node = scope.node
        if scope.kind != "function":
            if INLINED_SHOWS_NAMESPACE:
                frames.append("")
            break
        inlined = hasattr(node, "hidden_locals") and not getattr(node, COROUTINE_MARK, False)
        frames.append("" if inlined else getattr(node, "frame_locals", ("",))[0])
        if not inlined:
            break
    return frames[::-1]


def _may_read_namespace(node: ast.Call) -> bool:
    """A call of a module or class body (a call of ``FunctionType`` is
    ``function-type-callee``'s)."""
    return hasattr(node, NAMESPACE_CALL_MARK) and not names_function_type(node.func)


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
    custom_order=True,
)
def lower_namespace_callee(node: ast.Call, cx: Lowerer) -> ast.expr:
    """The calls of the input in a module or class body that becomes a function
    (the ``del`` analysis marks them); a function body's calls read its own
    frame, as CPython's do. A call written ``exec(code, ...)`` is also given
    the keywords of ``exec-callee`` (told before its callee is lowered: a
    class body reads ``exec`` from its namespace)."""
    runs_code = _runs_code(node)
    cx.lower_children(node)
    namespace = cx.scope.namespace
    if namespace is None:  # a class body kept (a generic class's, with its rule kept)
        return node
    if runs_code:
        _give_exec_closure(node, cx)
    cells = namespace.synced_cells if isinstance(namespace, ClassNamespace) else 0
    if cells:  # the body's cells are synced into its namespace as it is read
        node.func = b.call(cx.rt("namespace_callee_synced"), b.load(namespace.param), node.func,
                           b.int_(cells))
    else:
        node.func = b.call(cx.rt("namespace_callee"), b.load(namespace.param), node.func)
    return node


def _runs_code(node: ast.Call) -> bool:
    """A call written ``exec(code, ...)`` whose keywords may take a closure:
    its first argument is not starred, and it has no ``closure=`` or ``**``."""
    return isinstance(node.func, ast.Name) and node.func.id == "exec" and bool(node.args) \
        and not isinstance(node.args[0], ast.Starred) \
        and all(keyword.arg not in ("closure", None) for keyword in node.keywords)


def _give_exec_closure(node: ast.Call, cx: Lowerer) -> None:
    """``exec(code, ...)`` -> ``f = exec; c = code; f(c, ..., **_us_exec_closure(f, c, prefix))``."""
    node.func = cx.spill(node.func)
    node.args[0] = cx.spill(node.args[0])
    closure = b.call(cx.rt("exec_closure"), copy_tree(node.func), copy_tree(node.args[0]),
                     cx.string(cx.unit.names.prefix))
    node.keywords.append(ast.keyword(arg=None, value=closure))


@expr_rule(
    ast.Call,
    id="exec-callee",
    summary="exec(code) of a desugared function's code gets the cells of the runtime helpers the "
    "code reads as its closure",
    before="def run(function):\n    exec(function.__code__, {})",
    after="def run(function):\n    _us_t_1 = exec\n    _us_t_2 = _us_getattr(function, _us_s___code__)\n"
    "    _us_t_1(_us_t_2, {}, **_us_exec_closure(_us_t_1, _us_t_2, _us_s__us_))",
    reference="executionmodel.html#interaction-with-dynamic-features",
    applies=lambda node: _runs_code(node) and not hasattr(node, NAMESPACE_CALL_MARK),
    selects=("exec",),
)
def lower_exec_callee(node: ast.Call, cx: Lowerer) -> ast.expr:
    """A desugared function closes over the runtime helpers it reads, where
    CPython's has no free variables, so ``exec(f.__code__, namespace)`` would
    refuse its code (``code object requires a closure of exactly length
    N``): when the callee is ``exec``, the helper gives the cells
    (``runtime/functions.py``). The call stays in the caller's frame, whose
    globals and locals ``exec`` reads when it is given none. In a module or
    class body, ``namespace-callee`` adds the same keywords."""
    _give_exec_closure(node, cx)
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
    selects=WARN_NAMES,
)
def lower_warn_callee(node: ast.Call, cx: Lowerer) -> ast.expr:
    """A call of ``.warn`` or of ``warn`` (``namespace-callee`` covers the
    calls of a module or class body): the helper looks at the callee when the
    call runs, and gives ``warn_counted`` for ``warnings.warn``."""
    node.func = b.call(cx.rt("warn_callee"), node.func)
    return node
