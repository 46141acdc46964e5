"""decorator, default, annotation, docstring, lambda and future."""

import ast
import sys
import textwrap
from types import SimpleNamespace

import pytest
from difftest import assert_same

from unsugar import desugar
from unsugar import linked_runtime as runtime
from unsugar.rules.functions import annotation_source

# ``p`` logs an evaluation; ``show`` prints everything a function object keeps.
PRELUDE = """
inspect = __import__("inspect")
def p(x):
    print("eval", x)
    return x
def show(f):
    print(f.__name__, f.__qualname__, f.__code__.co_name, f.__code__.co_qualname)
    print(repr(f.__doc__), f.__defaults__, f.__kwdefaults__, f.__annotations__)
    print(inspect.signature(f))
def deco(n):
    print("deco", n)
    def apply(f):
        print("apply", n, f.__name__, f.__qualname__, f.__code__.co_name)
        return f
    return apply
"""


def same(source: str) -> None:
    assert_same(PRELUDE + textwrap.dedent(source))


DECORATOR = {
    "evaluated_top_down_applied_bottom_up": """
        @deco(1)
        @deco(2)
        def f():
            return 5
        show(f)
        print(f())
    """,
    "before_defaults_and_annotations": """
        @deco(1)
        @deco(2)
        def f(a: p("a") = p("da"), *, b: p("b") = p("db")) -> p("r"):
            return a, b
        show(f)
        print(f())
    """,
    "name_not_bound_while_decorating": """
        def look(f):
            print("bound:", globals().get("target"))
            return f
        target = "old"
        @look
        def target():
            pass
        show(target)
    """,
    "result_is_bound": """
        def replace(f):
            return "replaced " + f.__name__
        @replace
        def f():
            pass
        print(f)
    """,
    "decorator_sees_the_old_value_of_the_name": """
        def chain(f):
            print("chain", globals().get("g"))
            return 2
        g = 1
        @chain
        def g():
            pass
        @chain
        def g():
            pass
        print(g)
    """,
    "wrapper_called_with_recursion": """
        calls = []
        def log(f):
            def wrapper(n):
                calls.append(n)
                return f(n)
            return wrapper
        @log
        def fact(n):
            return 1 if n <= 1 else n * fact(n - 1)
        print(fact(5), calls, fact.__qualname__)
    """,
    "error_in_decorator_expression": """
        @deco(1)
        @undefined
        def f():
            pass
    """,
    "error_in_decorator_call": """
        def bad(f):
            raise ValueError("no " + f.__name__)
        @deco(1)
        @bad
        def f():
            pass
    """,
    "nested_names_fixed": """
        @deco(0)
        def outer():
            def inner():
                return lambda: 0
            return inner
        show(outer)
        show(outer())
        show(outer()())
    """,
    "generator": """
        @deco(0)
        def gen(n=2):
            yield n
            yield n
        show(gen)
        print(list(gen()), list(gen(3)))
    """,
    "lambda_as_decorator": """
        @(lambda f: f)
        def f():
            return 1
        show(f)
    """,
    "decorated_inside_function": """
        def make():
            @deco(0)
            def f():
                pass
            return f
        show(make())
    """,
}


@pytest.mark.parametrize("source", DECORATOR.values(), ids=DECORATOR.keys())
def test_decorator(source: str) -> None:
    same(source)


DEFAULT = {
    "positional_and_keyword_only_in_order": """
        def f(a, b=p(1), c=p(2), *args, d, e=p(3), f=p(4), **kw):
            return a, b, c, d, e, f
        show(f)
        print(f(0, d=5))
    """,
    "only_keyword_only": """
        def f(*, a=p(1), b):
            return a, b
        show(f)
    """,
    "positional_only": """
        def f(a, b=p(1), /, c=p(2)):
            return a, b, c
        show(f)
        print(f(0))
    """,
    "evaluated_once": """
        def f(x=[]):
            x.append(1)
            return x
        f()
        print(f(), f.__defaults__)
    """,
    "refer_to_outer_names": """
        n = 1
        def f(a=n):
            return a
        n = 2
        print(f())
    """,
    "error_in_default": """
        def f(a=p(1), b=undefined, *, c=p(2)):
            pass
        print(globals().get("f"))
    """,
    "generator_with_defaults": """
        def gen(n=p(2), *, step=p(1)):
            x = yield n
            yield x, step
        g = gen()
        print(next(g), g.send(7))
        show(gen)
    """,
    "closure_default_and_nonlocal": """
        def counter(start=p(0)):
            n = start
            def inc(step=1):
                nonlocal n
                n = n + step
                return n
            return inc
        c = counter()
        c()
        print(c(5))
        show(c)
    """,
}


