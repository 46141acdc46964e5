"""walrus: ``(x := v)`` binds in the current scope; the value is evaluated once."""

import pytest
from difftest import assert_same

WALRUS = {
    "module_level": """
        def v(x):
            print(x)
            return x
        r = (a := v(3))
        print(a, r)
    """,
    "value_is_the_stored_value": """
        x = 0
        def bump():
            global x
            x = 100
            return 0
        def f(a, b):
            return a
        r = f((x := 1), bump())
        s = x
    """,
    "statement_and_nested": """
        (a := (b := 2))
        r = a, b
    """,
    "in_function_is_local": """
        y = 5
        def f():
            r = (y := 1)
            return r, y
        r = f(), y
    """,
    "unbound_local_before_walrus": """
        y = 5
        def f():
            print(y)
            (y := 1)
        f()
    """,
    "global_target": """
        g = 0
        def f():
            global g
            return (g := 7)
        r = f()
        s = g
    """,
    "global_target_in_nested_function": """
        def outer():
            def inner():
                global made
                (made := 11)
            inner()
        outer()
        r = made
    """,
    "nonlocal_target": """
        def outer():
            n = 0
            def inner():
                nonlocal n
                return (n := n.__add__(1))
            inner()
            inner()
            return n
        r = outer()
    """,
    "closure_sees_binding": """
        def outer():
            get = lambda: k
            (k := 4)
            return get()
        r = outer()
    """,
    "in_while_test": """
        left = 3
        def take():
            global left
            left = left - 1
            return left
        out = []
        while (n := take()):
            out.append(n)
        else:
            out.append("done")
        r = out, n
    """,
    "in_short_circuit_binds_conditionally": """
        r = (a := 0) and (b := 1)
        s = (c := 2) or (d := 3)
    """,
    "conditionally_unbound_raises_name_error": """
        (p := 0) and (q := 1)
        print(q)
    """,
    "in_ifexp": """
        r = (a := 1) if (c := 0) else (b := 2)
        s = (c, b)
    """,
    "evaluation_order_in_call": """
        def v(x):
            print(x)
            return x
        def f(*args):
            return args
        r = f(v(1), (w := v(2)), v(w))
    """,
    "mangled_in_class": """
        class C:
            (__hidden := 5)
            (plain := __hidden)
        r = C._C__hidden, C.plain
    """,
    "global_target_mangled_in_method": """
        class C:
            def m(self):
                global __g
                return (__g := 6)
        r = C().m()
        s = _C__g
    """,
    "in_method_of_class_is_local": """
        class C:
            def m(self):
                (__x := 3)
                return __x
        r = C().m()
    """,
    "generator_send": """
        def g():
            while (got := (yield 1)):
                print("got", got)
            return got
        it = g()
        next(it)
        it.send(5)
        try:
            it.send(0)
        except StopIteration as e:
            r = e.value
    """,
}


@pytest.mark.parametrize("name", sorted(WALRUS))
def test_walrus(name):
    assert_same(WALRUS[name])
