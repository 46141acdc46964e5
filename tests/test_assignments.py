"""Assignments: chained, attribute and subscript targets, unpacking, augmented, annotated."""

import textwrap

import pytest
from difftest import assert_same, desugared

#: Objects that print what is done to them, shared by the snippets (made by
#: ``type()``, so that the snippets need no class statement).
LOGGING = """
def p(value):
    print("eval", value)
    return value

def obj_repr(self):
    return "Obj()"
def obj_getattr(self, name):
    print("getattr", name)
    return 10
def obj_setattr(self, name, value):
    print("setattr", name, value)
    object.__setattr__(self, name, value)
Obj = type("Obj", (), {"__repr__": obj_repr, "__getattr__": obj_getattr, "__setattr__": obj_setattr})

def box_getitem(self, key):
    print("getitem", key)
    return dict.__getitem__(self, key)
def box_setitem(self, key, value):
    print("setitem", key, value)
    dict.__setitem__(self, key, value)
Box = type("Box", (dict,), {"__getitem__": box_getitem, "__setitem__": box_setitem})

def seq_init(self, *items):
    self.items = items
def seq_iter(self):
    print("iter")
    return SeqIterator(self.items)
Seq = type("Seq", (), {"__init__": seq_init, "__iter__": seq_iter})

def seq_iterator_init(self, items):
    self.items = items
    self.i = 0
def seq_iterator_next(self):
    print("next", self.i)
    if self.i == len(self.items):
        raise StopIteration
    self.i += 1
    return self.items[self.i - 1]
SeqIterator = type("SeqIterator", (), {"__init__": seq_iterator_init, "__next__": seq_iterator_next})
"""

CHAINED = {
    "value_once_targets_left_to_right": """
        o = Obj()
        a = p(o).x = b = Box()[p("k")] = p(5)
        r = a, b, o.x
    """,
    "same_name_twice": """
        a = a = p(1)
    """,
    "unpack_and_name": """
        a, b = c = p((1, 2))
    """,
    "constant_value": """
        a = b = 7
        s = t = "text"
    """,
    "failing_target_stops": """
        a = (1).real = b = p(2)
    """,
}

ATTRIBUTE = {
    "value_then_object": """
        p(Obj()).x = p(1)
    """,
    "constant_value": """
        o = Obj()
        o.y = 3
        r = o.y
    """,
    "mangled_in_class": """
        class C:
            def set(self):
                self.__x = 1
                self.__y__ = 2
                return sorted(vars(self))
        r = C().set()
    """,
    "read_only_attribute_error": """
        (1).real = 2
    """,
    "shadowed_setattr": """
        def setattr(*args):
            print("user setattr")
        o = Obj()
        o.z = 4
        o.w = p(5)
    """,
    "object_rebound_by_value": """
        N = type("N", (), {})
        first = N()
        o = first
        def rebind():
            global o
            o = N()
            return 1
        o.v = rebind()
        r = hasattr(first, "v"), hasattr(o, "v")
    """,
}

SUBSCRIPT = {
    "value_then_object_then_key": """
        d = Box()
        p(d)[p("k")] = p(1)
        r = dict(d)
    """,
    "slice": """
        def setitem(self, key, value):
            print("setitem", key, value)
            list.__setitem__(self, key, value)
        S = type("S", (list,), {"__setitem__": setitem})
        s = S([0, 1, 2, 3, 4])
        s[p(1):p(3)] = p([9])
        s[::2] = "abc"
        s[:] = s
        r = list(s)
    """,
    "tuple_key_with_slices": """
        d = Box()
        d[1:2, p(3)] = 4
        d[()] = 5
        r = sorted(map(repr, d))
    """,
    "not_subscriptable": """
        x = 5
        x[0] = p(1)
    """,
    "index_error": """
        l = [1]
        l[p(3)] = p(0)
    """,
}

