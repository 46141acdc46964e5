"""class: build_class, class-body names, __classcell__, decorators, mangling."""

import ast
import contextlib
import io
import sys
import textwrap
import types

import pytest
from difftest import assert_same

from unsugar import desugar

# ``Log`` is a namespace that prints every access; ``Meta`` prepares one.
PRELUDE = """
def p(x):
    print("eval", x)
    return x
class Log(dict):
    def __setitem__(self, k, v):
        print("set", k, type(v).__name__)
        super().__setitem__(k, v)
    def __getitem__(self, k):
        print("get", k)
        return super().__getitem__(k)
    def __delitem__(self, k):
        print("del", k)
        super().__delitem__(k)
class Meta(type):
    @classmethod
    def __prepare__(meta, name, bases, **kw):
        print("prepare", name, bases, kw)
        return Log()
    def __new__(meta, name, bases, ns, **kw):
        print("new", name, bases, list(ns), kw)
        return super().__new__(meta, name, bases, dict(ns))
    def __init__(cls, name, bases, ns, **kw):
        print("init", name)
def show(c):
    print(c.__name__, c.__qualname__, c.__module__, repr(c.__doc__), type(c).__name__)
    print(list(vars(c)), c.__mro__)
"""

ALLOW = ("import", "importfrom", "alias")


def same(source: str, **kwargs) -> None:
    assert_same(PRELUDE + textwrap.dedent(source), allow=ALLOW, **kwargs)


