"""What CPython's compiler may refuse in a module that its parser accepts.

Parsing accepts modules that compiling does not: ``return`` outside a
function, ``break`` outside a loop, a duplicate parameter, ``await`` in a
plain ``def``, ``x`` used before ``global x``... (the checks of
``Python/symtable.c``, ``Python/compile.c`` and ``Python/future.c``).
Compiling a tree to find out costs about what parsing it costs. The
module's analysis (:mod:`unsugar.analysis`), which walks every node for its
scopes anyway, asks the checks here of each node and flags the module where
one may fail, so that :func:`unsugar.pipeline.check_compiles` compiles only
the modules flagged, and CPython gives the error (``unsugar.analysis.may_refuse``)::

    may_refuse(ast.parse("def f(a, a): pass"))      # True: compile() refuses
    may_refuse(ast.parse("def f(a, b): return a"))  # False: nothing to check

It flags more than CPython refuses. A construct with checks of its own is
flagged whatever it holds: ``match``, ``except*``, type
parameters, an asynchronous comprehension, a walrus, ``yield`` or ``await``
in a comprehension or an annotation, nesting deep enough to reach a
compiler limit. ``global`` and ``nonlocal`` are checked as ``symtable.c``
checks them: the name must not be a parameter, annotated, or named before
the declaration, and a def around must bind a ``nonlocal`` name. So are
the constructs that the compiler warns about (``SyntaxWarning``: ``x is 1``,
``(1, 2)(3)``, ``[1, 2]['a']``, ``assert (x, "message")``), so that compiling
shows their warnings as CPython's own compiling would.
"""

from __future__ import annotations
import __future__

from collections.abc import Iterable

from unsugar import nodes as ast
from unsugar.scopes import AnalysedScope
from unsugar.trees import walk

#: how deep statements or expressions may nest before the compiler's own
#: limits (its recursion, its 20 blocks per function) are worth asking about
DEEPEST = 100
#: the block weight of a function past which its blocks may reach CPython's
#: 20 (``CO_MAXBLOCKS``): each construct weighs at least the blocks it pushes
MOST_BLOCKS = 16
LOOP, WITH_ITEM, TRY = 1, 2, 3
#: expression flags: inside a comprehension (its first iterable too), an annotation
COMPREHENSION, ANNOTATION = 1, 2
#: the names a tree may hold that compiling refuses in some places (``None``
#: and its kind come only from NFKC-normalised spellings such as ``Ｎｏｎｅ``)
WATCHED = frozenset({"__debug__", "None", "True", "False"})
_FEATURES = frozenset(__future__.all_feature_names)


def name_refused(node: ast.Name) -> bool:
    """A name of :data:`WATCHED`: only ``__debug__`` may be read."""
    return node.id != "__debug__" or type(node.ctx) is not ast.Load


def import_refused(node: ast.Import) -> bool:
    return any((alias.asname or alias.name.partition(".")[0]) == "__debug__" for alias in node.names)


def import_from_refused(node: ast.ImportFrom, opening: bool, in_module: bool) -> bool:
    """``from __future__`` anywhere but the module's opening (``opening``), of an
    unknown feature; ``*`` in a function or class; ``__debug__`` bound."""
    if node.module == "__future__" and not node.level and (
            not opening or any(alias.name not in _FEATURES for alias in node.names)):
        return True
    return any(alias.name == "*" and not in_module or "__debug__" in (alias.name, alias.asname)
               for alias in node.names)


def assert_refused(node: ast.Assert) -> bool:
    """"assertion is always true, perhaps remove parentheses?" """
    return type(node.test) is ast.Tuple and bool(node.test.elts)


def handlers_refused(handlers: list[ast.ExceptHandler]) -> bool:
    """"default 'except:' must be last"; ``except ... as __debug__``."""
    last = len(handlers) - 1
    return any(handler.type is None and i < last or handler.name == "__debug__"
               for i, handler in enumerate(handlers))


