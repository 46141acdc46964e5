"""Whether CPython's compiler may refuse a module that its parser accepts.

Parsing accepts modules that compiling does not: ``return`` outside a
function, ``break`` outside a loop, a duplicate parameter, ``await`` in a
plain ``def``, ``x`` used before ``global x``... (the checks of
``Python/symtable.c``, ``Python/compile.c`` and ``Python/future.c``).
Compiling a tree to find out costs about what parsing it costs.
:func:`may_refuse` is one quick walk that answers False only where none of
those checks can fail, so that :func:`unsugar.pipeline.check_compiles`
compiles only the modules it flags, and CPython gives the error::

    may_refuse(ast.parse("def f(a, a): pass"))      # True: compile() refuses
    may_refuse(ast.parse("def f(a, b): return a"))  # False: nothing to check

It flags more than CPython refuses. A construct with checks of its own is
flagged whatever it holds: ``nonlocal``, ``match``, ``except*``, type
parameters, an asynchronous comprehension, a walrus, ``yield`` or ``await``
in a comprehension or an annotation, nesting deep enough to reach a
compiler limit. ``global`` is checked as ``symtable.c`` checks it: the name
must not be a parameter, annotated, or named before the declaration. So are
the constructs that the compiler warns about (``SyntaxWarning``: ``x is 1``,
``(1, 2)(3)``, ``[1, 2]['a']``, ``assert (x, "message")``), so that compiling
shows their warnings as CPython's own compiling would.
"""

from __future__ import annotations
import __future__

import ast
from collections.abc import Callable

from unsugar.trees import children, walk
from unsugar.unit import opening_of

#: how deep statements or expressions may nest before the compiler's own
#: limits (its recursion, its 20 blocks per function) are worth asking about
_DEEPEST = 100
#: the block weight of a function past which its blocks may reach CPython's
#: 20 (``CO_MAXBLOCKS``): each construct weighs at least the blocks it pushes
_MOST_BLOCKS = 16
_LOOP, _WITH_ITEM, _TRY = 1, 2, 3
#: expression flags: inside a comprehension (its first iterable too), an annotation
_COMPREHENSION, _ANNOTATION = 1, 2
#: the names a tree may hold that compiling refuses in some places (``None``
#: and its kind come only from NFKC-normalised spellings such as ``Ｎｏｎｅ``)
_WATCHED = frozenset({"__debug__", "None", "True", "False"})
_FEATURES = frozenset(__future__.all_feature_names)


class _Refused(Exception):
    """Raised by the walk at the first construct it flags."""


class _Scope:
    """What the checks need of a module, class, function or lambda."""

    __slots__ = ("kind", "is_async", "yields", "returns_value", "params", "globals", "annotated")

    def __init__(self, kind: str, is_async: bool = False, params: frozenset[str] = frozenset()):
        self.kind = kind  # "module", "class", "function", "lambda"
        self.is_async = is_async
        self.yields = self.returns_value = False
        self.params = params
        self.globals: list[ast.Global] = []
        self.annotated: set[str] = set()


def may_refuse(tree: ast.Module) -> bool:
    """Whether compiling ``tree`` (parsed from source) may raise an error."""
    walker = _Walker(opening_of(tree))
    try:
        walker.scope_body(tree.body, _Scope("module"), 0)
    except _Refused:
        return True
    return False


