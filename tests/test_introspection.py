"""locals() and vars() in functions: no temporaries, no deleted variables; the builtins
that read a namespace, called under another name in a module or class body."""

import pytest
from difftest import assert_same

LOCALS = {
    "temporaries_hidden": """
        def f(y):
            a, b = y
            z = [i * 2 for i in range(3)]
            if a:
                w = a and b
            return sorted(locals()), sorted(vars())
        r = f((2, 3))
    """,
    "deleted_and_except_names_hidden": """
        def f(x):
            del x
            try:
                raise KeyError
            except KeyError as e:
                pass
            names = sorted(locals())
            try:
                x
            except UnboundLocalError as error:
                return names, str(error)
        r = f(1)
    """,
    "match_temporaries_hidden": """
        def f(w):
            match w:
                case [1, x, *rest] if x:
                    out = locals()
                    del out["w"]
                    return sorted(out)
        r = f([1, 2, 3, 4])
    """,
    "values_and_writes": """
        def f():
            x = 1
            d = locals()
            d["x"] = 99
            y = 2
            return x, sorted(locals().items())
        r = f()
    """,
    "class_and_module_locals_are_namespaces": """
        class C:
            u = 1
            names = sorted(locals())
        r = C.names, "C" in locals()
    """,
    "shadowed_locals_is_called_as_it_is": """
        def locals():
            return {"_us_kept": 1}
        def f():
            return locals()
        r = f()
    """,
}


@pytest.mark.parametrize("source", LOCALS.values(), ids=LOCALS.keys())
def test_locals(source: str) -> None:
    assert_same(source)


#: exec, eval, locals, vars and dir called under another name, or through an
#: attribute, in a module or class body: they read that body's namespace
ALIASES = {
    "six_exec_defines_a_function": """
        exec_ = getattr(__import__("builtins"), "exec")
        exec_(\"\"\"def raise_from(value, from_value):
            try:
                raise value from from_value
            finally:
                value = None
        \"\"\")
        try:
            raise_from(KeyError("k"), None)
        except KeyError as error:
            r = (raise_from.__name__, error.__suppress_context__, error.__cause__)
    """,
    "module_aliases": """
        import builtins
        ev, loc, va, d = eval, locals, vars, dir
        x = 5
        builtins.exec("y = x + 1")
        r = (ev("x + y"), sorted(k for k in loc() if len(k) == 1), "y" in va(), d() == sorted(globals()))
    """,
    "class_aliases": """
        import builtins
        run = exec
        class C:
            run("a = 1")
            builtins.exec("b = a + 1")
            c = eval("a + b")
            names = builtins.dir()
        r = (C.a, C.b, C.c, C.names)
    """,
    "other_calls_unchanged": """
        import functools
        def twice(f):
            return lambda x: f(f(x))
        inc = functools.partial(int.__add__, 1)
        r = [twice(inc)(1), (lambda: 3)(), [len][0]("ab")]
        class C:
            @functools.lru_cache
            def m(self):
                return 4
            v = twice(inc)(0)
        r.append((C().m(), C.v))
    """,
    "mapping_given": """
        e = exec
        space = {}
        e("k = 1", space)
        r = ("k" in space, "k" in globals())
    """,
}


@pytest.mark.parametrize("source", ALIASES.values(), ids=ALIASES.keys())
def test_namespace_readers_under_another_name(source: str) -> None:
    assert_same(source)