def parameters_refused(names: list[str], unique: frozenset[str]) -> bool:
    """A parameter named twice, or ``__debug__``."""
    return len(unique) < len(names) or "__debug__" in unique


def keywords_refused(keywords: list[ast.keyword]) -> bool:
    """"keyword argument repeated"; ``__debug__=``."""
    if len(keywords) > 1:
        names = [keyword.arg for keyword in keywords if keyword.arg is not None]
        if len(set(names)) < len(names):
            return True
    return any(keyword.arg == "__debug__" for keyword in keywords)


def starred_refused(node: ast.Tuple | ast.List | ast.Set, starred: int) -> bool:
    """"multiple starred expressions in assignment" (``starred`` of its items)."""
    return bool(starred) and type(getattr(node, "ctx", None)) is ast.Store and (
        starred > 1 or len(node.elts) > 255)


def call_refused(node: ast.Call) -> bool:
    """"'tuple' object is not callable; perhaps you missed a comma?" """
    return type(node.func) in _LITERALS


def compare_refused(node: ast.Compare) -> bool:
    """'"is" with a literal. Did you mean "=="?'"""
    return any(type(op) is ast.Is or type(op) is ast.IsNot for op in node.ops) and any(
        type(operand) is ast.Constant and not any(operand.value is v for v in _SINGLETONS)
        for operand in (node.left, *node.comparators))


def subscript_refused(node: ast.Subscript) -> bool:
    """"'int' object is not subscriptable; perhaps you missed a comma?", "str
    indices must be integers or slices, not str; ..." """
    value, index = node.value, node.slice
    kind = type(value)
    if kind in _UNSUBSCRIPTABLE or kind is ast.Constant and isinstance(
            value.value, (int, float, complex, frozenset, type(None), type(...))):
        return True
    return (kind in _SEQUENCES or kind is ast.Constant and isinstance(value.value, (str, bytes, tuple))) \
        and (type(index) in _LITERALS or type(index) is ast.Lambda) \
        and not (type(index) is ast.Constant and isinstance(index.value, int))


def declarations_refused(
    body: list[ast.stmt], declarations: list[ast.Global | ast.Nonlocal], params: Iterable[str],
    annotated: set[str],
) -> bool:
    """``global x`` or ``nonlocal x`` is refused when ``x`` is a parameter, is
    annotated, or is named before the declaration (here: anywhere before the
    last one of it, nested scopes too)."""
    last: dict[str, tuple[int, int]] = {}
    for declaration in declarations:
        for name in declaration.names:
            last[name] = (declaration.lineno, declaration.col_offset)
    if not last.keys().isdisjoint(params) or not last.keys().isdisjoint(annotated):
        return True
    for stmt in body:
        for node in walk(stmt):
            if type(node) is ast.Global or type(node) is ast.Nonlocal:
                continue
            for name in _names_at(node):
                at = last.get(name)
                if at is not None and (node.lineno, node.col_offset) < at:  # type: ignore[attr-defined]
                    return True
    return False


def nonlocal_refused(scope: AnalysedScope, name: str) -> bool:
    """``nonlocal name`` in ``scope`` (a def's body, checked as above) is
    refused unless a def around it binds ``name`` ("no binding for nonlocal
    found"): the scopes around are asked as ``symtable.c`` asks them, class
    bodies passed over; where a comprehension, an annotation scope or a
    ``global`` declaration is met first, or the name is ``__class__``, it is
    flagged whatever CPython says."""
    if name in scope.globals or name == "__class__":  # "name 'x' is nonlocal and global"
        return True
    outer = scope.parent
    while outer is not None and outer.kind != "module":
        if outer.kind == "class":
            outer = outer.parent
            continue
        if outer.kind != "function" or outer.node is None or name in outer.globals:
            return True
        if name in outer.bound and name not in outer.nonlocals:
            return False
        outer = outer.parent
    return True


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