CLASS = {
    "plain": """
        class C:
            x = 1
            def f(self):
                return self.x
        show(C)
        print(C().f(), C.f.__qualname__, C.f.__code__.co_name, C.f.__name__)
    """,
    "pass_only": """
        class C: pass
        show(C)
    """,
    "docstring": """
        class C:
            "The doc."
            x = 1
        class D:
            x = "not a doc"
            "nor this"
        show(C); show(D)
    """,
    "bases_and_mro": """
        class A:
            def who(self): return "A"
        class B(A): pass
        class C(A):
            def who(self): return "C"
        class D(B, C): pass
        show(D)
        print(D().who())
    """,
    "bad_mro": """
        class A: pass
        class B(A): pass
        class C(A, B): pass
    """,
    "starred_bases_and_keywords": """
        class Base:
            def __init_subclass__(cls, **kw):
                print("init_subclass", cls.__name__, kw)
        bases = (Base,)
        kw = {"b": 2}
        class C(*bases, a=1, **kw): pass
        show(C)
    """,
    "evaluation_order": """
        def d(n):
            print("deco", n)
            def apply(c):
                print("apply", n, c.__name__, "C" in globals())
                return c
            return apply
        class Base: pass
        @d(p(1))
        @d(p(2))
        class C(p(Base), metaclass=p(type)):
            print("body")
        show(C)
    """,
    "metaclass_prepare_log": """
        class C(metaclass=Meta, flag=1):
            "doc"
            x: int = 3
            y = x
            def m(self, a=1):
                return super().__class__
            z = [1, 2]
            del y
            def __init_subclass__(cls, **kw): pass
        show(C)
        print(C().m(), C.flag if hasattr(C, "flag") else None)
    """,
    "metaclass_from_base": """
        class B(metaclass=Meta): pass
        class C(B):
            x = 1
        show(C)
    """,
    "metaclass_conflict": """
        class M1(type): pass
        class M2(type): pass
        class A(metaclass=M1): pass
        class B(metaclass=M2): pass
        class C(A, B): pass
    """,
    "metaclass_most_derived": """
        class M1(type): pass
        class M2(M1): pass
        class A(metaclass=M1): pass
        class B(metaclass=M2): pass
        class C(A, B): pass
        print(type(C).__name__)
    """,
    "metaclass_function": """
        def meta(name, bases, ns, **kw):
            print("meta", name, bases, sorted(ns), kw)
            return 42
        class C(metaclass=meta, k=1):
            x = 1
        print(C)
    """,
    "prepare_not_a_mapping": """
        class M(type):
            @classmethod
            def __prepare__(meta, name, bases):
                return 5
        class C(metaclass=M): pass
    """,
    "init_subclass_keywords": """
        class Base:
            def __init_subclass__(cls, /, tag=None, **kw):
                super().__init_subclass__(**kw)
                print("init_subclass", cls.__name__, tag)
        class C(Base, tag="t"): pass
        class D(C): pass
        class E(Base, bad=1): pass
    """,
    "implicit_names_a_body_declares_go_where_it_says": """
        def f():  # from 3.13: __firstlineno__ and __static_attributes__ are stores of the body
            __firstlineno__ = __static_attributes__ = 0
            class C:
                nonlocal __firstlineno__, __static_attributes__
                def m(self):
                    self.a = 1
            return "__firstlineno__" in vars(C), vars(C).get("__static_attributes__"), \\
                __firstlineno__ > 0, __static_attributes__
        class D:
            def m(self):
                self.z = self.y = 1
        r = f(), vars(D).get("__static_attributes__"), "__firstlineno__" in vars(D)
    """,
    "keywords_named_as_the_builders_parameters": """
        class Base:
            def __init_subclass__(cls, **kw):
                super().__init_subclass__()
                print("init_subclass", cls.__name__, sorted(kw.items()))
        class C(Base, name="test", body=1, bases=2): pass
    """,
    "set_name": """
        class Field:
            def __set_name__(self, owner, name):
                print("set_name", owner.__name__, name)
                self.name = name
        class C:
            a = Field()
            b = Field()
        print(C.a.name, C.b.name)
    """,
    "mro_entries_and_orig_bases": """
        class Fake:
            def __mro_entries__(self, bases):
                print("mro_entries", len(bases))
                return (int,)
        class C(Fake(), metaclass=Meta): pass
        print(C.__bases__, C.__orig_bases__ is not None, "__orig_bases__" in vars(C))
        class D(list[int]): pass
        print(D.__bases__, D.__orig_bases__)
        class E(int): pass
        print("__orig_bases__" in vars(E))
    """,
    "mro_entries_not_tuple": """
        class Fake:
            def __mro_entries__(self, bases):
                return [int]
        class C(Fake()): pass
    """,
    "generic": """
        from typing import Generic, TypeVar
        T = TypeVar("T")
        class Box(Generic[T]):
            def __init__(self, item: T):
                self.item = item
        print(Box.__orig_bases__, Box[int](3).item, Box.__parameters__)
    """,
    "nested_qualnames": """
        class A:
            class B:
                class C:
                    def f(self):
                        def g(): pass
                        return g
            def h(self):
                class L:
                    def m(self): pass
                return L
        print(A.B.__qualname__, A.B.C.__qualname__, A.B.C.f.__qualname__)
        print(A.B.C().f().__qualname__, A().h().__qualname__, A().h().m.__qualname__)
        print(A.B.C.f.__code__.co_qualname, A().h().m.__code__.co_qualname)
    """,
    "class_in_function_closure": """
        def f():
            x = "closure"
            y = "closure y"
            class C:
                y = "class y"
                a = x
                b = y
                def m(self):
                    return x, y
            return C
        C = f()
        print(C.a, C.b, C().m())
    """,
    "classderef_namespace_first": """
        def f():
            x = "closure"
            class M(type):
                @classmethod
                def __prepare__(meta, name, bases):
                    return {"x": "from namespace"}
            class C(metaclass=M):
                a = x
            class D:
                a = x
            return C.a, D.a
        print(f())
    """,
    "classderef_unbound": """
        def f():
            class C:
                a = x
            x = 1
        f()
    """,
    "class_level_names_invisible_to_methods": """
        x = "global"
        class C:
            x = "class"
            def m(self):
                return x
            l = lambda self: x
            def n(self, v=x):
                return v
        print(C().m(), C().l(), C().n())
    """,
    "load_name_falls_back_to_globals_and_builtins": """
        len = "global len"
        class C:
            a = len
            del len
        print(C.__dict__.get("a"))
    """,
    "name_error": """
        class C:
            a = undefined_name
    """,
    "del_missing": """
        class C:
            del nothing
    """,
    "global_and_nonlocal_in_body": """
        g = 1
        def f():
            n = 1
            class C:
                global g
                nonlocal n
                g = g + 1
                n = n + 10
                loc = 5
            return n, C.loc, hasattr(C, "g"), hasattr(C, "n")
        print(f(), g)
    """,
    "for_with_import_try_in_body": """
        class C:
            for i in range(3):
                last = i
            try:
                raise ValueError("e")
            except ValueError as err:
                caught = str(err)
            import math as m
            if last == 2:
                def f(self): return "f"
            else:
                def f(self): return "g"
            while last:
                last -= 1
        print(C.i, C.last, C.caught, C.m.pi, C().f(), "err" in vars(C))
        show(C)
    """,
    "walrus_in_body": """
        class C:
            a = (b := 5) + 1
        print(C.a, C.b)
    """,
    "augmented_and_annotations": """
        class C:
            x: int
            y: "str" = "s"
            z = 1
            z += 1
            (w): int = 3
        print(C.__annotations__, C.z, C.w)
        show(C)
    """,
    "super_and_class_cell": """
        class A:
            def f(self): return "A.f"
            @classmethod
            def c(cls): return "A.c " + cls.__name__
            @staticmethod
            def s(): return "A.s"
        class B(A):
            def f(self): return "B>" + super().f()
            @classmethod
            def c(cls): return "B>" + super().c()
            @staticmethod
            def s(): return __class__.__name__
            def nested(self):
                def inner():
                    return __class__
                return inner()
            def nested_super(self):
                return (lambda: super(B, self).f())()
            def me(self):
                return __class__
        print(B().f(), B.c(), B.s(), B().nested().__name__, B().nested_super(), B().me())
    """,
    "super_in_nested_function_no_self": """
        class A:
            def f(self):
                def inner():
                    return super().f()
                return inner()
        A().f()
    """,
    "super_during_body": """
        class A:
            def f(self):
                return super()
            r = f(1)
    """,
    "class_cell_not_propagated": """
        class M(type):
            def __new__(meta, name, bases, ns):
                ns = dict(ns)
                del ns["__classcell__"]
                return super().__new__(meta, name, bases, ns)
        class C(metaclass=M):
            def f(self):
                return __class__
    """,
    "class_cell_set_to_other": """
        class Other: pass
        class M(type):
            def __new__(meta, name, bases, ns):
                return Other
        class C(metaclass=M):
            def f(self):
                return __class__
        print(C)
    """,
    "class_reassigned_in_body": """
        class C:
            def f(self):
                return __class__
            __class__ = 5
        print(C().f(), C.__dict__["__class__"])
    """,
    "dunder_class_in_body_is_a_name": """
        class C:
            x = __class__
    """,
    "mangling": """
        class C:
            __x = 1
            _C__y = 2
            __dunder__ = 3
            def __m(self, __a=4):
                return self.__x, __a, self._C__x
            def call(self):
                return self.__m(), f(__k=1)
            class __Inner:
                __z = 5
            def inner(self):
                return self.__Inner.__name__, self.__Inner.__qualname__
        def f(**kw): return kw
        _C__g = "global mangled"
        class D:
            def g(self):
                return __g
        print(sorted(vars(C)), C().call(), C().inner(), D().g())
        print(C._C__m.__name__, C._C__m.__qualname__, C._C__m.__code__.co_name, C._C__m.__defaults__)
        print(C._C__m.__code__.co_varnames)
    """,
    "mangled_def_in_a_method": """
        import traceback
        class C:
            def m(self):
                def __f():
                    return 1
                async def __a():
                    pass
                global __g
                def __g():
                    return 2
                class __K:
                    pass
                def __h():
                    raise ValueError("h")
                try:
                    __h()
                except ValueError as e:
                    names = [entry.name for entry in traceback.extract_tb(e.__traceback__)]
                coroutine = __a()
                coroutine.close()
                return (__f(), __f.__name__, __f.__qualname__, __f.__code__.co_name, __a.__name__,
                        __a.__qualname__, __g(), __g.__name__, __g.__qualname__, __K.__qualname__,
                        "__h" in names, sorted(locals()))
        print(C().m(), sorted(k for k in globals() if k.endswith("__g")))
    """,
    "mangling_nonlocal": """
        class C:
            def f(self):
                __v = 1
                def g():
                    nonlocal __v
                    __v += 1
                    return __v
                return g()
        print(C().f())
    """,
    "traceback_names": """
        import traceback
        class C:
            def m(self):
                raise ValueError("boom")
        try:
            C().m()
        except ValueError as e:
            print(traceback.extract_tb(e.__traceback__)[-1].name)
        try:
            class D:
                raise KeyError("in body")
        except KeyError as e:
            print(traceback.extract_tb(e.__traceback__)[-1].name)
    """,
    "class_decorators_order_and_binding": """
        def d(n):
            print("eval deco", n)
            def apply(c):
                print("apply", n, c.__qualname__, globals().get("C"))
                return c
            return apply
        C = "old"
        @d(1)
        @d(2)
        class C: pass
        print(C.__name__)
    """,
    "class_decorator_replaces": """
        @lambda c: c.__name__ + "!"
        class C: pass
        print(C)
    """,
    "global_class_in_function": """
        def f():
            global G
            class G:
                def m(self): pass
        f()
        print(G.__qualname__, G.m.__qualname__)
    """,
    "dataclass": """
        from dataclasses import dataclass, field
        @dataclass
        class P:
            x: int
            y: int = 0
            tags: list = field(default_factory=list)
            def __post_init__(self):
                self.total = self.x + self.y
        @dataclass(frozen=True, order=True)
        class F:
            a: int
            b: str = "b"
        p = P(1, 2)
        print(p, p.total, P(3), F(1) < F(2), F(1))
        try:
            F(1).a = 3
        except Exception as e:
            print(type(e).__name__, e)
    """,
    "enum": """
        import enum
        class Color(enum.Enum):
            RED = 1
            GREEN = enum.auto()
            def describe(self):
                return self.name.lower()
        class Num(enum.IntEnum):
            ONE = 1
            TWO = 2
        class Perm(enum.Flag):
            R = enum.auto()
            W = enum.auto()
            X = enum.auto()
        class Skip(enum.Enum):
            _ignore_ = ["tmp"]
            A = 1
            tmp = 5
        print(list(Color), Color.GREEN.describe(), Num.TWO + 1, Perm.R | Perm.W, list(Skip))
    """,
    "enum_duplicate_name": """
        import enum
        class E(enum.Enum):
            A = 1
            A = 2
    """,
    "namedtuple_typeddict": """
        from typing import NamedTuple, TypedDict
        class Pt(NamedTuple):
            x: int
            y: int = 5
            def norm(self):
                return self.x + self.y
        class TD(TypedDict, total=False):
            a: int
            b: str
        print(Pt(1), Pt(1).norm(), Pt._fields, Pt.__annotations__, TD.__annotations__, TD.__total__)
    """,
    "abc": """
        import abc
        class Base(abc.ABC):
            @abc.abstractmethod
            def f(self): ...
            @property
            @abc.abstractmethod
            def p(self): ...
        class Impl(Base):
            def f(self): return "f"
            @property
            def p(self): return "p"
        print(sorted(Base.__abstractmethods__), Impl().f(), Impl().p)
        Base()
    """,
    "properties_and_slots": """
        class C:
            __slots__ = ("_v",)
            def __init__(self): self._v = 1
            @property
            def v(self): return self._v
            @v.setter
            def v(self, value): self._v = value
        c = C()
        c.v = 5
        print(c.v, sorted(vars(C)))
        c.other = 1
    """,
    "static_attributes_and_vars_order": """
        class C:
            def __init__(self):
                self.a = 1
                self.b: int = 2
                self.c += 0 if False else 0
                (self.d, self.e) = (1, 2)
                def inner(self):
                    self.f = 1
            def g(this):
                self.h = 1
            class Inner:
                def k(self): self.not_mine = 1
        print(list(vars(C)), C.__dict__.get("__static_attributes__"))
        print(list(vars(C.Inner)))
    """,
    "class_keyword_metaclass_non_class": """
        class C(metaclass=lambda name, bases, ns: (name, bases, sorted(ns))):
            x = 1
        print(C)
    """,
    "namespace_raises": """
        class M(type):
            @classmethod
            def __prepare__(meta, name, bases):
                class NS(dict):
                    def __setitem__(self, k, v):
                        if k == "bad":
                            raise KeyError("no " + k)
                        super().__setitem__(k, v)
                return NS()
        class C(metaclass=M):
            ok = 1
            bad = 2
    """,
    "missing_dict_subclass": """
        class NS(dict):
            def __missing__(self, key):
                return "missing " + key
        class M(type):
            @classmethod
            def __prepare__(meta, name, bases):
                return NS()
        class C(metaclass=M):
            a = anything
        print(C.a)
    """,
    "locals_and_vars_in_body": """
        class C:
            x = 1
            locals()["y"] = 2
            names = sorted(vars())
            other = vars(p)
            def f(self):
                return sorted(locals())
        print(C.y, C.names, C().f(), C.other is vars(p), locals is __builtins__.locals)
    """,
    "class_in_class_body_closure_invisible": """
        class A:
            x = 1
            class B:
                y = 2
                try:
                    z = x
                except NameError as e:
                    z = str(e)
        print(A.B.z)
    """,
    "nonlocal_in_class_body_writes_the_enclosing_variable": """
        class T:
            def m(self):
                class X:
                    nonlocal __class__
                    __class__ = 42
                    def f():
                        __class__
                return __class__, X.f.__closure__[0].cell_contents is X
        def g():
            x = 1
            class C:
                nonlocal x
                y = x
                x = 2
                x += 3
                def h(self):
                    return x
            return x, C.y, C().h(), sorted(filter(lambda k: not k.startswith("__"), vars(C)))
        print(T().m(), g())
    """,
    "nonlocal_never_used_in_class_body_is_a_free_variable_around": """
        def outer():
            b = 2
            def f():
                class K:
                    nonlocal b
                return sorted(locals())
            def g():
                class K:
                    nonlocal b
                    class L:
                        nonlocal b
                return sorted(locals())
            def h():
                class K:
                    nonlocal b
                    del b
                return sorted(locals())
            print(f(), g(), h())
            try:
                b
            except NameError as e:
                print(type(e).__name__, e)
        outer()
    """,
    "nested_class_body_reads_the_enclosing_class_cell": """
        class T:
            def m(self):
                class X:
                    x = __class__
                    def f():
                        __class__
                return X.x
            def k(self):
                def g():
                    class W:
                        w = __class__
                    return W.w
                return g()
            def n(self):
                class Y:
                    class Z:
                        z = __class__
                return Y.Z.z
        print(T().m(), T().k())
        T().n()
    """,
}


