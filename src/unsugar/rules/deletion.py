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
from dataclasses import dataclass, field

from unsugar import builder as b
from unsugar.lowering import PROLOGUES, Lowerer
from unsugar.registry import expr_rule, stmt_rule
from unsugar.rules.assignments import GLOBAL_MARK, UNBOUND_MARK, subscript_key
from unsugar.trees import children

_SEQUENCE = (ast.Tuple, ast.List)


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

    def owns(self, name: str) -> bool:
        """Whether ``name`` is a local variable of this function-like scope."""
        return (
            self.kind in ("function", "comprehension") and name in self.bound
            and name not in self.globals and name not in self.nonlocals
        )


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


class _Analysis(ast.NodeVisitor):
    """Scopes, their bindings, deletions and reads (a small ``symtable``)."""

    def __init__(self) -> None:
        self.scope = _Scope("module", None)
        self.scopes = [self.scope]

    def enter(self, kind: str, inlined: bool = False) -> _Scope:
        scope = _Scope(kind, self.scope, inlined)
        self.scopes.append(scope)
        return scope

    def generic_visit(self, node: ast.AST) -> None:
        for child in children(node):  # (no operators and contexts: nothing to see in them)
            self.visit(child)

    def within(self, scope: _Scope, nodes: list[ast.AST]) -> None:
        saved, self.scope = self.scope, scope
        for node in nodes:
            self.visit(node)
        self.scope = saved

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.scope.reads.append(node)
        else:
            self.scope.bound.add(node.id)
            if isinstance(node.ctx, ast.Del):
                self.scope.deleted.add(node.id)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Name):
            self.scope.reads.append(node.target)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        self.scope.globals.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.scope.nonlocals.update(node.names)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.scope.bound.add(node.name)
            self.scope.deleted.add(node.name)
        self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> None:
        if node.name != "*":
            self.scope.bound.add((node.asname or node.name).partition(".")[0])

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.name:
            self.scope.bound.add(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self.scope.bound.add(node.name)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        if node.rest:
            self.scope.bound.add(node.rest)
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        target = self.scope
        while target.kind == "comprehension" and target.parent is not None:
            target = target.parent
        target.bound.add(node.target.id)

    def _arguments(self, args: ast.arguments) -> list[str]:
        """Visit the defaults (in the current scope); the parameter names."""
        self.within(self.scope, [*args.defaults, *(d for d in args.kw_defaults if d)])
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        annotations = [p.annotation for p in params if p is not None and p.annotation]
        self.within(self.scope, annotations)
        return [p.arg for p in params if p is not None]

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.within(self.scope, node.decorator_list)
        params = self._arguments(node.args)
        if node.returns:
            self.visit(node.returns)
        self.scope.bound.add(node.name)
        scope = self.enter("function")
        scope.bound.update(params)
        self.within(scope, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        params = self._arguments(node.args)
        scope = self.enter("function")
        scope.bound.update(params)
        self.within(scope, [node.body])

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.within(self.scope, [*node.decorator_list, *node.bases, *node.keywords])
        self.scope.bound.add(node.name)
        self.within(self.enter("class"), node.body)

    def _comprehension(self, node: ast.expr, parts: list[ast.expr]) -> None:
        generators = node.generators
        self.visit(generators[0].iter)
        scope = self.enter("comprehension", not isinstance(node, ast.GeneratorExp))
        inner: list[ast.AST] = []
        for i, generator in enumerate(generators):
            inner.append(generator.target)
            if i:
                inner.append(generator.iter)
            inner.extend(generator.ifs)
        self.within(scope, [*inner, *parts])

    def visit_ListComp(self, node: ast.ListComp) -> None:
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node: ast.DictComp) -> None:
        self._comprehension(node, [node.key, node.value])


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
    and ``global-read`` rewrite."""
    if cx.scope.kind != "module":
        return []
    analysis = _Analysis()
    analysis.within(analysis.scope, body)
    if not cx.keeps("global"):
        for scope in analysis.scopes:
            for read in scope.reads:
                if _hidden_global(scope, read.id):
                    setattr(read, GLOBAL_MARK, True)
    if cx.keeps("del-name"):
        return []
    for scope in analysis.scopes:
        for name in scope.deleted:
            found = _owner(scope, name)
            if found is not None:
                found[0].unbindable.add(name)
    for scope in analysis.scopes:
        for read in scope.reads:
            found = _owner(scope, read.id)
            if found is not None and read.id in found[0].unbindable:
                setattr(read, UNBOUND_MARK, found[1])
    return []


PROLOGUES.append(mark_unbindable_reads)
