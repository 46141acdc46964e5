"""``try``/``except*`` (PEP 654).

One bare ``except:`` runs the clauses in order on a state kept by the
runtime (:mod:`unsugar.runtime.exception_groups`): each clause takes its
part of what is left, its handler runs with that part being handled, what
the handlers raise is collected, and what escapes is combined at the end as
CPython does.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule


def _handle_current(state: str, body: list[ast.stmt], cx: Lowerer) -> ast.Try:
    """Run ``body`` while the state's current exception is being handled.

    CPython sets it without raising it: here it is raised, then its
    ``__context__`` and ``__traceback__`` are put back.
    """
    restore = b.expr(b.call(cx.rt("except_star_restore"), b.load(state)))
    raising = b.raise_(b.call(cx.rt("except_star_current"), b.load(state)))
    return b.try_except([raising], [restore, *body])


def _clause(handler: ast.ExceptHandler, state: str, cx: Lowerer) -> ast.stmt:
    """One ``except* kinds as name:`` clause."""
    match = cx.temp("match")
    body = handler.body
    if handler.name is not None:
        name = handler.name
        forget = ast.Delete(targets=[ast.Name(id=name, ctx=ast.Del())])
        body = [
            b.assign(name, b.load(match)),
            b.try_finally(body, [b.assign(name, cx.none()), forget]),
        ]
    collect = b.expr(b.call(cx.rt("except_star_collect"), b.load(state)))
    run = _handle_current(state, [b.try_except(body, [collect])], cx)
    found = b.call(cx.rt("except_star_match"), b.load(state), handler.type)
    clause = [
        b.assign(match, found),
        b.if_(ast.Compare(left=b.load(match), ops=[ast.IsNot()], comparators=[cx.none()]), [run]),
    ]
    return b.copy_location(_handle_current(state, clause, cx), handler)


@stmt_rule(
    ast.TryStar,
    id="except-star",
    summary="except* clauses split the exception group in order; what escapes is combined as CPython does",
    before="try:\n    f()\nexcept* ValueError as eg:\n    g(eg)",
    after="try:\n    f()\nexcept:\n    _us_state_1 = _us_except_star_begin()\n"
    "    ... (each clause: _us_except_star_match(_us_state_1, ValueError), the handler)\n"
    "    if _us_except_star_prepare(_us_state_1):\n        raise  # what escapes",
    reference="compound_stmts.html#except-star",
)
def lower_except_star(node: ast.TryStar, cx: Lowerer) -> list[ast.stmt]:
    """Each clause's type is evaluated (and checked) even when nothing is
    left, while the last matched part is being handled; the handler's name
    is cleared and deleted however it ends; ``else`` and ``finally`` are
    those of an ordinary ``try``.
    """
    state = cx.temp("state")
    handler = [b.assign(state, b.call(cx.rt("except_star_begin")))]
    handler += [_clause(clause, state, cx) for clause in node.handlers]
    escape = _handle_current(state, [b.raise_()], cx)
    handler.append(b.if_(b.call(cx.rt("except_star_prepare"), b.load(state)), [escape]))
    result = ast.Try(
        body=node.body,
        handlers=[ast.ExceptHandler(type=None, name=None, body=handler)],
        orelse=node.orelse,
        finalbody=node.finalbody,
    )
    return [b.copy_location(result, node)]
