"""``for`` loops: ``iter()`` once, ``next()`` each time, ``else`` when exhausted."""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.forms import AT_ITERABLE, ForLoop
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule


@stmt_rule(
    ast.For,
    id="for",
    summary="for/else: iter() once, next() until the iterator is exhausted, else unless the loop broke",
    before="for x in xs:\n    f(x)\nelse:\n    g()",
    after="_us_iter_1 = iter(xs)\n_us_item_1 = next(_us_iter_1, _us_loop_end)\n"
    "_us_loop1 = _us_loop_more(id(_us_item_1), _us_loop_end_id)\n"
    "while _us_loop1:\n    x = _us_item_1\n    _us_item_1 = None\n    f(x)\n"
    "    _us_item_1 = next(_us_iter_1, _us_loop_end)\n"
    "    _us_loop1 = _us_loop_more(id(_us_item_1), _us_loop_end_id)\n"
    "_us_iter_1 = None\ng()",
    reference="compound_stmts.html#the-for-statement",
)
def lower_for(node: ast.For, cx: Lowerer) -> list[ast.stmt]:
    """``next(iterator, END)`` ends the loop exactly where ``StopIteration``
    would (an exception raised by the body, or any other raised by
    ``__next__``, propagates), with no ``try`` around the loop: the loop is
    one block, as in CPython. The item is bound to the target and dropped,
    so the loop holds no extra reference to it; the control-flow phase
    clears the iterator when the loop ends.
    """
    iterator, item = cx.temp("iter"), cx.temp("item")
    body = [b.assign_to(node.target, b.load(item)), b.assign(item, cx.none()), *node.body]
    loop = ForLoop(iterator=iterator, item=item, body=body, orelse=node.orelse)
    loop.step_at = node.iter if AT_ITERABLE else node
    start = b.copy_location(b.assign(iterator, b.call(cx.builtin("iter"), node.iter)), loop.step_at)
    return [start, b.copy_location(loop, node)]
