"""``try`` with typed handlers, ``as`` and ``else``; ``raise ... from ...``; ``assert``.

Everything becomes one bare ``except:`` that asks which exception is being
handled (``sys.exception()``) and tests the clauses in order.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule


def _needs_except_rule(node: ast.Try) -> bool:
    return any(h.type is not None or h.name is not None for h in node.handlers)


@stmt_rule(
    ast.Try,
    id="except",
    summary="typed except clauses and 'as' become one bare except that tests each clause in order",
    before="try:\n    f()\nexcept (KeyError, OSError) as e:\n    g(e)",
    after="try:\n    f()\nexcept:\n    if _us_exception_matches((KeyError, OSError)):\n"
    "        e = _us_handled_exception()\n        try:\n            g(e)\n"
    "        finally:\n            e = None\n            del e\n    else:\n        raise",
    reference="compound_stmts.html#except-clause",
    applies=lambda node: not node.orelse and _needs_except_rule(node),
)
def lower_except(node: ast.Try, cx: Lowerer) -> list[ast.stmt]:
    """A clause's type is evaluated only when the clauses before it did not
    match; no clause matching re-raises with a bare ``raise`` (traceback
    kept). The ``as`` name is cleared and deleted however the handler ends,
    as CPython does (``name = None; del name`` in a ``finally``).
    """
    if node.finalbody:
        return [_split_finally(node)]
    chain: list[ast.stmt] = [b.raise_()]
    for handler in reversed(node.handlers):
        body = handler.body
        if handler.name is not None:
            name = handler.name
            forget = ast.Delete(targets=[ast.Name(id=name, ctx=ast.Del())])
            body = [
                b.assign(name, b.call(cx.rt("handled_exception"))),
                b.try_finally(body, [b.assign(name, cx.none()), forget]),
            ]
            for stmt in body:
                b.copy_location(stmt, handler)
        if handler.type is None:
            chain = body
        else:
            test = b.call(cx.rt("exception_matches"), handler.type)
            chain = [b.copy_location(b.if_(test, body, chain), handler)]
    return [b.try_except(node.body, chain)]


@stmt_rule(
    ast.Try,
    id="try-else",
    summary="try/else: the else block runs after the try, outside its handlers, if nothing raised",
    before="try:\n    f()\nexcept:\n    g()\nelse:\n    h()",
    after="_us_ok_1 = 0\ntry:\n    f()\n    _us_ok_1 = 1\nexcept:\n    g()\n"
    "if _us_ok_1:\n    h()",
    reference="compound_stmts.html#except-clause",
    applies=lambda node: bool(node.orelse),
)
def lower_try_else(node: ast.Try, cx: Lowerer) -> list[ast.stmt]:
    """The flag is set as the body's last statement, so ``break``,
    ``continue`` and ``return`` (which skip the rest of the body) skip the
    ``else`` block too. With a ``finally``, the ``try/else`` goes inside it.
    """
    if node.finalbody:
        return [_split_finally(node)]
    ok = cx.temp("ok")
    body = [*node.body, b.assign(ok, b.int_(1))]
    inner = ast.Try(body=body, handlers=node.handlers, orelse=[], finalbody=[])
    return [b.assign(ok, b.int_(0)), inner, b.if_(b.load(ok), node.orelse)]


def _split_finally(node: ast.Try) -> ast.Try:
    """``try/except/else/finally`` is ``try/except/else`` inside ``try/finally``."""
    inner = ast.Try(body=node.body, handlers=node.handlers, orelse=node.orelse, finalbody=[])
    return b.try_finally([b.copy_location(inner, node)], node.finalbody)


@stmt_rule(
    ast.Raise,
    id="raise-from",
    summary="raise X from Y: the cause is set by a helper, the raise stays in the user's code",
    before="raise KeyError(k) from e",
    after="raise _us_exception_with_cause(KeyError(k), e)",
    reference="simple_stmts.html#the-raise-statement",
    applies=lambda node: node.cause is not None,
)
def lower_raise_from(node: ast.Raise, cx: Lowerer) -> list[ast.stmt]:
    """``X`` then ``Y`` are evaluated; a class is called to make the
    exception (or the cause); ``from None`` only suppresses the context.
    """
    return [b.raise_(b.call(cx.rt("exception_with_cause"), node.exc, node.cause))]


@stmt_rule(
    ast.Assert,
    id="assert",
    summary="assert tests only when __debug__ (not under python -O); the message only on failure",
    before="assert x, msg",
    after="if __debug__:\n    if x:\n        pass\n    else:\n        raise AssertionError(msg)",
    reference="simple_stmts.html#the-assert-statement",
)
def lower_assert(node: ast.Assert, cx: Lowerer) -> list[ast.stmt]:
    """``AssertionError`` is the real builtin, even if the module shadows it."""
    error: ast.expr = cx.builtin("AssertionError")
    if node.msg is not None:
        error = b.call(error, node.msg)
    check = b.if_(node.test, [ast.Pass()], [b.raise_(error)])
    return [b.if_(b.load("__debug__"), [check])]
