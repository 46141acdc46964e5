"""match statements (PEP 634): every pattern kind, guards, bindings, the protocols."""

import pytest
from difftest import assert_same

LOG = """
    def log(tag, value=None):
        print("eval", tag)
        return value
"""

MATCH = {
    "subject_evaluated_once_cases_in_order": LOG + """
        match log("subject", 3):
            case 1:
                print("one")
            case 3:
                print("three")
            case 3:
                print("never")
    """,
    "no_case_matches_does_nothing": """
        x = "keep"
        match 5:
            case 1:
                x = "one"
            case [a]:
                x = a
        print(x)
    """,
    "capture_and_wildcard": """
        match 5:
            case _:
                print("wild")
        match [1, 2]:
            case whole:
                print(whole)
        print(whole)
    """,
    "literal_patterns": """
        def f(v):
            match v:
                case -1:
                    return "minus one"
                case 1.5:
                    return "float"
                case 2 + 3j:
                    return "complex"
                case -2 - 1j:
                    return "negative complex"
                case "s" "t":
                    return "str"
                case b"b":
                    return "bytes"
                case True:
                    return "True"
                case False:
                    return "False"
                case None:
                    return "None"
                case 0:
                    return "zero"
            return "other"
        for v in (-1, 1.5, 2 + 3j, -2 - 1j, "st", b"b", True, 1, False, 0, 0.0, None, "x"):
            print(repr(v), f(v))
    """,
    "literal_eq_is_called": """
        class Eq:
            def __eq__(self, other):
                print("eq", other)
                return other == 7
        match Eq():
            case 1:
                print("one")
            case 7:
                print("seven")
    """,
    "singletons_compare_by_identity": """
        class Weird:
            def __eq__(self, other):
                print("eq called")
                return True
        match Weird():
            case None:
                print("none")
            case True:
                print("true")
            case 1:
                print("one")
    """,
    "value_patterns_dotted_names": """
        import enum
        class Color(enum.Enum):
            RED = 1
            GREEN = 2
        class NS:
            class Inner:
                limit = 10
        for v in (Color.GREEN, 10, 2):
            match v:
                case Color.RED:
                    print("red")
                case Color.GREEN:
                    print("green")
                case NS.Inner.limit:
                    print("limit")
                case _:
                    print("other", v)
    """,
    "value_pattern_evaluated_when_reached": """
        class Lazy:
            def __getattr__(self, name):
                print("lookup", name)
                return 2
        lazy = Lazy()
        match [1, 2]:
            case [0, lazy.a]:
                print("no")
            case [1, lazy.b]:
                print("yes")
    """,
    "sequence_kinds": """
        import collections
        def f(v):
            match v:
                case []:
                    return "empty"
                case [x]:
                    return ("one", x)
                case [x, y]:
                    return ("two", x, y)
                case [x, *rest]:
                    return ("more", x, rest)
                case _:
                    return "not a sequence"
        for v in ([], [1], (1, 2), range(3), collections.deque([4, 5, 6]), "ab", b"ab",
                  bytearray(b"ab"), {1: 2}, {1, 2}, iter([1, 2]), memoryview(b"xy"), 5):
            print(type(v).__name__, f(v))
    """,
    "sequence_star_positions": """
        def f(v):
            match v:
                case [*a, 9]:
                    return ("end nine", a)
                case [1, *_, 2]:
                    return "one to two"
                case [1, *mid, 3, 4]:
                    return ("mid", mid)
                case [*_]:
                    return "any"
        for v in ([9], [0, 9], [1, 2], [1, 5, 5, 2], [1, 3, 4], [1, 7, 3, 4], []):
            print(v, f(v))
    """,
    "sequence_protocol_calls": """
        import collections.abc
        class S(collections.abc.Sequence):
            def __init__(self, *items):
                self.items = list(items)
            def __len__(self):
                print("len")
                return len(self.items)
            def __getitem__(self, i):
                print("getitem", i)
                return self.items[i]
            def __iter__(self):
                print("iter")
                return iter(self.items)
        class V:
            def __getattr__(self, name):
                print("value", name)
                return int(name[1:])
        V = V()
        s = S(1, 2, 3)
        match s:
            case [*_]:
                print("A")
        match s:
            case [*r]:
                print("B", r)
        match s:
            case [V.a1, *_, V.a3]:
                print("C")
        match s:
            case [V.a1, *r, V.a3]:
                print("D", r)
        match s:
            case [V.a1, V.a2, V.a9]:
                print("no")
            case [_, _, _]:
                print("E")
        match s:
            case [*_, V.a3]:
                print("F")
        match s:
            case [_, *_, _]:
                print("G")
    """,
    "sequence_registered_only": """
        import collections.abc
        class Reg:
            def __len__(self):
                return 2
            def __getitem__(self, i):
                if i >= 2:
                    raise IndexError(i)
                return i * 10
        class NotReg(Reg):
            pass
        collections.abc.Sequence.register(Reg)
        class Later(Reg):
            pass
        for v in (Reg(), Later(), NotReg()):
            match v:
                case [a, b]:
                    print(type(v).__name__, a, b)
                case _:
                    print(type(v).__name__, "no")
    """,
    "sequence_length_lies": """
        class L(list):
            def __len__(self):
                return 3
        match L([1, 2]):
            case [a, b, c]:
                print(a, b, c)
    """,
    "sequence_len_error_propagates": """
        import collections.abc
        class Bad(collections.abc.Sequence):
            def __len__(self):
                raise RuntimeError("no len")
            def __getitem__(self, i):
                return i
        match Bad():
            case [a]:
                print(a)
    """,
    "mapping_patterns": """
        def f(v):
            match v:
                case {}:
                    return "mapping"
        def g(v):
            match v:
                case {"a": 1, "b": x}:
                    return ("ab", x)
                case {"a": x, **rest}:
                    return ("a", x, rest)
                case {**rest}:
                    return ("rest", rest)
        for v in ({}, {"a": 1}, [], "s"):
            print(f(v))
        for v in ({"a": 1, "b": 2}, {"a": 2, "b": 3, "c": 4}, {"b": 1}, {"a": None}, 5):
            print(g(v))
    """,
    "mapping_custom_logs_get": """
        import collections.abc
        class M(collections.abc.Mapping):
            def __init__(self, **data):
                self.data = data
            def __getitem__(self, key):
                print("getitem", key)
                return self.data[key]
            def __iter__(self):
                print("iter")
                return iter(self.data)
            def __len__(self):
                print("len")
                return len(self.data)
            def get(self, key, default=None):
                print("get", key)
                return self.data.get(key, default)
            def __getattribute__(self, name):
                if name == "get":
                    print("lookup get")
                return object.__getattribute__(self, name)
        class K:
            def __getattr__(self, name):
                print("key", name)
                return name
        K = K()
        m = M(a=1, b=2, c=3)
        match m:
            case {K.a: 1, K.z: _}:
                print("no")
            case {K.a: 2}:
                print("no")
            case {K.b: 2, **rest}:
                print("yes", rest)
        match m:
            case {}:
                print("empty pattern")
        match m:
            case {**everything}:
                print(everything)
    """,
    "mapping_rest_copy": """
        import collections.abc
        class Logged(dict):
            def __getattribute__(self, name):
                print("lookup", name)
                return dict.__getattribute__(self, name)
        class OwnIter(dict):
            def __iter__(self):
                print("iter")
                return dict.__iter__(self)
            def keys(self):
                print("keys")
                return dict.keys(self)
            def __getitem__(self, key):
                print("getitem", key)
                return dict.__getitem__(self, key)
        for v in (Logged(a=1, b=2), OwnIter(a=1, b=2)):
            match v:
                case {"a": 1, **rest}:
                    print(type(rest).__name__, rest)
    """,
    "mapping_rest_without_keys_method": """
        import collections.abc
        class NoKeys:
            def __len__(self):
                return 1
            def get(self, key, default):
                return 1
        collections.abc.Mapping.register(NoKeys)
        match NoKeys():
            case {"a": 1, **rest}:
                print(rest)
    """,
    "mapping_duplicate_value_keys": """
        class K:
            a = "x"
            b = "x"
        match {"x": 1}:
            case {K.a: 1, K.b: 1}:
                print("no")
    """,
    "mapping_too_short_skips_keys": """
        class K:
            def __getattr__(self, name):
                print("key", name)
                return name
        K = K()
        match {"a": 1}:
            case {K.a: 1, K.b: 2}:
                print("no")
            case {K.a: 1}:
                print("yes")
    """,
    "class_patterns": """
        class Point:
            __match_args__ = ("x", "y")
            def __init__(self, x, y):
                self.x, self.y = x, y
        def f(p):
            match p:
                case Point(0, 0):
                    return "origin"
                case Point(x, 0):
                    return ("on x", x)
                case Point(y=y, x=0):
                    return ("on y", y)
                case Point():
                    return "point"
                case int(n) | float(n) if n > 0:
                    return ("positive", n)
                case str() | bytes():
                    return "text"
            return "other"
        for v in (Point(0, 0), Point(3, 0), Point(0, 4), Point(1, 1), 5, 2.5, -1, "s", b"b", None):
            print(f(v))
    """,
    "class_patterns_match_self_builtins": """
        class MyInt(int):
            pass
        class MyList(list):
            __match_args__ = ("real",)
        for v in (True, bytearray(b"x"), b"x", {1: 2}, 1.5, frozenset({1}), 3, [1], {1},
                  "s", (1,), MyInt(7)):
            match v:
                case bool(x) | bytearray(x) | bytes(x) | dict(x) | float(x):
                    print("A", type(x).__name__, x)
                case frozenset(x) | int(x) | list(x) | set(x) | str(x) | tuple(x):
                    print("B", type(x).__name__, x)
        match MyList([1]):
            case MyList(r):
                print("real", r)
    """,
    "class_pattern_keyword_missing_attribute": """
        class A:
            x = 1
            @property
            def broken(self):
                raise AttributeError("nope")
        match A():
            case A(y=_):
                print("no y")
            case A(broken=_):
                print("no broken")
            case A(x=1):
                print("x is one")
    """,
    "class_pattern_attribute_order": """
        class A:
            __match_args__ = ("p", "q")
            def __getattr__(self, name):
                print("getattr", name)
                return name
        class V:
            def __getattr__(self, name):
                print("value", name)
                return name
        V = V()
        match A():
            case A(V.p, V.x, r=V.r):
                print("no")
            case A(V.p, V.q, r=V.r):
                print("yes")
    """,
    "match_args_inheritance_and_dataclass": """
        from dataclasses import dataclass
        @dataclass
        class Base:
            a: int
            b: int = 0
        @dataclass
        class Child(Base):
            c: int = 0
        class Plain(Base):
            pass
        class Override(Base):
            __match_args__ = ("b",)
        for v in (Base(1, 2), Child(1, 2, 3), Plain(5, 6), Override(7, 8)):
            match v:
                case Child(a, b, c):
                    print("child", a, b, c)
                case Override(b):
                    print("override", b)
                case Base(a, b=b):
                    print("base", a, b)
    """,
    "class_pattern_too_many_positional": """
        class C:
            pass
        match C():
            case C(a):
                print(a)
    """,
    "class_pattern_too_many_positional_plural": """
        class C:
            __match_args__ = ("a", "b")
            a = b = 1
        try:
            match C():
                case C(x, y, z):
                    print(x)
        except TypeError as e:
            print(e)
        try:
            match 5:
                case int(x, y):
                    print(x)
        except TypeError as e:
            print(e)
    """,
    "class_pattern_match_args_not_tuple": """
        class C:
            __match_args__ = ["a"]
        match C():
            case C(a):
                print(a)
    """,
    "class_pattern_match_args_not_str": """
        class C:
            __match_args__ = (1,)
        match C():
            case C(a):
                print(a)
    """,
    "class_pattern_duplicate_attribute": """
        class C:
            __match_args__ = ("a",)
            a = 1
        match C():
            case C(x, a=1):
                print(x)
    """,
    "class_pattern_not_a_class": """
        class Holder:
            not_a_class = 3
        match 1:
            case Holder.not_a_class():
                print("no")
    """,
    "class_pattern_isinstance_fails_first": """
        class C:
            __match_args__ = ["bad"]
        match 1:
            case C(x):
                print(x)
            case int():
                print("int")
    """,
    "sequence_flags_not_isinstance": """
        import collections.abc
        class MyStr(str):
            pass
        collections.abc.Sequence.register(MyStr)
        class MyDict(dict):
            pass
        collections.abc.Sequence.register(MyDict)
        class Spoof:
            @property
            def __class__(self):
                return list
            def __len__(self):
                return 0
        for v in (MyStr("ab"), MyDict({0: "x"}), Spoof()):
            print(type(v).__name__, isinstance(v, collections.abc.Sequence))
            match v:
                case [a, b]:
                    print("sequence", a, b)
                case {0: x}:
                    print("mapping", x)
                case []:
                    print("empty sequence")
                case _:
                    print("neither")
    """,
    "mapping_registered_only": """
        import collections.abc
        class Reg:
            def __init__(self):
                self.d = {"a": 1, "b": 2}
            def __len__(self):
                print("len")
                return 2
            def get(self, key, default):
                print("get", key)
                return self.d.get(key, default)
            def keys(self):
                print("keys")
                return self.d.keys()
            def __getitem__(self, key):
                print("getitem", key)
                return self.d[key]
        collections.abc.Mapping.register(Reg)
        match Reg():
            case {"a": 1, **rest}:
                print(rest)
    """,
    "class_pattern_uses_instancecheck": """
        class Meta(type):
            def __instancecheck__(cls, obj):
                print("instancecheck", obj)
                return obj == 5
        class Fives(metaclass=Meta):
            pass
        for v in (4, 5):
            match v:
                case Fives(real=r):
                    print("five", r)
                case _:
                    print("not five")
    """,
    "error_in_guard_chains_nothing": """
        try:
            match [1]:
                case [x] if 1 / 0:
                    pass
        except ZeroDivisionError as e:
            print("caught", e, e.__context__, x)
    """,
    "or_patterns_left_to_right": """
        class V:
            def __getattr__(self, name):
                print("value", name)
                return int(name[1:])
        V = V()
        for v in (1, 2, 3, [4, 5], [5, 4]):
            match v:
                case V.a1 | V.a2 | [V.a4, _] | [_, V.a4]:
                    print("hit", v)
                case _:
                    print("miss", v)
    """,
    "or_patterns_bind_same_names": """
        def f(v):
            match v:
                case [x, 1] | [1, x] | (5 as x) if x != 0:
                    return x
                case {"k": x} | [x, *_]:
                    return ("second", x)
        for v in ([7, 1], [1, 8], 5, [0, 1], {"k": 3}, [0, 2], 6):
            print(f(v))
    """,
    "as_and_group_patterns": """
        match [1, [2, 3]]:
            case [(1 | 2) as first, [_, _] as inner] as whole:
                print(first, inner, whole)
        match 4:
            case (((x))):
                print(x)
    """,
    "nested_patterns": """
        data = {"points": [(0, 1), (2, 3)], "meta": {"name": "p", "tags": ["a", "b"]}}
        match data:
            case {"points": [(0, y0), (x1, _)], "meta": {"name": str(name), "tags": [*tags]}}:
                print(y0, x1, name, tags)
    """,
    "guards_evaluation_order": LOG + """
        def f(v):
            match v:
                case [x, y] if log(("guard1", x, y), x > y):
                    return "first"
                case [x, *_] if log(("guard2", x), x == 0):
                    return "second"
                case _ if log("guard3", True):
                    return "third"
        for v in ([2, 1], [1, 2], [0, 5, 6], "x"):
            print(f(v))
    """,
    "guard_truth_tested_once": """
        class T:
            def __bool__(self):
                print("bool")
                return False
        match 1:
            case x if T():
                print("no")
            case _:
                print("fallthrough")
    """,
    "bindings_after_failed_case": """
        class C:
            @property
            def attr(self):
                print("attr sees", "x" in globals(), "y" in globals())
                return 3
        c = C()
        match [1, 2]:
            case [x, c.attr]:
                print("hit1")
            case [y, 7] | [y, 9]:
                print("hit2")
            case [z, w] if print("guard", z, w):
                print("hit3")
            case _:
                pass
        print({k: globals().get(k, "-") for k in "xyzw"})
    """,
    "failed_case_leaves_local_unbound": """
        def f():
            match (1, 2):
                case (a, 3):
                    pass
            return a
        f()
    """,
    "guard_failure_keeps_bindings": """
        def f():
            match [1, 2]:
                case [a, b] if a > b:
                    return "no"
            return a, b
        print(f())
    """,
    "guard_rebinds_subject_name": """
        v = 1
        match v:
            case 2:
                pass
            case _ if (v := 2) and False:
                pass
            case 1:
                print("still the first subject", v)
    """,
    "match_in_loop_break_continue_return": """
        def f(items):
            out = []
            for item in items:
                match item:
                    case "skip":
                        continue
                    case "stop":
                        break
                    case "ret":
                        return out, "returned"
                    case other:
                        out.append(other)
            return out
        print(f(["a", "skip", "b", "stop", "c"]))
        print(f(["a", "ret", "b"]))
    """,
    "match_in_class_body": """
        class K:
            match (1, 2):
                case (a, b):
                    c = a + b
            __p = 5
            match 5:
                case x if x == __p:
                    private = True
        print(K.a, K.b, K.c, K.x, K.private)
    """,
    "global_and_nonlocal_captures": """
        g = 0
        def f():
            global g
            n = 0
            def h():
                nonlocal n
                match (1, 2):
                    case (g, n):
                        pass
            h()
            return n
        print(f(), g)
    """,
    "subject_tuple_and_star": """
        a = [1, 2]
        match *a, 3:
            case (1, 2, x):
                print(x)
    """,
    "exception_in_pattern_propagates": """
        class Boom:
            def __eq__(self, other):
                raise ValueError("boom")
        try:
            match Boom():
                case 1:
                    pass
        except ValueError as e:
            print("caught", e)
    """,
    "deep_nesting": """
        v = [[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]
        match v:
            case [[[[[[[[[[[[[[[[[[[[[[[x]]]]]]]]]]]]]]]]]]]]]]]:
                print(x)
        match 3:
            case 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22:
                print("many alternatives")
    """,
    "generator_with_match": """
        def gen(items):
            for item in items:
                match item:
                    case int(n):
                        yield n * 2
                    case [*xs]:
                        yield from xs
        print(list(gen([1, [2, 3], "s", 4])))
    """,
}


@pytest.mark.parametrize("source", MATCH.values(), ids=MATCH.keys())
def test_match(source: str) -> None:
    assert_same(source)
