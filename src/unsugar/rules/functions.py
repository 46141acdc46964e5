"""Definitions: decorators, defaults, annotations, docstrings, ``lambda``, ``__future__``.

A ``def`` loses one piece of sugar per rule; each rule's output is lowered
again, so a fully sugared definition comes out as::

    @d                            _us_decorator_1 = d
    def f(a: A = D) -> R:         _us_defaults_1 = _us_tuple_of(D)
        "doc"               ->    _us_annotations_1 = _us_annotation_dict("a", A, "return", R)
        body                      def _us_f_1(a):
                                      body
                                  _us_rename_function(_us_f_1, "f", "f")
                                  _us_set_function_doc(_us_f_1, "doc")
                                  _us_set_function_annotations(_us_f_1, _us_annotations_1)
                                  _us_set_function_defaults(_us_f_1, _us_defaults_1, None)
                                  f = _us_decorator_1(_us_f_1)

which is CPython's order: decorators, defaults, keyword-only defaults and
annotations are evaluated, then the function is made, decorated bottom up
and bound. A def bound under another name than the one it shows (here the
temporary) carries ``shown_name``; the core ``def`` lowering then renames
the function object back (``__name__``, ``__qualname__``, ``co_name``).
"""

from __future__ import annotations
import __future__

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.annotation_text import annotation_source
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule, stmt_rule
from unsugar.unit import is_docstring, is_future

Def = ast.FunctionDef | ast.AsyncFunctionDef


def _all_args(args: ast.arguments) -> list[ast.arg]:
    """The parameters in the order CPython evaluates their annotations
    (``args`` before ``posonlyargs``: a quirk of its compiler)."""
    out = [*args.args, *args.posonlyargs]
    if args.vararg is not None:
        out.append(args.vararg)
    out.extend(args.kwonlyargs)
    if args.kwarg is not None:
        out.append(args.kwarg)
    return out


def docstring_of(body: list[ast.stmt]) -> str | None:
    """The docstring of a body (its first statement, a string), if any."""
    if body and is_docstring(body[0]):
        return body[0].value.value  # type: ignore[attr-defined]
    return None


def _has_defaults(node: Def) -> bool:
    return bool(node.args.defaults) or any(d is not None for d in node.args.kw_defaults)


def _has_annotations(node: Def) -> bool:
    return node.returns is not None or any(a.annotation is not None for a in _all_args(node.args))


def _bound(node: Def, cx: Lowerer) -> ast.Name:
    """The name the def binds, to refer to the function right after it."""
    return b.load(cx.mangle(node.name))


@stmt_rule(
    ast.FunctionDef, ast.AsyncFunctionDef,
    id="decorator",
    summary="decorators are evaluated top to bottom, then applied bottom up to a def "
    "made under a temporary name, each dropped once called",
    before="@d1\n@d2\ndef f(): ...",
    after="_us_decorator_1 = d1\n_us_decorator_2 = d2\ndef _us_f_1(): ...\n"
    "_us_rename_function(_us_f_1, _us_s_f, _us_s_f)\n_us_decorated_1 = _us_decorator_2(_us_f_1)\n"
    "_us_decorator_2 = _us_none\n_us_f_1 = _us_none\nf = _us_decorator_1(_us_decorated_1)\n"
    "_us_decorator_1 = _us_none\n_us_decorated_1 = _us_none",
    reference="compound_stmts.html#function-definitions",
    applies=lambda node: bool(node.decorator_list),
)
def lower_decorator(node: Def, cx: Lowerer) -> list[ast.stmt]:
    """The name is not bound while decorating. Decorators are evaluated first:
    saved to temporaries when there are more than one, or when defaults or
    annotations are evaluated between them and the function's creation.
    Each dies once it is called, then what it was given, as CPython pops
    them::

        _us_decorator_1 = d1
        _us_decorator_2 = d2
        def _us_f_1(...): ...
        _us_decorated_1 = _us_decorator_2(_us_f_1)
        _us_decorator_2 = None
        _us_f_1 = None
        f = _us_decorator_1(_us_decorated_1)
        _us_decorator_1 = None
        _us_decorated_1 = None
    """
    out: list[ast.stmt] = []
    decorators = node.decorator_list
    saved: list[str] = []  # (all of them, or none)
    if len(decorators) > 1 or _has_defaults(node) or (_has_annotations(node) and not cx.unit.future_annotations):
        for decorator in decorators:
            saved.append(cx.temp("decorator"))
            out.append(b.assign(saved[-1], decorator))
        decorators = [b.load(name) for name in saved]
    shown = node.name
    node.name = cx.temp(node.name.lstrip("_") or "f")
    node.shown_name = shown
    # the code's first line (``co_firstlineno``, where ``inspect`` finds the
    # source) is the first decorator's, as CPython compiles it (``unit.decorated``)
    node.first_line = node.decorator_list[0].lineno
    node.decorator_list = []
    out.append(node)
    given = node.name
    for name in reversed(saved[1:]):
        decorated = cx.temp("decorated")
        out.append(b.assign(decorated, b.call(b.load(name), b.load(given))))
        out += cx.released([name, given])
        given = decorated
    out.append(b.assign_to(b.store(shown), b.call(decorators[0], b.load(given))))
    return out + cx.released([*saved[:1], given])


