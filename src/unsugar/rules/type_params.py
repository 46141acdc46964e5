"""Type parameters, generic defs and classes, ``type`` statements (PEP 695; defaults, PEP 696).

The objects are CPython's own, made by its intrinsics
(``runtime/type_params.py``), with the same laziness: a bound, the
constraints, a default and an alias's value are functions, called when first
read. As in CPython, those functions and the type parameters live in an
annotation scope: a def around them (``<generic parameters of X>``) that
makes the parameters, then the function, class or alias, and returns it.
What it defines is named as if it were not there (``C.f``, not
``C.<generic parameters of f>.<locals>.f``). In a class body an annotation
scope reads the class's names first (``namespaces.ClassAnnotations``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import cache
from types import CodeType

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer, mangle
from unsugar.namespaces import PARAMETER_MARK, ClassAnnotations, ClassNamespace
from unsugar.registry import stmt_rule
from unsugar.rules.classes import TYPE_PARAMS
from unsugar.rules.functions import docstring_of
from unsugar.trees import lazy_values

_MAKERS = {
    ast.ParamSpec: "INTRINSIC_PARAMSPEC",
    ast.TypeVarTuple: "INTRINSIC_TYPEVARTUPLE",
} if sys.version_info >= (3, 12) else {}
_ALIAS = (ast.TypeAlias,) if sys.version_info >= (3, 12) else ()


class _Scope:
    """The annotation scope of one generic definition, being built."""

    def __init__(self, node: ast.AST, shown: str, cx: Lowerer) -> None:
        self.node = node
        self.shown = shown
        self.cx = cx
        # a generic class's annotation scope mangles private names as the class does
        self.class_name = node.name if isinstance(node, ast.ClassDef) else cx.scope.class_name
        names = frozenset(mangle(param.name, self.class_name) for param in node.type_params)
        self.annotations = self.lazy_annotations = None
        outer = cx.scope.annotations
        namespace = outer.namespace if outer is not None else cx.scope.namespace
        if isinstance(namespace, ClassNamespace):  # in a class: its names are read first
            around = outer.own if outer is not None else frozenset()
            # cells: the parameters of the scopes around, and those a nested scope reads
            cells = around | names & _read_in_nested_scopes(node, self.class_name)
            self.annotations = ClassAnnotations(namespace, around | names, cells)
            # (in a bound, a default or an alias's value, every parameter is free)
            self.lazy_annotations = ClassAnnotations(namespace, around | names, around | names)
        qualname = cx.qualname(shown)
        self.prefix = qualname[:len(qualname) - len(shown)]  # of what it defines
        self.mangled = frozenset(param.name for param in node.type_params) \
            if isinstance(node, ast.ClassDef) and _mangles_only_parameters() else None

    def define(self, hint: str, shown: str, body: list[ast.stmt], inner: str | None = "") -> ast.FunctionDef:
        """A def of this annotation scope (or one nested in it), shown as
        ``shown``, whose own defs are named from ``inner`` (by default as if
        the def were not there; None: as in any def, ``shown.<locals>.``)."""
        fn = b.function(self.cx.temp(hint), [], body)
        fn.shown_name = shown
        if inner is not None:
            fn.inner_qualname = self.prefix + inner
        fn.mangles_as = self.class_name
        if self.mangled is not None:
            fn.mangled_names = self.mangled
        annotations = self.annotations if hint != "lazy" else self.lazy_annotations
        if annotations is not None:
            fn.class_annotations = annotations
        return b.copy_location(fn, self.node)

    def lazy(self, shown: str, value: ast.expr, inner: str | None) -> tuple[ast.stmt, ast.Name]:
        """A def returning ``value`` when called (a bound, a default, a value),
        its own defs named from ``inner`` (:meth:`define`). A starred default
        of a ``TypeVarTuple`` (``*Ts = *tuple[int, str]``) is the one item of
        its value, as CPython's ``UNPACK_SEQUENCE 1`` takes it::

            def _us_lazy_1():
                (_us_item_2,) = tuple[int, str]
                return _us_item_2
        """
        if type(value) is ast.Starred:
            item = self.cx.temp("item")
            body = [b.assign_to(ast.Tuple(elts=[b.store(item)], ctx=ast.Store()), value.value),
                    b.ret(b.load(item))]
        else:
            body = [b.ret(value)]
        fn = self.define("lazy", shown, b.located(body, value), inner)
        return fn, b.load(fn.name)

    def lazy_of_parameter(self, name: str, value: ast.expr) -> tuple[ast.stmt, ast.Name]:
        """The lazy def of a bound, constraints or a default of parameter
        ``name``. CPython names what it defines as if it were not there, but
        not the annotation scope around it: a lambda there is
        ``<generic parameters of X>.<lambda>``."""
        return self.lazy(name, value, f"<generic parameters of {self.shown}>.")

    def make(self, intrinsic: str, *args: ast.expr) -> ast.expr:
        """Intrinsic ``intrinsic`` of ``args``."""
        return b.call(self.cx.rt("type_param"), self.cx.string(intrinsic), *args)

    def parameters(self) -> list[ast.stmt]:
        """``T = <TypeVar, ParamSpec or TypeVarTuple>`` for each type parameter."""
        return [stmt for param in self.node.type_params for stmt in self._parameter(param)]

    def names(self) -> ast.Tuple:
        """``(T, U, ...)``."""
        return ast.Tuple(elts=[_parameter(param.name) for param in self.node.type_params], ctx=ast.Load())

    def _parameter(self, param: ast.AST) -> list[ast.stmt]:
        """``T = ...``, its bound or constraints and its default evaluated lazily."""
        name, cx = param.name, self.cx
        out: list[ast.stmt] = []
        bound = getattr(param, "bound", None)
        if isinstance(param, ast.TypeVar) and bound is not None:
            fn, evaluate = self.lazy_of_parameter(name, bound)
            out.append(fn)
            constraints = isinstance(bound, ast.Tuple) and not (_is_constant(bound) and _folds_constraints())
            intrinsic = "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS" if constraints else "INTRINSIC_TYPEVAR_WITH_BOUND"
            made = self.make(intrinsic, cx.string(name), evaluate)
        elif isinstance(param, ast.TypeVar):
            made = self.make("INTRINSIC_TYPEVAR", cx.string(name))
        else:
            made = self.make(_MAKERS[type(param)], cx.string(name))
        out.append(b.assign(name, made))
        default = getattr(param, "default_value", None)
        if default is not None:
            fn, evaluate = self.lazy_of_parameter(name, default)
            out += [fn, b.expr(self.make("INTRINSIC_SET_TYPEPARAM_DEFAULT", _parameter(name), evaluate))]
        return b.located(out, param)

    def call(self, body: list[ast.stmt]) -> tuple[ast.stmt, ast.expr]:
        """The annotation scope's def, running ``body``, and its call."""
        fn = self.define("typeparams", f"<generic parameters of {self.shown}>", body)
        return fn, b.call(b.load(fn.name))


