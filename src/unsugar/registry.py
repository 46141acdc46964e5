"""The registry of rules: every piece of sugar unsugar knows how to remove.

A rule is one small transformation. It has an id (what ``--keep`` and
``unsugar check`` name), a one-line summary, a before/after example and a link
to the Language Reference section it implements. Rules register themselves
when their module under ``unsugar.rules`` is imported; the pipeline dispatches
to them by node type.

Three kinds of rule:

``expr``
    ``lower(node, cx) -> ast.expr``. By default the node's children are
    lowered first (left to right, in evaluation order) and the rule builds a
    core expression from them. A rule with ``custom_order=True`` receives the
    raw node and lowers its children itself (for short-circuiting forms).
``stmt``
    ``lower(node, cx) -> list[ast.stmt]``. Receives the raw statement; its
    output may contain sugar, which the pipeline lowers again.
``control``
    Handled by the control-flow phase (:mod:`unsugar.control`); the registry
    entry carries the documentation and the ``--keep`` switch.
``layout``
    The shape of the whole output (the module body as a def); also just
    documentation and a ``--keep`` switch, read by the pipeline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from unsugar import nodes as ast

REFERENCE = "https://docs.python.org/3/reference/"


@dataclass(frozen=True)
class Rule:
    """One registered transformation."""

    id: str
    summary: str
    before: str
    after: str
    reference: str
    kind: str
    nodes: tuple[type[ast.AST], ...]
    lower: Callable[..., Any] | None = None
    applies: Callable[[ast.AST], bool] = field(default=lambda node: True)
    custom_order: bool = False
    family: str = ""
    #: an expression rule that applies only to a node carrying this attribute
    #: (set by the module's scope analysis): a node without it is not asked
    marked: str | None = None
    #: the keys of the nodes the rule may apply to (:data:`SELECTORS`): a node
    #: with another key is not asked; None: any node of its types
    selects: frozenset[object] | None = None
    #: ``applies`` is made of ``selects`` alone: a node with one of the keys is
    #: all the rule asks, so the dispatch, which selected it by key, asks nothing more
    by_key: bool = False


def _callee_name(node: ast.Call) -> str | None:
    """The name a call is written with: ``f`` of ``f(x)`` and of ``m.f(x)``."""
    func = node.func
    kind = type(func)
    return func.id if kind is ast.Name else func.attr if kind is ast.Attribute else None  # type: ignore[attr-defined]


#: what the dispatch looks at besides a node's type, for the types whose rules
#: each take a case of their own (an operator, a constant's type, a callee):
#: the key of a node (None for a comparison or assignment of more than one
#: operator or target: a chain). A rule that ``selects`` keys is asked only
#: about the nodes whose key is one of them, so that a node is not asked of
#: every rule of its type. A rule that gives ``applies`` too is asked it; one
#: that gives only ``selects`` applies to exactly the nodes of its keys.
SELECTORS: dict[type[ast.AST], Callable[[Any], object]] = {
    ast.Constant: lambda node: type(node.value),
    ast.BinOp: lambda node: type(node.op),
    ast.UnaryOp: lambda node: type(node.op),
    ast.Compare: lambda node: type(node.ops[0]) if len(node.ops) == 1 else None,
    ast.Call: _callee_name,
    ast.Assign: lambda node: type(node.targets[0]) if len(node.targets) == 1 else None,
}


def _keys(nodes: tuple[type[ast.AST], ...], selects: Iterable[object] | None) -> frozenset[object] | None:
    """``selects`` as a rule keeps it; only rules of types with a selector have keys."""
    if selects is None:
        return None
    if not all(node in SELECTORS for node in nodes):
        raise ValueError(f"no selector for the keys of a rule of {nodes}")
    return frozenset(selects)


def _keyed(
    nodes: tuple[type[ast.AST], ...], selects: Iterable[object] | None,
    applies: Callable[[Any], bool] | None, marked: str | None = None,
) -> tuple[frozenset[object] | None, Callable[[Any], bool] | None, bool]:
    """A rule's keys, its ``applies`` (where it gives only keys: the node's key
    is one of them), and whether the keys are all it asks (``Rule.by_key``)."""
    keys = _keys(nodes, selects)
    if applies is not None or keys is None or marked is not None:
        return keys, applies, False
    return keys, lambda node: SELECTORS[type(node)](node) in keys, True


RULES: dict[str, Rule] = {}


def _register(rule: Rule) -> Rule:
    if rule.id in RULES:
        raise ValueError(f"rule {rule.id!r} registered twice")
    RULES[rule.id] = rule
    return rule


def _family(func: Callable[..., Any] | None, default: str = "") -> str:
    if func is None:
        return default
    return func.__module__.rpartition(".")[2]


def expr_rule(
    *nodes: type[ast.AST],
    id: str,
    summary: str,
    before: str,
    after: str,
    reference: str,
    applies: Callable[[Any], bool] | None = None,
    custom_order: bool = False,
    marked: str | None = None,
    selects: Iterable[object] | None = None,
) -> Callable[[Callable[..., ast.expr]], Callable[..., ast.expr]]:
    """Register an expression rule (see module docstring); ``marked``: the
    rule applies only to a node with that attribute, and where ``applies``
    says so; ``selects``: only to a node with one of those keys (:data:`SELECTORS`),
    and where ``applies``, if given, says so."""
    keys, applies, by_key = _keyed(nodes, selects, applies, marked)

    def marked_and_applies(node: ast.AST) -> bool:
        return hasattr(node, marked) and (applies is None or applies(node))  # type: ignore[arg-type]

    test = marked_and_applies if marked is not None else applies or (lambda node: True)

    def decorate(func: Callable[..., ast.expr]) -> Callable[..., ast.expr]:
        _register(
            Rule(
                id, summary, before, after, REFERENCE + reference, "expr", nodes, func,
                test, custom_order, _family(func), marked, keys, by_key,
            )
        )
        return func

    return decorate


def stmt_rule(
    *nodes: type[ast.AST],
    id: str,
    summary: str,
    before: str,
    after: str,
    reference: str,
    applies: Callable[[Any], bool] | None = None,
    selects: Iterable[object] | None = None,
) -> Callable[[Callable[..., list[ast.stmt]]], Callable[..., list[ast.stmt]]]:
    """Register a statement rule (see module docstring); ``selects`` as for
    :func:`expr_rule`."""
    keys, applies, by_key = _keyed(nodes, selects, applies)

    def decorate(func: Callable[..., list[ast.stmt]]) -> Callable[..., list[ast.stmt]]:
        _register(
            Rule(
                id, summary, before, after, REFERENCE + reference, "stmt", nodes, func,
                applies or (lambda node: True), False, _family(func), None, keys, by_key,
            )
        )
        return func

    return decorate


def control_rule(
    *nodes: type[ast.AST],
    id: str,
    summary: str,
    before: str,
    after: str,
    reference: str,
    applies: Callable[[Any], bool] | None = None,
) -> Rule:
    """Register a rule carried out by the control-flow phase."""
    return _register(
        Rule(
            id, summary, before, after, REFERENCE + reference, "control", nodes, None,
            applies or (lambda node: True), False, "control_flow",
        )
    )


def layout_rule(*, id: str, summary: str, before: str, after: str, reference: str,
                family: str) -> Rule:
    """Register a rule about the shape of the whole output (no node of its own)."""
    return _register(Rule(id, summary, before, after, REFERENCE + reference, "layout", (),
                          None, lambda node: False, False, family))


def load_all() -> dict[str, Rule]:
    """Import every rule module, so that the registry is complete."""
    from unsugar import rules  # noqa: F401  (imports register the rules)

    return RULES


def rules_for(node_type: type[ast.AST], kind: str) -> list[Rule]:
    """The registered rules of ``kind`` that handle ``node_type``."""
    return [r for r in load_all().values() if r.kind == kind and node_type in r.nodes]


def find_rule(node: ast.AST) -> Rule | None:
    """The rule that would remove ``node``, if any (used by the checker)."""
    for rule in load_all().values():
        if type(node) in rule.nodes and rule.applies(node):
            return rule
    return None
