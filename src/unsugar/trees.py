"""Fast walks over syntax trees.

``ast.iter_child_nodes`` looks at every field of every node through a
generator. Here each node class gets, the first time it is seen, a function
that lists its children, made from the class's ASDL signature (the docstring
of every ``ast`` class)::

    Call(expr func, expr* args, keyword* keywords)
        ->  return [node.func, *node.args, *node.keywords]

The children come in the order ``ast.iter_child_nodes`` gives them, without the
operator and context leaves (``ast.Add``, ``ast.Load``): no caller looks for
those.
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any, Generic, TypeVar

from unsugar import nodes as ast

#: ASDL types of fields that hold no node: an identifier, a number, a flag, a
#: constant, or an operator or expression context (leaves without a position)
_LEAF_TYPES = frozenset({
    "identifier", "int", "string", "constant", "expr_context", "boolop", "operator", "unaryop", "cmpop",
})
#: list fields with holes (``**`` in a dict display, a keyword-only parameter without default)
_HOLEY_FIELDS = frozenset({"keys", "kw_defaults"})
#: a field in an ASDL signature: its type, its mark (``*`` a list, ``?`` optional), its name
_ASDL_FIELD = re.compile(r"(\w+)([*?]?) (\w+)")

_ChildrenOf = Callable[[ast.AST], list[ast.AST]]

#: per node class: what lists its children (None if no field can hold a
#: node), and whether it has a position
_shapes: dict[type, tuple[_ChildrenOf | None, bool]] = {}
#: per node class: the fields that can hold nodes
_node_fields: dict[type, tuple[str, ...]] = {}
T = TypeVar("T")
N = TypeVar("N", bound=ast.AST)


def asdl_fields(cls: type) -> list[tuple[str, str, str]] | None:
    """The fields of node class ``cls`` from its ASDL signature: each one's
    type, mark (``*`` a list, ``?`` optional, ``""`` one) and name; None for a
    class without a signature (a form of this package, a deprecated class)."""
    signature = re.fullmatch(rf"{cls.__name__}\((.*)\)", cls.__doc__ or "", re.DOTALL)
    return None if signature is None else _ASDL_FIELD.findall(signature[1])


def _shape_of(cls: type) -> tuple[_ChildrenOf | None, bool]:
    """Find what the walks need to know of ``cls`` (once per class)."""
    signature = asdl_fields(cls)
    if signature is None:  # a form of this package, a deprecated class or one without fields
        fields = tuple(cls._fields)  # type: ignore[attr-defined]
        children_of = _any_children
    else:
        marked = [(name, mark) for kind, mark, name in signature if kind not in _LEAF_TYPES]
        fields = tuple(name for name, _ in marked)
        children_of = _compile_children(cls.__name__, marked) if marked else None
    _node_fields[cls] = fields
    shape = _shapes[cls] = (children_of if fields else None), "lineno" in cls._attributes  # type: ignore[attr-defined]
    return shape


def _compile_children(class_name: str, marked: list[tuple[str, str]]) -> _ChildrenOf:
    """The function that lists a node's children from the ASDL marks of its
    fields: ``""`` a node, ``"*"`` a list of them, ``"?"`` a node or None.

    A node built without a field its signature asks for (a ``FunctionDef``
    without ``type_params`` in 3.12), or with something else there, is read by
    ``_any_children``.
    """
    display: list[str] = []  # the leading fields, in one list display
    statements: list[str] = []  # each later field, from the first optional or holey one
    for name, mark in marked:
        if mark == "?":
            statements += [f"value = node.{name}", "if value is not None:", "    out.append(value)"]
        elif name in _HOLEY_FIELDS:
            statements.append(f"out += [item for item in node.{name} if item is not None]")
        elif statements:
            statements.append(f"out += node.{name}" if mark else f"out.append(node.{name})")
        else:
            display.append(f"*node.{name}" if mark else f"node.{name}")
    listed = f"[{', '.join(display)}]"
    body = [f"out = {listed}", *statements, "return out"] if statements else [f"return {listed}"]
    return compiled_for_class(f"children of {class_name}", body, _any_children)


def compiled_for_class(
    label: str, lines: list[str], fallback: Callable[..., T], *, after: list[str] | None = None,
    parameters: tuple[str, ...] = ("node",), caught: type | tuple[type, ...] = (AttributeError, TypeError),
    names: dict[str, Any] | None = None,
) -> Callable[..., T]:
    """A function of ``parameters`` whose body is ``lines``, then ``after``,
    made once for a node class (named ``label`` in tracebacks); where
    ``lines`` raise one of ``caught`` (a node without a field they read, or
    with something else there), ``fallback(*parameters)`` is returned
    instead. ``names`` are the globals ``lines`` and ``after`` use."""
    arguments = ", ".join(parameters)
    body = ["try:", *(f"    {line}" for line in lines), "except caught:", f"    return fallback({arguments})",
            *(after or ())]
    return made_function(label, parameters, body, {"fallback": fallback, "caught": caught, **(names or {})})


def made_function(
    label: str, parameters: Iterable[str], body: list[str], names: dict[str, Any]
) -> Callable[..., Any]:
    """``def <label>(<parameters>): <body>``, compiled with ``names`` as its
    globals (named ``label``, its spaces ``_``, in tracebacks)."""
    name = label.replace(" ", "_")
    source = "\n".join([f"def {name}({', '.join(parameters)}):", *(f"    {line}" for line in body)])
    exec(compile(source, f"<{label}>", "exec"), names)
    return names[name]


class Scoped(Generic[T]):
    """A context manager that gives ``value`` and calls ``close(value)`` on the
    way out, whatever the way (the rewrite enters tens of thousands of
    levels and scopes: a generator's context manager costs several times more)."""

    __slots__ = ("close", "value")

    def __init__(self, value: T, close: Callable[[T], None]) -> None:
        self.value = value
        self.close = close

    def __enter__(self) -> T:
        return self.value

    def __exit__(self, *exc_info: object) -> None:
        self.close(self.value)


def node_maker(cls: type[N], *fields: str) -> Callable[..., N]:
    """What makes a ``cls`` node from its first ``fields``, given in order: the
    class itself before 3.13; from 3.13, whose constructor checks every field
    against its declared type and fills in those left out (twice the cost of
    setting them), a function that sets them, and an empty list in each list
    field left out, as the constructor does::

        make_assign = node_maker(ast.Assign, "targets", "value")
        make_assign([target], value)      # ast.Assign([target], value)
    """
    if fields != cls._fields[:len(fields)]:
        raise ValueError(f"{cls.__name__} has the fields {cls._fields}, not {fields} first")
    if sys.version_info < (3, 13):
        return cls
    lists = [field for _, mark, field in asdl_fields(cls) or () if mark == "*" and field not in fields]
    body = ["node = new(cls)", *(f"node.{field} = {field}" for field in fields),
            *(f"node.{field} = []" for field in lists), "return node"]
    return made_function(f"make_{cls.__name__}", fields, body, {"new": cls.__new__, "cls": cls})


def _any_children(node: ast.AST) -> list[ast.AST]:
    """The children of ``node``, whatever its fields hold."""
    out: list[ast.AST] = []
    for name in node_fields(node):
        value = getattr(node, name, None)
        if type(value) is list:
            out += [item for item in value if item is not None]
        elif isinstance(value, ast.AST):
            out.append(value)
    return out


def node_fields(node: ast.AST) -> tuple[str, ...]:
    """The fields of ``node`` that can hold nodes (not operators or contexts)."""
    fields = _node_fields.get(type(node))
    if fields is None:
        _shape_of(type(node))
        fields = _node_fields[type(node)]
    return fields


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node`` in ``ast.iter_child_nodes`` order, but no
    operator or expression context."""
    children_of = (_shapes.get(type(node)) or _shape_of(type(node)))[0]
    return [] if children_of is None else children_of(node)


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and all its descendants, depth first (any order will do for the callers)."""
    todo = [node]
    pop, extend = todo.pop, todo.extend
    while todo:
        node = pop()
        yield node
        children_of = (_shapes.get(type(node)) or _shape_of(type(node)))[0]
        if children_of is not None:
            extend(children_of(node))


#: whether new nodes are given positions (:func:`placing`)
_placing: ContextVar[bool] = ContextVar("placing", default=True)


@contextlib.contextmanager
def placing(on: bool) -> Iterator[None]:
    """Whether :func:`copy_location`, :func:`position` and
    :func:`unsugar.builder.unlined` place new nodes, while the block runs (in
    this thread). Source text has no use for the positions of the nodes the
    rewrite makes; the tree, ``--annotate`` and the runtime's helpers do."""
    token = _placing.set(on)
    try:
        yield
    finally:
        _placing.reset(token)


def is_placing() -> bool:
    """Whether new nodes are being given positions (:func:`placing`)."""
    return _placing.get()


def position(old: ast.AST | None) -> dict[str, int]:
    """The position ``copy_location`` gives from ``old``, as a node's keyword
    arguments (none if ``old`` has none, or if nodes are not being placed):
    to build a node already placed."""
    if not _placing.get():
        return {}
    lineno = getattr(old, "lineno", None)
    if lineno is None:
        return {}
    col_offset = old.col_offset  # type: ignore[union-attr]
    return {"lineno": lineno, "col_offset": col_offset, "end_lineno": getattr(old, "end_lineno", lineno),
            "end_col_offset": getattr(old, "end_col_offset", col_offset)}


def copy_location(new: ast.AST, old: ast.AST) -> ast.AST:
    """Give ``new`` and its new descendants the position of ``old``
    (:func:`position`).

    A descendant that has a position already (a lowered operand) keeps it and
    is not looked into: what is in it was placed when it was built.
    """
    if not _placing.get() or getattr(new, "lineno", None) is not None:
        return new  # (a third of the calls when placing: a lowered operand)
    at = position(old)
    if not at:
        return new
    lineno, col_offset, end_lineno, end_col_offset = at.values()
    todo = [new]
    pop = todo.pop
    while todo:
        node = pop()
        if getattr(node, "lineno", None) is not None:
            continue  # placed (the one other node with a line, a TypeIgnore, is a leaf)
        children_of, positioned = _shapes.get(type(node)) or _shape_of(type(node))
        if positioned:
            node.lineno = lineno
            node.col_offset = col_offset
            node.end_lineno = end_lineno
            node.end_col_offset = end_col_offset
        if children_of is not None:
            todo += children_of(node)
    return new


#: Set on a ``Name`` node by the ``del`` family's prologue, from the module's
#: scope analysis (:mod:`unsugar.scopes`), when reading it must check that
#: ``del`` did not unbind it (see :mod:`unsugar.rules.deletion`).
UNBOUND_MARK = "unsugar_unbound"

#: Set on a ``Name`` node by the same prologue when it reads a ``global`` name
#: that an enclosing function also binds (see ``global-read``).
GLOBAL_MARK = "unsugar_global"

#: Set on a ``Call`` node of a module or class body by the same prologue: its
#: callee may read the namespace under another name (see ``namespace-callee``).
NAMESPACE_CALL_MARK = "unsugar_namespace_call"

#: Set on a ``ClassDef`` by the module's scope analysis: ``(attributes, class_cell,
#: annotation_scope)``, the sorted ``x`` of the ``self.x = ...`` in the class
#: and the functions in it (``__static_attributes__``), whether CPython gives
#: the class a ``__class__`` cell, and whether its body makes an annotation
#: scope. See :func:`unsugar.rules.classes.lower_class`.
CLASS_FACTS_MARK = "unsugar_class_facts"
#: Set on a def or lambda by the module's scope analysis: every name its body binds or
#: declares, in nested scopes too (what :func:`unsugar.lowering.bound_names`
#: finds; its parameters that none of these rebinds are stable).
REBOUND_MARK = "unsugar_rebound"
#: Set on a def, lambda or class by the module's scope analysis: the names its
#: body declares ``global`` and ``nonlocal`` (two frozensets, not mangled).
DECLARED_MARK = "unsugar_declared"

#: the names a node binds by itself, by node type, besides a ``Name`` stored
#: or deleted: an import's alias, an ``except`` handler's, a ``match``
#: capture's, a ``def``'s or a ``class``'s
NAMES_BOUND: dict[type, Callable[[Any], tuple[str, ...]]] = {
    ast.alias: lambda node: () if node.name == "*" else ((node.asname or node.name).partition(".")[0],),
    ast.ExceptHandler: lambda node: (node.name,) if node.name else (),
    ast.MatchAs: lambda node: (node.name,) if node.name else (),
    ast.MatchStar: lambda node: (node.name,) if node.name else (),
    ast.MatchMapping: lambda node: (node.rest,) if node.rest else (),
    ast.FunctionDef: lambda node: (node.name,),
    ast.AsyncFunctionDef: lambda node: (node.name,),
    ast.ClassDef: lambda node: (node.name,),
}

#: where a node without a position and without a placed ancestor goes
_FIRST_LINE = ast.Pass(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)


def lazy_values(param: ast.AST) -> list[ast.expr]:
    """What a type parameter evaluates lazily, each in a scope of its own: its
    bound (or constraints) and its default (3.13)."""
    return [value for value in (getattr(param, "bound", None), getattr(param, "default_value", None))
            if value is not None]


def fix_locations(root: ast.AST, *, trust_located: bool = False) -> ast.AST:
    """``ast.fix_missing_locations``: a node without a position takes its parent's.

    With ``trust_located``, a node that has a position is taken to have
    positions all through (a statement already fixed, a runtime helper), and is
    not looked into. Nodes are placed whatever :func:`placing` says.
    """
    if trust_located:  # no node it changes has a placed ancestor
        with placing(True):
            return copy_location(root, _FIRST_LINE)
    todo: list[tuple[ast.AST, tuple[int, int, int, int]]] = [(root, (1, 0, 1, 0))]
    pop, append = todo.pop, todo.append
    while todo:
        node, position = pop()
        children_of, positioned = _shapes.get(type(node)) or _shape_of(type(node))
        if positioned:
            if getattr(node, "lineno", None) is None:
                node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = position
            else:
                end_lineno = getattr(node, "end_lineno", None)
                end_col_offset = getattr(node, "end_col_offset", None)
                if end_lineno is None:
                    node.end_lineno = end_lineno = position[2]
                if end_col_offset is None:
                    node.end_col_offset = end_col_offset = position[3]
                position = node.lineno, node.col_offset, end_lineno, end_col_offset
        if children_of is not None:
            for child in children_of(node):
                append((child, position))
    return root


#: the fields that hold a statement's blocks, its handlers or its cases, in order
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_block_fields: dict[type, tuple[str, ...]] = {}


def block_fields(kind: type) -> tuple[str, ...]:
    """The fields of node type ``kind`` that hold statements, handlers (of a
    ``try``) or cases (of a ``match``): none for a simple statement."""
    fields = _block_fields.get(kind)
    if fields is None:
        fields = _block_fields[kind] = tuple(name for name in _BLOCK_FIELDS if name in kind._fields)  # type: ignore[attr-defined]
    return fields


def core_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists inside core ``stmt`` that run in its scope (a
    ``while``'s body, a ``try``'s body and handlers)."""
    kind = type(stmt)
    if kind is ast.While:
        return [stmt.body]
    if kind is ast.Try:
        return [stmt.body, *(h.body for h in stmt.handlers)]
    return []


def core_bound_names(stmts: list[ast.stmt]) -> set[str]:
    """The names that ``stmts`` (core statements) bind in their scope."""
    names: set[str] = set()
    todo = [stmts]
    while todo:
        for stmt in todo.pop():
            kind = type(stmt)
            if kind is ast.Assign:
                names.update([target.id for target in stmt.targets if type(target) is ast.Name])
            elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                names.add(stmt.name)
            elif kind is ast.While or kind is ast.Try:
                todo += core_blocks(stmt)
    return names


def own_bindings(stmts: list[ast.stmt]) -> tuple[set[str], set[str]]:
    """The names ``stmts`` bind in their own scope (a nested def's, class's,
    lambda's or comprehension's variables are theirs: only what such a scope
    evaluates where it stands is looked into), and those they declare
    ``global`` or ``nonlocal``."""
    bound: set[str] = set()
    declared: set[str] = set()
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:
                bound.add(node.id)
            continue
        if kind is ast.Global or kind is ast.Nonlocal:
            declared.update(node.names)
            continue
        binds = NAMES_BOUND.get(kind)
        if binds is not None:
            bound.update(binds(node))
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            args = node.args
            params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            todo += [*args.defaults, *(d for d in args.kw_defaults if d is not None),
                     *(p.annotation for p in params if p is not None and p.annotation is not None)]
            if kind is not ast.Lambda:
                todo += [*node.decorator_list, *([node.returns] if node.returns else [])]
        elif kind is ast.ClassDef:
            todo += [*node.decorator_list, *node.bases, *node.keywords]
        elif kind in (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp):
            todo.append(node.generators[0].iter)
        else:
            todo += children(node)
    return bound, declared


def copy_tree(tree: T) -> T:
    """A deep copy of ``tree``, a node or a list of nodes, as ``copy.deepcopy``
    makes it (a node shared in ``tree`` is shared in the copy) but without its
    generic machinery."""
    return _copy(tree, {})


def _copy(value: T, memo: dict[int, Any]) -> T:
    """``value`` copied, with ``memo`` the copies made so far by the id of
    their original (loops, not comprehensions: in 3.11 each is a call)."""
    if type(value) is list:
        out = memo.get(id(value))
        if out is None:
            out = memo[id(value)] = []
            for item in value:
                out.append(_copy(item, memo))
        return out
    if isinstance(value, ast.AST):
        node = memo.get(id(value))
        if node is None:
            node = memo[id(value)] = type(value).__new__(type(value))
            fields = node.__dict__
            for name, field in value.__dict__.items():
                fields[name] = _copy(field, memo)
        return node
    return value  # a name, number, string or None
