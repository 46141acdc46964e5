"""Tuple, list, set and dict displays, with ``*`` and ``**`` unpacking.

Every element is evaluated in order; a starred one is iterated when it is
reached (``f(a, *it, c)`` does the same, so tuples and lists are one call;
``star_items`` iterates as the display would, the call then copies a list).
Sets and dicts hash their items, so *when* an item is inserted can be seen
(a ``__hash__`` that prints or raises). CPython inserts the items of a short
display once all are evaluated, but after a ``*``/``**`` item, or in a
display of more than 30 items, it inserts as it goes; those displays become
statements that do the same.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule

#: CPython's ``STACK_USE_GUIDELINE``: longer displays are built step by step.
STACK_USE_GUIDELINE = 30


def _spread(elements: list[ast.expr], cx: Lowerer) -> list[ast.expr]:
    """``*x`` becomes ``*star_items(x)`` (a display's error message, not a call's)."""
    return [
        b.starred(b.call(cx.rt("star_items"), e.value)) if isinstance(e, ast.Starred) else e
        for e in elements
    ]


def _is_load(node: ast.Tuple | ast.List) -> bool:
    return isinstance(node.ctx, ast.Load)


@expr_rule(
    ast.Tuple,
    id="tuple",
    summary="a tuple display is a call that returns its arguments",
    before="(a, *b)",
    after="_us_tuple_of(a, *_us_star_items(b))",
    reference="expressions.html#expression-lists",
    applies=_is_load,
)
def lower_tuple(node: ast.Tuple, cx: Lowerer) -> ast.expr:
    return b.call(cx.rt("tuple_of"), *_spread(node.elts, cx))


@expr_rule(
    ast.List,
    id="list",
    summary="a list display is list() of its items",
    before="[a, *b]",
    after="_us_list_of(a, *_us_star_items(b))",
    reference="expressions.html#list-displays",
    applies=_is_load,
)
def lower_list(node: ast.List, cx: Lowerer) -> ast.expr:
    return b.call(cx.rt("list_of"), *_spread(node.elts, cx))


def _lowered_call(func: ast.expr, args: list[ast.expr], cx: Lowerer) -> ast.Call:
    """``func(*args)`` with ``args`` lowered in order (earlier ones spilled if needed)."""
    call = b.call(func, *args)
    cx.lower_children(call)
    return call


def _all_constant(nodes: list[ast.expr | None]) -> bool:
    """Constants hash without side effects: when they are inserted cannot be seen."""
    return all(isinstance(node, ast.Constant) for node in nodes)


@expr_rule(
    ast.Set,
    id="set",
    summary="a set display adds its items in CPython's order; *x is set.update",
    before="{a, *b, c}",
    after="_us_set_1 = _us_set_of(a)\n_us_set_display_update(_us_set_1, b)\n"
          "_us_set_display_add(_us_set_1, c)\n_us_set_1",
    reference="expressions.html#set-displays",
    custom_order=True,
)
def lower_set(node: ast.Set, cx: Lowerer) -> ast.expr:
    """``{a, b}`` is ``set_of(a, b)``. After the first ``*x`` (or from the
    start, in a display of more than 30 items) each item is added as soon as
    it is evaluated, as CPython's ``SET_ADD``/``SET_UPDATE`` do."""
    elements = node.elts
    starred = [i for i, e in enumerate(elements) if isinstance(e, ast.Starred)]
    big = len(elements) > STACK_USE_GUIDELINE
    if not starred and (not big or _all_constant(elements)):
        return _lowered_call(cx.rt("set_of"), elements, cx)
    first = 0 if big else starred[0]
    target = cx.temp("set")
    built = _lowered_call(cx.rt("set_of"), elements[:first], cx)
    cx.emit(b.copy_location(b.assign(target, built), node))
    for element in elements[first:]:
        if isinstance(element, ast.Starred):
            step = _lowered_call(cx.rt("set_display_update"), [b.load(target), element.value], cx)
        else:
            step = _lowered_call(cx.rt("set_display_add"), [b.load(target), element], cx)
        cx.emit(b.copy_location(b.expr(step), node))
    return b.load(target)


def _dict_steps(node: ast.Dict) -> list[list[int] | int]:
    """CPython's ``compiler_dict``: runs of ``key: value`` items (a list of
    indexes, at most 17 long) and ``**`` items (an index), in order."""
    steps: list[list[int] | int] = []
    run: list[int] = []
    for i, key in enumerate(node.keys):
        if key is None:
            if run:
                steps.append(run)
                run = []
            steps.append(i)
        else:
            run.append(i)
            if (len(run) - 1) * 2 > STACK_USE_GUIDELINE:
                steps.append(run)
                run = []
    if run:
        steps.append(run)
    return steps


@expr_rule(
    ast.Dict,
    id="dict",
    summary="a dict display inserts k1, v1, k2, v2 in order; **m merges keys() and [key]",
    before="{k: v, **m}",
    after="_us_dict_1 = _us_dict_of(k, v)\n_us_dict_display_merge(_us_dict_1, m)\n_us_dict_1",
    reference="expressions.html#dictionary-displays",
    custom_order=True,
)
def lower_dict(node: ast.Dict, cx: Lowerer) -> ast.expr:
    """``{k1: v1, k2: v2}`` is ``dict_of(k1, v1, k2, v2)``. Longer displays
    and ``**m`` are built step by step as CPython does: each run of items a
    dict of its own (one of 16 items or more filled item by item), merged
    into the result like ``**m``."""
    if None not in node.keys and _all_constant(node.keys):
        steps: list[list[int] | int] = [list(range(len(node.keys)))]  # insertion unseen
    else:
        steps = _dict_steps(node)
    if not steps:
        return _lowered_call(cx.rt("dict_of"), [], cx)
    first, *rest = steps
    if isinstance(first, int):
        result = _lowered_call(cx.rt("dict_display_merge"), [b.call(cx.rt("dict_of")), node.values[first]], cx)
    else:
        result = _dict_run(node, first, cx)
    if not rest:
        return result
    target = cx.temp("dict")
    cx.emit(b.copy_location(b.assign(target, result), node))
    for step in rest:
        part = node.values[step] if isinstance(step, int) else _dict_run(node, step, cx)
        merge = _lowered_call(cx.rt("dict_display_merge"), [b.load(target), part], cx)
        cx.emit(b.copy_location(b.expr(merge), node))
    return b.load(target)


def _dict_run(node: ast.Dict, run: list[int], cx: Lowerer) -> ast.expr:
    """``dict_of(k, v, ...)``; from 16 items on (or with non-constant keys
    past 30), a new dict that each item is stored in once evaluated."""
    if len(run) * 2 <= STACK_USE_GUIDELINE or _all_constant([node.keys[i] for i in run]):
        items = [part for i in run for part in (node.keys[i], node.values[i])]
        return _lowered_call(cx.rt("dict_of"), items, cx)
    target = cx.temp("dict")
    cx.emit(b.copy_location(b.assign(target, b.call(cx.rt("dict_of"))), node))
    for i in run:
        store = _lowered_call(cx.rt("dict_display_store"), [b.load(target), node.keys[i], node.values[i]], cx)
        cx.emit(b.copy_location(b.expr(store), node))
    return b.load(target)
