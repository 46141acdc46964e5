"""``not``, ``and``, ``or`` and the conditional expression ``x if c else y``.

``and``/``or`` and ``x if c else y`` run only some of their operands, so they
become statements before the current one. Each operand's truth is tested
once; long chains stay flat (a flag says whether to go on) so that the
nesting of the output does not grow with the length of the chain.

Used as a condition (``Lowerer.condition``), they make the truth tests
CPython's jumps make: ``if a and b`` tests ``a`` once and then ``b`` once,
where the value ``a and b`` would be tested once more.
"""

from __future__ import annotations

import sys

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import CONDITIONS, Lowerer
from unsugar.registry import expr_rule

#: 3.11 threads a jump to a jump: in a value ``and``/``or``, an operand that is
#: itself an ``and``/``or`` on the same line (directly, or as the last branch of
#: a conditional expression) and that stopped early is not tested again.
THREADS = sys.version_info < (3, 12)


@expr_rule(
    ast.UnaryOp,
    id="not",
    summary="not x tests the truth of x once and returns a real bool",
    before="not x",
    after="_us_int_eq_1(_us_bool(x), 0)  # native semantics: _us_logical_not(x), operator.not_",
    reference="expressions.html#boolean-operations",
    selects=(ast.Not,),
)
def lower_not(node: ast.UnaryOp, cx: Lowerer) -> ast.expr:
    return negation(node.operand, cx)


def negation(value: ast.expr, cx: Lowerer) -> ast.expr:
    """``not value``, a real ``bool`` and one truth test, in place:
    ``int.__eq__(bool(value), 0)`` (``operator.not_`` with native semantics)."""
    if cx.unit.semantics == "native":
        return b.call(cx.rt("logical_not"), value)
    return b.call(cx.method("int", "__eq__"), b.call(cx.builtin("bool"), value), b.int_(0))


@expr_rule(
    ast.BoolOp,
    id="and",
    summary="a and b: b is evaluated only when a is true; the value is an operand",
    before="r = a and b",
    after="_us_and_1 = a\nif _us_and_1:\n    _us_and_1 = b\nr = _us_and_1",
    reference="expressions.html#boolean-operations",
    applies=lambda node: isinstance(node.op, ast.And),
    custom_order=True,
)
def lower_and(node: ast.BoolOp, cx: Lowerer) -> ast.expr:
    """``a and b and c`` (three operands or more) goes on while a flag is set::

    t = a; more = bool(t)
    if more: t = b; more = bool(t)
    if more: t = c
    """
    value, _ = _chain(node, cx, value=True, truth=False)
    assert value is not None
    return value


@expr_rule(
    ast.BoolOp,
    id="or",
    summary="a or b: b is evaluated only when a is false; the value is an operand",
    before="r = a or b",
    after="_us_or_1 = a\nif _us_int_eq_1(_us_bool(_us_or_1), 0):\n    _us_or_1 = b\nr = _us_or_1",
    reference="expressions.html#boolean-operations",
    applies=lambda node: isinstance(node.op, ast.Or),
    custom_order=True,
)
def lower_or(node: ast.BoolOp, cx: Lowerer) -> ast.expr:
    """``a or b or c``: as ``and``, with ``more = not t`` (``negation``)."""
    value, _ = _chain(node, cx, value=True, truth=False)
    assert value is not None
    return value


def _chain(
    node: ast.BoolOp, cx: Lowerer, *, value: bool, truth: bool
) -> tuple[ast.expr | None, ast.expr | None]:
    """Evaluate the operands until one decides: the value (if ``value``) and the
    truth (if ``truth``) of ``node``.

    Each operand is tested once, into a flag ``more`` (``bool(t)`` for ``and``,
    ``not t`` for ``or``). Asked for its truth (as a condition, or
    threaded on 3.11), the truth is read from the flag: an ``and`` leaves its
    last operand in it untested, an ``or`` tests it too. Without a value, the
    operands are lowered as conditions.
    """
    is_and = isinstance(node.op, ast.And)
    result = cx.temp("and" if is_and else "or") if value else ""
    more = cx.temp("more")
    last = len(node.values) - 1

    def go_on(test: ast.expr) -> ast.expr:
        return b.call(cx.builtin("bool"), test) if is_and else negation(test, cx)

    def operand(item: ast.expr, threads: bool) -> ast.expr:
        """Lower ``item`` (into ``result``); the expression that tests its truth."""
        if not value:
            return cx.condition(item)
        mark = len(cx.unit.names.allocated)
        lowered, test = _value_and_truth(item, node.lineno, cx) if threads else (cx.expr(item), None)
        cx.emit(*_moved(cx, result, lowered, mark))
        return test or b.load(result)

    guard: ast.expr | None = None  # (None: the flag, read anew for each operand)
    guarded: list[str] = []  # a temporary of the truth the guard tests
    for i, item in enumerate(node.values):
        mark = len(cx.unit.names.allocated)
        stmts, test = cx.capture(lambda item=item, i=i: operand(item, THREADS and (i < last or truth)))
        # a truth kept apart from the value (3.11's threading) dies once tested; as
        # a condition, whatever the operand made (its value among them)
        if value:
            truth_made = cx.own_temporary(test, mark) if test is not None else None
            tested = [truth_made] if truth_made not in (None, result) else []
        else:
            tested = cx.held_temporaries(stmts)
        if value and i:  # the operand before, tested, dies before this one is evaluated
            stmts[:0] = cx.released([result, *guarded])
        if value and not truth and last == 1 and i == 0:  # ``if t: t = b`` needs no flag
            guard = test if is_and else go_on(test)
            guarded = tested
        elif i < last:
            stmts += [b.assign(more, go_on(test)), *cx.released(tested)]
        elif truth:  # an ``and`` that got here is as true as its last operand
            stmts += [b.assign(more, test if is_and else go_on(test)), *cx.released(tested)]
        if i == 0:
            cx.emit(*stmts)
        else:
            cx.emit(b.if_(b.load(more) if guard is None else guard, stmts))
    flag = b.load(more) if is_and else negation(b.load(more), cx)
    return b.load(result) if value else None, flag if truth else None


