"""``del``: names, attributes, subscripts, and lists of them.

A module or class body deletes from its namespace. A function cannot unbind
a local in core syntax, so ``del x`` stores a marker in ``x`` and every read
of a variable that some ``del`` (or ``except ... as x``) may unbind checks
for it, raising what CPython raises: ``UnboundLocalError`` in the function
that owns the variable, ``NameError`` ("free variable") in nested ones.
Which reads need the check is found once per module, before lowering, by a
small scope analysis that marks those ``Name`` nodes.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unsugar import builder as b
from unsugar.linker import BUILTIN_NAMES
from unsugar.lowering import PROLOGUES, Lowerer
from unsugar.registry import expr_rule, stmt_rule
from unsugar.rules.assignments import subscript_key
from unsugar.trees import (
    CLASS_FACTS_MARK,
    GLOBAL_MARK,
    NAMES_BOUND,
    NAMESPACE_CALL_MARK,
    REBOUND_MARK,
    UNBOUND_MARK,
    children,
    lazy_values,
)

_SEQUENCE = (ast.Tuple, ast.List)
#: the names whose use in a function gives a class its ``__class__`` cell
_CELL_NAMES = frozenset({"super", "__class__"})


def _one(kind: type[ast.expr] | tuple[type[ast.expr], ...]):
    """A predicate: a ``del`` of one target of type ``kind``."""
    return lambda node: len(node.targets) == 1 and isinstance(node.targets[0], kind)


def _flatten(targets: list[ast.expr]) -> list[ast.expr]:
    out: list[ast.expr] = []
    for target in targets:
        out.extend(_flatten(target.elts) if isinstance(target, _SEQUENCE) else [target])
    return out


@stmt_rule(
    ast.Delete,
    id="del-targets",
    summary="del a, (b, [c]) deletes each target in turn, left to right",
    before="del a, (b, c)",
    after="del a\ndel b\ndel c",
    reference="simple_stmts.html#the-del-statement",
    applies=lambda node: len(node.targets) > 1 or isinstance(node.targets[0], _SEQUENCE),
)
def lower_del_targets(node: ast.Delete, cx: Lowerer) -> list[ast.stmt]:
    return [ast.Delete(targets=[target]) for target in _flatten(node.targets)]


@stmt_rule(
    ast.Delete,
    id="del-attribute",
    summary="del x.y is delattr(x, 'y') (private names mangled)",
    before="del x.y",
    after="_us_delattr(x, _us_s_y)",
    reference="simple_stmts.html#the-del-statement",
    applies=_one(ast.Attribute),
)
def lower_del_attribute(node: ast.Delete, cx: Lowerer) -> list[ast.stmt]:
    target = node.targets[0]
    return [b.expr(b.call(cx.builtin("delattr"), target.value, cx.string(cx.mangle(target.attr))))]


@stmt_rule(
    ast.Delete,
    id="del-subscript",
    summary="del a[i] evaluates a, then i, and calls __delitem__; slices too",
    before="del a[i]\ndel a[1:]",
    after="_us_subscript_delete(a, i)\n_us_subscript_delete(a, _us_slice(1, _us_none, _us_none))",
    reference="simple_stmts.html#the-del-statement",
    applies=_one(ast.Subscript),
)
def lower_del_subscript(node: ast.Delete, cx: Lowerer) -> list[ast.stmt]:
    target = node.targets[0]
    return [b.expr(b.call(cx.rt("subscript_delete"), target.value, subscript_key(target.slice, cx)))]


@stmt_rule(
    ast.Delete,
    id="del-name",
    summary="del x: from the module or class namespace; in a function x gets an 'unbound' marker",
    before="def f():\n    x = 1\n    del x\n    return x",
    after="def f():\n    x = 1\n    x = _us_unbind_local(x, _us_s_x)\n"
    "    return _us_local_value(x, _us_s_x)",
    reference="simple_stmts.html#the-del-statement",
    applies=_one(ast.Name),
)
def lower_del_name(node: ast.Delete, cx: Lowerer) -> list[ast.stmt]:
    """``global x; del x`` deletes from the module's dict; ``nonlocal x;
    del x`` unbinds the enclosing function's variable. Reading a variable that
    is already unbound raises CPython's own error before the helper is called.
    """
    name = cx.mangle(node.targets[0].id)
    scope = cx.scope
    if name in scope.globals and scope.kind != "module":
        return [b.expr(b.call(cx.rt("global_delete"), cx.string(name)))]
    if scope.kind != "function" and name not in scope.nonlocals:
        if scope.namespace is not None:
            return [scope.namespace.delete(name, cx)]
        return [b.expr(b.call(cx.rt("namespace_delete"), cx.string(name)))]
    helper = "unbind_free" if name in scope.nonlocals else "unbind_local"
    return [b.assign(name, b.call(cx.rt(helper), b.load(name), cx.string(name)))]


@expr_rule(
    ast.Name,
    id="del-name-read",
    summary="a read of a variable that del may have unbound checks for the marker",
    before="def f():\n    x = 1\n    del x\n    print(x)",
    after="def f():\n    x = 1\n    x = _us_unbind_local(x, _us_s_x)\n"
    "    print(_us_local_value(x, _us_s_x))",
    reference="executionmodel.html#resolution-of-names",
    applies=lambda node: isinstance(node.ctx, ast.Load) and hasattr(node, UNBOUND_MARK),
)
def lower_checked_read(node: ast.Name, cx: Lowerer) -> ast.expr:
    name = cx.mangle(node.id)
    helper = "local_value" if getattr(node, UNBOUND_MARK) == "local" else "free_value"
    return b.call(cx.rt(helper), b.load(name), cx.string(name))


# ------------------------------------------------------------------ analysis
@dataclass
class _Scope:
    kind: str  # "module", "class", "function", "comprehension"
    parent: _Scope | None
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
    # a class's (``CLASS_FACTS_MARK``): the ``self.x`` stored in it, whether
    # ``super``, ``__class__`` or a nested class is there
    attributes: set[str] = field(default_factory=set)
    may_need_cell: bool = False

    def owns(self, name: str) -> bool:
        """Whether ``name`` is a local variable of this function-like scope."""
        return (
            self.kind in ("function", "comprehension") and name in self.bound
            and name not in self.globals and name not in self.nonlocals
        )


def _class_of(scope: _Scope) -> _Scope | None:
    """The class whose body ``scope`` is, or a function or comprehension in it."""
    current: _Scope | None = scope
    while current is not None and current.kind != "class":
        if current.kind == "module":
            return None
        current = current.parent
    return current


def _owner(scope: _Scope, name: str) -> tuple[_Scope, str] | None:
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


def analyse_scopes(body: list[ast.stmt]) -> list[_Scope]:
    """The scopes of ``body`` (the first its own), each class and function in it marked
    (``CLASS_FACTS_MARK``, ``REBOUND_MARK``): :class:`_Analysis`."""
    return _Analysis().run(body)


class _Analysis:
    """Scopes, their bindings, deletions and reads (a small ``symtable``): the
    nodes of each scope are walked in turn, by a handler per node type that
    binds, reads or makes a scope (``_HANDLERS``), or else into their children.
    Each class is marked with what its rule needs of its body
    (``CLASS_FACTS_MARK``), each def and lambda with the names rebound in it
    (``REBOUND_MARK``)."""

    def __init__(self) -> None:
        self.scopes: list[_Scope] = []
        self.pending: list[tuple[_Scope, list[ast.AST]]] = []  # scopes not walked yet
        self.not_stored: set[int] = set()  # the targets of ``+=`` and of bare annotations

    def run(self, body: list[ast.stmt]) -> list[_Scope]:
        """The scopes of the module whose statements are ``body``, the module's first."""
        self.enter("module", None, list(body))
        handlers = _HANDLERS
        while self.pending:
            scope, todo = self.pending.pop()
            while todo:
                node = todo.pop()
                handler = handlers.get(type(node))
                if handler is None:
                    todo += children(node)  # (no operators and contexts: nothing to see in them)
                else:
                    handler(self, node, scope, todo)
        for scope in reversed(self.scopes):  # (each after the scopes in it)
            scope.rebound |= scope.assigned | scope.defined | scope.globals | scope.nonlocals
            if scope.parent is not None:
                scope.parent.rebound |= scope.rebound
            if scope.kind == "class":
                setattr(scope.node, CLASS_FACTS_MARK, (sorted(scope.attributes), scope.may_need_cell))
            elif scope.node is not None:
                setattr(scope.node, REBOUND_MARK, frozenset(scope.rebound))
        return self.scopes

    def enter(
        self, kind: str, parent: _Scope | None, nodes: list[ast.AST], inlined: bool = False
    ) -> _Scope:
        """A new scope in ``parent``, whose nodes are ``nodes`` (walked later)."""
        scope = _Scope(kind, parent, inlined)
        self.scopes.append(scope)
        self.pending.append((scope, nodes))
        return scope

    def name(self, node: ast.Name, scope: _Scope, todo: list[ast.AST]) -> None:
        if node.id in _CELL_NAMES:
            self.may_need_cell(scope)
        if isinstance(node.ctx, ast.Load):
            scope.reads.append(node)
        else:
            scope.bound.add(node.id)
            scope.assigned.add(node.id)
            if isinstance(node.ctx, ast.Del):
                scope.deleted.add(node.id)

    def call(self, node: ast.Call, scope: _Scope, todo: list[ast.AST]) -> None:
        if scope.kind == "module" or scope.kind == "class":
            scope.calls.append(node)
        todo += children(node)

    def may_need_cell(self, scope: _Scope) -> None:
        owner = _class_of(scope)
        if owner is not None:
            owner.may_need_cell = True

    def attribute(self, node: ast.Attribute, scope: _Scope, todo: list[ast.AST]) -> None:
        """``self.x = ...`` in a class, or in a function in it: ``x`` is a static attribute."""
        value = node.value
        if type(node.ctx) is ast.Store and type(value) is ast.Name and value.id == "self" \
                and id(node) not in self.not_stored:
            owner = _class_of(scope)
            if owner is not None:
                owner.attributes.add(node.attr)
        todo.append(value)

    def aug_assign(self, node: ast.AugAssign, scope: _Scope, todo: list[ast.AST]) -> None:
        if isinstance(node.target, ast.Name):
            scope.reads.append(node.target)
        self.not_stored.add(id(node.target))
        todo += children(node)

    def ann_assign(self, node: ast.AnnAssign, scope: _Scope, todo: list[ast.AST]) -> None:
        if node.value is None:
            self.not_stored.add(id(node.target))
        todo += children(node)

    def declare_global(self, node: ast.Global, scope: _Scope, todo: list[ast.AST]) -> None:
        scope.globals.update(node.names)

    def declare_nonlocal(self, node: ast.Nonlocal, scope: _Scope, todo: list[ast.AST]) -> None:
        scope.nonlocals.update(node.names)

    def except_handler(self, node: ast.ExceptHandler, scope: _Scope, todo: list[ast.AST]) -> None:
        if node.name:
            scope.bound.add(node.name)
            scope.assigned.add(node.name)
            scope.deleted.add(node.name)
        todo += children(node)

    def binding(self, node: ast.AST, scope: _Scope, todo: list[ast.AST]) -> None:
        """An import's alias or a ``match`` capture: the names it binds (``NAMES_BOUND``)."""
        scope.bound.update(NAMES_BOUND[type(node)](node))
        scope.assigned.update(NAMES_BOUND[type(node)](node))
        todo += children(node)

    def named_expr(self, node: ast.NamedExpr, scope: _Scope, todo: list[ast.AST]) -> None:
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
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope, todo: list[ast.AST]
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

    def lambda_(self, node: ast.Lambda, scope: _Scope, todo: list[ast.AST]) -> None:
        params = self._arguments(node.args, todo)
        inner = self.enter("function", scope, [node.body])
        inner.bound.update(params)
        inner.node = node

    def class_(self, node: ast.ClassDef, scope: _Scope, todo: list[ast.AST]) -> None:
        todo += [*node.decorator_list, *node.bases, *node.keywords]
        scope.bound.add(node.name)
        scope.defined.add(node.name)
        self.may_need_cell(scope)
        self.enter("class", self._annotation_scope(node, scope), list(node.body)).node = node

    def _annotation_scope(self, node: ast.AST, scope: _Scope) -> _Scope:
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

    def type_alias(self, node: ast.AST, scope: _Scope, todo: list[ast.AST]) -> None:
        """``type X[T] = value``: the value is a function's, called later, in
        the annotation scope of the parameters."""
        todo.append(node.name)
        self.enter("function", self._annotation_scope(node, scope), [node.value])

    def comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp, scope: _Scope,
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


