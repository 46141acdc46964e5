"""Comprehensions and generator expressions: a ``def`` made where they are.

::

    [e for x in a if c for y in b]      def _us_listcomp_1(_us_iter_2):
                                            _us_result_3 = list()
                                            <for x in _us_iter_2>:
                                                if c:
                                                    for y in b:
                                  ->                    _us_list_append(_us_result_3, e)
                                            return _us_result_3
                                        _us_rename_function(_us_listcomp_1, "<listcomp>", ...)
                                        ... _us_listcomp_1(iter(a)) ...

The first iterable is evaluated, and ``iter()`` called on it, where the
expression is (in a class body: with the class's names); everything else
runs in the def, so the iteration variables are its locals and closures see
what the comprehension sees. The first ``for`` steps the iterator it is
given with ``next`` (no second ``iter()``); the others are ``for`` loops. A
generator expression is a generator def: it ``yield``s each value.

A walrus inside binds in the scope around: the def declares the name
``nonlocal`` (``global`` at module level, or when the function around
declares it so), and the function around gets a binding that never runs
(``while 0: y = 0``) so that the name is its local, as in CPython.

Names: up to 3.11 the def is shown as ``<listcomp>``, ``<setcomp>``,
``<dictcomp>``; from 3.12 list, set and dict comprehensions are inlined
(PEP 709), so the def takes the name of the code around it and what it
defines is named as if defined there; a zero-argument ``super()`` inside gets
the first argument of the function around, and ``locals()``, ``vars()`` and
``dir()`` inside show the variables around too (``rules/introspection.py``).
What still shows the def's frame there: a traceback lists that frame twice,
and ``sys._getframe()`` inside sees the def's locals, not those of the code
around. A generator expression is ``<genexpr>`` on every version.
An asynchronous list, set or dict comprehension (``async for``, ``await``
inside) in a rewritten ``async def`` is a coroutine def whose call is
awaited; an asynchronous generator expression is an ``async def`` that
yields (an async generator), called as a generator expression's def is.
"""

from __future__ import annotations

import sys

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.forms import AT_ITERABLE, ForLoop
from unsugar.lowering import Lowerer
from unsugar.registry import expr_rule
from unsugar.rules.coroutines import AITER_MADE, COROUTINE_MARK
from unsugar.trees import children, walk

Comprehension = ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp

#: From 3.12 list, set and dict comprehensions run inline (PEP 709).
INLINED = sys.version_info >= (3, 12)

#: What builds the result: (builtin that makes it, method that adds to it).
_BUILDERS = {
    ast.ListComp: ("list", "append"),
    ast.SetComp: ("set", "add"),
    ast.DictComp: ("dict", "__setitem__"),
}

REFERENCE = "expressions.html#displays-for-lists-sets-and-dictionaries"


def _inside(node: Comprehension) -> list[ast.AST]:
    """What runs in the comprehension's own scope (all but the first iterable)."""
    first, *rest = node.generators
    parts: list[ast.AST] = [first.target, *first.ifs, *rest]
    return [*parts, node.key, node.value] if isinstance(node, ast.DictComp) else [*parts, node.elt]


def _synchronous(node: Comprehension) -> bool:
    """Not an asynchronous comprehension: no ``async for`` and no ``await`` in
    it, nor in the list, set and dict comprehensions in it (a generator
    expression or a lambda inside is a scope of its own)."""
    if node.generators[0].is_async:
        return False
    todo = _inside(node)
    while todo:
        item = todo.pop()
        if isinstance(item, ast.Await) or isinstance(item, ast.comprehension) and item.is_async:
            return False
        if isinstance(item, ast.GeneratorExp):
            todo.append(item.generators[0].iter)  # evaluated here
        elif not isinstance(item, ast.Lambda):
            todo.extend(children(item))
    return True


def _walrus_targets(node: Comprehension) -> list[str]:
    """The names the walruses in ``node`` bind (in the scope around it), in order."""
    found: list[str] = []
    todo = _inside(node)
    while todo:
        item = todo.pop(0)
        if isinstance(item, ast.NamedExpr) and item.target.id not in found:
            found.append(item.target.id)
        if isinstance(item, ast.Lambda):  # its body is a scope of its own
            todo.extend([*item.args.defaults, *(d for d in item.args.kw_defaults if d)])
            continue
        todo.extend(children(item))
    return found


def _uses_super(node: Comprehension) -> bool:
    """Whether the comprehension itself (or one inlined in it) reads ``super``."""
    todo = _inside(node)
    while todo:
        item = todo.pop()
        if isinstance(item, ast.Name) and item.id == "super" and isinstance(item.ctx, ast.Load):
            return True
        if isinstance(item, (ast.Lambda, ast.GeneratorExp)):
            continue
        todo.extend(children(item))
    return False


