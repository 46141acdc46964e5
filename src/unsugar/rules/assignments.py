"""Assignments: chained, to attributes and subscripts, unpacking, augmented, annotated.

Each rule ends in plain ``name = value`` statements and helper calls. The
value is always evaluated before the target's parts (``a[i] = v`` evaluates
``v``, then ``a``, then ``i``): the store helpers take the value as their
first argument, so it needs no temporary. The temporaries that are needed
(a chained value, swapped values, the object of an augmented target) are
cleared afterwards, so that none keeps an object alive longer than CPython.
"""

from __future__ import annotations

from unsugar import builder as b
from unsugar import nodes as ast
from unsugar.annotation_text import annotation_source
from unsugar.lowering import PROLOGUES, Lowerer
from unsugar.registry import stmt_rule
from unsugar.trees import GLOBAL_MARK, UNBOUND_MARK, block_fields, copy_tree


def subscript_key(node: ast.expr, cx: Lowerer) -> ast.expr:
    """The key a subscript passes: ``a[1:2, 3]`` uses ``(slice(1, 2, None), 3)``."""
    if isinstance(node, ast.Slice):
        parts = (node.lower, node.upper, node.step)
        return b.call(cx.builtin("slice"), *[cx.none() if p is None else p for p in parts])
    if isinstance(node, ast.Tuple):
        return ast.Tuple(elts=[subscript_key(elt, cx) for elt in node.elts], ctx=ast.Load())
    return node


def _again(value: ast.expr) -> ast.expr:
    """A second use of a pure value (a new node: a node of the input is never shared)."""
    return copy_tree(value)


def _hold(value: ast.expr, hint: str, out: list[ast.stmt], cx: Lowerer, read_twice: bool = False) -> ast.expr:
    """``value``, evaluated now into a temporary (added to ``out``) unless
    pure or, with ``read_twice``, a local variable read plainly
    (:meth:`Lowerer.is_plain_local`, and no rule checks the read)."""
    if cx.is_pure(value) or read_twice and cx.is_plain_local(value) \
            and not any(hasattr(value, mark) for mark in (UNBOUND_MARK, GLOBAL_MARK)):
        return value
    name = cx.temp(hint)
    out.append(b.assign(name, value))
    return b.load(name)


