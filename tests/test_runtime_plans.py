"""The operators' plans: for a pair of built-in (immutable) types the runtime
calls ``_operator``'s function next time (which runs the methods that
answered), or the method itself where ``_operator`` is blocked; the outcome
must be the one the whole dispatch gives, whatever came first."""

from __future__ import annotations

import textwrap

import pytest

from tests.difftest import assert_same, desugared, run

SNIPPETS = {
    "mixed_numbers_both_orders": """
        print(1 + 2.5, 2.5 + 1, True + 1, 1 + True, True + True, 3 * 1.5, 1.5 * 3)
        print(2 ** -1, (-8) ** (1 / 3), 7 // 2.0, 7 % -3, 1 << 3, 5 & 3, 5 | 3, 5 ^ 3)
        print(1 < 2.5, 2.5 < 1, 1 == 1.0, 1.0 == 1, (1, 2) < (1, 3), "a" < "b", 1 != 1.0)
    """,
    "sequences": """
        print("ab" * 3, 3 * "ab", [1] * 2, 2 * [1], (1,) + (2,), "a" + "b", b"x" * 2)
        x = [1]
        x += (2, 3)
        x *= 2
        s = "a"
        s += "b"
        s *= 2
        print(x, s)
        try:
            [1] + (2,)
        except TypeError as error:
            print(error)
        try:
            "a" * 1.5
        except TypeError as error:
            print(error)
    """,
    "errors_after_a_plan": """
        for left, right in [(1, 2), (1, "a"), ("a", 1), (1, 2)]:
            try:
                print(left + right)
            except TypeError as error:
                print(error)
            try:
                print(left < right)
            except TypeError as error:
                print(error)
        try:
            1 / 0
        except ZeroDivisionError as error:
            print(error)
    """,
    "object_equality_by_identity": """
        o = object()
        print(o == o, o == object(), o != o, o != object(), None == None, None == 0)
        print(o == o, o == object(), object() != o)
    """,
    "a_class_may_change_its_methods": """
        class A:
            def __init__(self, v):
                self.v = v
            def __add__(self, other):
                return "first"
        a = A(1)
        print(a + a, a + 1)
        A.__add__ = lambda self, other: "second"
        print(a + a, a + 1)
        A.__radd__ = lambda self, other: "reflected"
        print(1 + a)
        class B(int):
            def __radd__(self, other):
                return "B first"
        print(1 + B(2), B(2) + 1, 1 + 2)
    """,
    "operands_of_one_class": """
        class V:
            def __init__(self, v):
                self.v = v
            def __add__(self, other):
                print("add", self.v, other.v)
                return V(self.v + other.v) if other.v else NotImplemented
            def __radd__(self, other):
                print("radd")
                return "reflected"
            def __repr__(self):
                return f"V({self.v})"
        print(V(1) + V(2))
        try:
            V(1) + V(0)
        except TypeError as error:
            print(error)
        class L(list):
            def __mul__(self, other):
                return NotImplemented
            def __add__(self, other):
                return "own add"
        print(L([1]) + L([2]))
        try:
            L([1]) * L([2])
        except TypeError as error:
            print(error)
        class R:
            def __rsub__(self, other):
                return "rsub"
        try:
            R() - R()
        except TypeError as error:
            print(error)
        class S:
            __add__ = staticmethod(lambda left, right: ("static", left is right))
        s = S()
        print(s + s)
        class Meta(type):
            def __add__(cls, other):
                return "metaclass add"
        class M(metaclass=Meta):
            pass
        print(M + M)
        try:
            M() + M()
        except TypeError as error:
            print(error)
        V.__add__ = lambda self, other: "replaced"
        print(V(1) + V(2))
        del V.__add__
        print(V(1) + V(2))
    """,
    "unpacking_a_list_its_targets_change": """
        a = [1, 2]
        a[1], a[0] = a
        print(a)
        t = (3, 4)
        x, y = t
        try:
            x, y = [1, 2, 3]
        except ValueError as error:
            print(error)
        try:
            x, y = (1,)
        except ValueError as error:
            print(error)
        print(x, y)
    """,
    "subscripts": """
        import collections
        d = {"a": 1}
        l = [1, 2, 3]
        print(d["a"], l[1], l[-1], "xyz"[1], (1, 2)[0], l[0:2])
        l[0] = 9
        d["b"] = 2
        q = collections.deque([1, 2])
        print(q[1], l, d)
        class Missing(dict):
            def __missing__(self, key):
                return key * 2
        m = Missing()
        print(m["ab"], m.get("ab"))
        try:
            q[1.5]
        except TypeError as error:
            print(error)
        try:
            d["z"]
        except KeyError as error:
            print(repr(error))
        print(1 in l, 5 in l, "a" in d, "y" in "xyz", 2 in q)
    """,
    "unary": """
        print(-1, -1.5, +True, ~5, -(-2))
        class N:
            def __neg__(self):
                return "neg"
        print(-N())
        try:
            -"a"
        except TypeError as error:
            print(error)
    """,
    "a_metaclass_hash_is_never_called": """
        class Meta(type):
            def __hash__(cls):
                print("hash of", cls.__name__)
                return 1
            def __eq__(cls, other):
                print("eq of", cls.__name__)
                return cls is other
        class C(metaclass=Meta):
            def __add__(self, other):
                return "add"
            def __getitem__(self, key):
                return key
            def __neg__(self):
                return "neg"
            def __contains__(self, item):
                return True
            def __lt__(self, other):
                return "lt"
            def __await__(self):
                return iter(())
        async def waits():
            return await c
        c = C()
        try:
            waits().send(None)
        except StopIteration as stop:
            print("awaited", stop.value)
        for _ in range(2):
            print(c + c, c[1], -c, 1 in c, c < c, c == c)
            try:
                x, y = c  # iterated by __getitem__: 0, 1, 2...
            except ValueError as error:
                print(error)
            try:
                raise ValueError
            except ValueError:
                print("caught")
    """,
    "yield_from_next_send_throw": """
        def inner():
            got = yield 1
            print("got", got)
            try:
                yield 2
            except KeyError as error:
                print("caught", repr(error))
                yield 3
            return "done"
        def outer():
            result = yield from inner()
            print("result", result)
        g = outer()
        print(next(g), g.send("sent"), g.throw(KeyError("k")))
        try:
            next(g)
        except StopIteration:
            print("stopped")
    """,
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_plans(source: str) -> None:
    assert_same(source)


#: The C functions of ``_operator`` called while a few operations on built-in
#: types run a second time (the first run made the plans).
PLANNED_CALLS = """
    import sys
    calls = set()
    def profile(frame, event, function):
        if event == "c_call" and function.__module__ == "_operator":
            calls.add(function.__name__)
    def operations(x, items, table):
        for round in range(2):
            sys.setprofile(profile)
            results = [x + x, x - 1, -x, x < x, x == x, items[0], "k" in table]
            items[0] = x
            x += 1
            sys.setprofile(None)
    operations(1.5, [1.5], {"k": 1.5})
    print(sorted(calls))
"""


def test_a_plan_for_built_in_types_is_the_interpreters_own_function() -> None:
    """What the plan calls is not observable but for speed (and a profiler): the
    original makes no such call at all, the output calls ``_operator``'s."""
    source = textwrap.dedent(PLANNED_CALLS)
    assert run(source).stdout == "[]\n"
    got = run(desugared(source)).stdout
    assert got == "['add', 'contains', 'eq', 'getitem', 'iadd', 'lt', 'neg', 'setitem', 'sub']\n"


def test_plans_where_operator_is_blocked() -> None:
    """A test may block ``_operator`` (``sys.modules["_operator"] = None``): the plans
    then call the methods that answered."""
    assert_same("""
        import sys
        saved = sys.modules.get("_operator")
        sys.modules["_operator"] = None
        x = 1.5
        items = [x]
        for round in range(2):
            print(x + x, 2 * x, -x, x < x, x == x, items[0], 1 in items, [1] + items)
            items[0] = x
            x += 1
        sys.modules["_operator"] = saved
    """)
