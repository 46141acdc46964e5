"""The scopes of the input, as the module's analysis finds them (:mod:`unsugar.analysis`).

Each scope of the input (the module, a class body, a def or lambda, a
comprehension, an annotation scope) is an :class:`AnalysedScope`: the names
it binds, deletes and declares, and the reads in it. :func:`owner` and
:func:`hidden_global` resolve a read the way CPython's compiler does; the
``del`` family's prologue marks the reads that need a check with them
(:mod:`unsugar.rules.deletion`). :func:`find_cell_uses` finds the classes
that get a ``__class__`` cell.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from unsugar import nodes as ast

#: the names whose use in a function gives a class its ``__class__`` cell
CELL_NAMES = frozenset({"super", "__class__"})
#: which of those names the nodes of a scope read (:attr:`AnalysedScope.cell_reads`)
SUPER_READ, CLASS_READ = 1, 2


@dataclass
class AnalysedScope:
    """One scope of the input, as the analysis found it."""

    kind: str  # "module", "class", "function", "comprehension"
    parent: AnalysedScope | None
    inlined: bool = False  # a list, set or dict comprehension (inlined since 3.12)
    bound: set[str] = field(default_factory=set)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    deleted: set[str] = field(default_factory=set)
    reads: list[ast.Name] = field(default_factory=list)
    unbindable: set[str] = field(default_factory=set)
    calls: list[ast.Call] = field(default_factory=list)  # of a module or class body
    assigned: set[str] = field(default_factory=set)  # bound other than by a def or class
    defined: set[str] = field(default_factory=set)  # bound by a def or class
    # what it and the scopes in it bind or declare (``REBOUND_MARK``)
    rebound: set[str] = field(default_factory=set)
    node: ast.AST | None = None  # the def, lambda or class whose scope it is
    # a class's (``CLASS_FACTS_MARK``): the ``self.x`` stored in it; whether
    # its body makes an annotation scope (3.12+: a generic def or class, a type alias)
    attributes: set[str] = field(default_factory=set)
    makes_annotation_scope: bool = False
    # the ``__class__`` cell (:func:`find_cell_uses`): which of ``super`` and
    # ``__class__`` its nodes read (``SUPER_READ | CLASS_READ``); whether a
    # scope made in it reads the cell of a class around, and one made in it as
    # a class body sees them (the scopes in an inlined comprehension instead
    # of it); whether it reads that cell; a class, whether it has one
    cell_reads: int = 0
    inner_uses: bool = False
    made_uses: bool = False
    uses_cell: bool = False
    has_cell: bool = False
    # what the checks of :mod:`unsugar.refusals` ask of a scope: a def's
    # ``async``, whether it yields and returns a value, its parameters; the
    # ``global`` and ``nonlocal`` statements and the names annotated in the body
    is_async: bool = False
    yields: bool = False
    returns_value: bool = False
    params: frozenset[str] = frozenset()
    declarations: list[ast.Global | ast.Nonlocal] = field(default_factory=list)
    annotated: set[str] = field(default_factory=set)

    def owns(self, name: str) -> bool:
        """Whether ``name`` is a local variable of this function-like scope."""
        return (
            self.kind in ("function", "comprehension") and name in self.bound
            and name not in self.globals and name not in self.nonlocals
        )


def class_of(scope: AnalysedScope) -> AnalysedScope | None:
    """The class whose body ``scope`` is, or a function or comprehension in it."""
    current: AnalysedScope | None = scope
    while current is not None and current.kind != "class":
        if current.kind == "module":
            return None
        current = current.parent
    return current


def owner(scope: AnalysedScope, name: str) -> tuple[AnalysedScope, str] | None:
    """The function whose variable ``name`` is, seen from ``scope``, and how it is
    reached: "local" (its own, or an inlined comprehension's) or "free".
    """
    if scope.owns(name):
        return scope, "local"
    if name in scope.globals or scope.kind == "module":
        return None
    if scope.kind == "class" and name in scope.bound and name not in scope.nonlocals:
        return None
    inlined = scope.inlined and sys.version_info >= (3, 12)
    outer = scope.parent
    while outer is not None and outer.kind != "module":
        if outer.kind != "class":
            if outer.owns(name):
                return outer, "local" if inlined else "free"
            if name in outer.globals:
                return None
        inlined = inlined and outer.inlined
        outer = outer.parent
    return None


def find_cell_uses(scope: AnalysedScope) -> None:
    """Whether ``scope`` (the scopes in it done) reads the ``__class__`` cell of
    a class around it, as CPython's ``symtable.c`` finds it, and a class
    whether it has one; then what its parent sees of it. A function, lambda,
    comprehension or annotation scope reads the cell if it, or a scope in it,
    reads ``super`` or ``__class__``, unless it binds ``__class__`` itself;
    a class body, if it reads ``__class__`` and binds none. A class has the
    cell if a scope made in its body reads it (from 3.12 a list, set or dict
    comprehension is part of the body, the scopes in it made there)."""
    if scope.kind == "class":
        scope.uses_cell = bool(scope.cell_reads & CLASS_READ) and "__class__" not in scope.bound
        scope.has_cell = scope.made_uses
    elif scope.kind != "module":
        scope.uses_cell = bool(scope.cell_reads or scope.inner_uses) and "__class__" not in scope.bound
    parent = scope.parent
    if parent is not None:
        parent.inner_uses |= scope.uses_cell
        inline = scope.inlined and sys.version_info >= (3, 12)
        parent.made_uses |= scope.made_uses if inline else scope.uses_cell


def hidden_global(scope: AnalysedScope, name: str) -> bool:
    """Whether a read of ``name`` in ``scope`` is of a name declared ``global`` (here
    or in the function it resolves through) that an enclosing function binds too:
    without the declaration, a plain read would find the enclosing binding."""
    current: AnalysedScope | None = scope
    while current is not None and current.kind != "module":
        if current is scope or current.kind != "class":
            if name in current.globals:
                break
            if name in current.bound or name in current.nonlocals:
                return False
        current = current.parent
    if current is None or current.kind == "module":
        return False
    outer = current.parent
    while outer is not None and outer.kind != "module":
        if outer.kind != "class" and name not in outer.globals and (
                name in outer.bound or name in outer.nonlocals):
            return True
        outer = outer.parent
    return False
