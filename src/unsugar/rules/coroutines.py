"""Coroutines: ``async def`` and ``await`` (PEP 492).

An ``async def`` is compiled as a generator function whose code is then
flagged ``CO_COROUTINE`` (``runtime/coroutines.py``), so that calling it
makes a native coroutine running that code; ``await x`` is the ``yield
from`` loop over ``GET_AWAITABLE`` of ``x``; ``async with`` and ``async for``
are ``with`` and ``for`` with their protocol's calls awaited. An ``async
def`` that yields is an async generator (``rules/async_generators.py``).
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.forms import LOOP_ITERATOR
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule, stmt_rule
from unsugar.rules.generators import delegate
from unsugar.trees import children

#: Set on the def an ``async def`` became: its ``await``s are rewritten.
COROUTINE_MARK = "unsugar_coroutine"
#: Set on an ``async for`` whose iterable is already ``__aiter__`` of the first
#: iterable (the first loop of an asynchronous comprehension).
AITER_MADE = "unsugar_aiter_made"
#: Set on an ``await`` of what ``__aenter__`` (1), ``__aexit__`` (2) or ``__anext__`` (3) returned.
AWAITED_FROM = "unsugar_awaited_from"

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def own_nodes(node: ast.AsyncFunctionDef) -> list[ast.AST]:
    """What runs in the function's own frame (not in the scopes it makes)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(node.body)
    while todo:
        item = todo.pop()
        out.append(item)
        if not isinstance(item, _SCOPES):
            todo.extend(children(item))
    return out


def _is_plain_coroutine(node: ast.AsyncFunctionDef) -> bool:
    """No decorators left, and no ``yield`` in its own frame (an async
    generator: ``rules/async_generators.py``)."""
    return not node.decorator_list and not any(
        isinstance(item, ast.Yield) for item in own_nodes(node))


def plain_def(node: ast.AsyncFunctionDef, body: list[ast.stmt]) -> ast.FunctionDef:
    """A ``def`` with ``node``'s name, signature, type parameters (a generic
    def stays generic) and naming marks, and ``body``."""
    function = ast.FunctionDef(name=node.name, args=node.args, body=body, decorator_list=[],
                               returns=node.returns, type_comment=node.type_comment)
    function.type_params = getattr(node, "type_params", [])
    for name in ("shown_name", "inner_qualname", "comprehension_frame", "frame_locals", "hidden_locals",
                 "first_line"):
        if hasattr(node, name):
            setattr(function, name, getattr(node, name))
    return b.copy_location(function, node)


@stmt_rule(
    ast.AsyncFunctionDef,
    id="async-def",
    summary="async def is a generator function (its awaits are yield from loops) whose code "
    "is flagged a coroutine's: calling it makes a native coroutine",
    before="async def f(x):\n    return await x",
    after="def f(x):\n    ...  # await x: the yield from loop over _us_await_iterator(x, 0)\n"
    "    return _us_step_1\nf = _us_coroutine_function(f)",
    reference="compound_stmts.html#coroutine-function-definition",
    applies=_is_plain_coroutine,
)
def lower_async_def(node: ast.AsyncFunctionDef, cx: Lowerer) -> list[ast.stmt]:
    """A body that never awaits gets a ``yield`` that never runs: it is the
    ``yield`` that makes CPython compile the code of a generator."""
    body = list(node.body)
    if not any(isinstance(item, ast.Await) for item in own_nodes(node)):
        body.append(b.while_(b.int_(0), [b.expr(ast.Yield(value=b.int_(0)))]))
    function = plain_def(node, body)
    setattr(function, COROUTINE_MARK, True)
    name = cx.mangle(node.name)
    made = b.assign(name, b.call(cx.rt("coroutine_function"), b.load(name)))
    return [function, b.copy_location(made, node)]


@expr_rule(
    ast.Await,
    id="await",
    summary="await x in a rewritten async def delegates, as yield from does, to what "
    "GET_AWAITABLE gives: a coroutine itself, or what __await__ returns",
    before="await x",
    after="_us_yf_1 = _us_await_iterator(x, 0)\n...  # the yield from loop\n_us_step_1",
    reference="expressions.html#await-expression",
    custom_order=True,
)
def lower_await(node: ast.Await, cx: Lowerer) -> ast.expr:
    """In a function kept ``async`` (see ``async-def``), ``await`` stays."""
    if not getattr(cx.scope.node, COROUTINE_MARK, False):
        node.value = cx.expr(node.value)
        return node
    where = getattr(node, AWAITED_FROM, 0)
    awaitable = b.call(cx.rt("await_iterator"), cx.expr(node.value), b.int_(where))
    return delegate(b.copy_location(awaitable, node), node, cx)


def _awaited(value: ast.expr, where: int) -> ast.Await:
    """``await value`` of what ``__aenter__`` (1) or ``__aexit__`` (2) returned."""
    node = ast.Await(value=value)
    setattr(node, AWAITED_FROM, where)
    return node