@pytest.mark.parametrize("source", DEFAULT.values(), ids=DEFAULT.keys())
def test_default(source: str) -> None:
    same(source)


ANNOTATION = {
    "cpython_order": """
        def f(a: p("a"), b: p("b"), /, c: p("c") = p("dc"), *args: p("args"),
              d: p("d"), e: p("e") = p("de"), **kw: p("kw")) -> p("return"):
            pass
        show(f)
    """,
    "return_only": """
        def f() -> int:
            pass
        show(f)
    """,
    "some_parameters": """
        def f(a, b: str, *c, d: float, **e) -> None:
            pass
        show(f)
    """,
    "error_in_annotation": """
        def f(a: p(1), b: undefined):
            pass
    """,
    "starred_vararg": """
        def f(*args: *(p(int),)):
            pass
        show(f)
    """,
    "starred_vararg_too_many": """
        def f(*args: *(int, str)):
            pass
    """,
    "starred_vararg_empty": """
        def f(*args: *()):
            pass
    """,
    "starred_vararg_not_iterable": """
        def f(*args: *5):
            pass
    """,
}


@pytest.mark.parametrize("source", ANNOTATION.values(), ids=ANNOTATION.keys())
def test_annotation(source: str) -> None:
    same(source)


DOCSTRING = {
    "function": """
        def f():
            "Doc."
            return 1
        show(f)
        print(f())
    """,
    "only_a_docstring": """
        def f():
            '''Multi
               line.
            '''
        show(f)
        print(f())
    """,
    "not_first_is_not_docstring": """
        def f():
            x = 1
            "not a docstring"
            return x
        show(f)
        print(f())
    """,
    "no_docstring": """
        def f():
            return "a string"
        show(f)
    """,
    "generator": """
        def gen():
            "Gen."
            yield 1
        show(gen)
        print(list(gen()))
    """,
    "module": '''
        """Module
           doc."""
        print(__doc__)
    ''',
    "module_without_docstring": """
        x = "not a docstring"
        print(globals().get("__doc__"))
    """,
    "with_decorator_and_defaults": """
        @deco(0)
        def f(a=p(1)):
            "Doc."
        show(f)
    """,
}


@pytest.mark.parametrize("source", DOCSTRING.values(), ids=DOCSTRING.keys())
def test_docstring(source: str) -> None:
    if source.lstrip().startswith('"""'):
        assert_same(textwrap.dedent(source) + PRELUDE)  # the docstring comes first
    else:
        same(source)


# What CPython 3.13 stores for each docstring (observed): it strips the indentation.
CLEANED = [
    ("  a\n    b\n      c\n  ", "a\nb\n  c\n"),
    ("\n\n    x\n\ty\n   ", "\n\nx\n    y\n"),
    ("a\n\n  b  \n", "a\n\nb  \n"),
    ("  only  ", "only  "),
    ("\n", "\n"),
    ("", ""),
    ("a\n\t\tb\n\t c", "a\n       b\nc"),
    ("a\n  \x0cb\n  c", "a\n\x0cb\nc"),
    ("   \n  a\n   b\n", "\na\n b\n"),
]


@pytest.mark.parametrize(("doc", "expected"), CLEANED)
def test_docstring_text_313(doc: str, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "version_info", SimpleNamespace(major=3, minor=13))
    assert runtime.docstring_text(doc) == expected
    monkeypatch.setattr(sys, "version_info", SimpleNamespace(major=3, minor=12))
    assert runtime.docstring_text(doc) == doc


