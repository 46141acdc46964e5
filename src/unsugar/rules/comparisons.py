"""Comparisons: ``a < b`` is ``compare_lt(a, b)``; chains test each link once.

The helpers (see :mod:`unsugar.runtime.operators`) try the reflected method
first when the right operand's type is a proper subclass of the left's, fall
back to identity for ``==`` and ``!=``, and raise CPython's ``'<' not
supported between instances of ...`` otherwise. ``in`` tries
``__contains__``, then iteration.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import CONDITIONS, Lowerer
from unsugar.registry import expr_rule
from unsugar.trees import copy_tree

COMPARISONS = "expressions.html#value-comparisons"
IDENTITY = "expressions.html#is-not"
MEMBERSHIP = "expressions.html#membership-test-operations"

#: AST comparison operator -> (rule id, symbol, runtime helper, reference).
COMPARE: dict[type[ast.cmpop], tuple[str, str, str, str]] = {
    ast.Eq: ("eq", "==", "compare_eq", COMPARISONS),
    ast.NotEq: ("ne", "!=", "compare_ne", COMPARISONS),
    ast.Lt: ("lt", "<", "compare_lt", COMPARISONS),
    ast.LtE: ("le", "<=", "compare_le", COMPARISONS),
    ast.Gt: ("gt", ">", "compare_gt", COMPARISONS),
    ast.GtE: ("ge", ">=", "compare_ge", COMPARISONS),
    ast.Is: ("is", "is", "compare_is", IDENTITY),
    ast.IsNot: ("is-not", "is not", "compare_is_not", IDENTITY),
    ast.In: ("in", "in", "compare_in", MEMBERSHIP),
    ast.NotIn: ("not-in", "not in", "compare_not_in", MEMBERSHIP),
}

SUMMARIES = {
    "eq": "a == b calls __eq__ (reflected first for a subclass); identity if neither answers",
    "ne": "a != b calls __ne__ (object's inverts __eq__); non-identity if neither answers",
    "is": "a is b compares id(a) and id(b)",
    "is-not": "a is not b compares id(a) and id(b)",
    "in": "a in b calls b's __contains__, else iterates b; the result is a bool",
    "not-in": "a not in b is the negation of a in b",
}


def _pair(op: ast.cmpop, left: ast.expr, right: ast.expr, cx: Lowerer) -> ast.expr:
    """One comparison of lowered operands (a kept ``Compare`` if its rule is kept)."""
    rule_id, _, helper, _ = COMPARE[type(op)]
    if cx.keeps(rule_id):
        return ast.Compare(left=left, ops=[op], comparators=[right])
    return _compare(op, left, right, cx)


def _compare(op: ast.cmpop, left: ast.expr, right: ast.expr, cx: Lowerer) -> ast.expr:
    """``helper(left, right)``; an identity test of two names or ints (or the type
    of a name) compares their ids in place: ``int.__eq__(id(a), id(b))``. (Between
    the two ``id`` calls nothing else runs and the first object stays alive, so
    its id cannot be reused; an operand computed by a call would die before the
    second ran, hence the helper.)"""
    def stays_alive(operand: ast.expr) -> bool:
        if isinstance(operand, ast.Call) and len(operand.args) == 1 and not operand.keywords:
            is_type = isinstance(operand.func, ast.Name) and operand.func.id == cx.builtin("type").id
            return is_type and isinstance(operand.args[0], ast.Name)
        return isinstance(operand, (ast.Name, ast.Constant))

    if _int_constant(left) and _int_constant(right):  # known now: a bool constant
        value = {ast.Eq: int.__eq__, ast.NotEq: int.__ne__, ast.Lt: int.__lt__, ast.LtE: int.__le__,
                 ast.Gt: int.__gt__, ast.GtE: int.__ge__}.get(type(op))
        if value is not None:
            return cx.rt("true" if value(left.value, right.value) else "false")
    if isinstance(op, (ast.Is, ast.IsNot)) and stays_alive(left) and stays_alive(right):
        return cx.identity(left, right, same=isinstance(op, ast.Is))
    return b.call(cx.rt(COMPARE[type(op)][2]), left, right)


def _int_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _register(op: type[ast.cmpop], rule_id: str, symbol: str, helper: str, reference: str) -> None:
    @expr_rule(
        ast.Compare,
        id=rule_id,
        summary=SUMMARIES.get(
            rule_id, f"a {symbol} b calls the rich comparison of a, then the reflected one of b"
        ),
        before=f"a {symbol} b",
        after=f"_us_{helper}(a, b)" if op not in (ast.Is, ast.IsNot) else
        f"_us_int_{'eq' if op is ast.Is else 'ne'}(_us_id(a), _us_id(b))  "
        f"# operands not names: _us_{helper}(a, b)",
        reference=reference,
        selects=(op,),
    )
    def lower_compare(node: ast.Compare, cx: Lowerer) -> ast.expr:
        return _compare(node.ops[0], node.left, node.comparators[0], cx)


for _op, (_id, _symbol, _helper, _reference) in COMPARE.items():
    _register(_op, _id, _symbol, _helper, _reference)


@expr_rule(
    ast.Compare,
    id="compare-chain",
    summary="a < b < c evaluates b once and stops at the first false link",
    before="r = a < b < c",
    after="_us_cmp_1 = a\n_us_cmp_2 = b\n_us_chain_1 = _us_compare_lt(_us_cmp_1, _us_cmp_2)\n"
    "_us_cmp_1 = _us_none\nif _us_chain_1:\n    _us_chain_1 = _us_none\n    _us_cmp_3 = c\n"
    "    _us_chain_1 = _us_compare_lt(_us_cmp_2, _us_cmp_3)\n    _us_cmp_2 = _us_none\n"
    "    _us_cmp_3 = _us_none\nr = _us_chain_1",
    reference="expressions.html#comparisons",
    selects=(None,),
    custom_order=True,
)
def lower_chain(node: ast.Compare, cx: Lowerer) -> ast.expr:
    """Operands but the last are saved; the value is the first false link's, else the
    last's. Three links or more stay flat, a flag saying whether to go on::

    r = lt(a, b); more = bool(r)
    if more: t = c; r = lt(b, t); more = bool(r)
    if more: r = lt(t, d)
    """
    return _chain(node, cx, condition=False)


def _condition(node: ast.expr, cx: Lowerer) -> ast.expr | None:
    """A chain used as a condition: each link tested once, ``a < b < c`` as
    ``more = bool(lt(a, b))`` / ``if more: more = bool(lt(b, c))`` then ``more``."""
    if isinstance(node, ast.Compare) and len(node.ops) > 1 and not cx.keeps("compare-chain"):
        return _chain(node, cx, condition=True)
    return None


CONDITIONS[ast.Compare] = _condition


def _chain(node: ast.Compare, cx: Lowerer, *, condition: bool) -> ast.expr:
    """The value of the chain ``node``, or (``condition``) its truth: then the
    flag ``more`` is the result, and each link is stored as ``bool(link)``.

    Each operand dies once its last link has compared it, and a link's result
    once it tested true, as CPython pops them (left operand first); a saved
    operand the chain stopped before dies with the chain."""
    result = cx.temp("chain")
    own: set[str] = set()  # the operands' temporaries the chain made
    left = _operand(cx, node.left, own)
    right = _operand(cx, node.comparators[0], own)
    links = list(zip(node.ops[1:], node.comparators[1:], strict=True))
    _store_link(cx, result, _pair(node.ops[0], left, right, cx), condition, _consumed(cx, own, left))
    if len(links) == 1 and not condition:
        op, comparator = links[0]
        body, _ = _link(result, op, right, comparator, cx, own, save=False, test=False, drop=True)
        cx.emit(b.if_(b.load(result), body))
        return b.load(result)
    more = result if condition else cx.temp("more")
    if not condition:
        cx.emit(b.assign(more, b.call(cx.builtin("bool"), b.load(result))))
    for i, (op, comparator) in enumerate(links):
        last = i == len(links) - 1
        body, right = _link(result, op, right, comparator, cx, own, save=not last,
                            test=condition, drop=not condition)
        if not last and not condition:
            body.append(b.assign(more, b.call(cx.builtin("bool"), b.load(result))))
        cx.emit(b.if_(b.load(more), body))
    return b.load(result)


def _store_link(cx: Lowerer, result: str, link: ast.expr, test: bool, consumed: list[ast.stmt]) -> None:
    """``result = link`` (``bool(link)`` if ``test``), then the releases of
    what the compare ``consumed``; those go before the truth test, whose
    operand dies after it::

        result = lt(t, b)          (not: result = bool(lt(t, b)))
        t = None
        result = bool(result)
    """
    truth = cx.builtin("bool")
    if test and consumed:
        cx.emit(b.assign(result, link), *consumed, b.assign(result, b.call(truth, b.load(result))))
    else:
        cx.emit(b.assign(result, b.call(truth, link) if test else link), *consumed)


def _operand(cx: Lowerer, node: ast.expr, own: set[str]) -> ast.expr:
    """``node`` lowered, saved to a temporary unless it is pure; a temporary
    made for it (by the spill, or by its own rules) is noted in ``own``."""
    mark = len(cx.unit.names.allocated)
    saved = cx.spill(cx.expr(node), "cmp")
    made = cx.own_temporary(saved, mark)
    if made:
        own.add(made)
    return saved


def _consumed(cx: Lowerer, own: set[str], *operands: ast.expr) -> list[ast.stmt]:
    """``t = None`` for each of ``operands`` in a temporary of ``own``: a compare consumed it."""
    return cx.released([operand.id for operand in operands if isinstance(operand, ast.Name) and operand.id in own])


def _link(
    result: str, op: ast.cmpop, left: ast.expr, comparator: ast.expr, cx: Lowerer, own: set[str], *,
    save: bool, test: bool, drop: bool,
) -> tuple[list[ast.stmt], ast.expr]:
    """The statements of a later link (``drop`` the previous link's result,
    which tested true; evaluate ``comparator``, compare, store in ``result``,
    as ``bool(...)`` if ``test``; release what the compare consumed) and the
    comparator's value, kept in a temporary for the next link if ``save``."""

    def lower() -> ast.expr:
        if drop:
            cx.emit(*cx.released([result]))
        right = _operand(cx, comparator, own)
        # ``left`` is the link before's right operand: a copy of it (one node, one place)
        _store_link(cx, result, _pair(op, copy_tree(left), right, cx), test,
                    _consumed(cx, own, left, *([] if save else [right])))
        return right

    return cx.capture(lower)
