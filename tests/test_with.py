"""with: PEP 343, as CPython runs it."""

import textwrap
import traceback

import pytest
from difftest import assert_same

from unsugar.runner import Options, compile_source

MANAGER = """
    class CM:
        def __init__(self, name, result=None):
            self.name = name
            self.result = result
        def __enter__(self):
            print("enter", self.name)
            return self.name
        def __exit__(self, kind, value, tb):
            print("exit", self.name, kind, repr(value), tb is not None)
            return self.result
"""

WITH = {
    "enter_body_exit": """
        with CM("a") as x:
            print("body", x)
        print("after", x)
    """,
    "without_target": """
        with CM("a"):
            print("body")
    """,
    "several_items_nest": """
        with CM("a") as x, CM("b") as y:
            print("body", x, y)
    """,
    "exception_passed_to_exit_and_reraised": """
        with CM("a"):
            raise KeyError("k")
    """,
    "true_result_suppresses": """
        import sys
        with CM("a", result=1):
            raise KeyError("k")
        print("after", sys.exception())
        raise ValueError("no context")
    """,
    "result_truth_tested": """
        class Truth:
            def __bool__(self):
                print("bool")
                return False
        with CM("a", result=Truth()):
            raise KeyError("k")
    """,
    "inner_suppresses_outer_sees_nothing": """
        with CM("outer"), CM("inner", result=True):
            raise KeyError("k")
        print("after")
    """,
    "break_continue_call_exit_once": """
        for i in "abc":
            with CM(i):
                if i == "a":
                    continue
                if i == "b":
                    break
                print("no")
        print("after", i)
    """,
    "return_calls_exit_once_after_value": """
        def value():
            print("value")
            return "v"
        def f():
            with CM("a"):
                return value()
            print("no")
        print(f())
    """,
    "return_suppressed_by_exit": """
        def f():
            with CM("a", result=True):
                raise KeyError("k")
            return "after with"
        print(f())
    """,
    "exit_raises_on_exception": """
        class Boom:
            def __enter__(self):
                return self
            def __exit__(self, *args):
                raise OSError("from exit")
        with Boom():
            raise KeyError("k")
    """,
    "exit_raises_on_normal_exit": """
        class Boom:
            def __enter__(self):
                return self
            def __exit__(self, *args):
                print("exit", args)
                raise OSError("from exit")
        with Boom():
            print("body")
    """,
    "enter_raises_no_exit": """
        class Bad:
            def __enter__(self):
                raise KeyError("enter")
            def __exit__(self, *args):
                print("no exit")
        with Bad():
            print("no body")
    """,
    "missing_enter": """
        class NoEnter:
            def __exit__(self, *args):
                print("no")
        with NoEnter():
            pass
    """,
    "missing_exit": """
        class NoExit:
            def __enter__(self):
                print("no")
        with NoExit():
            pass
    """,
    "not_a_manager_builtin": """
        with 5:
            pass
    """,
    "not_a_manager_static_type_name": """
        import collections
        with collections.OrderedDict():
            pass
    """,
    "looked_up_on_type_not_instance": """
        class Plain:
            pass
        p = Plain()
        p.__enter__ = lambda: 1
        p.__exit__ = lambda *a: None
        with p:
            pass
    """,
    "lookups_before_enter_call": """
        class Loud:
            def __getattribute__(self, name):
                print("getattribute", name)
                return object.__getattribute__(self, name)
            def __enter__(self):
                print("enter")
            def __exit__(self, *args):
                print("exit")
        with Loud():
            print("body")
    """,
    "descriptors_bound": """
        class Meth:
            @staticmethod
            def __enter__():
                print("static enter")
                return 1
            @classmethod
            def __exit__(cls, *args):
                print("class exit", cls.__name__, args)
        with Meth() as v:
            print(v)
    """,
    "target_assigned_inside_block": """
        class NoSet:
            def __setattr__(self, name, value):
                raise AttributeError("cannot set " + name)
        target = NoSet()
        try:
            with CM("a") as target.x:
                print("no body")
        except AttributeError as e:
            print("caught", e)
    """,
    "target_of_any_shape": """
        class Pair:
            def __enter__(self):
                return (1, (2, 3))
            def __exit__(self, *args):
                print("exit")
        d = {}
        with Pair() as (a, (b, d["c"])):
            print(a, b, d)
    """,
    "bare_except_in_body_does_not_see_break": """
        while True:
            with CM("a"):
                try:
                    break
                except BaseException:
                    print("caught")
        print("after")
    """,
    "exception_context_in_exit": """
        import sys
        class Ctx:
            def __enter__(self):
                return self
            def __exit__(self, kind, value, tb):
                print("handling", repr(sys.exception()))
                return True
        try:
            raise ValueError("outer")
        except ValueError:
            with Ctx():
                raise KeyError("inner")
            print("still handling", repr(sys.exception()))
    """,
    "generator_closed_inside_with": """
        def gen():
            with CM("g"):
                yield 1
                yield 2
        g = gen()
        print(next(g))
        g.close()
        print("closed")
    """,
    "contextlib_manager": """
        import contextlib
        @contextlib.contextmanager
        def managed(name):
            print("setup", name)
            try:
                yield name
            except KeyError as e:
                print("cm caught", repr(e))
            finally:
                print("teardown", name)
        with managed("x") as v:
            print("body", v)
        with managed("y"):
            raise KeyError("k")
        print("done")
    """,
    "jumps_through_for_with_try": """
        log = []
        class CM:
            def __init__(self, n): self.n = n
            def __enter__(self): log.append(("enter", self.n)); return self.n
            def __exit__(self, t, v, tb): log.append(("exit", self.n, t)); return self.n == "swallow"
        def f(items):
            for i in items:
                with CM(i) as n:
                    try:
                        if n == "ret":
                            return "returned"
                        if n == "brk":
                            break
                        if n == "cont":
                            continue
                        if n in ("err", "swallow"):
                            raise ValueError(n)
                        log.append(("body", n))
                    except KeyError as e:
                        log.append("no")
                    else:
                        log.append(("else", n))
                    finally:
                        log.append(("finally", n))
            else:
                return "exhausted"
            return "broke"
        for case in (["a", "cont", "b"], ["a", "brk", "b"], ["ret", "b"], ["swallow", "c"]):
            print(f(case)); print(log); log.clear()
        try:
            f(["err"])
        except ValueError as e:
            print(repr(e), log)
    """,
    "exit_called_from_the_with_statements_frame": """
        import sys
        class Caller:
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                print("exit", exc[0], sys._getframe(1).f_code.co_name)
                return True
        def wrapper():
            with Caller():
                pass
            with Caller():
                raise ValueError
        wrapper()
    """,
    "manager_released_after_with": """
        class Released:
            def __init__(self, result):
                self.result = result
            def __enter__(self):
                return "value"
            def __exit__(self, *args):
                return self.result
            def __del__(self):
                print("released")
        with Released(False):
            print("body")
        print("after")
        with Released(True):
            raise KeyError("suppressed")
        print("after suppressed")
    """,
}