def _is_constant(node: ast.expr) -> bool:
    """Whether CPython's optimizer makes ``node`` a constant: a literal, a
    sign or ``~`` of one, a tuple of such."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd | ast.Invert):
        return _is_constant(node.operand)
    if isinstance(node, ast.Tuple):
        return all(_is_constant(item) for item in node.elts)
    return isinstance(node, ast.Constant)


@cache
def _folds_constraints() -> bool:
    """Whether this interpreter takes constraints that are all constants
    (``T: ("a", "b")``) for a bound, the tuple its optimizer folds them into
    (3.12 and 3.13 do): read from the code it compiles for them."""
    code = compile('def f[T: ("a", "b")](): pass', "<probe>", "exec")
    return any(("a", "b") in inner.co_consts for inner in _codes(code))


@cache
def _mangles_only_parameters() -> bool:
    """Whether this interpreter mangles only the type parameters' private
    names in the annotation scope of a generic class (``class C[__T: __q]``
    reads ``__q`` as it is written), as 3.13 and 3.12.4 on do; 3.12.1
    mangles them all. Read from the code it compiles (nothing is run: making
    a generic class imports ``typing``)."""
    code = compile("class C[T: __q]: pass", "<probe>", "exec")
    return any("__q" in inner.co_names for inner in _codes(code))


def _codes(code: CodeType) -> Iterator[CodeType]:
    """``code`` and the code objects nested in it."""
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _codes(constant)


def _parameter(name: str) -> ast.Name:
    """A read of type parameter ``name`` by the rule itself (the object made)."""
    read = b.load(name)
    setattr(read, PARAMETER_MARK, True)
    return read


def _read_in_nested_scopes(node: ast.AST, class_name: str | None) -> set[str]:
    """The names read in the scopes nested in the annotation scope of ``node``:
    the body of a def or class, an alias's value, the bounds and defaults."""
    parts = [node.value] if isinstance(node, _ALIAS) else list(node.body)
    for param in node.type_params:
        parts += lazy_values(param)
    return {mangle(name.id, class_name) for part in parts for name in ast.walk(part)
            if type(name) is ast.Name and type(name.ctx) is ast.Load}


@stmt_rule(
    *_ALIAS,
    id="type-alias",
    summary="type X[T] = v is a TypeAliasType made by CPython's intrinsic, its value a "
    "function called when __value__ is first read, in an annotation scope that makes T",
    before="type Pair[T] = tuple[T, T]",
    after="def _us_typeparams_1():  # <generic parameters of Pair>\n"
    "    T = _us_type_param('INTRINSIC_TYPEVAR', 'T')\n"
    "    def _us_lazy_2():  # Pair\n        return tuple[T, T]\n"
    "    return _us_type_param('INTRINSIC_TYPEALIAS', ('Pair', (T,), _us_lazy_2))\n"
    "Pair = _us_typeparams_1()",
    reference="simple_stmts.html#the-type-statement",
)
def lower_type_alias(node: ast.TypeAlias, cx: Lowerer) -> list[ast.stmt]:
    """Without type parameters there is no annotation scope around the value's
    def. The value's def is a function of the alias's name, as CPython's: a
    lambda in it is ``X.<locals>.<lambda>``."""
    alias = node.name.id
    scope = _Scope(node, alias, cx)
    fn, evaluate = scope.lazy(alias, node.value, None)
    names = scope.names() if node.type_params else cx.none()
    made = scope.make("INTRINSIC_TYPEALIAS", ast.Tuple(elts=[cx.string(alias), names, evaluate],
                                                       ctx=ast.Load()))
    if not node.type_params:
        return [fn, b.assign_to(node.name, made)]
    generic, call = scope.call([*scope.parameters(), fn, b.ret(made)])
    return [generic, b.assign_to(node.name, call)]