UNPACK = {
    "tuple_and_list_targets": """
        a, b = 1, 2
        [c, d] = "xy"
        (e, [f, g]), h = [(1, "ab"), 3]
        r = a, b, c, d, e, f, g, h
    """,
    "swap": """
        a, b = 1, 2
        a, b = b, a
        l = [1, 2]
        l[0], l[1] = l[1], l[0]
        r = a, b, l
    """,
    "display_values_evaluated_before_targets": """
        i = 0
        l = [0, 0]
        i, l[i] = 1, 9
        r = l
    """,
    "iteration_order": """
        a, b = Seq(1, 2)
        r = a, b
    """,
    "starred": """
        a, *b, c = Seq(1, 2, 3, 4)
        *d, = Seq()
        e, *f = "x"
        *g, h = range(3)
        r = a, b, c, d, e, f, g, h
    """,
    "starred_nested": """
        (a, *b), *c, [d, *e] = ("xyz", 1, 2, "uv")
        r = a, b, c, d, e
    """,
    "empty_targets": """
        () = []
        [] = ""
    """,
    "empty_targets_too_many": """
        [] = [1]
    """,
    "not_iterable": """
        a, b = 1
    """,
    "not_iterable_none": """
        a, *b = None
    """,
    "not_iterable_user_class": """
        C = type("C", (), {})
        a, b = C()
    """,
    "not_iterable_dotted_type_name": """
        a, b = __import__("datetime").date(2020, 1, 1)
    """,
    "iter_none_keeps_message": """
        C = type("C", (), {"__iter__": None})
        a, b = C()
    """,
    "iter_raising_type_error_kept": """
        def fail(self):
            raise TypeError("own message")
        C = type("C", (), {"__iter__": fail})
        a, b = C()
    """,
    "old_sequence_protocol": """
        def item(self, i):
            if i > 2:
                raise IndexError(i)
            return i * 10
        G = type("G", (), {"__getitem__": item})
        a, b, c = G()
        d, *e = G()
        r = a, b, c, d, e
    """,
    "not_enough": """
        a, b, c = Seq(1, 2)
    """,
    "not_enough_list": """
        a, b, c = [1, 2]
    """,
    "too_many_asks_one_more": """
        a, b = Seq(1, 2, 3, 4)
    """,
    "too_many_tuple": """
        a, b = (1, 2, 3)
    """,
    "too_many_dict": """
        a, b = {1: 1, 2: 2, 3: 3}
    """,
    "too_many_infinite_iterator": """
        counter = __import__("itertools").count()
        try:
            a, b = counter
        except ValueError as e:
            print(e)
        r = next(counter)
    """,
    "starred_not_enough_before": """
        a, b, *c, d = Seq(1)
    """,
    "starred_not_enough_after": """
        a, *b, c, d = [1, 2]
    """,
    "error_from_next_propagates": """
        def gen():
            yield 1
            raise KeyError("boom")
        a, b = gen()
    """,
    "stop_iteration_subclass_ends": """
        Stop = type("Stop", (StopIteration,), {})
        def stop(self):
            raise Stop
        It = type("It", (), {"__iter__": lambda self: self, "__next__": stop})
        a, *b = It()
    """,
    "targets_assigned_after_all_values": """
        o = Obj()
        d = Box()
        p(o).a, p(d)[p("k")], [p(o).b, *p(d)[p("s")]] = Seq(1, 2, "xyz")
    """,
    "failing_target_leaves_later_ones": """
        a = b = 0
        a, (1).real, b = 1, 2, 3
    """,
    "unpack_error_inside_handler_chains": """
        try:
            raise KeyError("first")
        except KeyError:
            a, b = [1]
    """,
    "global_targets_in_function": """
        def f():
            global g1, g2
            g1, (g2, *g3) = 1, "ab"
            return g3
        r = f(), g1, g2
    """,
    "in_for_target": """
        out = []
        for i, (j, *k) in [(1, "ab"), (2, "c")]:
            out.append((i, j, k))
        r = out
    """,
}

