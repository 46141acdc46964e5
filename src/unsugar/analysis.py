"""The module's analysis: one walk of the input before any rule runs.

It finds the scopes of the module (a small ``symtable``:
:class:`unsugar.scopes.AnalysedScope`), and whether CPython's compiler may
refuse it (the checks of :mod:`unsugar.refusals`, asked of each node on the
way)::

    analysis = analyse_module(tree)
    analysis.may_refuse          # compile it for CPython's error first
    analysis.scopes              # the module's scope first, each after its parent

It marks the nodes later rules ask about, so that they need not walk the
input again:

- each class, ``CLASS_FACTS_MARK``: its ``self.x`` stores
  (``__static_attributes__``), whether CPython gives it a ``__class__``
  cell (a function in it reads ``super`` or ``__class__``, or the body of a
  class in it reads ``__class__``), and whether its body makes an
  annotation scope (3.12+: a generic def or class, a type alias);
- each def and lambda, ``REBOUND_MARK``: the names its body and the scopes in
  it bind or declare (its other parameters are stable);
- each def, lambda and class, ``DECLARED_MARK``: the names its body declares
  ``global`` and ``nonlocal``.
"""

from __future__ import annotations

import sys
from ast import Attribute, Constant, Load, Name, Store
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from unsugar import nodes as ast
from unsugar import refusals
from unsugar.refusals import (
    ANNOTATION,
    COMPREHENSION,
    DEEPEST,
    LOOP,
    MOST_BLOCKS,
    TRY,
    WATCHED,
    WITH_ITEM,
)
from unsugar.scopes import (
    CELL_NAMES,
    CLASS_READ,
    SUPER_READ,
    AnalysedScope,
    class_of,
    find_cell_uses,
)
from unsugar.trees import (
    CLASS_FACTS_MARK,
    DECLARED_MARK,
    NAMES_BOUND,
    REBOUND_MARK,
    children,
    lazy_values,
)
from unsugar.unit import opening_of


@dataclass
class ModuleAnalysis:
    """What the walk found of a module."""

    scopes: list[AnalysedScope]  # the module's first, each after the scope it is made in
    may_refuse: bool  # whether CPython's compiler may refuse the module (or warn)


def analyse_module(tree: ast.Module) -> ModuleAnalysis:
    """The scopes of ``tree`` (parsed from source), each class and function
    in it marked, and whether compiling it may raise an error."""
    walker = _Walker(opening_of(tree), checking=True)
    scopes = walker.run(tree.body)
    return ModuleAnalysis(scopes, walker.refusable)


def analyse_scopes(body: list[ast.stmt]) -> list[AnalysedScope]:
    """The scopes of ``body`` (the first its own), each class and function in it
    marked (``CLASS_FACTS_MARK``, ``REBOUND_MARK``, ``DECLARED_MARK``)."""
    return _Walker([], checking=False).run(body)


def may_refuse(tree: ast.Module) -> bool:
    """Whether compiling ``tree`` (parsed from source) may raise an error."""
    return analyse_module(tree).may_refuse


def marked(node: ast.AST, mark: str) -> Any:
    """What the analysis marked ``node`` (a class, def or lambda) with: the
    module's analysis marks every one of the input; one a rule made, which it
    never saw, is analysed alone."""
    facts = getattr(node, mark, None)
    if facts is None:
        analyse_scopes([node if isinstance(node, ast.stmt) else ast.Expr(node)])  # type: ignore[arg-type]
        facts = getattr(node, mark)
    return facts