#: A class body's frame: its ``f_locals`` is the namespace (code that looks at
#: its caller's frame, as zope.interface's ``taggedValue``, ``invariant`` and
#: ``advice.getFrameInfo`` do, reads and writes the class's names there).
FRAMES = {
    "body_frame_locals_are_the_namespace": """
        import sys
        class C:
            a = 1
            frame = sys._getframe(0)
            print(frame.f_locals is frame.f_globals, sorted(frame.f_locals))
            print(frame.f_code.co_name, frame.f_globals is globals())
            frame.f_locals["b"] = 2
            del frame
        print(sorted(k for k in vars(C) if not k.startswith("__")), C.b)
    """,
    "caller_writes_into_the_class_namespace": """
        import sys
        def tagged(key, value):
            sys._getframe(1).f_locals.setdefault("__tags__", {})[key] = value
        def frame_kind(frame):
            f_locals, f_globals = frame.f_locals, frame.f_globals
            if f_locals is f_globals:
                return "module"
            if f_locals.get("__module__") == f_globals["__name__"]:
                return "class"
            return "function call"
        class I:
            tagged("a", 1)
            tagged("b", 2)
            kind = frame_kind(sys._getframe(0))
        def f():
            return frame_kind(sys._getframe(0))
        print(I.__tags__, I.kind, f(), frame_kind(sys._getframe(0)))
    """,
    "prepared_mapping_is_the_frames_locals": """
        import sys
        class Ns(dict):
            pass
        class Meta(type):
            @classmethod
            def __prepare__(cls, name, bases):
                return Ns(seen=[])
        class C(metaclass=Meta):
            frame = sys._getframe(0)
            seen.append(type(frame.f_locals).__name__)
            del frame
        print(C.seen)
    """,
    "each_class_statement_its_own_cells": """
        made = []
        for n in range(3):
            class C:
                size = n
                def who(self):
                    return __class__.size, super().__repr__ is not None
            made.append(C)
        def make(n):
            class D:
                k = make(n - 1) if n else None
                def m(self):
                    return __class__
            return D
        print([c().who() for c in made], make(2)().m() is not make(2)().m())
        D = make(1)
        print(D().m() is D, D.k().m() is D.k)
    """,
    "class_cell_empty_while_the_body_runs": """
        class B:
            def m(self):
                return super().__repr__
            try:
                m(1)
            except (RuntimeError, NameError):
                print("empty")
        print(B().m() is not None)
    """,
    "error_in_the_body_leaves_its_values": """
        import sys
        class Noisy:
            def __init__(self, n): self.n = n
            def __del__(self): print("del", self.n)
        def f(x): return x
        try:
            class C:
                a = f(Noisy(1))
                b = [Noisy(2), f(1 / 0)]
        except ZeroDivisionError:
            print("caught")
        print("after")
    """,
}


