"""Type parameters (rules ``type-alias``, ``generic-function``, ``generic-class``):
CPython's own objects, evaluated as lazily as the syntax makes them, in
annotation scopes that see a class's names first (3.12+; defaults 3.13+)."""

from __future__ import annotations

import sys

import pytest

from tests.difftest import assert_same, desugared
from unsugar.checker import check_source

pytestmark = pytest.mark.skipif(sys.version_info < (3, 12), reason="type parameters are 3.12+")

SNIPPETS = {
    "recursive_and_forward": """
        import typing
        type Tree = list[Tree] | int
        type Lazy = Later
        class Later:
            pass
        print(isinstance(Tree, typing.TypeAliasType), Tree.__name__, Tree.__module__)
        print(Tree.__value__, Tree.__type_params__, Lazy.__value__)
    """,
    "value_evaluated_when_read_once": """
        calls = []
        def note(x):
            calls.append(x)
            return x
        type Noted = note(int)
        print(calls)
        print(Noted.__value__, calls, Noted.__value__, calls)
    """,
    "error_surfaces_on_access": """
        type Broken = undefined_name
        print("defined")
        try:
            Broken.__value__
        except NameError as error:
            print("NameError:", error)
    """,
    "parameters_bounds_constraints": """
        type Pair[T] = tuple[T, T]
        print(Pair.__type_params__, Pair[int], Pair.__value__)
        calls = []
        def bound():
            calls.append("bound")
            return Later
        type Bounded[T: bound(), *Ts, **P] = tuple[T, *Ts]
        T, Ts, P = Bounded.__type_params__
        print(calls, type(T).__name__, type(Ts).__name__, type(P).__name__, T.__module__)
        class Later:
            pass
        print(T.__bound__, calls, T.__bound__, calls, Bounded.__value__)
        type Constrained[S: (int, str)] = list[S]
        print(Constrained.__type_params__[0].__constraints__)
        print(T.__infer_variance__, T.__covariant__, T.__name__)
    """,
    "alias_in_a_function": """
        def make():
            local = int
            type Inner[U: local] = dict[U, local]
            return Inner
        alias = make()
        print(alias.__value__, alias.__type_params__[0].__bound__, alias.__module__)
        def shadow(type):
            return type
        print(shadow(3))
    """,
    "generic_function": """
        def first[T](xs: list[T]) -> T:
            "The first."
            return xs[0]
        print(first([3]), first.__type_params__, first.__annotations__)
        print(first.__name__, first.__qualname__, first.__doc__, first.__code__.co_name)
        T, = first.__type_params__
        print(T.__infer_variance__, T.__bound__, T.__module__, T in first.__annotations__.values())
    """,
    "paramspec_and_typevartuple_in_a_signature": """
        from typing import Callable
        def call[**P, R](f: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
            return f(*args, **kwargs)
        def pack[*Ts](*args: *Ts) -> tuple[*Ts]:
            return args
        print(call(max, 1, 5), call.__type_params__, call.__annotations__)
        print(pack(1, "a"), pack.__type_params__, pack.__annotations__)
        P, R = call.__type_params__
        print(type(P).__name__, P.args, P.kwargs, type(R).__name__)
    """,
    "decorators_defaults_and_order": """
        log = []
        def note(x):
            log.append(getattr(x, "__name__", x))
            return x
        def deco(f):
            log.append(("deco", f.__name__, f.__type_params__, f.__defaults__))
            return f
        @note(deco)
        def g[T: note(int)](a: note(T) = note(1), *, b: note(int) = note(2)) -> note(T):
            return g
        print(log)
        print(g() is g, g.__defaults__, g.__kwdefaults__, g.__type_params__[0].__bound__, log)
    """,
    "recursion_finds_the_decorated_function": """
        def counted(f):
            def wrapper(n):
                wrapper.calls += 1
                return f(n)
            wrapper.calls = 0
            return wrapper
        @counted
        def fact[N](n: N) -> N:
            return 1 if n < 2 else n * fact(n - 1)
        print(fact(5), fact.calls)
    """,
    "generic_class": """
        class Base:
            def __init_subclass__(cls, **kwargs):
                print("init_subclass", cls.__name__, kwargs.pop("flag"))
                super().__init_subclass__(**kwargs)
        class Meta(type):
            def __new__(meta, name, bases, namespace, **kwargs):
                print("meta", name, [b.__name__ for b in bases], sorted(namespace))
                return super().__new__(meta, name, bases, namespace, **kwargs)
        class Box[T: "Later", *Ts](Base, metaclass=Meta, flag=1):
            "A box."
            item: T
            def __init__(self, item: T):
                self.item = item
        class Later:
            pass
        print(Box.__type_params__, Box.__orig_bases__, Box.__mro__, Box.__parameters__)
        print(Box[int, str], Box.__qualname__, Box.__doc__, Box.__annotations__, type(Box).__name__)
        print(Box.__type_params__[0].__bound__, Box(3).item, [n for n in vars(Box) if n != "__dict__"])
    """,
    "generic_method_of_a_generic_class": """
        class Pair[A, B]:
            def __init__(self, a: A, b: B):
                self.a, self.b = a, b
            def swap[C](self, extra: C) -> "Pair[B, A]":
                return Pair(self.b, self.a), extra, super().__class__, __class__
            @classmethod
            def of[D](cls, value: D) -> "Pair[D, D]":
                return cls(value, value)
        p, extra, sup, cls = Pair(1, "x").swap(2.5)
        print(p.a, p.b, extra, sup, cls is Pair, Pair.of(7).b)
        print(Pair.swap.__qualname__, Pair.swap.__type_params__, Pair.swap.__annotations__)
        print(Pair.of.__type_params__, Pair.of.__qualname__)
    """,
    "a_class_body_sees_its_type_parameters": """
        class Node[T]:
            kind = T
            type Children = list[Node[T]]
            class Inner:
                outer = T
        print(Node.kind, Node.Children.__value__, Node.Inner.outer, Node.Inner.__qualname__)
    """,
    "annotation_scopes_read_the_class_first": """
        X = "global"
        class K:
            X = int
            def m[U: X](self, u: X) -> U: ...
            class N[W: X](list[X]): ...
            type A[V: X] = tuple[X, V]
        print(K.m.__type_params__[0].__bound__, K.m.__annotations__)
        print(K.N.__type_params__[0].__bound__, K.N.__orig_bases__, K.N.__qualname__)
        print(K.A.__value__, K.A.__type_params__[0].__bound__)
        K.X = float
        print(K.m.__type_params__[0].__bound__, K.A.__value__)
    """,
    "the_class_is_read_as_it_is_later": """
        class X:
            T = int
            def foo[U: T](self): ...
            type Alias = T
        X.T = float
        print(X.foo.__type_params__[0].__bound__, X.Alias.__value__)
    """,
    "in_a_function_around_a_class": """
        def make():
            local = str
            class Inner[T: local]:
                X = int
                def m[U: X, V: local](self, u: U, v: local, w: X) -> T: ...
                type A = dict[local, X, T]
            return Inner
        I = make()
        print(I.__qualname__, I.m.__qualname__, [p.__bound__ for p in I.m.__type_params__])
        print(I.m.__annotations__, I.A.__value__, I.__type_params__[0].__bound__)
    """,
    "private_names_are_mangled": """
        class Foo[__T]:
            param = __T
            def meth[__U](self, arg: __T, arg2: __U):
                return (__T, __U)
            type Alias[__V] = (__T, __V)
        T, = Foo.__type_params__
        U, = Foo.meth.__type_params__
        V, = Foo.Alias.__type_params__
        print(T.__name__, U.__name__, V.__name__, Foo.param is T, Foo.meth.__annotations__)
        print(Foo().meth(1, 2) == (T, U), Foo.Alias.__value__ == (T, V))
    """,
    "runtime_errors": """
        from typing import Generic
        try:
            class Twice[T](Generic[T]):
                pass
        except TypeError as error:
            print(type(error).__name__, error)
        class Box[T]:
            pass
        try:
            Box[int, str]
        except TypeError as error:
            print(type(error).__name__, error)
        def late[T: undefined_name](): ...
        try:
            late.__type_params__[0].__bound__
        except NameError as error:
            print("NameError", error)
    """,
    "pickled_by_qualified_name": """
        import pickle
        class Outer:
            class Box[T]:
                def get[U](self): ...
        def top[T](): ...
        print(pickle.loads(pickle.dumps(Outer.Box)) is Outer.Box)
        print(pickle.loads(pickle.dumps(Outer.Box.get)) is Outer.Box.get)
        print(pickle.loads(pickle.dumps(top)) is top)
    """,
    "locals_and_closures_of_a_generic_function": """
        def outer():
            seen = "outer"
            def inner[T](x: T):
                y = seen
                return sorted(locals()), T
            return inner
        names, T = outer()(1)
        print(names, T, outer().__qualname__)
    """,
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_type_params(source: str) -> None:
    assert_same(source)


@pytest.mark.skipif(sys.version_info < (3, 13), reason="type parameter defaults are 3.13+")
def test_type_parameter_defaults_are_lazy() -> None:
    assert_same("""
        calls = []
        def note(x):
            calls.append(x)
            return x
        type WithDefault[T = note(int), *Ts = note(tuple[int]), **P = note([str])] = T
        T, Ts, P = WithDefault.__type_params__
        print(calls, T.has_default())
        print(T.__default__, Ts.__default__, P.__default__, calls)
        def f[A = note(str)](): ...
        class C[B: int = note(bool)]: ...
        print(calls, f.__type_params__[0].__default__, C.__type_params__[0].__default__, calls)
        print(C[()], C.__type_params__[0].__bound__)
    """)


@pytest.mark.skipif(sys.version_info < (3, 13), reason="type parameter defaults are 3.13+")
def test_a_starred_default_is_the_one_item_of_its_value() -> None:
    """``*Ts = *X``: the default is the one item iterating ``X`` gives, taken
    when first read (CPython's ``UNPACK_SEQUENCE 1``), with its errors."""
    assert_same("""
        class Items:
            def __init__(self, *items):
                self.items = items
            def __iter__(self):
                print("iter", self.items)
                return iter(self.items)
        def f[*Ts = *tuple[int, str]](): ...
        class C[T, *Us = *Items("one")]: ...
        type A[*Vs = *Items()] = tuple[*Vs]
        type B[*Ws = *Items(1, 2)] = tuple[*Ws]
        type D[*Xs = tuple[int]] = tuple[*Xs]
        print(f.__type_params__[0].__default__, C.__type_params__[1].__default__)
        print(D.__type_params__[0].__default__)
        for alias in (A, B):
            try:
                alias.__type_params__[0].__default__
            except ValueError as error:
                print(type(error).__name__, error)
    """)


def test_a_def_in_a_lazy_value_is_named_as_cpython_names_it() -> None:
    """A lambda (or any def) in a bound, constraints or a default is named
    after the annotation scope around it, ``<generic parameters of X>``: the
    def of the value itself is skipped, as CPython skips an annotation scope.
    One in an alias's value is named after the alias, ``X.<locals>``."""
    default = "[R = note(lambda: 11)]" if sys.version_info >= (3, 13) else ""
    assert_same(f"""
        def note(x):
            print(x.__qualname__, x.__code__.co_qualname)
            return x
        class D[T: note(lambda: 1)]:
            pass
        D.__type_params__[0].__bound__
        def f[U: (note(lambda: 2), int)](): pass
        f.__type_params__[0].__constraints__
        type A[V: note(lambda: 3)] = note(lambda: 4)
        A.__type_params__[0].__bound__
        A.__value__
        def g():
            type B = note(lambda: 5)
            class M[Q: note(lambda: 6)]:
                pass
            B.__value__
            M.__type_params__[0].__bound__
        g()
        type G{default} = note(lambda: 12)
        G.__type_params__ and G.__type_params__[0].__default__
        G.__value__
    """)


def test_global_in_a_generic_def_is_not_its_type_parameter() -> None:
    """``global T`` in the body of ``def f[T]`` (or of a function in it) names
    the module's ``T``: the parameter lives in the annotation scope around."""
    assert_same("""
        T = "module T"
        def f[T]():
            global T
            return T
        def g[U]():
            def h():
                global U
                return U
            return h()
        U = "module U"
        V = "module V"
        class C[V]:
            global V
            seen = V
            def m(self):
                return V
        def outer():
            W = "outer W"
            def k[W]():
                global W
                return W
            return k()
        W = "module W"
        print(f(), g(), C.seen, C().m(), outer())
    """)


def test_a_class_body_making_an_annotation_scope_has_a_classdict_cell() -> None:
    """A class body that makes an annotation scope (a generic def or class, a
    ``type`` statement) gives its metaclass ``__classdictcell__``, whatever
    names the scope reads (none, only its parameters, or the class's); one
    that makes none does not."""
    assert_same("""
        class Meta(type):
            def __new__(meta, name, bases, namespace):
                cell = namespace.get("__classdictcell__")
                print(name, "__classdictcell__" in namespace, type(cell).__name__)
                made = super().__new__(meta, name, bases, namespace)
                if cell is not None:
                    print(cell.cell_contents is made.__dict__)
                return made
        class Reads(metaclass=Meta):
            type X = int
        class OnlyParameters(metaclass=Meta):
            def f[T](self) -> T: pass
        class Nothing(metaclass=Meta):
            type Y = 1
        class Plain(metaclass=Meta):
            def g(self): pass
        class Outer(metaclass=Meta):
            class Inner[T](metaclass=Meta):
                pass
            def method(self):
                def generic[U](): pass
    """)


def test_a_parameter_a_nested_scope_reads_is_read_from_the_class_first() -> None:
    """In a class, a type parameter that a scope inside its annotation scope
    reads (a method, a bound, an alias's value) is a cell, which CPython reads
    from the class's namespace first, as any free variable: a class variable
    of the same name wins there. Read by nothing nested, it is the parameter;
    ``__type_params__`` and a default are always the parameters."""
    default = " = int" if sys.version_info >= (3, 13) else ""
    assert_same(f"""
        class C:
            T = "class T"
            type A[T] = list[T]
            def f[T](self, x: T) -> T:
                return T
            def g[T](self, x: T) -> T:
                return 1
            class K[T, U: list[T]{default}](dict[str, T]):
                def m(self):
                    return T
        print(C.A.__type_params__, C.A.__value__)
        print(C.f.__type_params__, C.f.__annotations__, C().f(1))
        print(C.g.__type_params__, C.g.__annotations__)
        print(C.K.__type_params__, C.K.__type_params__[1].__bound__, C.K.__orig_bases__, C.K().m())
    """)


def test_constraints_that_are_all_constants_are_a_bound() -> None:
    """CPython's optimizer folds a tuple of constants into one constant, which
    its compiler then takes for a bound: ``T: ("a", "b")`` has the bound
    ``('a', 'b')`` and no constraints (3.12 and 3.13)."""
    assert_same("""
        def f[T: ("a", "b")](): pass
        def g[T: ("a", -1, (2, 3))](): pass
        def h[T: ("a", int)](): pass
        type A[T: (1, 2)] = T
        for made in (f, g, h, A):
            T, = made.__type_params__
            print(T.__bound__, T.__constraints__)
    """)


def test_a_lazy_value_reads_a_deleted_variable_of_the_function_around() -> None:
    """An alias's value, a bound and constraints are functions, called when
    first read: one that reads a variable the function around has deleted
    by then raises the ``NameError`` of a free variable."""
    default = "type B[U = W] = U" if sys.version_info >= (3, 13) else "B = None"
    assert_same(f"""
        def make():
            W = int
            type A = W
            def f[T: W](): pass
            class K[V: (W, str)]: pass
            {default}
            del W
            return A, f, K, B
        A, f, K, B = make()
        reads = [lambda: A.__value__, lambda: f.__type_params__[0].__bound__,
                 lambda: K.__type_params__[0].__constraints__, lambda: B.__type_params__[0].__default__]
        for read in reads:
            try:
                print(read())
            except (NameError, AttributeError) as error:
                print(type(error).__name__, error)
    """)


def test_private_names_in_a_generic_class_are_mangled_as_cpython_mangles_them() -> None:
    """In the annotation scope of a generic class, 3.13 (and 3.12.4 on)
    mangles only the type parameters' private names (``__T`` is ``_C__T``,
    ``__q`` is read as written); 3.12.1 mangles every one (and, a fault of
    its own, mangles the annotation scopes after the class as the class:
    not followed, so ``f`` comes first). The class body mangles every one."""
    assert_same("""
        g = globals()
        g["__q"] = "as written"
        g["_C__q"] = "mangled"
        def f[__U: __q](x: __q): pass
        class C[__T: __q](dict[__T, __q]):
            seen = __T
            private = __q
            def m(self) -> __T: pass
        print(C.__type_params__, C.__type_params__[0].__bound__, C.__orig_bases__)
        print(C.seen, C.private, C.m.__annotations__)
        print(f.__type_params__[0].__bound__, f.__annotations__)
    """)


def test_locals_in_an_alias_value_shows_its_own_variables() -> None:
    """``locals()`` in an alias's value (a function's, outside a class) shows
    the variables it reads from the function around, not the helpers it
    closes over (a lambda there makes it close over some)."""
    assert_same("""
        type A = (sorted(locals()), lambda: 0)[0]
        def f():
            x = 1
            type B = (sorted(locals()), lambda: x)[0]
            return B.__value__
        print(A.__value__, f())
    """)


def test_outputs_are_core() -> None:
    default = " = int" if sys.version_info >= (3, 13) else ""
    out = desugared(f"type Tree[T: int{default}] = list[Tree[T]] | T\n"
                    f"def f[*Ts, **P, T: int{default}](x: T) -> T: ...\n"
                    f"class C[T{default}](list[T]):\n    def m[U](self) -> U: ...\n"
                    f"    type A[V] = dict[T, V]\n")
    assert not check_source(out)


def test_type_statement_in_a_class_body_sees_the_class_names_first() -> None:
    assert_same("""
        g = "global"
        class Holder:
            unit = int
            type Alias = list[unit]
            type Later = tuple[g, Forward, Holder]
        class Forward:
            pass
        print(Holder.Alias.__value__, Holder.Alias.__module__, Holder.Later.__value__)
        print(sorted(name for name in vars(Holder) if not name.startswith("__")))
    """)


def test_type_statement_in_a_class_in_a_function() -> None:
    """Its value reads a variable of the function around the class, after the class is made."""
    assert_same("""
        def make():
            local = str
            class Inner:
                type A = dict[local, int]
            return Inner
        print(make().A.__value__)
    """)


def test_annotation_scope_in_a_class_reads_a_deleted_variable_of_the_function() -> None:
    """A lazy value and an annotation read a variable of the function that
    ``del`` unbound: the free-variable error, not the marker ``del`` left."""
    assert_same("""
        def f():
            x = 1
            del x
            class C:
                type A = x
            try:
                C.A.__value__
            except NameError as error:
                print(type(error).__name__, error)
            class D:
                def m[T](self, a: x = 0): pass
        f()
    """)


def test_generic_coroutine_and_async_generator() -> None:
    assert_same("""
        import asyncio, inspect
        async def co[B](x: B) -> B:
            await asyncio.sleep(0)
            return x
        async def agen[T](x: T):
            yield x
        async def main():
            print(await co(3), co.__type_params__, [y async for y in agen(4)], agen.__type_params__)
        asyncio.run(main())
        print(inspect.iscoroutinefunction(co), inspect.isasyncgenfunction(agen), co.__annotations__)
    """)


def test_the_intrinsics_are_cpythons() -> None:
    """The runtime runs CPython's intrinsics through code it assembles: a known
    limitation (README), so the objects are the interpreter's own."""
    import dis
    import typing

    from unsugar.linked_runtime import intrinsic_code, type_param

    code = intrinsic_code("INTRINSIC_TYPEVAR_WITH_BOUND")
    assert [i.opname for i in dis.get_instructions(code)][-2:] == ["CALL_INTRINSIC_2", "RETURN_VALUE"]
    made = type_param("INTRINSIC_TYPEVAR_WITH_BOUND", "T", lambda: int)
    assert type(made) is typing.TypeVar and made.__bound__ is int
    alias = type_param("INTRINSIC_TYPEALIAS", ("A", None, lambda: made))
    assert type(alias) is typing.TypeAliasType and alias.__value__ is made
    assert alias.__module__ == __name__  # the module that called type_param


@pytest.mark.parametrize("keep", [("class",), ("decorator",), ("default",)])
def test_with_rules_kept(keep: tuple[str, ...]) -> None:
    """A kept class statement is named as the class; a generic def whose
    decorators are kept stays generic."""
    assert_same("""
        def deco(f):
            return f
        @deco
        class Box[T](list[T]):
            "Doc."
            def get[U](self, u: U = 1) -> T:
                "Get."
                return u
        @deco
        def f[T](x: T = 2) -> T:
            return x
        print(Box.__name__, Box.__qualname__, Box.__type_params__, Box.__orig_bases__, Box.__doc__)
        print(sorted(vars(Box))[:4], Box().get(), Box.get.__type_params__, Box.get.__doc__)
        print(Box.get.__qualname__, Box.get.__code__.co_qualname, f.__qualname__)
        print(f(), f.__type_params__, f.__annotations__, f.__defaults__)
    """, keep=keep)