AUGASSIGN = {
    "name": """
        x = 1
        x += p(2)
        x *= 3
        x -= 1
        x //= 2
        x **= 2
        x %= 7
        x <<= 3
        x >>= 1
        x |= 5
        x &= 6
        x ^= 3
        y = 7.0
        y /= 2
        r = x, y
    """,
    "inplace_method_first": """
        l = [1]
        alias = l
        l += [2]
        t = (1,)
        t_alias = t
        t += (2,)
        r = l is alias, t is t_alias, l, t
    """,
    "attribute_object_evaluated_once": """
        o = Obj()
        p(o).n += p(1)
        r = o.n
    """,
    "subscript_object_and_key_evaluated_once": """
        d = Box(k=1)
        p(d)[p("k")] += p(5)
        r = dict(d)
    """,
    "slice_target": """
        def getitem(self, key):
            print("getitem", key)
            return list.__getitem__(self, key)
        def setitem(self, key, value):
            print("setitem", key, value)
            list.__setitem__(self, key, value)
        S = type("S", (list,), {"__getitem__": getitem, "__setitem__": setitem})
        s = S([1, 2, 3])
        s[p(0):p(2)] += [9]
        s[::2] += []
        r = list(s)
    """,
    "type_error": """
        x = "a"
        x += 1
    """,
    "unbound_local": """
        x = 1
        def f():
            x += 1
        f()
    """,
    "undefined_global": """
        def f():
            global nowhere
            nowhere += 1
        f()
    """,
    "global_and_nonlocal": """
        g = 1
        def f():
            global g
            g += 10
        f()
        def h():
            n = 1
            def i():
                nonlocal n
                n <<= 3
            i()
            return n
        r = g, h()
    """,
    "mangled_in_class": """
        class C:
            __p = 1
            __p += 2
            def m(self):
                self.__q = 1
                self.__q += 1
                return self._C__q
        r = C._C__p, C().m()
    """,
}

ANNASSIGN = {
    "parenthesized_name_binds_nothing_in_a_function": """
        def f():
            (no_such_global): int
            return no_such_global
        def g():
            x: int
            return x
        (m): p(int)
        r = __annotations__
        try:
            f()
        except NameError as e:
            r2 = type(e).__name__, str(e)
        g()
    """,
    "module_records": """
        x: int = 5
        y: "str"
        z: p(list) = p(3)
        r = __annotations__, x, z
    """,
    "module_dict_exists_from_start": """
        print(__annotations__)
        if 0:
            x: int
        r = __annotations__
    """,
    "module_without_annotations_has_none": """
        print("__annotations__" in globals())
    """,
    "not_simple_targets": """
        (w): p(int) = 4
        o = Obj()
        d = Box()
        p(o).a: p("T") = p(1)
        p(d)[p(2)]: p("T2")
        p(d)[p(2):p(3), p(4)]: p("T3")
        p(o).b: p("T4")
        r = __annotations__, w
    """,
    "function_evaluates_no_annotation": """
        def f():
            o = Obj()
            p(o).a: p("T") = p(1)
            Box()[p(2)]: p("T2")
            y: p("T5") = p(3)
            return y
        r = f(), f.__annotations__
    """,
    "function_bare_annotation_makes_local": """
        g = 1
        def f():
            print(g)
            g: int
        f()
    """,
    "class_records_mangled": """
        class C:
            print(__annotations__)
            z: p(int) = p(7)
            __q: str
            (w): int
            print(__annotations__)
        r = C.__annotations__, C.z
    """,
    "docstring_stays_first": '''
        """The module docstring."""
        x: int = 1
        r = __doc__, __annotations__
    ''',
    "future_annotations_are_strings": """
        from __future__ import annotations
        x: List[int] = 3
        (y): undefined_name = 4
        class C:
            z: "quoted" | None
        r = __annotations__, C.__annotations__
    """,
}

LIFETIME = {
    "no_temporary_keeps_values_alive": """
        ref = __import__("weakref").ref
        Big = type("Big", (), {})
        a = b = Big()
        w1 = ref(a)
        del a, b
        c, d = Big(), Big()
        w2 = ref(c)
        del c
        e, f = iter([Big(), 1])
        w3 = ref(e)
        del e
        o = Big()
        o.v = Big()
        w4 = ref(o.v)
        del o.v
        o2 = Big()
        o2.n = 1
        o2.n += 1
        w5 = ref(o2)
        del o2
        r = w1(), w2(), w3(), w4(), w5()
    """,
}