@pytest.mark.parametrize("source", CLASS.values(), ids=CLASS.keys())
def test_class(source: str) -> None:
    same(source)


@pytest.mark.parametrize("source", FRAMES.values(), ids=FRAMES.keys())
def test_class_body_frame(source: str) -> None:
    same(source)


#: Comprehensions in class bodies and methods.
WITH_COMPREHENSIONS = {
    "comprehension_first_iterable_in_class_scope": """
        x = "global"
        def twice(i): return str(i) + str(i)
        class C:
            items = [1, 2, 3]
            x = "class"
            doubled = [twice(i) for i in items]
            seen = [x for i in items]
        print(C.doubled, C.seen)
    """,
    "comprehension_in_method_sees_globals": """
        def size(node): return node.size()
        class Node:
            def __init__(self, n):
                self.kids = [Node(n - 1)] if n else []
            def size(self):
                kids = self.kids
                return 1 + sum(size(k) for k in kids)
        print(Node(3).size())
    """,
}


@pytest.mark.parametrize("source", WITH_COMPREHENSIONS.values(), ids=WITH_COMPREHENSIONS.keys())
def test_class_with_comprehensions(source: str) -> None:
    same(source)


def test_class_firstlineno() -> None:
    """``__firstlineno__`` (3.13) is the line of the first decorator."""
    same("""
        def d(c): return c
        @d
        class C:
            pass
        print(C.__dict__.get("__firstlineno__"))
    """)