class _Walker:
    """Statements are walked with their scope, and the loop, block weight and
    depth they are at; expressions with their scope, depth, and the flags
    :data:`~unsugar.refusals.COMPREHENSION` and :data:`~unsugar.refusals.ANNOTATION`.
    A handler per node type binds, reads, makes a scope or asks a check of
    :mod:`unsugar.refusals` (``_STATEMENTS``, ``_EXPRESSIONS``); any other
    node's children are walked. A check that fails sets ``refusable``; where
    no one asks (``checking`` false: statements a rule made, with no
    positions), the checks of ``global`` and ``nonlocal``, which walk again
    or ask the whole module, are left out."""

    def __init__(self, opening: list[ast.stmt], checking: bool) -> None:
        self.futures = {id(stmt) for stmt in opening if isinstance(stmt, ast.ImportFrom)}
        self.checking = checking
        self.scopes: list[AnalysedScope] = []
        self.not_stored: set[int] = set()  # the targets of ``+=`` and of bare annotations
        self.refusable = False

    def run(self, body: list[ast.stmt]) -> list[AnalysedScope]:
        """The scopes of the module whose statements are ``body``, the module's first."""
        self.scope_body(body, self.new_scope("module", None), 0)
        if self.checking and not self.refusable and any(
                refusals.nonlocal_refused(scope, name) for scope in self.scopes for name in scope.nonlocals):
            self.refusable = True
        for scope in reversed(self.scopes):  # (each after the scopes in it)
            scope.rebound |= scope.assigned | scope.defined | scope.globals | scope.nonlocals
            if scope.parent is not None:
                scope.parent.rebound |= scope.rebound
            find_cell_uses(scope)
            if scope.node is None:
                continue
            if scope.kind == "class":
                setattr(scope.node, CLASS_FACTS_MARK,
                        (sorted(scope.attributes), scope.has_cell, scope.makes_annotation_scope))
            else:
                setattr(scope.node, REBOUND_MARK, frozenset(scope.rebound))
            setattr(scope.node, DECLARED_MARK, (frozenset(scope.globals), frozenset(scope.nonlocals)))
        return self.scopes

    def new_scope(self, kind: str, parent: AnalysedScope | None, inlined: bool = False) -> AnalysedScope:
        scope = AnalysedScope(kind, parent, inlined)
        self.scopes.append(scope)
        return scope

    # ----------------------------------------------------------- statements
    def scope_body(self, body: list[ast.stmt], scope: AnalysedScope, depth: int) -> None:
        """The body of a new scope, then its ``global`` and ``nonlocal`` statements."""
        self.body(body, scope, False, 0, depth)
        if scope.declarations and self.checking and not self.refusable and refusals.declarations_refused(
                body, scope.declarations, scope.params, scope.annotated):
            self.refusable = True

    def body(self, stmts: list[ast.stmt], scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        if depth > DEEPEST or blocks > MOST_BLOCKS:
            self.refusable = True
        for stmt in stmts:
            handler = _STATEMENTS.get(type(stmt))
            if handler is not None:
                handler(self, stmt, scope, loop, blocks, depth + 1)
            else:  # a simple statement: only expressions in it
                for child in children(stmt):
                    self.expr(child, scope, 0, 0)

    def _jump(self, node: ast.Break | ast.Continue, scope: AnalysedScope, loop: bool, *_: object) -> None:
        if not loop:
            self.refusable = True

    def _assert(self, node: ast.Assert, scope: AnalysedScope, *_: object) -> None:
        if refusals.assert_refused(node):
            self.refusable = True
        for child in children(node):
            self.expr(child, scope, 0, 0)

    def _return(self, node: ast.Return, scope: AnalysedScope, *_: object) -> None:
        if scope.kind != "function":
            self.refusable = True
        if node.value is not None:
            scope.returns_value = True
            self.expr(node.value, scope, 0, 0)

    def _global(self, node: ast.Global, scope: AnalysedScope, *_: object) -> None:
        scope.globals.update(node.names)
        scope.declarations.append(node)

    def _nonlocal(self, node: ast.Nonlocal, scope: AnalysedScope, *_: object) -> None:
        """Where a def binds the name is asked once every scope is walked (:meth:`run`)."""
        if scope.kind != "function" or scope.node is None:  # (at module level; in a class body: flagged)
            self.refusable = True
        scope.nonlocals.update(node.names)
        scope.declarations.append(node)

    def _import(self, node: ast.Import | ast.ImportFrom, scope: AnalysedScope, *_: object) -> None:
        if refusals.import_refused(node) if type(node) is ast.Import else refusals.import_from_refused(
                node, id(node) in self.futures, scope.kind == "module"):
            self.refusable = True
        bound = NAMES_BOUND[ast.alias]
        for alias in node.names:
            names = bound(alias)
            scope.bound.update(names)
            scope.assigned.update(names)

    def _aug_assign(self, node: ast.AugAssign, scope: AnalysedScope, *_: object) -> None:
        if type(node.target) is Name:
            scope.reads.append(node.target)
        self.not_stored.add(id(node.target))
        self.expr(node.target, scope, 0, 0)
        self.expr(node.value, scope, 0, 0)

    def _ann_assign(self, node: ast.AnnAssign, scope: AnalysedScope, *_: object) -> None:
        if type(node.target) is Name:
            scope.annotated.add(node.target.id)
        if node.value is None:
            self.not_stored.add(id(node.target))
        self.expr(node.target, scope, 0, 0)
        self.expr(node.annotation, scope, ANNOTATION, 0)
        if node.value is not None:
            self.expr(node.value, scope, 0, 0)

    def _if(self, node: ast.If, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        self.expr(node.test, scope, 0, 0)
        self.body(node.body, scope, loop, blocks, depth)
        self.body(node.orelse, scope, loop, blocks, depth)

    def _while(self, node: ast.While, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        self.expr(node.test, scope, 0, 0)
        self.body(node.body, scope, True, blocks + LOOP, depth)
        self.body(node.orelse, scope, loop, blocks, depth)

    def _for(self, node: ast.For | ast.AsyncFor, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        weight = LOOP
        if type(node) is ast.AsyncFor:
            self._need_async(scope)
            weight = WITH_ITEM
        self.expr(node.iter, scope, 0, 0)
        self.expr(node.target, scope, 0, 0)
        self.body(node.body, scope, True, blocks + weight, depth)
        self.body(node.orelse, scope, loop, blocks, depth)

    def _with(self, node: ast.With | ast.AsyncWith, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        if type(node) is ast.AsyncWith:
            self._need_async(scope)
        for item in node.items:
            self.expr(item.context_expr, scope, 0, 0)
            if item.optional_vars is not None:
                self.expr(item.optional_vars, scope, 0, 0)
        self.body(node.body, scope, loop, blocks + WITH_ITEM * len(node.items), depth)

    def _try(self, node: ast.Try, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        """``try``, and ``except*`` (which has checks of its own: flagged)."""
        if type(node) is not ast.Try or refusals.handlers_refused(node.handlers):
            self.refusable = True
        blocks += TRY
        self.body(node.body, scope, loop, blocks, depth)
        for handler in node.handlers:
            if handler.type is not None:
                self.expr(handler.type, scope, 0, 0)
            if handler.name:
                scope.bound.add(handler.name)
                scope.assigned.add(handler.name)
                scope.deleted.add(handler.name)
            self.body(handler.body, scope, loop, blocks, depth)
        self.body(node.orelse, scope, loop, blocks, depth)
        self.body(node.finalbody, scope, loop, blocks, depth)

    def _match(self, node: ast.Match, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        """``match`` has checks of its own: flagged, then walked (its patterns
        bind by the handlers of ``_EXPRESSIONS``)."""
        self.refusable = True
        self.expr(node.subject, scope, 0, 0)
        for case in node.cases:
            self.expr(case.pattern, scope, 0, 0)
            if case.guard is not None:
                self.expr(case.guard, scope, 0, 0)
            self.body(case.body, scope, loop, blocks, depth)

    def _need_async(self, scope: AnalysedScope) -> None:
        if scope.kind != "function" or not scope.is_async:
            self.refusable = True

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: AnalysedScope, loop: bool,
                  blocks: int, depth: int) -> None:
        if getattr(node, "type_params", None) or node.name == "__debug__":
            self.refusable = True
        for decorator in node.decorator_list:
            self.expr(decorator, scope, 0, 0)
        params = self.arguments(node.args, scope, annotated=True)
        if node.returns is not None:
            self.expr(node.returns, scope, ANNOTATION, 0)
        scope.bound.add(node.name)
        scope.defined.add(node.name)
        inner = self.new_scope("function", self._annotation_scope(node, scope))
        inner.node = node
        inner.bound.update(params)
        inner.params = params
        inner.is_async = type(node) is ast.AsyncFunctionDef
        self.scope_body(node.body, inner, depth)
        if inner.is_async and inner.yields and inner.returns_value:
            self.refusable = True  # "'return' with value in async generator"

    def _class(self, node: ast.ClassDef, scope: AnalysedScope, loop: bool, blocks: int, depth: int) -> None:
        if getattr(node, "type_params", None) or node.name == "__debug__":
            self.refusable = True
        for decorator in node.decorator_list:
            self.expr(decorator, scope, 0, 0)
        self.items(node.bases, scope, 0, 0)
        self.keywords(node.keywords, scope, 0, 0)
        scope.bound.add(node.name)
        scope.defined.add(node.name)
        inner = self.new_scope("class", self._annotation_scope(node, scope))
        inner.node = node
        self.scope_body(node.body, inner, depth)

    def _type_alias(self, node: Any, scope: AnalysedScope, *_: object) -> None:
        """``type X[T] = value`` (flagged: it has checks of its own): the value
        is a function's, called later, in the annotation scope of the parameters."""
        self.refusable = True
        scope.makes_annotation_scope = True
        self.expr(node.name, scope, 0, 0)
        self.expr(node.value, self.new_scope("function", self._annotation_scope(node, scope)), 0, 0)

    def _annotation_scope(self, node: ast.AST, scope: AnalysedScope) -> AnalysedScope:
        """The scope a def, class or alias is made in: for a generic one (3.12+),
        the annotation scope around it, a function's that binds its type
        parameters (``global T`` in ``def f[T]`` is not the parameter)."""
        params = getattr(node, "type_params", None)
        if not params:
            return scope
        scope.makes_annotation_scope = True
        around = self.new_scope("function", scope)
        around.bound.update(param.name for param in params)
        for param in params:  # a bound, constraints, a default: each a function's, called later
            for value in lazy_values(param):
                self.expr(value, self.new_scope("function", around), 0, 0)
        return around

    def arguments(self, args: ast.arguments, scope: AnalysedScope, annotated: bool) -> frozenset[str]:
        """Walk the defaults and annotations (in ``scope``); the parameters' names."""
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        for extra in (args.vararg, args.kwarg):
            if extra is not None:
                params.append(extra)
        names = [param.arg for param in params]
        unique = frozenset(names)
        if refusals.parameters_refused(names, unique):
            self.refusable = True
        for default in (*args.defaults, *args.kw_defaults):
            if default is not None:
                self.expr(default, scope, 0, 0)
        if annotated:
            for param in params:
                annotation = param.annotation
                if annotation is None:
                    continue
                if param is args.vararg and type(annotation) is ast.Starred:
                    annotation = annotation.value  # def f(*args: *Ts)
                self.expr(annotation, scope, ANNOTATION, 0)
        return unique

    # ---------------------------------------------------------- expressions
    def expr(self, node: ast.AST, scope: AnalysedScope, flags: int, depth: int) -> None:
        kind = type(node)
        while kind is Attribute:  # (a chain ``a.b.c``: its values in turn, with no call)
            value = node.value  # type: ignore[attr-defined]
            if type(node.ctx) is not Load:  # type: ignore[attr-defined]
                if node.attr == "__debug__":  # type: ignore[attr-defined]
                    self.refusable = True
                # ``self.x = ...`` in a class, or in a function in it: ``x`` is a static attribute
                if type(node.ctx) is Store and type(value) is Name and value.id == "self" \
                        and id(node) not in self.not_stored:  # type: ignore[attr-defined]
                    owner = class_of(scope)
                    if owner is not None:
                        owner.attributes.add(node.attr)  # type: ignore[attr-defined]
            if depth > DEEPEST:
                self.refusable = True
            node = value
            kind = type(node)
            depth += 1
        if kind is Name:  # (a third of the nodes: no call for them)
            identifier = node.id  # type: ignore[attr-defined]
            if type(node.ctx) is Load:  # type: ignore[attr-defined]
                scope.reads.append(node)  # type: ignore[arg-type]
                if identifier in CELL_NAMES:
                    scope.cell_reads |= CLASS_READ if identifier == "__class__" else SUPER_READ
            else:
                scope.bound.add(identifier)
                scope.assigned.add(identifier)
                if type(node.ctx) is ast.Del:  # type: ignore[attr-defined]
                    scope.deleted.add(identifier)
            if identifier in WATCHED and refusals.name_refused(node):  # type: ignore[arg-type]
                self.refusable = True
            return
        if kind is Constant:
            return
        if depth > DEEPEST:
            self.refusable = True
        handler = _EXPRESSIONS.get(kind)
        if handler is not None:
            handler(self, node, scope, flags, depth + 1)
        else:
            for child in children(node):
                if type(child) is not Constant:
                    self.expr(child, scope, flags, depth + 1)

    def items(self, elts: list[ast.expr], scope: AnalysedScope, flags: int, depth: int) -> int:
        """Walk the items of a display or the arguments of a call, where a
        starred item belongs; how many are starred."""
        starred = 0
        for elt in elts:
            if type(elt) is ast.Starred:
                starred += 1
                elt = elt.value
            self.expr(elt, scope, flags, depth)
        return starred

    def keywords(self, keywords: list[ast.keyword], scope: AnalysedScope, flags: int, depth: int) -> None:
        if keywords and refusals.keywords_refused(keywords):
            self.refusable = True
        for keyword in keywords:
            self.expr(keyword.value, scope, flags, depth)

    def _starred(self, node: ast.Starred, scope: AnalysedScope, flags: int, depth: int) -> None:
        """A starred item where none belongs (where one does, its value is walked instead)."""
        self.refusable = True
        self.expr(node.value, scope, flags, depth)

    def _sequence(self, node: ast.Tuple | ast.List | ast.Set, scope: AnalysedScope, flags: int, depth: int) -> None:
        if refusals.starred_refused(node, self.items(node.elts, scope, flags, depth)):
            self.refusable = True

    def _call(self, node: ast.Call, scope: AnalysedScope, flags: int, depth: int) -> None:
        if scope.kind == "module" or scope.kind == "class":
            scope.calls.append(node)
        if refusals.call_refused(node):
            self.refusable = True
        self.expr(node.func, scope, flags, depth)
        self.items(node.args, scope, flags, depth)
        self.keywords(node.keywords, scope, flags, depth)

    def _compare(self, node: ast.Compare, scope: AnalysedScope, flags: int, depth: int) -> None:
        if refusals.compare_refused(node):
            self.refusable = True
        self.expr(node.left, scope, flags, depth)
        for comparator in node.comparators:
            self.expr(comparator, scope, flags, depth)

    def _subscript(self, node: ast.Subscript, scope: AnalysedScope, flags: int, depth: int) -> None:
        if refusals.subscript_refused(node):
            self.refusable = True
        self.expr(node.value, scope, flags, depth)
        self.expr(node.slice, scope, flags, depth)

    def _yield(self, node: ast.Yield | ast.YieldFrom, scope: AnalysedScope, flags: int, depth: int) -> None:
        if flags or scope.kind != "function" or type(node) is ast.YieldFrom and scope.is_async:
            self.refusable = True
        scope.yields = True
        if node.value is not None:
            self.expr(node.value, scope, flags, depth)

    def _await(self, node: ast.Await, scope: AnalysedScope, flags: int, depth: int) -> None:
        if flags:
            self.refusable = True
        self._need_async(scope)
        self.expr(node.value, scope, flags, depth)

    def _named(self, node: ast.NamedExpr, scope: AnalysedScope, flags: int, depth: int) -> None:
        """``x := value`` binds ``x`` in the scope a comprehension is in."""
        target = node.target
        if flags or target.id in WATCHED:
            self.refusable = True
        binder = scope
        while binder.kind == "comprehension" and binder.parent is not None:
            binder = binder.parent
        binder.bound.add(target.id)
        binder.assigned.add(target.id)
        self.expr(node.value, scope, flags, depth)

    def _lambda(self, node: ast.Lambda, scope: AnalysedScope, flags: int, depth: int) -> None:
        params = self.arguments(node.args, scope, annotated=False)
        inner = self.new_scope("function", scope)
        inner.node = node
        inner.bound.update(params)
        inner.params = params
        # (a walrus in a lambda in a comprehension's first iterable is flagged too)
        self.expr(node.body, inner, flags, depth)

    def _comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, scope: AnalysedScope,
        flags: int, depth: int,
    ) -> None:
        """The first iterable is walked in ``scope``, the rest in the comprehension's own."""
        flags |= COMPREHENSION
        generators = node.generators
        self.expr(generators[0].iter, scope, flags, depth)
        inner = self.new_scope("comprehension", scope, type(node) is not ast.GeneratorExp)
        for i, generator in enumerate(generators):
            if generator.is_async:
                self.refusable = True
            self.expr(generator.target, inner, flags, depth)
            if i:
                self.expr(generator.iter, inner, flags, depth)
            for condition in generator.ifs:
                self.expr(condition, inner, flags, depth)
        for child in children(node)[:-len(generators)]:  # the element, or key and value
            self.expr(child, inner, flags, depth)

    def _pattern_binding(self, node: ast.AST, scope: AnalysedScope, flags: int, depth: int) -> None:
        """A ``match`` capture: the names it binds (``NAMES_BOUND``)."""
        names = NAMES_BOUND[type(node)](node)
        scope.bound.update(names)
        scope.assigned.update(names)
        for child in children(node):
            self.expr(child, scope, flags, depth)


_Handler = Callable[..., None]

_STATEMENTS: dict[type, _Handler] = {
    ast.Break: _Walker._jump,
    ast.Continue: _Walker._jump,
    ast.Return: _Walker._return,
    ast.Global: _Walker._global,
    ast.Nonlocal: _Walker._nonlocal,
    ast.Import: _Walker._import,
    ast.ImportFrom: _Walker._import,
    ast.AugAssign: _Walker._aug_assign,
    ast.AnnAssign: _Walker._ann_assign,
    ast.If: _Walker._if,
    ast.While: _Walker._while,
    ast.For: _Walker._for,
    ast.AsyncFor: _Walker._for,
    ast.With: _Walker._with,
    ast.AsyncWith: _Walker._with,
    ast.Try: _Walker._try,
    ast.TryStar: _Walker._try,
    ast.FunctionDef: _Walker._function,
    ast.AsyncFunctionDef: _Walker._function,
    ast.ClassDef: _Walker._class,
    ast.Match: _Walker._match,
    ast.Assert: _Walker._assert,
    **({ast.TypeAlias: _Walker._type_alias} if sys.version_info >= (3, 12) else {}),
}

_EXPRESSIONS: dict[type, _Handler] = {
    ast.Starred: _Walker._starred,
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
    ast.MatchAs: _Walker._pattern_binding,
    ast.MatchStar: _Walker._pattern_binding,
    ast.MatchMapping: _Walker._pattern_binding,
}