#: ``f.__code__ = code``: a desugared function closes over the runtime helpers it
#: uses, which code compiled elsewhere has no free variables for
CODE = {
    "compiled_elsewhere_networkx_argmap": """
        def wrapper(*args, **kwargs):
            return args.count(p(0))
        made = {}
        exec("def real(x, y=2):\\n    try:\\n        return x + y\\n"
             "    except TypeError as e:\\n        return str(e)\\n", made)
        wrapper.__code__ = made["real"].__code__
        r = wrapper(1, 5), wrapper("a", 1), wrapper.__code__.co_name, wrapper.__name__
    """,
    "a_tracer_reads_its_frame": """
        import sys
        def wrapper(a):
            return a.real
        made = {}
        exec("def real(x):\\n    y = [x]\\n    return y\\n", made)
        wrapper.__code__ = made["real"].__code__
        seen = []
        def tracer(frame, event, arg):
            if frame.f_code is wrapper.__code__:
                seen.append((event, frame.f_locals.get("x"), frame.f_locals.get("y")))
            return tracer
        sys.settrace(tracer)
        try:
            r = wrapper(3)
        finally:
            sys.settrace(None)
    """,
    "generator_code_and_its_lines": """
        import traceback
        def wrapper(*args):
            yield from p(args)
        made = {}
        exec("def real(n):\\n    yield n\\n    1 / 0\\n", made, made)
        wrapper.__code__ = made["real"].__code__
        gen = wrapper(4)
        first = next(gen)
        try:
            next(gen)
        except ZeroDivisionError as e:
            where = traceback.extract_tb(e.__traceback__)[-1]
            r = first, where.lineno, where.line, where.name
    """,
    "closure_cells_matched_in_order": """
        def factory(n):
            def user(a):
                return a.real + n
            return user
        made = {}
        exec("def make(m):\\n    def inner(b):\\n        return [b, m]\\n    return inner\\n", made)
        user = factory(10)
        user.__code__ = made["make"](0).__code__
        r = user(4), user.__code__.co_freevars[-1]
    """,
    "code_of_another_desugared_function": """
        def outer():
            one, two = 7, 8
            def c():
                return one
            def d():
                return two.real
            def e():
                return one, two
            for code in (c.__code__, d.__code__):  # (d closes over the helpers of both)
                d.__code__ = code
                print(d())
            try:
                c.__code__ = e.__code__
            except ValueError as error:
                print(error)
        outer()
    """,
    "not_code": """
        def f():
            return 1 .real
        for value in (None, 5):
            try:
                f.__code__ = value
            except TypeError as e:
                print(e)
        class C:
            pass
        o = C()
        o.__code__ = p(3)
        r = o.__code__, f()
    """,
}

CASES = {
    **{f"chained-assign/{k}": v for k, v in CHAINED.items()},
    **{f"assign-attribute/{k}": v for k, v in ATTRIBUTE.items()},
    **{f"assign-code/{k}": v for k, v in CODE.items()},
    **{f"assign-subscript/{k}": v for k, v in SUBSCRIPT.items()},
    **{f"unpack/{k}": v for k, v in UNPACK.items()},
    **{f"augassign/{k}": v for k, v in AUGASSIGN.items()},
    **{f"annassign/{k}": v for k, v in ANNASSIGN.items()},
    **{f"lifetime/{k}": v for k, v in LIFETIME.items()},
}


def with_logging(snippet: str) -> str:
    """The snippet after the logging helpers (a ``__future__`` import stays first)."""
    snippet = textwrap.dedent(snippet).lstrip("\n")
    if snippet.startswith("from __future__ "):
        head, _, rest = snippet.partition("\n")
        return head + "\n" + LOGGING + rest
    return LOGGING + snippet


@pytest.mark.parametrize("name", sorted(CASES))
def test_assignments(name):
    assert_same(with_logging(CASES[name]))


REBOUND_PARAMETERS = """
class C:
    def __init__(self, name):
        self.name = name
    def __repr__(self):
        return self.name
def walrus(o):
    o.x = (o := C("new"))
    return o, vars(o)
def nested(o):
    def rebind():
        nonlocal o
        o = C("rebound")
        return 1
    o.x = rebind()
    o.y = 2
    return o, vars(o)
def deleted(o, xs):
    xs[0] = len(xs)
    o.x = xs
    del o
    try:
        o.y = 1
    except NameError as e:
        print("NameError", e)
def keeps(o, xs, i):
    o.x = [i]
    xs[i] = o.x
    o.count = 0
    o.count += 1
    return vars(o), xs
print(walrus(C("old")), nested(C("old")))
deleted(C("d"), [0])
print(keeps(C("k"), [0, 0], 1))
"""


def test_parameters_nothing_rebinds_are_read_in_place() -> None:
    """``self.x = v`` calls ``setattr(self, ...)`` when nothing rebinds ``self``;
    a parameter a walrus, a nested ``nonlocal`` or ``del`` rebinds keeps the order."""
    assert_same(REBOUND_PARAMETERS)
    out = desugared(REBOUND_PARAMETERS)
    assert "_us_setattr(o, _us_s_x, _us_list_of(i))" in out  # keeps: o is stable
    assert "_us_subscript_set(xs, i, _us_getattr(o, _us_s_x))" in out
    assert "_us_setattr(o, _us_s_count, _us_inplace_add(_us_getattr(o, _us_s_count), 1))" in out
    assert out.count("_us_attribute_set(") >= 3 + 2  # walrus, nested, deleted (+ the runtime's)