@stmt_rule(
    ast.FunctionDef,
    id="generic-function",
    summary="def f[T](...) is made in an annotation scope that makes T and sets the "
    "function's __type_params__; its defaults and decorators are evaluated outside it",
    before="def first[T](xs: list[T]) -> T: ...",
    after="def _us_typeparams_1():  # <generic parameters of first>\n"
    "    T = _us_type_param('INTRINSIC_TYPEVAR', 'T')\n"
    "    def _us_first_2(xs: list[T]) -> T: ...  # first\n"
    "    return _us_type_param('INTRINSIC_SET_FUNCTION_TYPE_PARAMS', _us_first_2, (T,))\n"
    "first = _us_typeparams_1()",
    reference="compound_stmts.html#generic-functions",
    # with the decorators kept (``--keep decorator``) the def stays generic
    applies=lambda node: bool(getattr(node, "type_params", None)) and not node.decorator_list,
)
def lower_generic_function(node: ast.FunctionDef, cx: Lowerer) -> list[ast.stmt]:
    """The rules for decorators, defaults and docstrings have run (they belong
    to the scope around); the annotations are evaluated in the annotation
    scope. The def there is made under a temporary: the function's name is
    bound where the ``def`` is, so its body's reads of it find that one."""
    bound = node.name
    shown = getattr(node, "shown_name", bound)
    scope = _Scope(node, shown, cx)
    body = scope.parameters()
    names = scope.names()
    node.name, node.shown_name, node.type_params = cx.temp(shown.lstrip("_") or "f"), shown, []
    made = scope.make("INTRINSIC_SET_FUNCTION_TYPE_PARAMS", b.load(node.name), names)
    generic, call = scope.call([*body, node, b.ret(made)])
    return [generic, b.copy_location(b.assign(bound, call), node)]


@stmt_rule(
    ast.ClassDef,
    id="generic-class",
    summary="class C[T](B) is made in an annotation scope that makes T and Generic[T], "
    "added after the bases; the class body stores __type_params__",
    before="class Box[T](Base): ...",
    after="def _us_typeparams_1():  # <generic parameters of Box>\n"
    "    T = _us_type_param('INTRINSIC_TYPEVAR', 'T')\n"
    "    _us_params_2 = (T,)\n"
    "    _us_generic_3 = _us_type_param('INTRINSIC_SUBSCRIPT_GENERIC', _us_params_2)\n"
    "    class _us_Box_4(Base, _us_generic_3):  # Box\n"
    "        __type_params__ = _us_params_2\n        ...\n"
    "    return _us_Box_4\nBox = _us_typeparams_1()",
    reference="compound_stmts.html#generic-classes",
    applies=lambda node: bool(getattr(node, "type_params", None)),
)
def lower_generic_class(node: ast.ClassDef, cx: Lowerer) -> list[ast.stmt]:
    """The decorators are evaluated where the class statement is, then the
    annotation scope runs (bases, keywords, the class), then they are applied.
    A class statement kept (``--keep class``) binds the class's own name in
    the annotation scope, and sets its ``__qualname__`` as if the scope were not
    there."""
    scope = _Scope(node, node.name, cx)
    body = scope.parameters()
    params, generic_base = cx.temp("params"), cx.temp("generic")
    body += [
        b.assign(params, scope.names()),
        b.assign(generic_base, scope.make("INTRINSIC_SUBSCRIPT_GENERIC", b.load(params))),
    ]
    bound, decorators = node.name, node.decorator_list
    node.type_params, node.decorator_list = [], []
    node.bases = [*node.bases, b.load(generic_base)]
    if cx.keeps("class"):  # a class statement, named as the class outside, stores __type_params__
        at = 1 if docstring_of(node.body) is not None else 0
        node.body[at:at] = b.located([b.assign("__qualname__", ast.Constant(cx.qualname(bound))),
                                      b.assign("__type_params__", b.load(params))], node)
    else:
        node.name, node.shown_name = cx.temp(bound.lstrip("_") or "C"), bound
        setattr(node, TYPE_PARAMS, params)
    generic, value = scope.call([*body, node, b.ret(b.load(node.name))])
    for decorator in reversed(decorators):
        value = b.call(decorator, value)
    return [generic, b.copy_location(b.assign(bound, value), node)]
