"""for loops: iter() once, next() each time, else unless broken."""

import pytest
from difftest import assert_same

FOR = {
    "iter_once_next_each_time": """
        class Numbers:
            def __init__(self, n):
                self.n = n
            def __iter__(self):
                print("iter")
                return self
            def __next__(self):
                print("next", self.n)
                if self.n == 0:
                    raise StopIteration
                self.n = self.n - 1
                return self.n
        for x in Numbers(3):
            print("body", x)
        print("last", x)
    """,
    "else_runs_when_exhausted": """
        for x in "ab":
            print(x)
        else:
            print("else")
        for y in "":
            print("never")
        else:
            print("else on empty")
    """,
    "break_skips_else": """
        for x in "abc":
            print(x)
            if x == "b":
                break
        else:
            print("else")
        print("after", x)
    """,
    "continue_goes_to_next_item": """
        for x in "abcd":
            if x == "b":
                continue
            if x == "c":
                continue
            print(x)
        else:
            print("else")
    """,
    "nested_loops_break_inner_only": """
        for i in "xy":
            for j in "abc":
                if j == "b":
                    break
                print(i, j)
            else:
                print("inner else")
        else:
            print("outer else")
    """,
    "stop_iteration_from_body_propagates": """
        def f():
            for x in "ab":
                print(x)
                raise StopIteration("from body")
            else:
                print("else")
        f()
    """,
    "stop_iteration_subclass_ends_loop": """
        class Done(StopIteration):
            pass
        class It:
            def __iter__(self):
                return self
            def __next__(self):
                raise Done
        for x in It():
            print("never")
        else:
            print("else")
    """,
    "not_iterable": """
        for x in 5:
            pass
    """,
    "iter_returns_non_iterator": """
        class Bad:
            def __iter__(self):
                return 1
        for x in Bad():
            pass
    """,
    "error_from_next_propagates": """
        def gen():
            yield 1
            raise KeyError("in next")
        for x in gen():
            print(x)
    """,
    "else_not_inside_handler": """
        import sys
        for x in "a":
            pass
        else:
            print(sys.exception())
            raise ValueError("in else")
    """,
    "target_of_any_shape": """
        class Box:
            pass
        box = Box()
        d = {}
        for box.attr in "ab":
            print(box.attr)
        for d["k"] in "cd":
            print(d)
        for a, (b, c) in [("x", "12"), ("y", "34")]:
            print(a, b, c)
    """,
    "target_assigned_after_next": """
        class D(dict):
            def __setitem__(self, key, value):
                print("set", key, value)
        d = D()
        def key():
            print("key")
            return 0
        def items():
            print("iter")
            yield 1
            print("next")
            yield 2
            print("done")
        for d[key()] in items():
            print("body")
    """,
    "global_and_local_targets": """
        def f():
            global g
            for g in "ab":
                pass
            for loc in "cd":
                pass
            return loc
        print(f(), g)
    """,
    "generator_closed_after_break": """
        def gen():
            try:
                yield 1
                yield 2
            finally:
                print("closed")
        for x in gen():
            break
        print("after")
    """,
    "generator_closed_when_body_raises": """
        def gen():
            try:
                yield 1
            finally:
                print("closed")
        try:
            for x in gen():
                raise KeyError(1)
        except KeyError:
            print("caught")
    """,
    "return_from_loop": """
        def find(s, c):
            for i in s:
                if i == c:
                    return "found " + i
            else:
                return "missing"
        print(find("abc", "b"), find("abc", "z"))
    """,
    "bare_except_does_not_catch_break": """
        for x in "abc":
            try:
                if x == "b":
                    break
                print(x)
            except:
                print("caught")
        else:
            print("else")
        print("after", x)
    """,
    "loop_in_generator": """
        def gen():
            for x in "abc":
                got = yield x
                print("got", got)
            return "r"
        g = gen()
        print(next(g), g.send(1), g.send(2))
        try:
            g.send(3)
        except StopIteration as e:
            print("stop", e.value)
    """,
    "iterator_mutated_while_looping": """
        items = [1, 2, 3]
        for x in items:
            if x == 1:
                items.append(4)
            print(x)
    """,
}


@pytest.mark.parametrize("source", FOR.values(), ids=FOR.keys())
def test_for(source: str) -> None:
    assert_same(source)
