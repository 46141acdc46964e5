"""Asynchronous generators (PEP 525): an ``async def`` that yields.

The function keeps its signature; its body becomes a generator def inside
it, given every parameter, whose own ``yield v`` yields the value wrapped as
CPython's ``ASYNC_GEN_WRAP`` wraps it (``runtime/async_generators.py``) and
whose ``await``s yield to the event loop as a coroutine's do. Once, when the
function is defined, it is made again with its code flagged an async
generator's (for ``inspect``), and the body's code flagged an async
generator's instead of a generator's and named after it: the function
returns what calling the body makes, CPython's own ``async_generator``, with
frames and qualified names as in the original.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.lowering import Lowerer
from unsugar.registry import stmt_rule
from unsugar.rules.coroutines import COROUTINE_MARK, own_nodes, plain_def


def is_async_generator(node: ast.AsyncFunctionDef) -> bool:
    """No decorators left, and a ``yield`` in its own frame."""
    return not node.decorator_list and any(
        isinstance(item, ast.Yield) for item in own_nodes(node))


@stmt_rule(
    ast.AsyncFunctionDef,
    id="async-generator",
    summary="an async def that yields runs its body as a generator def flagged an async "
    "generator's (calling it makes CPython's async_generator), whose own yields are wrapped "
    "as ASYNC_GEN_WRAP wraps them, to tell them from the event loop's",
    before="async def g(n):\n    await f()\n    yield n",
    after="def g(n):\n    def _us_agen_1(n):\n        ...  # await f(): the yield from loop\n"
    "        yield _us_async_generator_value(n)\n"
    "    return _us_agen_1(n)\ng = _us_async_generator_function(g)",
    reference="expressions.html#asynchronous-generator-functions",
    applies=is_async_generator,
)
def lower_async_generator(node: ast.AsyncFunctionDef, cx: Lowerer) -> list[ast.stmt]:
    """The body def has the parameters' names, so the body sees the same
    locals (``locals()``, a zero-argument ``super()``) as the original."""
    for item in own_nodes(node):
        if isinstance(item, ast.Yield):
            value = item.value if item.value is not None else ast.Constant(value=None)
            item.value = b.copy_location(b.call(cx.rt("async_generator_value"), value), item)
    statements = list(node.body)
    docstring = statements[:1] if ast.get_docstring(node, clean=False) is not None else []
    names = [param.arg for param in b.parameters(node.args)]
    body_name = cx.temp("agen")
    body = b.function(body_name, names, statements[len(docstring):])
    b.copy_location(body, node)
    setattr(body, COROUTINE_MARK, True)
    shown = getattr(node, "shown_name", node.name)
    body.inner_qualname = getattr(node, "inner_qualname", cx.qualname(shown) + ".<locals>.")
    made = b.call(b.load(body_name), *map(b.load, names))
    function = plain_def(node, [*docstring, body, b.copy_location(b.ret(made), node)])
    name = cx.mangle(node.name)
    made = b.assign(name, b.call(cx.rt("async_generator_function"), b.load(name)))
    return [function, b.copy_location(made, node)]