def test_class_no_temporaries_in_namespace() -> None:
    """Every generated name is a local of the body def, none reaches vars(C)."""
    out = desugar(textwrap.dedent("""
        class C:
            x = [a and b for a in (1, 2) for b in (3,)]
            y = (lambda: 1) if x else None
            def f(self, a=1): pass
        print([k for k in vars(C) if k.startswith("_us")])
    """))
    assert not any(isinstance(node, ast.ClassDef) for node in ast.walk(ast.parse(out)))
    namespace: dict[str, object] = {}
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(out, "<out>", "exec"), namespace)
    assert buffer.getvalue() == "[]\n"


def test_class_kept() -> None:
    """With ``--keep class`` the class statement stays, its parts lowered in place."""
    out = desugar("class C(A):\n    x = a + b\n", keep=("class",))
    assert out.count("class C(") == 1


@pytest.mark.skipif(sys.version_info[:2] == (3, 12), reason="CPython 3.12 fails to compile it")
def test_class_cell_for_comprehension_scopes() -> None:
    """Up to 3.11 a list comprehension at class level is a scope of its own, so
    its ``super`` gives the class a cell; from 3.12 it is inlined (PEP 709)."""
    assert_same(PRELUDE + textwrap.dedent("""
        class C(metaclass=Meta):
            r = [super for _ in range(1)]
            g = list(lambda: super for _ in range(1))
            h = [lambda: super for _ in range(1)]
        class D(metaclass=Meta):
            r = [super for _ in range(1)]
    """), allow=ALLOW)


