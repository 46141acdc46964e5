"""Type parameters and ``type`` statements (PEP 695; defaults, PEP 696).

The objects are CPython's own, made by its intrinsics
(``runtime/type_params.py``), with the same laziness: a bound, the
constraints, a default and an alias's value are functions, called when first
read. As in CPython, those functions and the type parameters live in an
annotation scope: a def around them (``<generic parameters of X>``), so that
the value and the bounds see the parameters and the names around.

Not rewritten yet: generic functions and generic classes; in a class body,
a ``type`` statement with type parameters, or whose value needs statements
or reads a variable of a function around the class.
"""

from __future__ import annotations

import ast
import sys

from unsugar import builder as b
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule

#: Set on a ``type`` statement left as it is (in a class body).
KEPT = "unsugar_type_alias_kept"

_MAKERS = {
    ast.ParamSpec: "INTRINSIC_PARAMSPEC",
    ast.TypeVarTuple: "INTRINSIC_TYPEVARTUPLE",
} if sys.version_info >= (3, 12) else {}


def _evaluator(shown: str, value: ast.expr, node: ast.AST, cx: Lowerer) -> tuple[str, ast.stmt]:
    """A def under a temporary, shown as ``shown``, returning ``value`` when called."""
    name = cx.temp("lazy")
    fn = b.function(name, [], [b.ret(value)])
    fn.shown_name = shown
    return name, b.copy_location(fn, node)


def _type_param(param: ast.AST, module: ast.expr, cx: Lowerer) -> list[ast.stmt]:
    """``T = <the TypeVar, ParamSpec or TypeVarTuple>``, its bound, constraints
    and default evaluated lazily."""
    name = param.name
    out: list[ast.stmt] = []

    def make(intrinsic: str, *args: ast.expr) -> ast.expr:
        return b.call(cx.rt("type_param"), cx.string(intrinsic), module, *args)

    bound = getattr(param, "bound", None)
    if isinstance(param, ast.TypeVar) and bound is not None:
        constraints = isinstance(bound, ast.Tuple)
        evaluate, fn = _evaluator(name, bound, param, cx)
        out.append(fn)
        intrinsic = "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS" if constraints else \
            "INTRINSIC_TYPEVAR_WITH_BOUND"
        made = make(intrinsic, cx.string(name), b.load(evaluate))
    elif isinstance(param, ast.TypeVar):
        made = make("INTRINSIC_TYPEVAR", cx.string(name))
    else:
        made = make(_MAKERS[type(param)], cx.string(name))
    out.append(b.assign(name, made))
    default = getattr(param, "default_value", None)
    if default is not None:
        evaluate, fn = _evaluator(name, default, param, cx)
        out += [fn, b.expr(make("INTRINSIC_SET_TYPEPARAM_DEFAULT", b.load(name), b.load(evaluate)))]
    return b.located(out, param)


def _applies(node: ast.AST) -> bool:
    return not getattr(node, KEPT, False)


@stmt_rule(
    *((ast.TypeAlias,) if sys.version_info >= (3, 12) else ()),
    id="type-alias",
    summary="type X[T] = v is a TypeAliasType made by CPython's intrinsic, its value a "
    "function called when __value__ is first read, in an annotation scope that makes T",
    before="type Pair[T] = tuple[T, T]",
    after="def _us_typeparams_1():  # <generic parameters of Pair>\n"
    "    T = _us_type_param('INTRINSIC_TYPEVAR', globals(), 'T')\n"
    "    def _us_lazy_2():  # Pair\n        return tuple[T, T]\n"
    "    return _us_type_param('INTRINSIC_TYPEALIAS', globals(), ('Pair', (T,), _us_lazy_2))\n"
    "Pair = _us_typeparams_1()",
    reference="simple_stmts.html#the-type-statement",
    applies=_applies,
)
def lower_type_alias(node: ast.TypeAlias, cx: Lowerer) -> list[ast.stmt]:
    """In a class body the value's names are the class's first, as the class
    body's own: the value is lowered there, and the def returns what that
    gives. Kept there: one with type parameters, a value that needs
    statements or reads a variable of a function around the class."""
    value = node.value
    if cx.scope.kind == "class":
        prelude, value = cx.capture(lambda: cx.expr(node.value))
        free = cx.unit.names.fixed("namespace_free")  # reads a variable of a function around
        if prelude or node.type_params or any(
                isinstance(name, ast.Name) and name.id == free for name in ast.walk(value)):
            setattr(node, KEPT, True)
            return [node]
    alias = node.name.id
    module = b.call(cx.builtin("globals"))
    evaluate, value = _evaluator(alias, value, node, cx)
    if not node.type_params:
        made = b.call(cx.rt("type_param"), cx.string("INTRINSIC_TYPEALIAS"), module,
                      ast.Tuple(elts=[cx.string(alias), cx.none(), b.load(evaluate)], ctx=ast.Load()))
        return [value, b.assign_to(node.name, made)]
    params = [stmt for param in node.type_params for stmt in _type_param(param, module, cx)]
    names = ast.Tuple(elts=[b.load(param.name) for param in node.type_params], ctx=ast.Load())
    made = b.call(cx.rt("type_param"), cx.string("INTRINSIC_TYPEALIAS"), module,
                  ast.Tuple(elts=[cx.string(alias), names, b.load(evaluate)], ctx=ast.Load()))
    scope = cx.temp("typeparams")
    generic = b.function(scope, [], [*params, value, b.ret(made)])
    generic.shown_name = f"<generic parameters of {alias}>"
    b.copy_location(generic, node)
    return [generic, b.assign_to(node.name, b.call(b.load(scope)))]
