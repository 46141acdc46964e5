"""``del``: names, attributes, subscripts, and lists of them.

A module or class body deletes from its namespace. A function cannot unbind
a local in core syntax, so ``del x`` stores a marker in ``x`` and every read
of a variable that some ``del`` (or ``except ... as x``) may unbind checks
for it, raising what CPython raises: ``UnboundLocalError`` in the function
that owns the variable, ``NameError`` ("free variable") in nested ones.
Which reads need the check is found once per module, before lowering, from
the module's scope analysis (:mod:`unsugar.scopes`), by a prologue that marks
those ``Name`` nodes.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.linker import BUILTIN_NAMES
from unsugar.lowering import PROLOGUES, Lowerer
from unsugar.registry import expr_rule, stmt_rule
from unsugar.rules.assignments import subscript_key
from unsugar.scopes import AnalysedScope, hidden_global, owner
from unsugar.trees import GLOBAL_MARK, NAMESPACE_CALL_MARK, UNBOUND_MARK

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
    applies=lambda node: isinstance(node.ctx, ast.Load),
    marked=UNBOUND_MARK,
)
def lower_checked_read(node: ast.Name, cx: Lowerer) -> ast.expr:
    name = cx.mangle(node.id)
    helper = "local_value" if getattr(node, UNBOUND_MARK) == "local" else "free_value"
    return b.call(cx.rt(helper), b.load(name), cx.string(name))


def mark_unbindable_reads(body: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """A module prologue that adds nothing: it marks the reads ``del-name-read``
    and ``global-read`` rewrite, and the calls of a module or class body that
    ``namespace-callee`` rewrites (where that body becomes a function)."""
    if cx.scope.kind != "module":
        return []
    scopes = cx.module_scopes
    declared = set().union(*(scope.globals for scope in scopes))  # (a hidden global is one)
    _mark_namespace_calls(scopes, declared, cx)
    if declared and not cx.keeps("global"):
        for scope in scopes:
            for read in scope.reads:
                if read.id in declared and hidden_global(scope, read.id):
                    setattr(read, GLOBAL_MARK, True)
    if cx.keeps("del-name"):
        return []
    unbindable: set[str] = set()
    for scope in scopes:
        for name in scope.deleted:
            found = owner(scope, name)
            if found is not None:
                found[0].unbindable.add(name)
                unbindable.add(name)
    if not unbindable:
        return []
    for scope in scopes:
        for read in scope.reads:
            if read.id in unbindable:
                found = owner(scope, read.id)
                if found is not None and read.id in found[0].unbindable:
                    setattr(read, UNBOUND_MARK, found[1])
    return []


def _mark_namespace_calls(scopes: list[AnalysedScope], declared: set[str], cx: Lowerer) -> None:
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


def _known_callee(name: str, scope: AnalysedScope, module: AnalysedScope, declared: set[str]) -> bool:
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