def _release(held: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """Clear the temporaries ``_hold`` made, so that they keep no object alive."""
    return [b.assign(stmt.targets[0].id, cx.none()) for stmt in held]


@stmt_rule(
    ast.Assign,
    id="chained-assign",
    summary="a = b = v evaluates v once and assigns the targets from left to right",
    before="a = b = f()",
    after="_us_value_1 = f()\na = _us_value_1\nb = _us_value_1\n_us_value_1 = _us_none",
    reference="simple_stmts.html#assignment-statements",
    selects=(None,),
)
def lower_chained(node: ast.Assign, cx: Lowerer) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    value = _hold(node.value, "value", out, cx)
    stores = [b.assign_to(target, _again(value)) for target in node.targets]
    return [*out, *stores, *_release(out, cx)]


def _sets_code(node: ast.Assign) -> bool:
    target = node.targets[0]
    return len(node.targets) == 1 and isinstance(target, ast.Attribute) and target.attr == "__code__"


@stmt_rule(
    ast.Assign,
    id="assign-code",
    summary="f.__code__ = c gives code compiled elsewhere free variables for the runtime helpers "
    "that f closes over",
    before="func.__code__ = compiled",
    after="_us_code_set(compiled, func, _us_s__us_)",
    reference="datamodel.html#user-defined-functions",
    applies=_sets_code,
    selects=(ast.Attribute,),
)
def lower_assign_code(node: ast.Assign, cx: Lowerer) -> list[ast.stmt]:
    """A desugared function has a closure cell for each runtime helper it
    uses, where CPython's has none, and CPython takes a new ``__code__`` only
    with as many free variables as the function has cells: ``code_set`` adds
    the helpers' names to the free variables of code that lacks them."""
    target = node.targets[0]
    return [b.expr(b.call(cx.rt("code_set"), node.value, target.value, cx.string(cx.unit.names.prefix)))]


@stmt_rule(
    ast.Assign,
    id="assign-attribute",
    summary="x.y = v evaluates v, then x, and calls setattr (private names mangled)",
    before="x.y = f()",
    after="_us_attribute_set(f(), x, _us_s_y)",
    reference="simple_stmts.html#assignment-statements",
    selects=(ast.Attribute,),
)
def lower_assign_attribute(node: ast.Assign, cx: Lowerer) -> list[ast.stmt]:
    """``attribute_set(value, obj, name)`` is ``setattr(obj, name, value)``
    with its arguments in evaluation order; ``setattr`` itself when the order
    cannot show (a pure value, or a pure object: ``self`` in a method that
    never rebinds it).
    """
    target = node.targets[0]
    name = cx.string(cx.mangle(target.attr))
    if cx.is_pure(node.value) or cx.is_pure(target.value):
        return [b.expr(b.call(cx.builtin("setattr"), target.value, name, node.value))]
    return [b.expr(b.call(cx.rt("attribute_set"), node.value, target.value, name))]


@stmt_rule(
    ast.Assign,
    id="assign-subscript",
    summary="a[i] = v evaluates v, then a, then i, and calls __setitem__; slices too",
    before="a[i] = f()\na[1:2] = g()",
    after="_us_subscript_store(f(), a, i)\n_us_subscript_store(g(), a, _us_slice(1, 2, _us_none))",
    reference="simple_stmts.html#assignment-statements",
    selects=(ast.Subscript,),
)
def lower_assign_subscript(node: ast.Assign, cx: Lowerer) -> list[ast.stmt]:
    """``subscript_store(value, obj, key)`` is ``subscript_set(obj, key, value)``
    with its arguments in evaluation order; the latter is called directly when
    the order cannot show (the value, or the object and the key, are pure:
    ``a[i] += v`` stores through temporaries).
    """
    target = node.targets[0]
    key = subscript_key(target.slice, cx)
    if cx.is_pure(node.value) or cx.is_pure(target.value) and cx.is_pure(key):
        return [b.expr(b.call(cx.rt("subscript_set"), target.value, key, node.value))]
    return [b.expr(b.call(cx.rt("subscript_store"), node.value, target.value, key))]


def _starred(elts: list[ast.expr]) -> bool:
    return any(isinstance(elt, ast.Starred) for elt in elts)


@stmt_rule(
    ast.Assign,
    id="unpack",
    summary="a, *b, (c, d) = v takes all the values first, then assigns each target in order",
    before="a, *b, c = v",
    after="_us_unpack_1 = _us_unpack_starred(v, 1, 1)\na = _us_next(_us_unpack_1)\n"
    "b = _us_next(_us_unpack_1)\nc = _us_next(_us_unpack_1)\n_us_unpack_1 = _us_none",
    reference="simple_stmts.html#assignment-statements",
    selects=(ast.Tuple, ast.List),
)
def lower_unpack(node: ast.Assign, cx: Lowerer) -> list[ast.stmt]:
    """The helpers iterate as CPython does (for exactly ``n`` targets, one
    item more is asked for, to report "too many values") and return an
    iterator over the values of the targets. Nested targets are assignments
    again, run when their turn comes. ``a, b = x, y`` needs no helper::

        _us_item_1 = x; _us_item_2 = y; a = _us_item_1; b = _us_item_2
        _us_item_1 = None; _us_item_2 = None    # no temporary keeps a value alive
    """
    targets = node.targets[0].elts
    value = node.value
    out: list[ast.stmt] = []
    if (isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(targets)
            and not _starred(value.elts) and not _starred(targets)):
        held = [_hold(elt, "item", out, cx) for elt in value.elts]
        stores = [b.assign_to(t, v) for t, v in zip(targets, held, strict=True)]
        return [*out, *stores, *_release(out, cx)]
    stars = [i for i, target in enumerate(targets) if isinstance(target, ast.Starred)]
    if stars:
        before, after = stars[0], len(targets) - stars[0] - 1
        values = b.call(cx.rt("unpack_starred"), value, b.int_(before), b.int_(after))
    else:
        values = b.call(cx.rt("unpack_exact"), value, b.int_(len(targets)))
    it = cx.temp("unpack")
    out.append(b.assign(it, values))
    for target in targets:
        if isinstance(target, ast.Starred):
            target = target.value
        out.append(b.assign_to(target, b.call(cx.builtin("next"), b.load(it))))
    out.append(b.assign(it, cx.none()))
    return out


@stmt_rule(
    ast.AugAssign,
    id="augassign",
    summary="x += v calls __iadd__, else __add__; a target's object and index are evaluated once",
    before="a[i] += v     # in a function, a and i its variables\nf().x -= v",
    after="_us_subscript_set(a, i, _us_inplace_add(_us_subscript_get(a, i), v))\n"
    "_us_t_1 = f()\n_us_setattr(_us_t_1, _us_s_x, _us_inplace_sub(_us_getattr(_us_t_1, _us_s_x), v))\n"
    "_us_t_1 = _us_none",
    reference="simple_stmts.html#augmented-assignment-statements",
)
def lower_augassign(node: ast.AugAssign, cx: Lowerer) -> list[ast.stmt]:
    """Order: the target's parts, the current value, ``v``, the operator, the
    store. A part is evaluated once, into a temporary, and read from it
    twice; ``setattr`` and ``subscript_set`` read the parts again before the
    current value is read, so a local variable needs no temporary (``a`` and
    ``i`` above): its two reads are one after the other, before ``v`` runs."""
    operator = cx.rt("inplace_" + type(node.op).__name__.lower())
    target = node.target
    out: list[ast.stmt] = []
    if isinstance(target, ast.Name):
        current = ast.Name(id=target.id, ctx=ast.Load())
        for mark in (UNBOUND_MARK, GLOBAL_MARK):
            if hasattr(target, mark):
                setattr(current, mark, getattr(target, mark))
        return [b.assign_to(ast.Name(id=target.id, ctx=ast.Store()), b.call(operator, current, node.value))]
    if isinstance(target, ast.Attribute):
        direct = not cx.keeps("assign-attribute")  # (the sugar kept evaluates v before the object)
        obj = _hold(target.value, "t", out, cx, read_twice=direct)
        value = b.call(operator, ast.Attribute(value=obj, attr=target.attr, ctx=ast.Load()), node.value)
        if direct:
            store = b.expr(b.call(cx.builtin("setattr"), _again(obj), cx.string(cx.mangle(target.attr)), value))
        else:
            store = b.assign_to(ast.Attribute(value=_again(obj), attr=target.attr, ctx=ast.Store()), value)
    else:
        direct = not cx.keeps("assign-subscript")
        obj = _hold(target.value, "t", out, cx, read_twice=direct)
        key = _hold(subscript_key(target.slice, cx), "t", out, cx, read_twice=direct)
        value = b.call(operator, ast.Subscript(value=obj, slice=key, ctx=ast.Load()), node.value)
        if direct:
            store = b.expr(b.call(cx.rt("subscript_set"), _again(obj), _again(key), value))
        else:
            store = b.assign_to(ast.Subscript(value=_again(obj), slice=_again(key), ctx=ast.Store()), value)
    return [*out, store, *_release(out, cx)]


def _target_parts(target: ast.expr) -> list[ast.expr]:
    """What an annotated target without a value evaluates: ``a.b: T`` evaluates ``a``."""
    if isinstance(target, ast.Attribute):
        return [target.value]
    if isinstance(target, ast.Subscript):
        return [target.value, *_key_parts(target.slice)]
    return []


def _key_parts(key: ast.expr) -> list[ast.expr]:
    if isinstance(key, ast.Slice):
        return [part for part in (key.lower, key.upper, key.step) if part is not None]
    if isinstance(key, ast.Tuple):
        return [part for elt in key.elts for part in _key_parts(elt)]
    return [key]


@stmt_rule(
    ast.AnnAssign,
    id="annassign",
    summary="x: T = v assigns v; module and class bodies then record T in __annotations__",
    before="x: int = 5",
    after="_us_setup_annotations()   # first in the module\n...\nx = 5\n"
    "_us_subscript_store(int, __annotations__, _us_s_x)",
    reference="simple_stmts.html#annotated-assignment-statements",
)
def lower_annassign(node: ast.AnnAssign, cx: Lowerer) -> list[ast.stmt]:
    """The value is assigned first, then (in a module or class body) the
    annotation is evaluated: stored under the mangled name for a simple
    name, dropped otherwise; a string under ``from __future__ import
    annotations``. In a function nothing of the annotation runs, but
    ``x: T`` still makes ``x`` local (``(x): T`` does not): a store that
    never runs says so::

        while 0:
            x = 0
    """
    target = node.target
    out: list[ast.stmt] = []
    if node.value is not None:
        out.append(b.assign_to(target, node.value))
    else:
        out.extend(b.expr(part) for part in _target_parts(target))
    if cx.scope.kind == "function":
        if node.value is None and isinstance(target, ast.Name) and node.simple:
            out.append(b.while_(b.int_(0), [b.assign(target.id, b.int_(0))]))
        return out
    annotation = node.annotation
    if cx.unit.future_annotations:
        if not node.simple:
            return out
        annotation = ast.Constant(annotation_source(annotation))
    if node.simple:
        record = ast.Subscript(
            value=b.load("__annotations__"), slice=ast.Constant(cx.mangle(target.id)),
            ctx=ast.Store(),
        )
        out.append(b.assign_to(record, annotation))
    else:
        out.append(b.expr(annotation))
    return out


def has_annotations(body: list[ast.stmt]) -> bool:
    """Whether a module or class body has an annotated assignment (not in a def or class)."""
    todo = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, ast.AnnAssign):
            return True
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in block_fields(type(stmt)):
            todo.extend(getattr(stmt, name, None) or ())
    return False


def setup_annotations(body: list[ast.stmt], cx: Lowerer) -> list[ast.stmt]:
    """A prologue: a body with annotations starts by creating ``__annotations__``."""
    if cx.keeps("annassign") or cx.scope.kind == "function" or not has_annotations(body):
        return []
    if cx.scope.namespace is not None:
        return [cx.scope.namespace.setup_annotations(cx)]
    return [b.expr(b.call(cx.rt("setup_annotations")))]


PROLOGUES.append(setup_annotations)