@pytest.mark.parametrize("source", WITH.values(), ids=WITH.keys())
def test_with(source: str) -> None:
    assert_same(textwrap.dedent(MANAGER) + textwrap.dedent(source))


def _first_frame_position(code: object) -> tuple[int | None, ...]:
    """Run ``code``; where the first traceback entry of the error it raises points."""
    namespace: dict[str, object] = {}
    try:
        exec(code, namespace)
    except RuntimeError as exc:
        entry = traceback.extract_tb(exc.__traceback__)[1]  # [0] is this function
        return entry.lineno, entry.end_lineno, entry.colno, entry.end_colno
    raise AssertionError("no error")


def test_with_protocol_errors_point_where_cpython_points() -> None:
    """Tracebacks show a failing __enter__/__exit__ where CPython does: the
    whole statement before 3.13, the item's expression from 3.13 (compiled
    with the original positions, as ``unsugar run`` does)."""
    source = textwrap.dedent("""
        class Raises:
            def __init__(self, where):
                self.where = where
            def __enter__(self):
                if self.where == "enter":
                    raise RuntimeError("enter")
            def __exit__(self, *exc):
                if self.where == "exit":
                    raise RuntimeError("exit")
        class Quiet:
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                return None
        with Quiet(), Raises(WHERE) as r, \\
                Quiet() as q:
            pass
    """)
    for where in ("enter", "exit"):
        text = source.replace("WHERE", repr(where))
        original = compile(text, "m.py", "exec")
        desugared = compile_source(text.encode(), "m.py", Options(cache=False))
        assert _first_frame_position(desugared) == _first_frame_position(original), where