LAMBDA = {
    "names": """
        f = lambda x: x
        show(f)
        print(f(3))
    """,
    "defaults_in_order": """
        f = lambda a=p(1), *, b=p(2), c=p(3): (a, b, c)
        show(f)
        print(f())
    """,
    "defaults_evaluated_where_the_lambda_is": """
        def g(a, b, c):
            return b()
        print(g(p(1), lambda x=p(2): x, p(3)))
    """,
    "nested": """
        f = lambda a: lambda b=a: (a, b)
        show(f)
        show(f(1))
        print(f(1)())
    """,
    "in_function": """
        def make(n):
            return lambda m: (n, m)
        show(make(1))
        print(make(1)(2))
    """,
    "only_when_evaluated": """
        r = p(0) and (lambda y=p(3): y)
        print(r)
    """,
    "in_loop_captures_defaults": """
        fs = []
        i = 0
        while len(fs) < 3:
            fs.append(lambda i=i: i)
            i = i + 1
        print(fs[0](), fs[2](), fs[1].__name__)
    """,
    "generator_lambda": """
        g = lambda: (yield 1)
        show(g)
        print(list(g()))
    """,
    "error_in_body_traceback_name": """
        tb = __import__("traceback")
        f = lambda: undefined
        try:
            f()
        except NameError as e:
            names = []
            for frame in tb.extract_tb(e.__traceback__):
                names.append(frame.name)
            print(names)
            del frame  # its repr shows line numbers, which may differ
    """,
    "closure_reads_later_value": """
        def make():
            fs = lambda: x
            x = 5
            return fs
        print(make()())
    """,
    "no_docstring_from_string_body": """
        f = lambda: "text"
        print(f.__doc__, f())
    """,
}


@pytest.mark.parametrize("source", LAMBDA.values(), ids=LAMBDA.keys())
def test_lambda(source: str) -> None:
    same(source)


FUTURE = {
    "annotations_become_strings": """
        from __future__ import annotations
        def f(a: list[int], b: "str" = 1, *c: tuple[int, ...], **d: dict[str, int | None]) -> None:
            pass
        print(f.__annotations__)
    """,
    "strings_as_cpython_writes_them": """
        from __future__ import annotations
        def f(a: not x or y and z, b: g(x for x in y), c: f"{x!r:>{w}}", d: -1.5e300,
              e: lambda x, *y, z=1, **k: x, g: a[1:2, ::3], h: {**a, 1: 2}) -> (a, *b):
            pass
        print(f.__annotations__)
    """,
    "annotations_not_evaluated": """
        from __future__ import annotations
        @deco(0)
        def f(a: p(1) = p(2)) -> undefined:
            pass
        show(f)
    """,
    "feature_bound_by_name": """
        from __future__ import annotations as ann, generator_stop
        print(ann, generator_stop)
    """,
    "after_docstring": '''
        """Doc."""
        from __future__ import annotations
        def f(x: y) -> z: pass
        print(__doc__, f.__annotations__)
    ''',
}


@pytest.mark.parametrize("source", FUTURE.values(), ids=FUTURE.keys())
def test_future(source: str) -> None:
    assert_same(textwrap.dedent(source) + PRELUDE)


@pytest.mark.parametrize(
    ("feature", "message"),
    [("spam", "future feature spam is not defined"), ("braces", "not a chance")],
)
def test_future_unknown_feature(feature: str, message: str) -> None:
    with pytest.raises(SyntaxError, match=message):
        desugar(f"from __future__ import {feature}\n")


@pytest.mark.parametrize(
    "annotation",
    ["not a or b and c", "(a or b) and c", "f(x for x in y)", "f((x for x in y), 1)",
     "f'{\"s\"}'", "f'{a:>{b}} {{'", "a if b else c", "-a ** b", "(a, *b)", "a[b:c, ::2]"],
)
def test_annotation_source(annotation: str) -> None:
    source = f"from __future__ import annotations\ndef f(x: ({annotation})): pass\n"
    namespace: dict[str, object] = {}
    exec(compile(source, "<test>", "exec", dont_inherit=True), namespace)
    node = ast.parse(source).body[1].args.args[0]
    assert annotation_source(node.annotation) == namespace["f"].__annotations__["x"]