def _frame(cx: Lowerer) -> tuple[str, str]:
    """The ``co_name`` and ``co_qualname`` of the code being lowered."""
    scope = cx.scope
    node = scope.node
    if scope.kind == "module":
        return "<module>", "<module>"
    if scope.kind == "class":
        return node.name, scope.qualname[:-1]
    frame = getattr(node, "comprehension_frame", None)
    if frame is not None:
        return frame
    return getattr(node, "shown_name", node.name), scope.qualname.removesuffix(".<locals>.")


def _at_iterable(call: ast.Call, node: Comprehension) -> ast.Call:
    """``call`` (stepping the first iterator) placed where CPython reports it."""
    return b.copy_location(call, node.generators[0].iter if AT_ITERABLE else node)


def _first_loop(node: Comprehension, iterator: str, body: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """``for <first target> in <iterator>: body`` stepping an iterator already made."""
    item = cx.temp("item")
    bind = [b.assign_to(node.generators[0].target, b.load(item)), b.assign(item, cx.none())]
    loop = ForLoop(iterator=iterator, item=item, body=[*bind, *body], orelse=[])
    return [b.copy_location(loop, node.generators[0].iter if AT_ITERABLE else node)]


def _loops(node: Comprehension, iterator: str, innermost: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """The ``for`` (``async for``) and ``if`` clauses around ``innermost``, outermost first."""
    body = innermost
    for index, generator in reversed(list(enumerate(node.generators))):
        for condition in reversed(generator.ifs):
            body = [b.if_(condition, body)]
        if index:
            loop = ast.AsyncFor if generator.is_async else ast.For
            body = [loop(target=generator.target, iter=generator.iter, body=body,
                         orelse=[], type_comment=None)]
        elif generator.is_async:  # over the asynchronous iterator it is given
            first = ast.AsyncFor(target=generator.target, iter=b.load(iterator), body=body,
                                 orelse=[], type_comment=None)
            setattr(first, AITER_MADE, True)
            body = [b.copy_location(first, generator.iter if AT_ITERABLE else node)]
        else:
            body = _first_loop(node, iterator, body, cx)
    return body


def _scope_declarations(node: Comprehension, cx: Lowerer) -> list[ast.stmt]:
    """``global``/``nonlocal`` for the names the walruses inside bind in the scope around."""
    names = _walrus_targets(node)
    if not names:
        return []
    scope = cx.scope
    if scope.kind == "class":
        raise SyntaxError("assignment expression within a comprehension cannot be used in a class body",
                          ("<unknown>", node.lineno, node.col_offset + 1, None))
    if scope.kind == "module":
        return [ast.Global(names=names)]
    globals_ = [name for name in names if cx.mangle(name) in scope.globals]
    nonlocals = [name for name in names if name not in globals_]
    for name in nonlocals:
        mangled = cx.mangle(name)
        if mangled not in scope.nonlocals and getattr(scope.node, "comprehension_frame", None) is None:
            # the name is a local of the function around (never run: no value)
            cx.emit(b.copy_location(b.while_(b.int_(0), [b.assign(mangled, b.int_(0))]), node))
    out: list[ast.stmt] = []
    if globals_:
        out.append(ast.Global(names=globals_))
    if nonlocals:
        out.append(ast.Nonlocal(names=nonlocals))
    return out


def lower_comprehension(node: Comprehension, cx: Lowerer, kind: str) -> ast.expr:
    """The def is made, the first iterable evaluated and ``iter()`` called on
    it, then the def is called with that iterator (``__aiter__`` of it when
    that loop is ``async for``). An asynchronous list, set or dict
    comprehension (in a rewritten ``async def``: elsewhere it is kept) is a
    coroutine def whose call is awaited; an asynchronous generator expression
    is an ``async def`` that yields."""
    asynchronous = not _synchronous(node)
    generator = isinstance(node, ast.GeneratorExp)
    if asynchronous and not generator and not getattr(cx.scope.node, COROUTINE_MARK, False):
        return node
    name, iterator = cx.temp(kind), cx.temp("iter")
    params = [iterator]
    if generator:
        body = _loops(node, iterator, [b.expr(ast.Yield(value=node.elt))], cx)
    else:
        make, method = _BUILDERS[type(node)]
        result = cx.temp("result")
        add = cx.method(make, method)
        items = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        body = [
            b.assign(result, b.call(cx.builtin(make))),
            *_loops(node, iterator, [b.expr(b.call(add, b.load(result), *items))], cx),
            b.ret(b.load(result)),
        ]
    inlined = INLINED and not isinstance(node, ast.GeneratorExp)
    arguments: list[ast.expr] = []
    if inlined and cx.scope.kind == "function" and _uses_super(node):
        # zero-argument super() reads the first argument of the running frame
        outer = cx.scope.node.args
        first = [*outer.posonlyargs, *outer.args][:1]
        if first:
            params.insert(0, cx.temp("self"))
            arguments.append(b.load(first[0].arg))
    fn = b.function(name, params, [*_scope_declarations(node, cx), *body])
    if asynchronous and generator:  # an async generator (``rules/async_generators.py``)
        fn = ast.AsyncFunctionDef(name=name, args=fn.args, body=fn.body, decorator_list=[],
                                  returns=None, type_comment=None)
        fn.type_params = []
    b.copy_location(fn, node)
    if asynchronous and not generator:
        setattr(fn, COROUTINE_MARK, True)
    tail: list[ast.stmt] = []
    if inlined:
        frame = _frame(cx)
        # its variables are hidden locals of the frame around, which an
        # exception leaving gives their outer values again: they are dropped
        fn.hidden_locals = sorted({cx.mangle(target.id) for generator in node.generators
                                   for target in walk(generator.target)
                                   if type(target) is ast.Name and type(target.ctx) is ast.Store})
        fn.shown_name = name
        fn.comprehension_frame = frame
        fn.inner_qualname = cx.scope.qualname
        rename = b.call(cx.rt("rename_function"), b.load(name), cx.string(frame[0]), cx.string(frame[1]))
        tail.append(b.copy_location(b.expr(rename), node))
    else:
        shown = "<genexpr>" if generator else f"<{kind}>"
        fn.shown_name = shown
        fn.comprehension_frame = (shown, cx.qualname(shown))
        fn.inner_qualname = cx.qualname(shown) + "."
        # the iterator is the frame's ``.0``: an exception leaving keeps it with the frame
        fn.frame_locals = (iterator,)
    if asynchronous and not generator:
        made = b.call(cx.rt("coroutine_function"), b.load(name))
        tail.append(b.copy_location(b.assign(name, made), node))
    cx.emit(*cx.block([fn]), *tail)
    first = cx.expr(node.generators[0].iter)
    start = cx.rt("async_iterator") if node.generators[0].is_async else cx.builtin("iter")
    arguments.append(_at_iterable(b.call(start, first), node))
    call = b.call(b.load(name), *arguments)
    call = _at_iterable(call, node) if inlined else call
    if asynchronous and not generator:
        return cx.expr(b.copy_location(ast.Await(value=call), node))
    return call


@expr_rule(
    ast.ListComp,
    id="listcomp",
    summary="a list comprehension is a def that appends to a new list, called with "
    "iter() of the first iterable",
    before="r = [f(x) for x in xs if x]",
    after="def _us_listcomp_1(_us_iter_2):\n    _us_result_3 = list()\n"
    "    <for x in _us_iter_2>:\n        if x:\n            _us_list_append(_us_result_3, f(x))\n"
    "    return _us_result_3\n_us_rename_function(_us_listcomp_1, _us_s__listcomp_, ...)\n"
    "r = _us_listcomp_1(iter(xs))",
    reference=REFERENCE,
    custom_order=True,
)
def lower_listcomp(node: ast.ListComp, cx: Lowerer) -> ast.expr:
    return lower_comprehension(node, cx, "listcomp")


@expr_rule(
    ast.SetComp,
    id="setcomp",
    summary="a set comprehension is a def that adds to a new set, called with "
    "iter() of the first iterable",
    before="r = {f(x) for x in xs}",
    after="def _us_setcomp_1(_us_iter_2):\n    _us_result_3 = set()\n"
    "    <for x in _us_iter_2>:\n        _us_set_add(_us_result_3, f(x))\n"
    "    return _us_result_3\nr = _us_setcomp_1(iter(xs))",
    reference=REFERENCE,
    custom_order=True,
)
def lower_setcomp(node: ast.SetComp, cx: Lowerer) -> ast.expr:
    return lower_comprehension(node, cx, "setcomp")


@expr_rule(
    ast.DictComp,
    id="dictcomp",
    summary="a dict comprehension is a def that stores each key (evaluated first) "
    "and value in a new dict",
    before="r = {k(x): v(x) for x in xs}",
    after="def _us_dictcomp_1(_us_iter_2):\n    _us_result_3 = dict()\n"
    "    <for x in _us_iter_2>:\n        _us_dict_setitem(_us_result_3, k(x), v(x))\n"
    "    return _us_result_3\nr = _us_dictcomp_1(iter(xs))",
    reference=REFERENCE,
    custom_order=True,
)
def lower_dictcomp(node: ast.DictComp, cx: Lowerer) -> ast.expr:
    return lower_comprehension(node, cx, "dictcomp")


@expr_rule(
    ast.GeneratorExp,
    id="genexpr",
    summary="a generator expression is a generator def named <genexpr> (an async def "
    "that yields, when asynchronous), called with iter() of the first iterable",
    before="g = (f(x) for x in xs)",
    after="def _us_genexpr_1(_us_iter_2):\n    <for x in _us_iter_2>:\n        yield f(x)\n"
    "_us_rename_function(_us_genexpr_1, _us_s__genexpr_, ...)\n"
    "g = _us_genexpr_1(iter(xs))",
    reference="expressions.html#generator-expressions",
    custom_order=True,
)
def lower_genexpr(node: ast.GeneratorExp, cx: Lowerer) -> ast.expr:
    return lower_comprehension(node, cx, "genexpr")