#: the handler of each node type that binds, reads or makes a scope
_HANDLERS: dict[type[ast.AST], Callable[[_Analysis, Any, _Scope, list[ast.AST]], None]] = {
    ast.Name: _Analysis.name,
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


def _hidden_global(scope: _Scope, name: str) -> bool:
    """Whether a read of ``name`` in ``scope`` is of a name declared ``global`` (here
    or in the function it resolves through) that an enclosing function binds too:
    without the declaration, a plain read would find the enclosing binding."""
    current: _Scope | None = scope
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


def mark_unbindable_reads(body: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """A module prologue that adds nothing: it marks the reads ``del-name-read``
    and ``global-read`` rewrite, and the calls of a module or class body that
    ``namespace-callee`` rewrites (where that body becomes a function)."""
    if cx.scope.kind != "module":
        return []
    scopes = analyse_scopes(body)
    declared = set().union(*(scope.globals for scope in scopes))  # (a hidden global is one)
    _mark_namespace_calls(scopes, declared, cx)
    if declared and not cx.keeps("global"):
        for scope in scopes:
            for read in scope.reads:
                if read.id in declared and _hidden_global(scope, read.id):
                    setattr(read, GLOBAL_MARK, True)
    if cx.keeps("del-name"):
        return []
    unbindable: set[str] = set()
    for scope in scopes:
        for name in scope.deleted:
            found = _owner(scope, name)
            if found is not None:
                found[0].unbindable.add(name)
                unbindable.add(name)
    if not unbindable:
        return []
    for scope in scopes:
        for read in scope.reads:
            if read.id in unbindable:
                found = _owner(scope, read.id)
                if found is not None and read.id in found[0].unbindable:
                    setattr(read, UNBOUND_MARK, found[1])
    return []


def _mark_namespace_calls(scopes: list[_Scope], declared: set[str], cx: Lowerer) -> None:
    """Mark the calls of a module or class body that becomes a function, but
    those of a name known to be a def or class of the module or that body, or
    a builtin: any other callee may be ``exec``, ``locals``... under another name."""
    module = scopes[0]
    in_function = {"module": cx.scope.namespace is not None, "class": not cx.keeps("class")}
    for scope in scopes:
        if not scope.calls or not in_function[scope.kind]:
            continue
        for call in scope.calls:
            func = call.func
            if not isinstance(func, ast.Name) or not _known_callee(func.id, scope, module, declared):
                setattr(call, NAMESPACE_CALL_MARK, True)


#: The builtins that read the namespace of the code that calls them.
NAMESPACE_READERS = frozenset({"locals", "vars", "dir", "exec", "eval"})


def _known_callee(name: str, scope: _Scope, module: _Scope, declared: set[str]) -> bool:
    """Whether ``name`` read in a module or class body is a def or class bound
    nowhere else, or the name, bound by nothing, of a builtin other than
    :data:`NAMESPACE_READERS`."""
    if name in declared:  # (a function may rebind it)
        return False
    for where in (scope, module):
        if name in where.assigned:
            return False
        if name in where.bound:
            return True
    return name in BUILTIN_NAMES and name not in NAMESPACE_READERS


PROLOGUES.append(mark_unbindable_reads)