AUGMENTED_LOCALS = """
def p(value):
    print("eval", value)
    return value
class C:
    pass
def in_place():
    v = [1, 2]
    v[0] += 5
    i = 1
    v[i] -= p(1)
    o = C()
    o.n = 1
    o.n *= 3
    return v, vars(o)
def by_walrus():
    v = [1]
    old = v
    v[0] += len(v := [10, 20])
    return old, v
def by_comprehension_walrus():
    v = [1]
    old = v
    v[0] += [(v := [7]) for _ in range(1)][0][0]
    return old, v
def key_by_walrus():
    d = {"a": 1, "b": 2}
    k = "a"
    d[k] += len(k := "b")
    return d, k
def by_nested_nonlocal():
    v = [1]
    old = v
    def rebind():
        nonlocal v
        v = [100]
        return 1
    v[0] += rebind()
    return old, v
def free_in_inner():
    v = [1]
    old = v
    def inner():
        v[0] += rebind()
    def rebind():
        nonlocal v
        v = [50]
        return 1
    inner()
    return old, v
def unbound():
    try:
        v[0] += p(1)
    except UnboundLocalError as e:
        print(type(e).__name__, e)
    v = [0]
    return v
def deleted():
    v = [1]
    del v
    try:
        v.x += p(1)
    except NameError as e:
        print(type(e).__name__, e)
def suspended():
    v = [1]
    v[0] += yield v
    return v
g = [1]
def global_object():
    def rebind():
        global g
        g = [9]
        return 1
    old = g
    g[0] += rebind()
    return old, g
class LoggingNamespace(dict):
    def __getitem__(self, key):
        print("read", key)
        return dict.__getitem__(self, key)
class Meta(type):
    @classmethod
    def __prepare__(mcls, name, bases):
        return LoggingNamespace()
class Body(metaclass=Meta):
    v = [1]
    v[0] += 1
gen = suspended()
print(next(gen))
try:
    gen.send(41)
except StopIteration as stop:
    print("returned", stop.value)
print(in_place(), by_walrus(), by_comprehension_walrus(), key_by_walrus())
print(by_nested_nonlocal(), free_in_inner(), unbound(), global_object(), Body.v)
deleted()
"""


def test_augmented_targets_of_locals_are_read_twice() -> None:
    """``v[i] += x`` reads ``v`` and ``i`` twice, one read after the other
    before ``x`` runs, with no temporaries, when they are variables of the
    function that no nested scope binds (a walrus in ``x`` rebinds them too late)."""
    assert_same(AUGMENTED_LOCALS)
    out = desugared(AUGMENTED_LOCALS)
    assert "_us_subscript_set(v, 0, _us_inplace_add(_us_subscript_get(v, 0), 5))" in out
    assert "_us_subscript_set(v, i, _us_inplace_sub(_us_subscript_get(v, i), p(1)))" in out
    assert "_us_setattr(o, _us_s_n, _us_inplace_mult(_us_getattr(o, _us_s_n), 3))" in out
    # the nested nonlocal, a free variable, a global, a class body's: held in temporaries
    assert out.count("_us_subscript_set(_us_t_") >= 4


@pytest.mark.parametrize("rebinding", [
    "for o in [o]: pass", "with open(__file__) as o: pass", "try:\n        1/0\n    except Exception as o: pass",
    "import os as o", "match 1:\n        case o: pass", "global o", "o += 1", "class o: pass",
])
def test_what_rebinds_a_parameter(rebinding: str) -> None:
    import ast

    from unsugar.lowering import function_declarations

    node = ast.parse(f"def f(o, p):\n    {rebinding}\n").body[0]
    assert function_declarations(node, None)[2] == {"p"}


def test_declarations_of_the_function_itself_not_of_nested_scopes() -> None:
    import ast

    from unsugar.lowering import function_declarations

    source = """
def f(a, b):
    global g
    nonlocal n
    def inner():
        global h
        nonlocal b
    lambda: [x for x in a]
    class C:
        global k
"""
    node = ast.parse(source).body[0]
    assert function_declarations(node, None) == ({"g"}, {"n"}, frozenset({"a"}))
