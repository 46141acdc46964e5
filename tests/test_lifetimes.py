"""Values die when CPython drops them.

Each snippet prints from ``__del__`` (and from ``weakref`` callbacks), so the
moment a value dies is part of the output both programs must print: a
temporary of the output that still refers to a value shows as a ``del``
printed too late.
"""

from __future__ import annotations

import pytest

from tests.difftest import assert_same

TRACKED = """
import weakref
class R:
    def __init__(self, n):
        self.n = n
    def __del__(self):
        print("del", self.n)
    def __repr__(self):
        return f"R({self.n})"
def f(a=None, b=None, c=None):  # (a callee's *args tuple drops its items last first)
    return (a is not None) + (b is not None) + (c is not None)
def watch(value):
    weakref.finalize(value, print, "finalized", value.n)
    return value
def pair(tag):  # R(tag), R(tag + 1); closed when the loop's iterator dies
    try:
        yield R(tag)
        yield R(tag + 1)
    finally:
        print("closed", tag)
def caught_here():  # an exception whose traceback keeps the caller's frame alive (f_back)
    try:
        raise ValueError
    except ValueError as e:
        return e
"""

SNIPPETS = {
    "statement": """
        x = f(R(1), R(2) and 5)
        print("after")
        print(f(R(3), (R(4), 1)[1] or 2), "printed")
        print("next")
    """,
    "statement_in_function": """
        def g():
            f(watch(R(1)), watch(R(2)) or 0)
            print("after")
            return 0
        g()
    """,
    "conditional_expression": """
        flag = True
        print(R(1) if flag else R(2))
        print("after")
        x = [R(3) if not flag else R(4)]
        print("kept", x)
        x = None
        print("end")
    """,
    "if_test": """
        if f(R(1), R(2) or 0) == 2:
            print("in if")
        else:
            print("in else")
        while f(R(3)) == 0 or R(4) is None:
            pass
        print("after")
    """,
    "chained_comparison": """
        def middle():
            return watch(R(1)).n
        if 0 < middle() < 2:
            print("in")
        print("after")
    """,
    "loop_iteration": """
        def items():
            for n in range(3):
                yield R(n)
        for item in items():
            print("got", item, f(R(10 + item.n) if item.n else None))
        print("loop done")
        for n in range(2):
            f(R(20 + n), n and R(30 + n))
            print("iteration", n)
    """,
    "generator_before_next_yield": """
        from collections import deque
        def pop_each(cache):
            while cache:
                yield cache.popleft()
        def chosen(flag):
            yield R(1) if flag else R(2)
            print("resumed")
            yield f(R(3), R(4) and 1)
            print("resumed again")
        def delegating(it):
            yield from it
        for source in (pop_each(deque([R(5), R(6)])), chosen(True),
                       delegating(iter([R(7), R(8)]))):
            for value in source:
                print("got", value)
                value = None
                print("dropped")
    """,
    "comprehensions": """
        print([x.n for x in (R(i) for i in range(3))])
        print("after list")
        print(sum(1 for _ in (R(i) for i in range(10, 12))))
        print({R(20).n: f(R(21)) for _ in range(1)})
        print("end")
    """,
    "with_every_way_out": """
        class CM:
            def __init__(self, n):
                self.n = n
            def __enter__(self):
                return R(self.n)
            def __exit__(self, *exc):
                print("exit", self.n)
                return self.n == 2
            def __del__(self):
                print("del cm", self.n)
        with CM(1):
            print("body")
        print("after 1")
        with CM(2) as value:
            raise ValueError(value)
        print("after 2")
        for n in (3, 4):
            with CM(n):
                if n == 3:
                    continue
                break
        print("after loop")
        def g():
            with CM(5) as value:
                return value.n
        print(g())
        print("end")
    """,
    "try_every_way_out": """
        def g(n):
            try:
                if n == 0:
                    raise ValueError(R(1))
                return R(2)
            except ValueError as error:
                print("caught", error)
            finally:
                print("finally", n)
        print(g(0))
        print("after")
        print(g(1))
        print("end")
        try:
            f(R(3), R(4) or 0, 1 / 0)
        except ZeroDivisionError:
            print("handled")
        print("after handler")
    """,
    "unpacking_and_augmented": """
        a, b = R(1), R(2)
        print("unpacked")
        a = b = None
        print("cleared")
        class Box:
            x = 0
        def box():
            return watch(Box())
        box().x += 1
        print("augmented")
        d = {}
        d[watch(R(3)).n] = 1
        print("stored")
    """,
    "lambda_and_walrus": """
        print(sorted([3, 1], key=lambda v, r=R(1): v))
        print("after sort")
        if (n := f(R(2))) == 1:
            print("walrus", n)
        print("end")
    """,
    "match_subject": """
        match [R(1), R(2)]:
            case [first, *rest]:
                print("matched", first, rest)
        first = rest = None
        print("after match")
    """,
    "false_test_dies_at_its_if": """
        class F(R):
            def __bool__(self):
                return False
        if F(1):
            print("never")
        print("after if")
        if f(2) and F(2):
            print("never")
        else:
            print("in else")
        print("after if-else")
        x = 1 if F(3) else 2
        print("after conditional")
        def g():
            if F(4):
                print("never")
            print("after if in function")
        g()
    """,
    "while_test_dies_before_the_body": """
        class T(R):
            def __bool__(self):
                return self.n < 3
        n = [0]
        def test():
            n[0] += 1
            return T(n[0])
        def g(stop):
            while test():
                print("body", n[0])
                if n[0] == stop:
                    break
            print("after loop")
        g(5)
        n[0] = 0
        g(1)
    """,
    "with_body_error_drops_its_temporaries_before_exit": """
        import contextlib
        @contextlib.contextmanager
        def cm():
            try:
                yield
            finally:
                print("exit")
        def g():
            try:
                with cm():
                    f(R(1), {"k": R(2)}, (R(3) and 0) // 0)
            except ZeroDivisionError:
                print("handled")
        g()
    """,
    "comprehension_left_by_an_error": """
        def g(items):
            try:
                return [1 // (item.n - 2) for item in items]
            finally:
                print("finally")  # (its iterator and variable die as CPython's frame or stack lets them)
        try:
            g([R(1), R(2), R(3)])
        except ZeroDivisionError:
            print("handled")
        try:
            list(1 // (item.n - 2) for item in (R(4), R(2), R(5)))
        except ZeroDivisionError:
            print("handled")
    """,
    "nested_loops_left_by_an_exception": """
        import contextlib
        def in_try(kind):
            try:
                for a in pair(10):
                    for b in pair(20):
                        for c in [R(30)]:
                            raise KeyError(kind)
            except KeyError:
                print("caught", kind)
        def in_finally():
            try:
                for a in pair(40):
                    for b in pair(50):
                        raise KeyError("finally")
            finally:
                print("finally")
        @contextlib.contextmanager
        def cm():
            try:
                yield
            finally:
                print("exit")
        def in_with():
            with cm():
                for a in pair(60):
                    for b in pair(70):
                        1 // 0
        in_try("except")
        for run in (in_finally, in_with):
            try:
                run()
            except (KeyError, ZeroDivisionError) as error:
                print("handled", type(error).__name__)
    """,
    "chained_comparisons": """
        class C:
            def __init__(self, n):
                self.n = n
            def __del__(self):
                print("del", self.n)
            def __lt__(self, other):
                print("lt", self.n)
                return C(-self.n) if self.n < 100 else C(0)
            def __bool__(self):
                print("bool", self.n)
                return self.n != 0
        def g():
            if C(1) < C(2) < C(3):
                print("body")
            x = C(4) < C(5) < C(6) < C(7)  # each operand and true link dies as CPython pops it
            print("x", x.n)
            del x
            while C(8) < C(200) < C(9):
                print("never")
            y = C(10) < C(300) < C(11)  # the saved operand dies with the chain
            print("y", y.n)
            del y
            if C(12) < C(13) < C(14) and C(15) < C(400) < C(16):
                print("never")
            print(not (C(17) < C(18) < C(19)))
            print(((C(21) and C(23)) < C(25) < C(27)).n)  # (an operand its own rule left in a temporary)
        g()
    """,
    "operands_tested_die_before_the_next_runs": """
        class B:
            def __init__(self, n):
                self.n = n
            def __del__(self):
                print("del", self.n)
            def __bool__(self):
                return self.n % 2 == 1
            def __getitem__(self, key):
                return B(self.n + 1)
            def __add__(self, other):
                return B(self.n + other.n)
        def show(n):
            print("evaluating", n)
            return B(n)
        def g(c):
            x = show(2) or show(4) or show(5)  # each false operand dies before the next is evaluated
            print("x", x.n)
            y = (B(10)[0] if c else B(12)) or (yield "suspended") or show(7)
            print("y", y.n)
            z = (yield "again") if B(20)[0] else show(9)  # the test's value dies once tested
            print("z", z)
            if {1: c, 2: [x + c for x in [B(30)]][0]}[1] and ((yield "tested") or B(31)):  # (as a condition too)
                print("in")
        it = g(B(1))
        print(next(it))
        print(it.send(0))
        print(it.send(0))
        print("closing")
        it.close()
    """,
    "decorators_called_in_turn": """
        class D:
            def __init__(self, n):
                self.n = n
            def __del__(self):
                print("del", self.n)
            def __call__(self, function):
                print("decorate", self.n)
                return function
        def g():
            @D(1)
            @D(2)
            @D(3)
            def h(a=R(4)):  # (a default: the decorators are saved first, and die as each is called)
                return a
            print("made")
            @D(5)
            @D(6)
            def k(b: R(7)):
                return b
            print("made")
            @D(8)
            def one(c=R(9)):  # (the function, and its default, die once its decorator drops it)
                return c
            print("made")
            @replaced
            @D(10)
            def two():
                pass
            print("made", two)
        def replaced(function):
            return R(11)
        g()
    """,
    "returned_through_finally_and_with": """
        import contextlib
        def through_finally():
            global error
            error = caught_here()
            x = R(1)
            try:
                return x
            finally:
                x = None
        def through_with():
            global error2
            error2 = caught_here()
            with contextlib.nullcontext():
                try:
                    return R(2)
                finally:
                    print("finally")
        r = weakref.ref(through_finally())
        print("returned", r())
        r = weakref.ref(through_with())
        print("returned", r())
        error = error2 = None
    """,
    "return_from_inside_for_loops": """
        def search():
            global error
            error = caught_here()
            for x in pair(1):
                for y in pair(3):
                    return f(x, print("returning") or y)
        print("returned", search())
        error = None
    """,
    "exception_leaving_the_frame": """
        import gc
        class Outcome:  # an error that raises its exception (outcome's Error)
            def __init__(self, error):
                self.error = error
                self.n = "outcome"
                watch(self)
            def unwrap(self):
                error = self.error
                try:
                    raise error
                finally:
                    del error, self
        def unwrapped(make, fallback):
            return (make() or fallback).unwrap()
        def looping(items):
            for item in items:
                for inner in [R(item)]:
                    f(R(10), R(11), (R(12) and 1) // 0)
        gc.disable()
        try:
            unwrapped(lambda: Outcome(KeyError("k")), None)
        except KeyError:
            print("handled")
        print("after handler")
        try:
            looping([1, 2])
        except ZeroDivisionError:
            print("handled")
        print("after handler")
        gc.enable()
    """,
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_lifetimes(source: str) -> None:
    assert_same(TRACKED + source.replace("\n        ", "\n"))