class _Walker:
    """Statements are walked with the loop, block weight and depth they are
    at; expressions with their scope and :data:`_COMPREHENSION` or
    :data:`_ANNOTATION` flags. Each check raises :class:`_Refused`."""

    def __init__(self, opening: list[ast.stmt]) -> None:
        self.futures = {id(stmt) for stmt in opening if isinstance(stmt, ast.ImportFrom)}

    # ----------------------------------------------------------- statements
    def scope_body(self, body: list[ast.stmt], scope: _Scope, depth: int) -> None:
        """The body of a new scope, then its ``global`` statements."""
        self.body(body, scope, False, 0, depth)
        if scope.globals:
            _check_globals(body, scope)

    def body(self, stmts: list[ast.stmt], scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        if depth > _DEEPEST or blocks > _MOST_BLOCKS:
            raise _Refused
        for stmt in stmts:
            handler = _STATEMENTS.get(type(stmt))
            if handler is not None:
                handler(self, stmt, scope, loop, blocks, depth + 1)
            else:  # a simple statement: only expressions in it
                for child in children(stmt):
                    self.expr(child, scope, 0, 0)

    def _refuse(self, *_: object) -> None:
        raise _Refused

    def _jump(self, node: ast.Break | ast.Continue, scope: _Scope, loop: bool, *_: object) -> None:
        if not loop:
            raise _Refused

    def _assert(self, node: ast.Assert, scope: _Scope, *_: object) -> None:
        if type(node.test) is ast.Tuple and node.test.elts:
            raise _Refused  # "assertion is always true, perhaps remove parentheses?"
        for child in children(node):
            self.expr(child, scope, 0, 0)

    def _return(self, node: ast.Return, scope: _Scope, *_: object) -> None:
        if scope.kind != "function":
            raise _Refused
        if node.value is not None:
            scope.returns_value = True
            self.expr(node.value, scope, 0, 0)

    def _global(self, node: ast.Global, scope: _Scope, *_: object) -> None:
        scope.globals.append(node)

    def _import(self, node: ast.Import, *_: object) -> None:
        for alias in node.names:
            if (alias.asname or alias.name.partition(".")[0]) == "__debug__":
                raise _Refused

    def _import_from(self, node: ast.ImportFrom, scope: _Scope, *_: object) -> None:
        if node.module == "__future__" and not node.level:
            if id(node) not in self.futures or any(a.name not in _FEATURES for a in node.names):
                raise _Refused
        for alias in node.names:
            if alias.name == "*" and scope.kind != "module" or "__debug__" in (alias.name, alias.asname):
                raise _Refused

    def _ann_assign(self, node: ast.AnnAssign, scope: _Scope, *_: object) -> None:
        if isinstance(node.target, ast.Name):
            scope.annotated.add(node.target.id)
        self.expr(node.target, scope, 0, 0)
        self.expr(node.annotation, scope, _ANNOTATION, 0)
        if node.value is not None:
            self.expr(node.value, scope, 0, 0)

    def _if(self, node: ast.If, scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        self.expr(node.test, scope, 0, 0)
        self.body(node.body, scope, loop, blocks, depth)
        self.body(node.orelse, scope, loop, blocks, depth)

    def _while(self, node: ast.While, scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        self.expr(node.test, scope, 0, 0)
        self.body(node.body, scope, True, blocks + _LOOP, depth)
        self.body(node.orelse, scope, loop, blocks, depth)

    def _for(self, node: ast.For | ast.AsyncFor, scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        weight = _LOOP
        if isinstance(node, ast.AsyncFor):
            self._need_async(scope)
            weight = _WITH_ITEM
        self.expr(node.iter, scope, 0, 0)
        self.expr(node.target, scope, 0, 0)
        self.body(node.body, scope, True, blocks + weight, depth)
        self.body(node.orelse, scope, loop, blocks, depth)

    def _with(self, node: ast.With | ast.AsyncWith, scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        if isinstance(node, ast.AsyncWith):
            self._need_async(scope)
        for item in node.items:
            self.expr(item.context_expr, scope, 0, 0)
            if item.optional_vars is not None:
                self.expr(item.optional_vars, scope, 0, 0)
        self.body(node.body, scope, loop, blocks + _WITH_ITEM * len(node.items), depth)

    def _try(self, node: ast.Try, scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        blocks += _TRY
        self.body(node.body, scope, loop, blocks, depth)
        for i, handler in enumerate(node.handlers):
            if handler.type is None and i < len(node.handlers) - 1 or handler.name == "__debug__":
                raise _Refused  # "default 'except:' must be last"
            if handler.type is not None:
                self.expr(handler.type, scope, 0, 0)
            self.body(handler.body, scope, loop, blocks, depth)
        self.body(node.orelse, scope, loop, blocks, depth)
        self.body(node.finalbody, scope, loop, blocks, depth)

    def _need_async(self, scope: _Scope) -> None:
        if scope.kind != "function" or not scope.is_async:
            raise _Refused

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope, loop: bool,
                  blocks: int, depth: int) -> None:
        if getattr(node, "type_params", None) or node.name == "__debug__":
            raise _Refused
        for decorator in node.decorator_list:
            self.expr(decorator, scope, 0, 0)
        params = self.arguments(node.args, scope, annotated=True)
        if node.returns is not None:
            self.expr(node.returns, scope, _ANNOTATION, 0)
        inner = _Scope("function", isinstance(node, ast.AsyncFunctionDef), params)
        self.scope_body(node.body, inner, depth)
        if inner.is_async and inner.yields and inner.returns_value:
            raise _Refused  # "'return' with value in async generator"

    def _class(self, node: ast.ClassDef, scope: _Scope, loop: bool, blocks: int, depth: int) -> None:
        if getattr(node, "type_params", None) or node.name == "__debug__":
            raise _Refused
        for decorator in node.decorator_list:
            self.expr(decorator, scope, 0, 0)
        self.items(node.bases, scope, 0, 0)
        self.keywords(node.keywords, scope, 0, 0)
        self.scope_body(node.body, _Scope("class"), depth)

    def arguments(self, args: ast.arguments, scope: _Scope, annotated: bool) -> frozenset[str]:
        """Walk the defaults and annotations (in ``scope``); the parameters' names."""
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                params.append(extra)
        names = [param.arg for param in params]
        unique = frozenset(names)
        if len(unique) < len(names) or "__debug__" in unique:
            raise _Refused
        for default in (*args.defaults, *args.kw_defaults):
            if default is not None:
                self.expr(default, scope, 0, 0)
        if annotated:
            for param in params:
                annotation = param.annotation
                if annotation is None:
                    continue
                if param is args.vararg and isinstance(annotation, ast.Starred):
                    annotation = annotation.value  # def f(*args: *Ts)
                self.expr(annotation, scope, _ANNOTATION, 0)
        return unique

    # ---------------------------------------------------------- expressions
    def expr(self, node: ast.AST, scope: _Scope, flags: int, depth: int) -> None:
        kind = type(node)
        while kind is ast.Attribute:  # (a chain ``a.b.c``: its values in turn, with no call)
            if depth > _DEEPEST or node.attr == "__debug__" and type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                raise _Refused
            node = node.value  # type: ignore[attr-defined]
            kind = type(node)
            depth += 1
        if kind is ast.Name:  # (half the nodes: no call for them)
            if node.id in _WATCHED:  # type: ignore[attr-defined]
                self._name(node)  # type: ignore[arg-type]
            return
        if kind is ast.Constant:
            return
        if depth > _DEEPEST:
            raise _Refused
        handler = _EXPRESSIONS.get(kind)
        if handler is not None:
            handler(self, node, scope, flags, depth + 1)
        else:
            for child in children(node):
                if type(child) is not ast.Constant:
                    self.expr(child, scope, flags, depth + 1)

    def items(self, elts: list[ast.expr], scope: _Scope, flags: int, depth: int) -> int:
        """Walk the items of a display or the arguments of a call, where a
        starred item belongs; how many there are."""
        starred = 0
        for elt in elts:
            if type(elt) is ast.Starred:
                starred += 1
                elt = elt.value
            self.expr(elt, scope, flags, depth)
        return starred

    def keywords(self, keywords: list[ast.keyword], scope: _Scope, flags: int, depth: int) -> None:
        if len(keywords) > 1:
            names = [keyword.arg for keyword in keywords if keyword.arg is not None]
            if len(set(names)) < len(names):
                raise _Refused  # "keyword argument repeated"
        for keyword in keywords:
            if keyword.arg == "__debug__":
                raise _Refused
            self.expr(keyword.value, scope, flags, depth)

    def _name(self, node: ast.Name) -> None:
        """A name of :data:`_WATCHED`."""
        if node.id != "__debug__" or type(node.ctx) is not ast.Load:
            raise _Refused

    def _sequence(self, node: ast.Tuple | ast.List | ast.Set, scope: _Scope, flags: int, depth: int) -> None:
        starred = self.items(node.elts, scope, flags, depth)
        if starred and type(getattr(node, "ctx", None)) is ast.Store and (starred > 1 or len(node.elts) > 255):
            raise _Refused  # "multiple starred expressions in assignment"

    def _call(self, node: ast.Call, scope: _Scope, flags: int, depth: int) -> None:
        if type(node.func) in _LITERALS:
            raise _Refused  # "'tuple' object is not callable; perhaps you missed a comma?"
        self.expr(node.func, scope, flags, depth)
        self.items(node.args, scope, flags, depth)
        self.keywords(node.keywords, scope, flags, depth)

    def _compare(self, node: ast.Compare, scope: _Scope, flags: int, depth: int) -> None:
        if any(type(op) is ast.Is or type(op) is ast.IsNot for op in node.ops) and any(
                type(operand) is ast.Constant and not any(operand.value is v for v in _SINGLETONS)
                for operand in (node.left, *node.comparators)):
            raise _Refused  # '"is" with a literal. Did you mean "=="?'
        self.expr(node.left, scope, flags, depth)
        for comparator in node.comparators:
            self.expr(comparator, scope, flags, depth)

    def _subscript(self, node: ast.Subscript, scope: _Scope, flags: int, depth: int) -> None:
        value, index = node.value, node.slice
        kind = type(value)
        if kind in _UNSUBSCRIPTABLE or kind is ast.Constant and isinstance(
                value.value, int | float | complex | frozenset | type(None) | type(...)):
            raise _Refused  # "'int' object is not subscriptable; perhaps you missed a comma?"
        if (kind in _SEQUENCES or kind is ast.Constant and isinstance(value.value, str | bytes | tuple)) \
                and (type(index) in _LITERALS or type(index) is ast.Lambda) \
                and not (type(index) is ast.Constant and isinstance(index.value, int)):
            raise _Refused  # "str indices must be integers or slices, not str; ..."
        self.expr(value, scope, flags, depth)
        self.expr(index, scope, flags, depth)

    def _yield(self, node: ast.Yield | ast.YieldFrom, scope: _Scope, flags: int, depth: int) -> None:
        if flags or scope.kind not in ("function", "lambda") or \
                type(node) is ast.YieldFrom and scope.is_async:
            raise _Refused
        scope.yields = True
        if node.value is not None:
            self.expr(node.value, scope, flags, depth)

    def _await(self, node: ast.Await, scope: _Scope, flags: int, depth: int) -> None:
        if flags:
            raise _Refused
        self._need_async(scope)
        self.expr(node.value, scope, flags, depth)

    def _named(self, node: ast.NamedExpr, scope: _Scope, flags: int, depth: int) -> None:
        if flags:
            raise _Refused
        self.expr(node.target, scope, flags, depth)
        self.expr(node.value, scope, flags, depth)

    def _lambda(self, node: ast.Lambda, scope: _Scope, flags: int, depth: int) -> None:
        params = self.arguments(node.args, scope, annotated=False)
        # (a walrus in a lambda in a comprehension's first iterable is refused too)
        self.expr(node.body, _Scope("lambda", params=params), flags, depth)

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, scope: _Scope,
        flags: int, depth: int,
    ) -> None:
        flags |= _COMPREHENSION
        for generator in node.generators:
            if generator.is_async:
                raise _Refused
            for part in (generator.iter, generator.target, *generator.ifs):
                self.expr(part, scope, flags, depth)
        for child in children(node)[:-len(node.generators)]:  # the element, or key and value
            self.expr(child, scope, flags, depth)


def _check_globals(body: list[ast.stmt], scope: _Scope) -> None:
    """``global x`` is refused when ``x`` is a parameter, is annotated, or is
    named before the declaration (here: anywhere before the last one of it,
    nested scopes too)."""
    last: dict[str, tuple[int, int]] = {}
    for declaration in scope.globals:
        for name in declaration.names:
            last[name] = (declaration.lineno, declaration.col_offset)
    if not last.keys().isdisjoint(scope.params) or not last.keys().isdisjoint(scope.annotated):
        raise _Refused
    for stmt in body:
        for node in walk(stmt):
            if type(node) is ast.Global:
                continue
            for name in _names_at(node):
                at = last.get(name)
                if at is not None and (node.lineno, node.col_offset) < at:  # type: ignore[attr-defined]
                    raise _Refused


def _names_at(node: ast.AST) -> tuple[str, ...]:
    """The names ``node`` uses or binds, if it has a position."""
    kind = type(node)
    if kind is ast.Name:
        return (node.id,)  # type: ignore[attr-defined]
    if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler):
        return (node.name,) if node.name else ()  # type: ignore[attr-defined]
    if kind is ast.alias:
        return (node.name.partition(".")[0], node.asname or "")  # type: ignore[attr-defined]
    if kind is ast.arg:
        return (node.arg,)  # type: ignore[attr-defined]
    return ()


_Handler = Callable[..., None]
#: the expressions whose type the compiler knows, which it warns about where
#: they are called, subscripted or indexed with (``infer_type`` in ``compile.c``)
_LITERALS = frozenset({
    ast.Constant, ast.Tuple, ast.List, ast.ListComp, ast.Dict, ast.DictComp, ast.Set,
    ast.SetComp, ast.GeneratorExp, ast.JoinedStr, ast.FormattedValue,
})
#: the constants ``x is c`` may name without a warning
_SINGLETONS = (None, True, False, ...)
#: the expressions it warns about when subscripted (``check_subscripter``),
#: and those whose index it checks (``check_index``)
_UNSUBSCRIPTABLE = frozenset({ast.Set, ast.SetComp, ast.GeneratorExp, ast.Lambda})
_SEQUENCES = frozenset({ast.Tuple, ast.List, ast.ListComp, ast.JoinedStr, ast.FormattedValue})

_STATEMENTS: dict[type, _Handler] = {
    ast.Break: _Walker._jump,
    ast.Continue: _Walker._jump,
    ast.Return: _Walker._return,
    ast.Global: _Walker._global,
    ast.Nonlocal: _Walker._refuse,
    ast.Import: _Walker._import,
    ast.ImportFrom: _Walker._import_from,
    ast.AnnAssign: _Walker._ann_assign,
    ast.If: _Walker._if,
    ast.While: _Walker._while,
    ast.For: _Walker._for,
    ast.AsyncFor: _Walker._for,
    ast.With: _Walker._with,
    ast.AsyncWith: _Walker._with,
    ast.Try: _Walker._try,
    ast.FunctionDef: _Walker._function,
    ast.AsyncFunctionDef: _Walker._function,
    ast.ClassDef: _Walker._class,
    ast.Match: _Walker._refuse,
    ast.Assert: _Walker._assert,
}
for _name in ("TryStar", "TypeAlias"):  # (3.11 has no TypeAlias)
    if hasattr(ast, _name):
        _STATEMENTS[getattr(ast, _name)] = _Walker._refuse

_EXPRESSIONS: dict[type, _Handler] = {
    ast.Starred: _Walker._refuse,  # (where a starred item belongs, its value is walked instead)
    ast.Tuple: _Walker._sequence,
    ast.List: _Walker._sequence,
    ast.Set: _Walker._sequence,
    ast.Call: _Walker._call,
    ast.Compare: _Walker._compare,
    ast.Subscript: _Walker._subscript,
    ast.Yield: _Walker._yield,
    ast.YieldFrom: _Walker._yield,
    ast.Await: _Walker._await,
    ast.NamedExpr: _Walker._named,
    ast.Lambda: _Walker._lambda,
    ast.ListComp: _Walker._comprehension,
    ast.SetComp: _Walker._comprehension,
    ast.DictComp: _Walker._comprehension,
    ast.GeneratorExp: _Walker._comprehension,
}
