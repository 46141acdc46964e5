"""Short constructors for AST nodes, so that a rule reads like its expansion.

    b.assign("t", b.call(b.load("iter"), x))      # t = iter(x)
    b.if_(b.load("t"), [b.expr(...)], [])        # if t: ...

Names are given as strings; ``load`` and ``store`` make the ``Name`` nodes.
Nothing here knows about the module being compiled: fresh names, runtime
helpers and constants come from the lowering context (``cx``).
"""

from __future__ import annotations

from ast import Starred, keyword
from collections.abc import Iterable, Sequence

from unsugar import nodes as ast

# copy_location places what a rule builds (b.copy_location); it is one of the tree walks
from unsugar.trees import copy_location, is_placing, node_maker, walk

# The small nodes are made with positional arguments, in the order of their
# ``_fields``: half the cost of keywords; from 3.13, by setting their fields
# (:func:`unsugar.trees.node_maker`).
make_name = node_maker(ast.Name, "id", "ctx")
make_constant = node_maker(ast.Constant, "value")
make_call = node_maker(ast.Call, "func", "args", "keywords")
make_assign = node_maker(ast.Assign, "targets", "value")
make_expr = node_maker(ast.Expr, "value")
make_return = node_maker(ast.Return, "value")
make_raise = node_maker(ast.Raise, "exc", "cause")
make_if = node_maker(ast.If, "test", "body", "orelse")
make_while = node_maker(ast.While, "test", "body", "orelse")
make_try = node_maker(ast.Try, "body", "handlers", "orelse", "finalbody")
make_handler = node_maker(ast.ExceptHandler, "type", "name", "body")
make_function = node_maker(ast.FunctionDef, "name", "args", "body", "decorator_list", "returns")
make_arguments = node_maker(ast.arguments, "posonlyargs", "args", "vararg", "kwonlyargs", "kw_defaults", "kwarg",
                            "defaults")
make_arg = node_maker(ast.arg, "arg")

#: the one instance of each expression context, shared as the parser shares them
LOAD = ast.Load()
STORE = ast.Store()


def load(name: str) -> ast.Name:
    return make_name(name, LOAD)


def store(name: str) -> ast.Name:
    return make_name(name, STORE)


def int_(value: int) -> ast.Constant:
    return make_constant(value)


def ints(values: Iterable[int]) -> list[ast.expr]:
    """A ``Constant`` for each of ``values`` (the arguments of a literal built from its items)."""
    return list(map(make_constant, values))


#: a literal longer than this is built from chunks (``octets_of``), not one argument per item
LONG_LITERAL = 64
#: the bytes in each chunk of a long literal
LITERAL_CHUNK = 512


def chunks(data: bytes) -> list[ast.expr]:
    """``data`` as the arguments of the runtime's ``octets_of``: each chunk of
    ``LITERAL_CHUNK`` bytes as a big-endian integer, followed by its size::

        b"hi"  ->  0x6869, 2
    """
    out: list[ast.expr] = []
    for start in range(0, len(data), LITERAL_CHUNK):
        chunk = data[start:start + LITERAL_CHUNK]
        out += [int_(int.from_bytes(chunk, "big")), int_(len(chunk))]
    return out


def call(func: ast.expr | str, *args: ast.expr, **kwargs: ast.expr) -> ast.Call:
    """``func(*args, **kwargs)``; ``func`` may be a name."""
    if type(func) is str:
        func = load(func)
    return make_call(func, list(args), [keyword(k, v) for k, v in kwargs.items()] if kwargs else [])


def call_with(
    func: ast.expr, args: Sequence[ast.expr], keywords: Sequence[ast.keyword] = ()
) -> ast.Call:
    """``func(...)`` with prepared argument lists (``Starred`` allowed)."""
    return make_call(func, list(args), list(keywords))


def starred(value: ast.expr) -> ast.Starred:
    return Starred(value, LOAD)


def assign(name: str, value: ast.expr) -> ast.Assign:
    """``name = value``."""
    return make_assign([make_name(name, STORE)], value)


def assign_to(target: ast.expr, value: ast.expr) -> ast.Assign:
    """``target = value`` for any target (lowered later by the assignment rules)."""
    return make_assign([target], value)


def expr(value: ast.expr) -> ast.Expr:
    return make_expr(value)


def ret(value: ast.expr | None = None) -> ast.Return:
    return make_return(value)


def raise_(exc: ast.expr | None = None, cause: ast.expr | None = None) -> ast.Raise:
    return make_raise(exc, cause)


def if_(test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt] | None = None) -> ast.If:
    return make_if(test, body or [nothing()], orelse or [])


def while_(test: ast.expr, body: list[ast.stmt]) -> ast.While:
    return make_while(test, body or [nothing()], [])


def try_except(body: list[ast.stmt], handler: list[ast.stmt]) -> ast.Try:
    """``try: body`` / ``except: handler`` (a bare handler, the core form)."""
    return make_try(body or [nothing()], [make_handler(None, None, handler or [nothing()])], [], [])


def try_finally(body: list[ast.stmt], final: list[ast.stmt]) -> ast.Try:
    return make_try(body, [], [], final)


def not_(value: ast.expr) -> ast.UnaryOp:
    return ast.UnaryOp(ast.Not(), value)


def is_(left: ast.expr, right: ast.expr) -> ast.Compare:
    return ast.Compare(left, [ast.Is()], [right])


def attr(value: ast.expr, name: str) -> ast.Attribute:
    return ast.Attribute(value, name, LOAD)


def parameters(args: ast.arguments) -> list[ast.arg]:
    """Every parameter, in order: positional, ``*args``, keyword-only, ``**kwargs``."""
    return [a for a in (*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg)
            if a is not None]


def function(
    name: str,
    params: ast.arguments | Sequence[str],
    body: list[ast.stmt],
) -> ast.FunctionDef:
    """A core ``def`` (no decorators, defaults or annotations)."""
    if not isinstance(params, ast.arguments):
        params = make_arguments([], list(map(make_arg, params)), None, [], [], None, [])
    node = make_function(name, params, body or [nothing()], [], None)
    node.type_params = []
    return node


def nothing() -> ast.Expr:
    """A core statement that does nothing (``0``), for a block left empty."""
    return make_expr(make_constant(0))


def unlined(stmt: ast.stmt) -> ast.stmt:
    """``stmt`` at line -1: no line of the source, so a tracer sees no line event
    for it (for statements that only release values)."""
    if not is_placing():
        return stmt
    for node in walk(stmt):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = -1
            node.col_offset = node.end_col_offset = 0
    return stmt


def located(nodes: Iterable[ast.stmt], old: ast.AST) -> list[ast.stmt]:
    """``copy_location`` over a list of statements."""
    out = list(nodes)
    if is_placing():
        for node in out:
            copy_location(node, old)
    return out
