"""The module's scope analysis: a small ``symtable``, run once before lowering.

Each scope of the input (the module, a class body, a def or lambda, a
comprehension, an annotation scope) becomes an :class:`AnalysedScope`: the
names it binds, deletes and declares, and the reads in it. The analysis
marks the nodes later rules ask about, so that they need not walk the
input again:

- each class, ``CLASS_FACTS_MARK``: its ``self.x`` stores
  (``__static_attributes__``) and whether CPython gives it a ``__class__``
  cell (a function in it reads ``super`` or ``__class__``, or the body of a
  class in it reads ``__class__``);
- each def and lambda, ``REBOUND_MARK``: the names its body and the scopes in
  it bind or declare (its other parameters are stable);
- each def, lambda and class, ``DECLARED_MARK``: the names its body declares
  ``global`` and ``nonlocal``.

:func:`owner` and :func:`hidden_global` resolve a read the way CPython's
compiler does; the ``del`` family's prologue marks the reads that need a
check with them (:mod:`unsugar.rules.deletion`).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unsugar.trees import (
    CLASS_FACTS_MARK,
    DECLARED_MARK,
    NAMES_BOUND,
    REBOUND_MARK,
    children,
    lazy_values,
)

#: the names whose use in a function gives a class its ``__class__`` cell
_CELL_NAMES = frozenset({"super", "__class__"})
#: which of those names the nodes of a scope read (:attr:`AnalysedScope.cell_reads`)
_SUPER_READ, _CLASS_READ = 1, 2


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
    # a class's (``CLASS_FACTS_MARK``): the ``self.x`` stored in it
    attributes: set[str] = field(default_factory=set)
    # the ``__class__`` cell (:func:`_find_cell_uses`): which of ``super`` and
    # ``__class__`` its nodes read (``_SUPER_READ | _CLASS_READ``); whether a
    # scope made in it reads the cell of a class around, and one made in it as
    # a class body sees them (the scopes in an inlined comprehension instead
    # of it); whether it reads that cell; a class, whether it has one
    cell_reads: int = 0
    inner_uses: bool = False
    made_uses: bool = False
    uses_cell: bool = False
    has_cell: bool = False

    def owns(self, name: str) -> bool:
        """Whether ``name`` is a local variable of this function-like scope."""
        return (
            self.kind in ("function", "comprehension") and name in self.bound
            and name not in self.globals and name not in self.nonlocals
        )


def _class_of(scope: AnalysedScope) -> AnalysedScope | None:
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


def analyse_scopes(body: list[ast.stmt]) -> list[AnalysedScope]:
    """The scopes of ``body`` (the first its own), each class and function in it marked
    (``CLASS_FACTS_MARK``, ``REBOUND_MARK``): :class:`_Analysis`."""
    return _Analysis().run(body)


def marked(node: ast.AST, mark: str) -> Any:
    """What the analysis marked ``node`` (a class, def or lambda) with: the
    module's analysis marks every one of the input; one a rule made, which it
    never saw, is analysed alone."""
    facts = getattr(node, mark, None)
    if facts is None:
        analyse_scopes([node if isinstance(node, ast.stmt) else ast.Expr(node)])  # type: ignore[arg-type]
        facts = getattr(node, mark)
    return facts


class _Analysis:
    """Scopes, their bindings, deletions and reads (a small ``symtable``): the
    nodes of each scope are walked in turn, by a handler per node type that
    binds, reads or makes a scope (``_HANDLERS``), or else into their children.
    Each class is marked with what its rule needs of its body
    (``CLASS_FACTS_MARK``), each def and lambda with the names rebound in it
    (``REBOUND_MARK``), each of them with the names its body declares
    (``DECLARED_MARK``)."""

    def __init__(self) -> None:
        self.scopes: list[AnalysedScope] = []
        self.pending: list[tuple[AnalysedScope, list[ast.AST]]] = []  # scopes not walked yet
        self.not_stored: set[int] = set()  # the targets of ``+=`` and of bare annotations

    def run(self, body: list[ast.stmt]) -> list[AnalysedScope]:
        """The scopes of the module whose statements are ``body``, the module's first."""
        self.enter("module", None, list(body))
        handlers = _HANDLERS
        while self.pending:
            scope, todo = self.pending.pop()
            pop = todo.pop
            while todo:
                node = pop()
                kind = type(node)
                if kind is ast.Name:  # (a third of the nodes: handled here, with no call)
                    if type(node.ctx) is ast.Load:
                        scope.reads.append(node)
                        if node.id in _CELL_NAMES:
                            scope.cell_reads |= _CLASS_READ if node.id == "__class__" else _SUPER_READ
                    else:
                        scope.bound.add(node.id)
                        scope.assigned.add(node.id)
                        if type(node.ctx) is ast.Del:
                            scope.deleted.add(node.id)
                    continue
                if kind is ast.Constant:
                    continue
                handler = handlers.get(kind)
                if handler is None:
                    todo += children(node)  # (no operators and contexts: nothing to see in them)
                else:
                    handler(self, node, scope, todo)
        for scope in reversed(self.scopes):  # (each after the scopes in it)
            scope.rebound |= scope.assigned | scope.defined | scope.globals | scope.nonlocals
            if scope.parent is not None:
                scope.parent.rebound |= scope.rebound
            _find_cell_uses(scope)
            if scope.node is None:
                continue
            if scope.kind == "class":
                setattr(scope.node, CLASS_FACTS_MARK, (sorted(scope.attributes), scope.has_cell))
            else:
                setattr(scope.node, REBOUND_MARK, frozenset(scope.rebound))
            setattr(scope.node, DECLARED_MARK, (frozenset(scope.globals), frozenset(scope.nonlocals)))
        return self.scopes

    def enter(
        self, kind: str, parent: AnalysedScope | None, nodes: list[ast.AST], inlined: bool = False
    ) -> AnalysedScope:
        """A new scope in ``parent``, whose nodes are ``nodes`` (walked later)."""
        scope = AnalysedScope(kind, parent, inlined)
        self.scopes.append(scope)
        self.pending.append((scope, nodes))
        return scope

    def call(self, node: ast.Call, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        if scope.kind == "module" or scope.kind == "class":
            scope.calls.append(node)
        todo += children(node)

    def attribute(self, node: ast.Attribute, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        """``self.x = ...`` in a class, or in a function in it: ``x`` is a static attribute."""
        value = node.value
        if type(node.ctx) is ast.Store and type(value) is ast.Name and value.id == "self" \
                and id(node) not in self.not_stored:
            owner = _class_of(scope)
            if owner is not None:
                owner.attributes.add(node.attr)
        todo.append(value)

    def aug_assign(self, node: ast.AugAssign, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        if isinstance(node.target, ast.Name):
            scope.reads.append(node.target)
        self.not_stored.add(id(node.target))
        todo += children(node)

    def ann_assign(self, node: ast.AnnAssign, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        if node.value is None:
            self.not_stored.add(id(node.target))
        todo += children(node)

    def declare_global(self, node: ast.Global, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        scope.globals.update(node.names)

    def declare_nonlocal(self, node: ast.Nonlocal, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        scope.nonlocals.update(node.names)

    def except_handler(self, node: ast.ExceptHandler, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        if node.name:
            scope.bound.add(node.name)
            scope.assigned.add(node.name)
            scope.deleted.add(node.name)
        todo += children(node)

    def binding(self, node: ast.AST, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        """An import's alias or a ``match`` capture: the names it binds (``NAMES_BOUND``)."""
        scope.bound.update(NAMES_BOUND[type(node)](node))
        scope.assigned.update(NAMES_BOUND[type(node)](node))
        todo += children(node)

    def named_expr(self, node: ast.NamedExpr, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        todo.append(node.value)
        target = scope
        while target.kind == "comprehension" and target.parent is not None:
            target = target.parent
        target.bound.add(node.target.id)
        target.assigned.add(node.target.id)

    @staticmethod
    def _arguments(args: ast.arguments, todo: list[ast.AST]) -> list[str]:
        """Add the defaults and annotations to ``todo`` (the current scope's); the parameter names."""
        todo += [*args.defaults, *(d for d in args.kw_defaults if d)]
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        todo += [p.annotation for p in params if p is not None and p.annotation]
        return [p.arg for p in params if p is not None]

    def function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: AnalysedScope, todo: list[ast.AST]
    ) -> None:
        todo += node.decorator_list
        params = self._arguments(node.args, todo)
        if node.returns:
            todo.append(node.returns)
        scope.bound.add(node.name)
        scope.defined.add(node.name)
        inner = self.enter("function", self._annotation_scope(node, scope), list(node.body))
        inner.bound.update(params)
        inner.node = node

    def lambda_(self, node: ast.Lambda, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        params = self._arguments(node.args, todo)
        inner = self.enter("function", scope, [node.body])
        inner.bound.update(params)
        inner.node = node

    def class_(self, node: ast.ClassDef, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        todo += [*node.decorator_list, *node.bases, *node.keywords]
        scope.bound.add(node.name)
        scope.defined.add(node.name)
        self.enter("class", self._annotation_scope(node, scope), list(node.body)).node = node

    def _annotation_scope(self, node: ast.AST, scope: AnalysedScope) -> AnalysedScope:
        """The scope a def, class or alias is made in: for a generic one (3.12+),
        the annotation scope around it, a function's that binds its type
        parameters (``global T`` in ``def f[T]`` is not the parameter)."""
        params = getattr(node, "type_params", None)
        if not params:
            return scope
        around = self.enter("function", scope, [])
        around.bound.update(param.name for param in params)
        for param in params:  # a bound, constraints, a default: each a function's, called later
            for value in lazy_values(param):
                self.enter("function", around, [value])
        return around

    def type_alias(self, node: ast.AST, scope: AnalysedScope, todo: list[ast.AST]) -> None:
        """``type X[T] = value``: the value is a function's, called later, in
        the annotation scope of the parameters."""
        todo.append(node.name)
        self.enter("function", self._annotation_scope(node, scope), [node.value])

    def comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, scope: AnalysedScope,
        todo: list[ast.AST],
    ) -> None:
        generators = node.generators
        todo.append(generators[0].iter)
        inner: list[ast.AST] = []
        for i, generator in enumerate(generators):
            inner.append(generator.target)
            if i:
                inner.append(generator.iter)
            inner.extend(generator.ifs)
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        self.enter("comprehension", scope, [*inner, *parts], not isinstance(node, ast.GeneratorExp))


#: the handler of each node type that binds, reads or makes a scope (a
#: ``Name`` is handled in :meth:`_Analysis.run`)
_HANDLERS: dict[type[ast.AST], Callable[[_Analysis, Any, AnalysedScope, list[ast.AST]], None]] = {
    ast.Attribute: _Analysis.attribute,
    ast.AugAssign: _Analysis.aug_assign,
    ast.AnnAssign: _Analysis.ann_assign,
    ast.Call: _Analysis.call,
    ast.Global: _Analysis.declare_global,
    ast.Nonlocal: _Analysis.declare_nonlocal,
    ast.ExceptHandler: _Analysis.except_handler,
    ast.alias: _Analysis.binding,
    ast.MatchAs: _Analysis.binding,
    ast.MatchStar: _Analysis.binding,
    ast.MatchMapping: _Analysis.binding,
    ast.NamedExpr: _Analysis.named_expr,
    ast.FunctionDef: _Analysis.function,
    ast.AsyncFunctionDef: _Analysis.function,
    ast.Lambda: _Analysis.lambda_,
    ast.ClassDef: _Analysis.class_,
    **({ast.TypeAlias: _Analysis.type_alias} if sys.version_info >= (3, 12) else {}),
    ast.ListComp: _Analysis.comprehension,
    ast.SetComp: _Analysis.comprehension,
    ast.DictComp: _Analysis.comprehension,
    ast.GeneratorExp: _Analysis.comprehension,
}


def _find_cell_uses(scope: AnalysedScope) -> None:
    """Whether ``scope`` (the scopes in it done) reads the ``__class__`` cell of
    a class around it, as CPython's ``symtable.c`` finds it, and a class
    whether it has one; then what its parent sees of it. A function, lambda,
    comprehension or annotation scope reads the cell if it, or a scope in it,
    reads ``super`` or ``__class__``, unless it binds ``__class__`` itself;
    a class body, if it reads ``__class__`` and binds none. A class has the
    cell if a scope made in its body reads it (from 3.12 a list, set or dict
    comprehension is part of the body, the scopes in it made there)."""
    if scope.kind == "class":
        scope.uses_cell = bool(scope.cell_reads & _CLASS_READ) and "__class__" not in scope.bound
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