CLASS_FACTS_CASES = """
class A:
    x: int
    self.top = 1
    def f(self, other):
        self.a = 1
        self.b += 1
        self.c: int
        self.d: int = 0
        other.e = 1
        (self.f, [self.g]) = 1, [2]
        for self.h in []: pass
        with open(__file__) as self.i: pass
        [0 for self.j in []]
        def inner():
            self.k = lambda: setattr(self, "x", 1)
        class Nested:
            def g(self):
                self.not_a = super()
    class Plain:
        def h(self):
            self.plain = __class__
def outer():
    class Local(Base):
        def m(self):
            return super().m()
    return Local
class Cell:
    def m(self):
        return [super for _ in ()]
"""


#: classes whose ``__class__`` cell takes a look (a scope binding the name
#: itself, a class body in a class body, annotation scopes from 3.12)
CELL_CASES = [
    "class C:\n def m(self): return super()",
    "class C:\n def m(self): return 1",
    "class C:\n def m[T](self): return super()",
    "class C:\n type A = super",
    "class C:\n def m[T: super](self): pass",
    "class C:\n def m[__class__](self): super()",
    "class C:\n x = [lambda: super() for x in y]",
    "class C:\n x = [super() for x in y]",
    "class C:\n x = (super() for x in y)",
    "class C:\n x = [[lambda: __class__ for a in b] for x in y]",
    "class C:\n def m(self, __class__): super()",
    "class C:\n def m(self):\n  [(__class__ := 1) for x in y]\n  super()",
    "class C:\n def m(self):\n  import os as __class__\n  super()",
    "class C:\n def m(self):\n  try: pass\n  except E as __class__: super()",
    "class C:\n def m(self):\n  __class__ += 1\n  super()",
    "class C:\n def m(self):\n  def n(): super()\n  __class__ = 1",
    "class C:\n def m(self, f=lambda: super()): pass",
    "class C:\n class D:\n  x = __class__",
    "class C:\n class D:\n  x = __class__\n  __class__ = 2",
    "class C:\n class D:\n  class E:\n   y = __class__",
    "class C:\n def m(self):\n  class D:\n   x = __class__",
    "class C:\n def m(self):\n  class D:\n   def n(self): super()",
    "class C:\n def m(self):\n  class E(super()): pass",
]


