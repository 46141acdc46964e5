"""``for`` loops: ``iter()`` once, ``next()`` each time, ``else`` when exhausted."""

from __future__ import annotations

import ast

from unsugar import builder as b
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule


@stmt_rule(
    ast.For,
    id="for",
    summary="for/else: iter() once, next() until StopIteration, else unless the loop broke",
    before="for x in xs:\n    f(x)\nelse:\n    g()",
    after="_us_iter_1 = iter(xs)\n_us_for_1 = 1\ntry:\n    while _us_for_1:\n        try:\n"
    "            _us_item_1 = next(_us_iter_1)\n        except:\n"
    "            _us_for_1 = _us_not_stop_iteration()\n            if _us_for_1:\n"
    "                raise\n        if _us_for_1:\n            x = _us_item_1\n            f(x)\n"
    "except:\n    _us_iter_1 = None\n    _us_item_1 = None\n    raise\n"
    "_us_iter_1 = None\n_us_item_1 = None\nif _us_for_1:\n    pass\nelse:\n    g()",
    reference="compound_stmts.html#the-for-statement",
)
def lower_for(node: ast.For, cx: Lowerer) -> list[ast.stmt]:
    """Only a ``StopIteration`` raised by ``next`` ends the loop (one raised
    by the body propagates); the loop goes on in the ``while``, outside the
    handler. ``break`` and ``continue`` in the body now belong to that
    ``while``; a ``break`` leaves the flag set, which skips ``else``. The
    temporaries are cleared on every way out, so that the iterator is
    released (and a generator closed) when CPython would release it.
    """
    iterator, more, item = cx.temp("iter"), cx.temp("for"), cx.temp("item")
    clear = [b.assign(iterator, cx.none()), b.assign(item, cx.none())]
    step = [
        b.try_except(
            [b.assign(item, b.call(cx.builtin("next"), b.load(iterator)))],
            [
                b.assign(more, b.call(cx.rt("not_stop_iteration"))),
                b.if_(b.load(more), [b.raise_()]),
            ],
        ),
        b.if_(b.load(more), [b.assign_to(node.target, b.load(item)), *node.body]),
    ]
    out: list[ast.stmt] = [
        b.assign(iterator, b.call(cx.builtin("iter"), node.iter)),
        b.assign(more, b.int_(1)),
        b.try_except([b.while_(b.load(more), step)], [*clear, b.raise_()]),
        *clear,
    ]
    if node.orelse:
        out.append(b.if_(b.load(more), [ast.Pass()], node.orelse))
    return out