METHODS = {
    "private_method_and_defaults": """
        class C:
            k = 5
            def __f(self, __x: int, *, __y=k):
                "Private."
                return __x, __y
            g = lambda self, __z=k: __z
            def m(self):
                return lambda: self
        show(C._C__f)
        show(C.g)
        print(C()._C__f(1), C().g(), C().m().__qualname__)
    """,
    "decorated_methods": """
        class C:
            @staticmethod
            def s(a=1):
                return a
            @property
            def x(self):
                return 1
            @x.setter
            def x(self, value):
                print("set", value)
        C().x = 3
        show(C.s)
        print(C.x.fget.__qualname__, C.x.fset.__qualname__, C().x)
    """,
    "global_def_in_function": """
        def g():
            global h
            def h():
                def i():
                    pass
                return i
        g()
        show(h)
        show(h())
    """,
    "async_def": """
        asyncio = __import__("asyncio")
        @deco(0)
        async def co(a=p(1)) -> int:
            "Co."
            return a
        show(co)
        print(asyncio.run(co()))
    """,
}


@pytest.mark.parametrize("source", [pytest.param(source, id=name) for name, source in METHODS.items()])
def test_functions_in_other_scopes(source: str) -> None:
    same(source)


def test_a_def_run_again_shares_its_renamed_code() -> None:
    """As in CPython, the functions one def makes share one code object."""
    assert_same("""
        fs = [lambda x, i=i: x + i for i in range(3)]
        def make():
            def inner():
                return inner
            return inner
        print([f(1) for f in fs], fs[0].__code__ is fs[2].__code__, make().__code__ is make().__code__)
        print(fs[1].__qualname__, make().__qualname__, make().__code__.co_qualname)
    """)


def test_function_type_callee() -> None:
    """``FunctionType(f.__code__, globals)`` without a closure (pyquery's
    aliases of its methods, alembic's lambdas run with other globals) makes a
    function of a desugared function's code, whose free variables are the
    runtime helpers: in a function, a module body and a class body, under
    ``LambdaType`` too; code with a variable of its own still needs a closure."""
    assert_same("""
        import types
        from types import FunctionType
        class C:
            def first(self, xs):
                return [x.upper() for x in xs]
            @staticmethod
            def bump(a):
                return a + 1
            alias = types.FunctionType(first.__code__, globals(), "alias")
        def lambdas(**values):
            lam = lambda: f"{a!r} {b * 2}"
            glb = dict(lam.__globals__)
            glb.update(values)
            return FunctionType(lam.__code__, glb)()
        made = types.FunctionType(C.first.__code__, C.first.__globals__, "firstAlias", None, None)
        print(made(None, "ab"), made.__name__, C.alias(None, "c"), C.alias.__qualname__)
        print(lambdas(a=1, b=2), types.LambdaType(C.bump.__code__, {}, closure=None)(1))
        def outer():
            x = 1
            def inner():
                return x
            try:
                types.FunctionType(inner.__code__, {})
            except TypeError as error:
                print(type(error).__name__, error)
            return types.FunctionType(inner.__code__, {}, "again", None, inner.__closure__)()
        print(outer())
        def FunctionType_(*args):
            return args
        FunctionType = FunctionType_
        print(FunctionType(1, 2))
    """)


REBOUND_CASES = """
def f(a, b, c, d, e, g, h, i, j, k, m, n, p, q, r, unbound, *args, **kwargs):
    a = 1
    del b
    for c in (): pass
    import d
    from os import path as e
    try: pass
    except Exception as g: pass
    with open(__file__) as h: pass
    [i for i in ()]
    (j := 1)
    def k(unbound=(n := 1)): return unbound
    class m:
        p = 1
    def inner():
        nonlocal q
        global r
        lambda unbound: unbound
    match 0:
        case [*args] | {**kwargs}: pass
    return unbound.x, f(lambda s: s)
"""


def test_rebound_names_of_the_analysis_are_those_of_a_walk() -> None:
    """The module's scope analysis marks each def and lambda with the names its
    body binds or declares, nested scopes included, as ``bound_names`` walks
    them: its other parameters are stable (a nested def's or lambda's own
    parameters rebind nothing)."""
    from unsugar.analysis import analyse_scopes
    from unsugar.lowering import bound_names
    from unsugar.trees import REBOUND_MARK

    tree = ast.parse(REBOUND_CASES)
    analyse_scopes(tree.body)
    functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.Lambda)]
    for node in functions:
        body = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
        assert getattr(node, REBOUND_MARK) == bound_names(body)
    f = tree.body[0]
    parameters = {arg.arg for arg in [*f.args.args, f.args.vararg, f.args.kwarg]}
    assert parameters - getattr(f, REBOUND_MARK) == {"unbound"}
