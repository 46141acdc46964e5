"""Fast walks over syntax trees.

``ast.iter_child_nodes`` looks at every field of every node through a
generator; here each node class's fields that can hold nodes are found once,
so a walk costs a list per node. The children come in the order
``ast.iter_child_nodes`` gives them, without the operator and context leaves
(``ast.Add``, ``ast.Load``): no caller looks for those.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any, TypeVar

#: fields that hold an identifier, a number, a flag, a constant, or an
#: operator or expression context (leaves without a position): skipped
_SCALAR_FIELDS = frozenset({
    "id", "attr", "arg", "asname", "module", "level", "conversion", "is_async", "simple",
    "type_comment", "kind", "tag", "kwd_attrs", "rest", "lineno", "ctx", "op", "ops",
})
#: fields whose scalar-ness depends on the class
_SCALAR_IN = {
    "name": lambda cls: cls.__name__ != "TypeAlias",
    "names": lambda cls: cls in (ast.Global, ast.Nonlocal),
    "value": lambda cls: cls in (ast.Constant, ast.MatchSingleton),
}
#: list fields with holes (``**`` in a dict display, a keyword-only parameter without default)
_HOLEY_FIELDS = frozenset({"keys", "kw_defaults"})

_node_fields: dict[type, tuple[tuple[str, ...], bool]] = {}
T = TypeVar("T")


def _fields_of(cls: type) -> tuple[tuple[str, ...], bool]:
    fields = tuple(
        name for name in cls._fields  # type: ignore[attr-defined]
        if name not in _SCALAR_FIELDS and not (name in _SCALAR_IN and _SCALAR_IN[name](cls))
    )
    entry = fields, bool(_HOLEY_FIELDS.intersection(fields))
    _node_fields[cls] = entry
    return entry


def node_fields(node: ast.AST) -> tuple[str, ...]:
    """The fields of ``node`` that can hold nodes (not operators or contexts)."""
    return (_node_fields.get(type(node)) or _fields_of(type(node)))[0]


def children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node`` in ``ast.iter_child_nodes`` order, but no
    operator or expression context."""
    fields, holey = _node_fields.get(type(node)) or _fields_of(type(node))
    out: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if type(value) is list:
            out += value
        elif isinstance(value, ast.AST):
            out.append(value)
    if holey:
        out = [child for child in out if child is not None]
    return out


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """``node`` and all its descendants, depth first (any order will do for the callers)."""
    todo = [node]
    pop, extend = todo.pop, todo.extend
    while todo:
        node = pop()
        yield node
        extend(children(node))


_POSITION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def fix_locations(root: ast.AST, *, trust_located: bool = False) -> ast.AST:
    """``ast.fix_missing_locations``: a node without a position takes its parent's.

    With ``trust_located``, a node that has a position is taken to have
    positions all through (a statement already fixed, a runtime helper), and is
    not looked into.
    """
    todo: list[tuple[ast.AST, tuple[int, int, int, int]]] = [(root, (1, 0, 1, 0))]
    pop, append = todo.pop, todo.append
    while todo:
        node, position = pop()
        if "lineno" in node._attributes:
            if getattr(node, "lineno", None) is None:
                node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = position
            else:
                if trust_located:
                    continue
                end_lineno = getattr(node, "end_lineno", None)
                end_col_offset = getattr(node, "end_col_offset", None)
                if end_lineno is None:
                    node.end_lineno = end_lineno = position[2]
                if end_col_offset is None:
                    node.end_col_offset = end_col_offset = position[3]
                position = node.lineno, node.col_offset, end_lineno, end_col_offset
        for child in children(node):
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
    for stmt in stmts:
        if isinstance(stmt, ast.Assign):
            names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(stmt.name)
        for inner in core_blocks(stmt):
            names |= core_bound_names(inner)
    return names


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