@stmt_rule(
    ast.FunctionDef, ast.AsyncFunctionDef,
    id="default",
    summary="default values are evaluated when the def runs, then set as "
    "__defaults__ and __kwdefaults__",
    before="def f(a, b=x, *, c=y): ...",
    after="_us_defaults_1 = _us_tuple_of(x)\n_us_kwdefaults_1 = _us_dict(c=y)\n"
    "def f(a, b, *, c): ...\n_us_set_function_defaults(f, _us_defaults_1, _us_kwdefaults_1)",
    reference="compound_stmts.html#function-definitions",
    applies=lambda node: not node.decorator_list and _has_defaults(node),
)
def lower_default(node: Def, cx: Lowerer) -> list[ast.stmt]:
    """Positional defaults first, then keyword-only ones in parameter order;
    the keys of ``__kwdefaults__`` are the (mangled) parameter names."""
    out: list[ast.stmt] = []
    args = node.args
    defaults: ast.expr = cx.none()
    kwdefaults: ast.expr = cx.none()
    if args.defaults:
        name = cx.temp("defaults")
        out.append(b.assign(name, b.call(cx.rt("tuple_of"), *args.defaults)))
        defaults = b.load(name)
    pairs = [(arg, value) for arg, value in zip(args.kwonlyargs, args.kw_defaults, strict=True)
             if value is not None]
    if pairs:
        name = cx.temp("kwdefaults")
        keywords = [ast.keyword(arg=cx.mangle(arg.arg), value=value) for arg, value in pairs]
        out.append(b.assign(name, b.call_with(cx.builtin("dict"), [], keywords)))
        kwdefaults = b.load(name)
    args.defaults = []
    args.kw_defaults = [None] * len(args.kwonlyargs)
    call = b.call(cx.rt("set_function_defaults"), _bound(node, cx), defaults, kwdefaults)
    return [*out, node, b.expr(call)]


@stmt_rule(
    ast.FunctionDef, ast.AsyncFunctionDef,
    id="annotation",
    summary="parameter and return annotations are evaluated when the def runs "
    "and set as __annotations__",
    before="def f(a: int) -> str: ...",
    after='_us_annotations_1 = _us_annotation_dict("a", int, "return", str)\n'
    "def f(a): ...\n_us_set_function_annotations(f, _us_annotations_1)",
    reference="compound_stmts.html#function-definitions",
    applies=lambda node: not node.decorator_list and not getattr(node, "type_params", None)
    and _has_annotations(node),
)
def lower_annotation(node: Def, cx: Lowerer) -> list[ast.stmt]:
    """Under ``from __future__ import annotations`` each value is the string
    of its source, as CPython writes it back (``"list[int]"``). ``*args: *Ts``
    annotates with the one item ``Ts`` unpacks to."""
    items: list[ast.expr] = []
    for arg in _all_args(node.args):
        if arg.annotation is not None:
            items += [ast.Constant(cx.mangle(arg.arg)), _annotation(arg.annotation, cx)]
            arg.annotation = None
    if node.returns is not None:
        items += [ast.Constant("return"), _annotation(node.returns, cx)]
        node.returns = None
    name = cx.temp("annotations")
    call = b.call(cx.rt("set_function_annotations"), _bound(node, cx), b.load(name))
    return [b.assign(name, b.call(cx.rt("annotation_dict"), *items)), node, b.expr(call)]


def _annotation(value: ast.expr, cx: Lowerer) -> ast.expr:
    if cx.unit.future_annotations:
        return ast.Constant(annotation_source(value))
    if isinstance(value, ast.Starred):
        return b.call(cx.rt("starred_annotation"), value.value)
    return value