def _moved(cx: Lowerer, result: str, lowered: ast.expr, mark: int) -> list[ast.stmt]:
    """``result = lowered``; a temporary that ``lowered`` is, made since
    ``mark`` (by the operand's own rules), is released: its value moved."""
    made = cx.own_temporary(lowered, mark)
    return [b.assign(result, lowered), *cx.released([made] if made else [])]


def _value_and_truth(node: ast.expr, line: int, cx: Lowerer) -> tuple[ast.expr, ast.expr | None]:
    """Lower an operand of a value ``and``/``or`` on ``line`` (3.11): its value,
    and its truth if the operand has already tested it (else None)."""
    if isinstance(node, ast.BoolOp) and node.lineno == line and not _kept(node, cx):
        return _chain(node, cx, value=True, truth=True)
    if isinstance(node, ast.IfExp) and not cx.keeps("ifexp"):
        return _ifexp(node, cx, line)
    return cx.expr(node), None


def _kept(node: ast.BoolOp, cx: Lowerer) -> bool:
    return cx.keeps("and" if isinstance(node.op, ast.And) else "or")


def _condition(node: ast.expr, cx: Lowerer) -> ast.expr | None:
    """``and``/``or``/``not``/``x if c else y`` lowered for their truth."""
    if isinstance(node, ast.BoolOp) and not _kept(node, cx):
        return _chain(node, cx, value=False, truth=True)[1]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and not cx.keeps("not"):
        return lower_not(ast.UnaryOp(op=node.op, operand=cx.condition(node.operand)), cx)
    if isinstance(node, ast.IfExp) and not cx.keeps("ifexp"):
        return _ifexp(node, cx, None, value=False)[0]
    return None


CONDITIONS.update({ast.BoolOp: _condition, ast.UnaryOp: _condition, ast.IfExp: _condition})


@expr_rule(
    ast.IfExp,
    id="ifexp",
    summary="x if c else y: c first, then only the chosen branch",
    before="r = x if c else y",
    after="if c:\n    _us_ifexp_1 = x\nelse:\n    _us_ifexp_1 = y\nr = _us_ifexp_1",
    reference="expressions.html#conditional-expressions",
    custom_order=True,
)
def lower_ifexp(node: ast.IfExp, cx: Lowerer) -> ast.expr:
    """A chain ``x if c else y if d else z`` stays flat::

    pending = 1
    if c: pending = 0; t = x
    if pending:
        if d: pending = 0; t = y
    if pending: t = z
    """
    return _ifexp(node, cx, None)[0]


def _ifexp(
    node: ast.IfExp, cx: Lowerer, line: int | None, *, value: bool = True
) -> tuple[ast.expr, ast.expr | None]:
    """The value of ``node`` (or its truth, without ``value``); with a ``line``
    (3.11, see ``THREADS``) also its truth if the last branch tested it."""
    result = cx.temp("ifexp")
    truth = cx.temp("truth") if line is not None else ""

    def branch(expr: ast.expr, last: bool) -> list[ast.stmt]:
        """The statements that store the branch in ``result`` (and ``truth``)."""

        def lower() -> None:
            if not value:
                cx.emit(b.assign(result, cx.condition(expr)))
                return
            mark = len(cx.unit.names.allocated)
            lowered, test = _value_and_truth(expr, line, cx) if line is not None and last else (
                cx.expr(expr), None)
            cx.emit(*_moved(cx, result, lowered, mark))
            if truth:
                cx.emit(b.assign(truth, test or b.load(result)))

        return cx.capture(lower)[0]

    branches: list[tuple[ast.expr, ast.expr]] = []
    last: ast.expr = node
    while isinstance(last, ast.IfExp):
        branches.append((last.test, last.body))
        last = last.orelse
    done = b.load(result), b.load(truth) if truth else None
    if len(branches) == 1:
        stmts, test = cx.capture(lambda: cx.condition(node.test))
        held = cx.held_temporaries(stmts)  # (what the test made dies once tested)
        cx.emit(*stmts, b.if_(test, [*cx.released(held), *branch(node.body, False)],
                              [*cx.released(held), *branch(last, True)]))
        return done
    pending = cx.temp("pending")
    cx.emit(b.assign(pending, b.int_(1)))
    for i, (condition, then) in enumerate(branches):
        stmts, test = cx.capture(lambda condition=condition: cx.condition(condition))
        held = cx.held_temporaries(stmts)
        chosen = [b.assign(pending, b.int_(0)), *cx.released(held), *branch(then, False)]
        stmts.append(b.if_(test, chosen, cx.released(held)))
        if i == 0:
            cx.emit(*stmts)
        else:
            cx.emit(b.if_(b.load(pending), stmts))
    cx.emit(b.if_(b.load(pending), branch(last, True)))
    return done