@stmt_rule(
    ast.AsyncWith,
    id="async-with",
    summary="async with: __aenter__/__aexit__ looked up on the type and awaited, __aexit__ "
    "called once on every way out",
    before="async with m as v:\n    f(v)",
    after="_us_exit_1 = m\n_us_enter_1 = _us_async_context_enter_method(_us_exit_1)\n"
    "_us_exit_1 = _us_async_context_exit_method(_us_exit_1)\n"
    "_us_enter_1 = await _us_enter_1()\n_us_normal_1 = 1\ntry:\n    try:\n"
    "        v = _us_enter_1\n        _us_enter_1 = None\n        f(v)\n    except:\n"
    "        _us_normal_1 = 0\n        _us_enter_1 = None\n"
    "        if await _us_exit_1(*_us_context_exit_arguments()):\n            pass\n"
    "        else:\n            raise\nfinally:\n    if _us_normal_1:\n"
    "        await _us_exit_1(None, None, None)\n_us_exit_1 = None",
    reference="compound_stmts.html#the-async-with-statement",
)
def lower_async_with(node: ast.AsyncWith, cx: Lowerer) -> list[ast.stmt]:
    """As ``with`` (``rules/with_stmt.py``), each call of the protocol awaited.
    Several items nest."""
    item, *rest = node.items
    body = node.body
    if rest:
        body = [b.copy_location(ast.AsyncWith(items=rest, body=body), node)]
    leave, enter, normal = cx.temp("exit"), cx.temp("enter"), cx.temp("normal")
    if item.optional_vars is not None:
        body = [b.assign_to(item.optional_vars, b.load(enter)), b.assign(enter, cx.none()), *body]
    exit_error = _awaited(b.call_with(b.load(leave), [b.starred(b.call(cx.rt("context_exit_arguments")))]), 2)
    handler = [
        b.assign(normal, b.int_(0)),
        b.assign(enter, cx.none()),
        b.if_(exit_error, [ast.Pass()], [b.raise_()]),
    ]
    protected = ast.Try(body=body, handlers=[ast.ExceptHandler(type=None, name=None, body=handler)],
                        orelse=[], finalbody=[])
    leaving = b.if_(b.load(normal), [b.expr(_awaited(
        b.call(b.load(leave), cx.none(), cx.none(), cx.none()), 2))])
    out = [
        b.assign(leave, item.context_expr),
        b.assign(enter, b.call(cx.rt("async_context_enter_method"), b.load(leave))),
        b.assign(leave, b.call(cx.rt("async_context_exit_method"), b.load(leave))),
        b.assign(enter, _awaited(b.call(b.load(enter)), 1)),
    ]
    if item.optional_vars is None:
        out.append(b.assign(enter, cx.none()))
    out += [
        b.assign(normal, b.int_(1)),
        ast.Try(body=[protected], handlers=[], orelse=[], finalbody=[leaving]),
        b.assign(leave, cx.none()),
    ]
    return b.located(out, node)


@stmt_rule(
    ast.AsyncFor,
    id="async-for",
    summary="async for: __aiter__ on the type, then __anext__ awaited until it raises "
    "StopAsyncIteration; the else block when it does",
    before="async for x in xs:\n    f(x)",
    after="_us_aiter_1 = _us_async_iterator(xs)\n_us_more_1 = 1\nwhile _us_more_1:\n"
    "    try:\n        _us_item_1 = await _us_async_next(_us_aiter_1)\n"
    "    except StopAsyncIteration:\n        _us_more_1 = 0\n    if _us_more_1:\n"
    "        x = _us_item_1\n        _us_item_1 = None\n        f(x)\n_us_aiter_1 = None",
    reference="compound_stmts.html#the-async-for-statement",
)
def lower_async_for(node: ast.AsyncFor, cx: Lowerer) -> list[ast.stmt]:
    """Only the awaited ``__anext__`` is inside the ``try``: a
    ``StopAsyncIteration`` from the body propagates."""
    iterator, more, item = cx.temp("aiter"), cx.temp("more"), cx.temp("item")
    stop = ast.ExceptHandler(type=b.load("StopAsyncIteration"), name=None,
                             body=[b.assign(more, b.int_(0))])
    step = ast.Try(body=[b.assign(item, _awaited(b.call(cx.rt("async_next"), b.load(iterator)), 3))],
                   handlers=[stop], orelse=[], finalbody=[])
    body = [b.assign_to(node.target, b.load(item)), b.assign(item, cx.none()), *node.body]
    loop = ast.While(test=b.load(more), body=[step, b.if_(b.load(more), body)], orelse=node.orelse)
    setattr(loop, LOOP_ITERATOR, iterator)
    iterable = node.iter if getattr(node, AITER_MADE, False) else \
        b.call(cx.rt("async_iterator"), node.iter)
    return b.located([
        b.assign(iterator, iterable),
        b.assign(more, b.int_(1)),
        loop,
        b.assign(iterator, cx.none()),
    ], node)
