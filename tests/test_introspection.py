"""locals(), vars() and dir() in functions: no temporaries, no deleted variables; the builtins
that read a namespace, called under another name in a module or class body."""

import sys

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
    "dir_lists_the_functions_own_names": """
        def f(a):
            junk = [i for i in range(a)]
            before = dir()
            del junk
            def g():
                return a
            return before, dir(), set(vars()) == set(dir()), dir(f)[:2]
        class C:
            def m(self):
                return dir()
        r = f(2), C().m()
    """,
    "shadowed_dir_is_called_as_it_is": """
        dir = lambda: ["_us_kept"]
        def f():
            return dir()
        r = f()
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


#: Up to 3.12, reading a class body's namespace as its locals first copies
#: the frame's cells in: the ``__class__`` cell, empty while the body runs,
#: deletes that key; on 3.12 the ``__classdict__`` cell (an annotation scope
#: in the body) stores the namespace under that key. 3.13 reads the namespace
#: as it is. A namespace that logs its deletes and stores shows each read.
CELLS = {
    "class_cell_deletes_the_key": """
        log = []
        class NS(dict):
            def __delitem__(self, key):
                log.append(("del", key))
                dict.__delitem__(self, key)
        class Meta(type):
            @classmethod
            def __prepare__(mcls, name, bases):
                return NS()
        class C(metaclass=Meta):
            __class__ = 5
            names = sorted(locals())
            vars()
            listed = dir()
            exec("e = 1")
            exec("f = 2", {})
            vars(Meta)
            def m(self):
                return super()
        r = (log, C.__dict__.get("__class__"), C.names, C.listed, C.e)
    """,
    "class_cell_read_by_an_alias": """
        class C:
            __class__ = 5
            l = locals
            l()
            def m(self):
                return __class__
        r = C.__dict__.get("__class__")
    """,
    "no_class_cell_no_delete": """
        class C:
            __class__ = 5
            locals()
            def m(self):
                return 1
        r = C.__dict__.get("__class__")
    """,
}


@pytest.mark.parametrize("source", CELLS.values(), ids=CELLS.keys())
def test_a_class_body_read_as_locals_takes_its_cells(source: str) -> None:
    assert_same(source)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="annotation scopes are 3.12's")
@pytest.mark.parametrize("body", [
    "def m[T](self): pass",
    "type A[T] = T",
    "class F[T]: pass",
    "if True:\n                def m[T](self): return super()",
])
def test_a_class_body_with_an_annotation_scope_read_as_locals(body: str) -> None:
    assert_same(f"""
        class C:
            {body}
            names = sorted(locals())
            x = "__classdict__" in vars() and vars()["__classdict__"] is vars()
        r = (C.names, C.x, sorted(C.__dict__))
    """)


FUTURE_INHERITED = """
    from __future__ import annotations
    def shown(namespace, name):
        return namespace[name].__annotations__
    ns = {}
    exec("def f(x: Undefined) -> Missing: pass", ns)
    print("module", shown(ns, "f"), eval("  (lambda: 1)()"), eval(b"\\t2"))
    run = exec
    run(b"def g(y: Nope): pass", ns)
    print("alias", shown(ns, "g"))
    exec(compile("def h(z: Absent): pass", "<s>", "exec"), ns)
    print("compiled", shown(ns, "h"))
    exec(compile("def i(z: Absent): pass", "<s>", "exec", dont_inherit=True), ns)
    try:
        print(shown(ns, "i"))
    except NameError as error:
        print("not inherited", error)
    class C:
        exec("def j(w: Unknown): pass")
        print("class", j.__annotations__)
    def function():
        exec("def k(v: Void): pass", ns)
        return shown(ns, "k"), [eval("lambda u: 0", ns).__code__.co_flags & 0x1000000 for _ in "a"]
    print("function", function(), (lambda: eval("1"))())
"""


def test_code_compiled_inherits_the_future_statements() -> None:
    """``exec``, ``eval`` and ``compile`` of a string inherit the future flags of
    the code that calls them (``from __future__ import annotations``), in a
    module body, a class body and a function, called by name or not."""
    assert_same(FUTURE_INHERITED)


def test_the_future_code_flags_are_the_interpreters() -> None:
    """``FUTURE_CODE_FLAGS`` (and the runtime's copy) are the flags that module
    code compiled with every future statement carries."""
    import __future__

    from unsugar import linked_runtime
    from unsugar.unit import FUTURE_CODE_FLAGS

    statement = "from __future__ import " + ", ".join(__future__.all_feature_names)
    flags = compile(statement, "<s>", "exec").co_flags
    assert FUTURE_CODE_FLAGS == flags & ~0xFFFF == linked_runtime.classes_future_mask


def test_exec_callee() -> None:
    """``exec(f.__code__, ...)`` runs a desugared function's code, whose free
    variables are the runtime helpers (a pytest plugin's module made from a
    function's code, deephaven's ``exec(func.__code__, fields)``): in a
    function (with no mappings it still reads the caller's globals and
    locals), a module body and a class body whose namespace syncs its cells;
    a string, a user's ``exec`` and code with a variable of its own are left
    to what they do."""
    assert_same("""
        def body():
            made = [len(word) for word in ("one", "three")]
            print("body", made, made[0] + made[1])
        def module_of(function):
            namespace = {}
            exec(function.__code__, namespace)
            return sorted(namespace)
        print(module_of(body))
        exec(body.__code__)
        def inside(y):
            def local():
                print("local", sum([1, 2]) * 2)
            exec(local.__code__)
            exec(local.__code__, {}, {})
            exec(local.__code__, globals=None, locals={})
            exec("print('text', y + 1)")
        inside(5)
        class C:
            exec(body.__code__)
            def method(self):
                return __class__
        def outer():
            x = 1
            def inner():
                return x
            try:
                exec(inner.__code__)
            except TypeError as error:
                print(type(error).__name__, error)
            exec(inner.__code__, {}, closure=inner.__closure__)
        outer()
        def mine(*args, **kwargs):
            print("mine", len(args), kwargs)
        def shadowed():
            exec = mine
            exec(body.__code__, {})
        shadowed()
    """)
