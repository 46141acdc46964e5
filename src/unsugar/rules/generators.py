"""``yield from``: delegation to a subiterator (PEP 380), as CPython runs it.

The delegating generator keeps the loop of PEP 380's formal semantics: it
yields what the subiterator yields, and what is sent or thrown into it goes
to the subiterator as CPython sends it (``runtime/generators.py`` says
how: ``next``/``send``/``throw``/``close``); the subiterator's
``StopIteration`` gives the value of the expression.

Not the same: ``gi_yieldfrom`` of the delegating generator is ``None``;
exceptions thrown in pass through the delegating generator's frame first
(its traceback shows it); a subiterator that is not a generator gets the
exception instance in ``throw(exc)``, where CPython passes on the arguments
``throw`` was called with; an error looking up its ``close`` (other than
``AttributeError``) propagates, where CPython reports it as unraisable.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule


@expr_rule(
    ast.YieldFrom,
    id="yield-from",
    summary="yield from x: delegate next/send/throw/close to iter(x); the value is its return value",
    before="r = yield from g()",
    after="_us_yf_1 = _us_yield_from_iter(g())\n"
    "_us_next_1 = _us_yield_from_method_type(next, _us_yf_1)  # next(_us_yf_1), from C\n"
    "_us_box_1 = []  # what is yielded, or thrown in\n"
    "_us_step_1 = _us_next_1\n"
    "_us_sent_1 = None\n"
    "_us_going_1 = 1\n"
    "_us_throwing_1 = 0\n"
    "try:\n"
    "    _us_step_1 = _us_step_1()\n"
    "except:  # the subiterator is done: nothing of it is kept\n"
    "    _us_step_1 = None\n"
    "    _us_yf_1 = None\n"
    "    _us_next_1 = None\n"
    "    _us_box_1 = None\n"
    "    _us_step_1 = _us_yield_from_stopped()\n"
    "    _us_going_1 = 0\n"
    "while _us_going_1:\n"
    "    _us_box_1.append(_us_step_1)\n"
    "    _us_step_1 = None\n"
    "    try:\n"
    "        _us_sent_1 = yield _us_box_1.pop()\n"
    "    except:\n"
    "        _us_box_1.append(_us_yield_from_thrown())\n"
    "        _us_throwing_1 = 1\n"
    "    _us_step_1 = _us_next_1\n"
    "    while _us_sent_1 is not None:\n"
    "        _us_step_1 = _us_yield_from_resumption(_us_yf_1, _us_sent_1, None)\n"
    "        _us_sent_1 = None\n"
    "    while _us_throwing_1:\n"
    "        _us_step_1 = _us_yield_from_resumption(_us_yf_1, None, _us_box_1.pop())\n"
    "        _us_throwing_1 = 0\n"
    "    try:\n"
    "        _us_step_1 = _us_step_1()\n"
    "    except:\n"
    "        ...  # as above\n"
    "r = _us_step_1  # the StopIteration's value",
    reference="expressions.html#yield-expressions",
    custom_order=True,
)
def lower_yield_from(node: ast.YieldFrom, cx: Lowerer) -> ast.expr:
    """The subiterator is ``GET_YIELD_FROM_ITER`` of the value (see ``delegate``)."""
    subiterator = b.call(cx.rt("yield_from_iter"), cx.expr(node.value))
    return delegate(b.copy_location(subiterator, node), node, cx)


def delegate(subiterator: ast.expr, node: ast.expr, cx: Lowerer) -> ast.expr:
    """The loop of PEP 380 over ``subiterator`` (lowered), for ``node``; its value.

    The first resumption is ``next``. Every exception thrown in is caught
    at the ``yield`` and handed to the next resumption, outside the handler;
    it is raised again when the subiterator does not take it. Only a
    ``StopIteration`` from the subiterator itself ends the loop (or, from
    3.12, one thrown in that it does not take).

    No local keeps what CPython keeps on its stack: the value yielded and
    the exception thrown in pass through a box, and when the resumption
    raises, every temporary is cleared before the exception goes on, as
    CPython's unwinding pops them. (A local holding the exception, or the
    ``throw`` bound to it, would make a cycle through the exception's
    traceback, freed only by the garbage collector.)
    """
    iterator, step, resume_next = cx.temp("yf"), cx.temp("step"), cx.temp("next")
    sent, box = cx.temp("sent"), cx.temp("box")
    # flags: the subiterator has not stopped; an exception was thrown in
    going, throwing = cx.temp("going"), cx.temp("throwing")
    none = cx.none

    def resumption(value: ast.expr, exception: ast.expr) -> ast.expr:
        return b.call(cx.rt("yield_from_resumption"), b.load(iterator), value, exception)

    def resume() -> ast.stmt:
        """The resumption; its ``StopIteration`` (the only exception the handler
        does not raise again) gives the result and ends the loop."""
        return b.try_except(
            [b.assign(step, b.call(b.load(step)))],
            [*cx.released([step, iterator, resume_next, box]),
             b.assign(step, b.call(cx.rt("yield_from_stopped"))), b.assign(going, b.int_(0))],
        )

    def boxed(value: ast.expr) -> ast.stmt:
        return b.expr(b.call(cx.method("list", "append"), b.load(box), value))

    def unboxed() -> ast.expr:
        return b.call(cx.method("list", "pop"), b.load(box))

    cx.emit(b.copy_location(b.assign(iterator, subiterator), node))
    cx.emit(*b.located([
        b.assign(resume_next, b.call(cx.rt("yield_from_method_type"), cx.builtin("next"), b.load(iterator))),
        b.assign(box, b.call(cx.builtin("list"))),
        b.assign(step, b.load(resume_next)),
        b.assign(sent, none()),
        b.assign(going, b.int_(1)),
        b.assign(throwing, b.int_(0)),
        resume(),
        b.while_(b.load(going), [
            boxed(b.load(step)),
            *cx.released([step]),
            b.try_except(
                [b.assign(sent, ast.Yield(value=unboxed()))],
                [boxed(b.call(cx.rt("yield_from_thrown"))), b.assign(throwing, b.int_(1))],
            ),
            # what ``next`` resumes with is made once; a value sent or an exception thrown in
            # gets its own resumption (each ``while`` runs at most once)
            b.assign(step, b.load(resume_next)),
            b.while_(cx.identity(b.load(sent), none(), same=False),
                     [b.assign(step, resumption(b.load(sent), none())), b.assign(sent, none())]),
            b.while_(b.load(throwing), [b.assign(step, resumption(none(), unboxed())),
                                        b.assign(throwing, b.int_(0))]),
            resume(),
        ]),
    ], node))
    return b.load(step)