def _class_and_its_code(source: str) -> tuple[ast.ClassDef, types.CodeType]:
    """The class ``C`` of ``source``, analysed as the module's first statement,
    and the code of its body as CPython compiles it (skipped where this
    version does not compile it)."""
    from unsugar.analysis import analyse_scopes

    try:
        code = compile(source, "<class>", "exec")
    except (SyntaxError, SystemError):  # (newer syntax; a few 3.12 and 3.13 do not compile)
        pytest.skip("not compiled by this version")
    codes = [code]
    while not any(const.co_name == "C" for const in codes):  # (a generic class: in its type parameters' code)
        codes = [const for outer in codes for const in outer.co_consts if isinstance(const, types.CodeType)]
    tree = ast.parse(source)
    analyse_scopes(tree.body)
    return tree.body[0], next(const for const in codes if const.co_name == "C")  # type: ignore[return-value]


@pytest.mark.parametrize("source", CELL_CASES)
def test_a_class_has_a_cell_where_cpython_gives_it_one(source: str) -> None:
    """The class rule gives a class a ``__class__`` cell where CPython's
    compiler does: its code has the cell variable."""
    from unsugar.rules.classes import class_facts

    node, body = _class_and_its_code(source)
    assert class_facts(node)[1] == ("__class__" in body.co_cellvars)


#: classes whose body may make an annotation scope (3.12+), which gives it a ``__classdict__`` cell
CLASSDICT_CASES = [
    "class C:\n def m[T](self): pass",
    "class C:\n type A = int",
    "class C:\n if x:\n  class D[T]: pass",
    "class C:\n try: pass\n except E:\n  def m[T](self): pass",
    "class C:\n def m(self):\n  def n[T](): pass",
    "class C:\n class D:\n  type A = int",
    "class C:\n x = [lambda: 1 for a in b]",
    "class C:\n def m(self): pass",
    "class C[T]:\n def m(self): pass",
]


@pytest.mark.parametrize("source", CLASSDICT_CASES)
def test_a_class_body_makes_an_annotation_scope_where_cpython_gives_it_a_classdict(source: str) -> None:
    """``makes_annotation_scope``, from the module's analysis: where CPython's
    class body has the ``__classdict__`` cell (3.12+; on 3.11 none does)."""
    from unsugar.rules.classes import makes_annotation_scope

    node, body = _class_and_its_code(source)
    assert makes_annotation_scope(node) == ("__classdict__" in body.co_cellvars)


def test_class_facts_of_the_module_are_those_of_the_class_alone() -> None:
    """The module's scope analysis marks each class with what its rule needs
    (its ``self.x`` stores, whether CPython gives it a ``__class__`` cell):
    the same as the class analysed alone, as a class a rule made is. ``A``
    has no cell: ``super`` and ``__class__`` in it are its nested classes'."""
    from unsugar.analysis import analyse_scopes, marked
    from unsugar.trees import CLASS_FACTS_MARK

    tree = ast.parse(CLASS_FACTS_CASES)
    analyse_scopes(tree.body)
    classes = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    marks = {node.name: getattr(node, CLASS_FACTS_MARK) for node in classes}
    alone = {node.name: marked(ast.parse(ast.unparse(node)).body[0], CLASS_FACTS_MARK) for node in classes}
    assert marks == alone
    assert marks["A"] == (["a", "d", "f", "g", "h", "i", "j", "k", "top"], False, False)
    assert marks["Nested"] == (["not_a"], True, False) and marks["Plain"] == (["plain"], True, False)
    assert marks["Local"] == ([], True, False) and marks["Cell"] == ([], True, False)