@stmt_rule(
    ast.FunctionDef, ast.AsyncFunctionDef, ast.Expr,
    id="docstring",
    summary="a docstring becomes __doc__ (of the function, or of the module); "
    "other string statements are dropped",
    before='def f():\n    "Doc."',
    after="def f():\n    return\n_us_set_function_doc(f, _us_str_1)",
    reference="datamodel.html#user-defined-functions",
    applies=lambda node: not getattr(node, "decorator_list", None) and (
        docstring_of(node.body) is not None if isinstance(node, Def)
        else is_docstring(node)
    ),
)
def lower_docstring(node: Def | ast.Expr, cx: Lowerer) -> list[ast.stmt]:
    """The docstring is stored as the running CPython stores it (3.13 strips
    its indentation; ``-OO`` drops it). A module's (or a class's) docstring
    is its first statement, so ``__doc__`` is set before anything else runs::

        "Doc."     ->    if _us_docstrings_kept():
                             __doc__ = _us_docstring_text("Doc.")
    """
    if isinstance(node, ast.Expr):
        owner = cx.scope.node
        if cx.scope.kind in ("module", "class") and owner is not None and owner.body \
                and owner.body[0] is node:
            text = b.call(cx.rt("docstring_text"), node.value)
            return [b.if_(b.call(cx.rt("docstrings_kept")), [b.assign("__doc__", text)])]
        return []
    text = node.body[0].value
    node.body = node.body[1:]
    return [node, b.expr(b.call(cx.rt("set_function_doc"), _bound(node, cx), text))]


@expr_rule(
    ast.Lambda,
    id="lambda",
    summary="lambda is a def emitted before the statement, renamed <lambda>",
    before="key = lambda x, n=k: x * n",
    after="def _us_lambda_1(x, n=k):\n    return x * n\n"
    "_us_rename_function(_us_lambda_1, _us_str_1, _us_str_1)\nkey = _us_lambda_1",
    reference="expressions.html#lambda",
    custom_order=True,
)
def lower_lambda(node: ast.Lambda, cx: Lowerer) -> ast.expr:
    """The def is made where the lambda is evaluated, in the same scope, so
    closures and defaults see what the lambda sees; its defaults are those of
    the lambda (left to the ``default`` rule)."""
    name = cx.temp("lambda")
    fn = b.copy_location(b.function(name, node.args, [b.ret(node.body)]), node)
    fn.shown_name = "<lambda>"
    cx.emit(*cx.block([fn]))
    return b.load(name)


@stmt_rule(
    ast.ImportFrom,
    id="future",
    summary="from __future__ import ... takes effect at compile time, then binds "
    "the feature like any import",
    before="from __future__ import annotations",
    after='annotations = _us_getattr(_us___import__("__future__"), "annotations")',
    reference="simple_stmts.html#future-statements",
    applies=is_future,
)
def lower_future(node: ast.ImportFrom, cx: Lowerer) -> list[ast.stmt]:
    """``annotations`` makes every later annotation a string (the unit says so
    to the annotation rules); the other features are always on."""
    out: list[ast.stmt] = []
    for alias in node.names:
        if alias.name not in __future__.all_feature_names:
            message = "not a chance" if alias.name == "braces" else \
                f"future feature {alias.name} is not defined"
            raise SyntaxError(message, ("<unknown>", node.lineno, node.col_offset + 1, None))
        module = b.call(cx.builtin("__import__"), ast.Constant("__future__"))
        feature = b.call(cx.builtin("getattr"), module, ast.Constant(alias.name))
        out.append(b.assign(alias.asname or alias.name, feature))
    return out


#: the names a call of the type of functions is written with (``types.FunctionType``)
FUNCTION_TYPE_NAMES = frozenset({"FunctionType", "LambdaType"})


def names_function_type(callee: ast.expr) -> bool:
    """Whether ``callee`` is written ``FunctionType``, ``x.FunctionType`` or ``LambdaType``."""
    name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)
    return name in FUNCTION_TYPE_NAMES


@expr_rule(
    ast.Call,
    id="function-type-callee",
    summary="FunctionType(code, globals) of a desugared function's code, given no closure, "
    "gets the cells of the runtime helpers the code reads",
    before="alias = types.FunctionType(method.__code__, method.__globals__, 'alias')",
    after="alias = _us_function_type_callee(_us_getattr(types, _us_s_FunctionType), _us_s__us_)"
    "(...)",
    reference="datamodel.html#user-defined-functions",
    applies=lambda node: names_function_type(node.func),
    selects=FUNCTION_TYPE_NAMES,
)
def lower_function_type_callee(node: ast.Call, cx: Lowerer) -> ast.expr:
    """A desugared function closes over the runtime helpers it reads, where
    CPython's has no free variables, so ``FunctionType(f.__code__, globals)``
    without a closure would refuse its code (``arg 5 (closure) must be
    tuple``): when the callee is the type of functions, the helper finds the
    cells (``runtime/functions.py``, ``function_made``). In a module or class
    body too: such a call is not ``namespace-callee``'s."""
    node.func = b.call(cx.rt("function_type_callee"), node.func, cx.string(cx.unit.names.prefix))
    return node
