"""``with``: the context manager protocol of PEP 343, as CPython runs it."""

from __future__ import annotations

import sys

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.forms import WithBlock
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule


@stmt_rule(
    ast.With,
    id="with",
    summary="with: __enter__/__exit__ looked up on the type, __exit__ called once on every way out",
    before="with m as v:\n    f(v)",
    after="_us_exit_1 = m\n_us_enter_1 = _us_context_enter_method(_us_exit_1)\n"
    "_us_exit_1 = _us_context_exit_method(_us_exit_1)\n_us_enter_1 = _us_enter_1()\n"
    "_us_ok1 = 1\ntry:\n    v = _us_enter_1\n    _us_enter_1 = None\n    f(v)\nexcept:\n"
    "    _us_ok1 = 0\n    _us_enter_1 = None\n    _us_if1 = _us_exit_1(*_us_context_exit_arguments())\n"
    "    _us_exit_1 = None\n    _us_else1 = 1\n    while _us_if1:\n        _us_if1 = 0\n"
    "        _us_else1 = 0\n    while _us_else1:\n        _us_else1 = 0\n        raise\n"
    "while _us_ok1:\n    _us_ok1 = 0\n    _us_exit_1(None, None, None)\n_us_exit_1 = None",
    reference="compound_stmts.html#the-with-statement",
)
def lower_with(node: ast.With, cx: Lowerer) -> list[ast.stmt]:
    """Several items nest: ``with a, b: S`` is ``with a: with b: S``.

    ``__enter__`` and then ``__exit__`` are looked up (and bound) before
    ``__enter__`` is called. The ``as`` target is assigned inside the
    protected block, and the value dropped. An exception calls
    ``__exit__(type, value, traceback)`` and is re-raised unless the result
    is true; leaving any other way (falling off the end, ``return``,
    ``break``, ``continue``) calls ``__exit__(None, None, None)``. The
    control-flow phase makes the protected part one ``try``
    (:class:`unsugar.forms.WithBlock`).
    """
    item, *rest = node.items
    body = node.body
    if rest:
        body = [b.copy_location(ast.With(items=rest, body=body), node)]
    leave, enter = cx.temp("exit"), cx.temp("enter")
    if item.optional_vars is not None:
        body = [b.assign_to(item.optional_vars, b.load(enter)), b.assign(enter, cx.none()), *body]
    # where tracebacks show the protocol's calls: from 3.13 the item's expression
    where = item.context_expr if sys.version_info >= (3, 13) else node
    out = [
        b.assign(leave, item.context_expr),
        b.assign(enter, b.call(cx.rt("context_enter_method"), b.load(leave))),
        b.assign(leave, b.call(cx.rt("context_exit_method"), b.load(leave))),
        b.assign(enter, b.call(b.load(enter))),
    ]
    if item.optional_vars is None:
        out.append(b.assign(enter, cx.none()))
    out.append(WithBlock(exit=leave, enter=enter, body=body))
    return b.located(out, where)
