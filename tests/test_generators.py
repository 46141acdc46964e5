"""yield from: PEP 380's formal semantics, as CPython runs them."""

import sys
import textwrap

import pytest
from difftest import assert_same

#: ``drive(gen, *actions)`` runs ``("next",)``, ``("send", v)``, ``("throw", e)``
#: and ``("close",)`` on ``gen``, printing each result or exception (with its
#: context and cause); ``chain(e)`` shows an exception's context chain.
DRIVER = """
    def chain(e):
        out = []
        while e is not None:
            out.append(type(e).__name__ + ":" + str(e))
            e = e.__context__
        return " <- ".join(out)
    def drive(gen, *actions):
        for action in actions:
            try:
                if action[0] == "next":
                    result = next(gen)
                elif action[0] == "send":
                    result = gen.send(action[1])
                elif action[0] == "throw":
                    result = gen.throw(action[1])
                else:
                    result = gen.close()
                print(action[0], "->", repr(result))
            except BaseException as e:
                value = getattr(e, "value", None) if isinstance(e, StopIteration) else None
                print(action[0], "raised", chain(e), "cause", repr(e.__cause__), "value", repr(value))
"""

YIELD_FROM = {
    "delegate_to_generator": """
        def inner():
            yield 1
            yield 2
        def outer():
            yield 0
            yield from inner()
            yield 3
        print(list(outer()))
    """,
    "return_value_of_subgenerator": """
        def inner():
            yield 1
            return "done"
        def outer():
            r = yield from inner()
            print("r", r)
            return r
        drive(outer(), ("next",), ("next",))
    """,
    "send_goes_to_subgenerator": """
        def inner():
            x = yield "first"
            print("inner got", x)
            y = yield "second"
            print("inner got", y)
            return x + y
        def outer():
            r = yield from inner()
            print("outer r", r)
            yield r
        drive(outer(), ("next",), ("send", 10), ("send", 20), ("next",))
    """,
    "first_send_must_be_none": """
        def inner():
            yield 1
        def outer():
            yield from inner()
        drive(outer(), ("send", 5))
    """,
    "send_none_is_next": """
        def inner():
            x = yield 1
            print("got", x)
            yield 2
        def outer():
            yield from inner()
        drive(outer(), ("send", None), ("send", None), ("send", None))
    """,
    "plain_iterator_list_range_str": """
        def outer():
            a = yield from [1, 2]
            b = yield from range(3)
            c = yield from "ab"
            d = yield from (5, 6)
            yield (a, b, c, d)
        print(list(outer()))
    """,
    "send_value_to_plain_iterator": """
        def outer():
            yield from [1, 2, 3]
        drive(outer(), ("next",), ("send", None), ("send", 5), ("next",))
    """,
    "empty_subiterator": """
        def empty():
            return "nothing"
            yield
        def outer():
            a = yield from []
            b = yield from empty()
            print("a", a, "b", b)
            yield "end"
        print(list(outer()))
    """,
    "first_next_stop_iteration_value": """
        class It:
            def __iter__(self):
                return self
            def __next__(self):
                raise StopIteration(42)
        def outer():
            r = yield from It()
            print("r", r)
            yield r
        print(list(outer()))
    """,
    "stop_iteration_subclass_value": """
        class Stop(StopIteration):
            pass
        class It:
            def __iter__(self):
                return self
            def __next__(self):
                raise Stop("v")
        def outer():
            yield (yield from It())
        print(list(outer()))
    """,
    "stop_iteration_value_attribute_ignored": """
        class Stop(StopIteration):
            @property
            def value(self):
                return "property"
        def inner():
            raise Stop("slot")
            yield
        def outer():
            yield (yield from inner())
        drive(outer(), ("next",))
    """,
    "iterator_returning_stop_value_via_return": """
        def inner():
            yield 1
            return (1, 2)
        def outer():
            x, y = yield from inner()
            yield x + y
        print(list(outer()))
    """,
    "not_iterable": """
        def outer():
            yield from 5
        drive(outer(), ("next",))
    """,
    "iter_returns_non_iterator": """
        class Bad:
            def __iter__(self):
                return 3
        def outer():
            yield from Bad()
        drive(outer(), ("next",))
    """,
    "evaluation_order": """
        def inner(tag):
            print("inner", tag)
            yield tag
            return tag
        def f(*args):
            print("f", args)
            return args
        def outer():
            r = f(print("a"), (yield from inner(1)), print("b"), (yield from inner(2)))
            yield r
        print(list(outer()))
    """,
    "yield_from_as_argument": """
        def inner():
            yield 1
            return 2
        def outer():
            print("value", (yield from inner()))
            yield str((yield from inner()))
        print(list(outer()))
    """,
    "yield_from_in_condition_and_boolean": """
        def inner(v):
            yield "i"
            return v
        def outer():
            if (yield from inner(0)) or (yield from inner(3)):
                yield "true"
            while (yield from inner(0)):
                yield "never"
            yield (yield from inner(0)) and (yield from inner(1))
        print(list(outer()))
    """,
    "yield_from_in_lambda": """
        f = lambda: (yield from [1, 2])
        print(list(f()))
    """,
    "nested_three_deep": """
        def level3():
            x = yield "l3"
            print("l3 got", x)
            try:
                yield "l3b"
            except KeyError as e:
                print("l3 caught", repr(e))
                return "r3"
        def level2():
            r = yield from level3()
            print("l2 r", r)
            return "r2:" + r
        def level1():
            r = yield from level2()
            print("l1 r", r)
            yield r
        drive(level1(), ("next",), ("send", "s"), ("throw", KeyError("k")), ("next",))
    """,
    "throw_caught_by_subgenerator": """
        def inner():
            try:
                yield 1
            except ValueError as e:
                print("inner caught", repr(e))
                yield "recovered"
            yield 3
        def outer():
            yield from inner()
            yield "outer"
        drive(outer(), ("next",), ("throw", ValueError("x")), ("next",), ("next",), ("next",))
    """,
    "throw_class_caught_by_subgenerator": """
        def inner():
            try:
                yield 1
            except ValueError as e:
                print("inner caught", repr(e))
                yield "recovered"
        def outer():
            yield from inner()
        drive(outer(), ("next",), ("throw", ValueError))
    """,
    "throw_not_caught": """
        def inner():
            try:
                yield 1
            finally:
                print("inner finally")
        def outer():
            try:
                yield from inner()
            except ValueError as e:
                print("outer caught", repr(e))
                yield "outer"
        drive(outer(), ("next",), ("throw", ValueError("x")), ("next",))
    """,
    "throw_converted": """
        def inner():
            try:
                yield 1
            except ValueError:
                raise TypeError("converted")
        def outer():
            yield from inner()
        drive(outer(), ("next",), ("throw", ValueError("x")))
    """,
    "throw_ends_subgenerator_with_return": """
        def inner():
            try:
                yield 1
            except ValueError:
                return "returned"
        def outer():
            r = yield from inner()
            print("r", r)
            yield r
        drive(outer(), ("next",), ("throw", ValueError("x")), ("next",))
    """,
    "throw_into_plain_iterator": """
        def outer():
            try:
                yield from [1, 2]
            except ValueError as e:
                print("outer caught", repr(e))
            yield "after"
        drive(outer(), ("next",), ("throw", ValueError("x")), ("next",))
    """,
    "throw_into_iterator_with_throw_method": """
        class It:
            def __iter__(self):
                return self
            def __next__(self):
                return "next"
            def throw(self, exc):
                print("throw got", repr(exc))
                if isinstance(exc, KeyError):
                    raise StopIteration("stopped")
                return "thrown"
        def outer():
            r = yield from It()
            print("r", r)
            yield r
        drive(outer(), ("next",), ("throw", ValueError("v")), ("throw", KeyError("k")), ("next",))
    """,
    "fresh_exception_after_handler_has_no_context": """
        def inner():
            try:
                yield 1
            except ValueError:
                pass
            raise TypeError("t")
        def outer():
            yield from inner()
        drive(outer(), ("next",), ("throw", ValueError("x")))
    """,
    "context_from_delegating_handler": """
        def inner():
            try:
                yield 1
            except ValueError:
                pass
            raise TypeError("t")
        def outer():
            try:
                raise KeyError("k")
            except KeyError:
                yield from inner()
        drive(outer(), ("next",), ("throw", ValueError("x")))
    """,
    "context_of_exception_from_subgenerator": """
        def inner():
            try:
                raise KeyError("first")
            except KeyError:
                yield 1
                raise ValueError("second")
        def outer():
            yield from inner()
        drive(outer(), ("next",), ("next",))
    """,
    "thrown_while_caller_handles": """
        def outer():
            yield from [1, 2]
        g = outer()
        next(g)
        try:
            raise KeyError("caller")
        except KeyError:
            drive(g, ("throw", ValueError("x")))
    """,
    "throw_stop_iteration": """
        def inner():
            yield 1
        def outer():
            r = yield from inner()
            yield r
        drive(outer(), ("next",), ("throw", StopIteration(7)))
    """,
    "close_subgenerator": """
        def inner():
            try:
                yield 1
            finally:
                print("inner finally")
        def outer():
            try:
                yield from inner()
            finally:
                print("outer finally")
        drive(outer(), ("next",), ("close",), ("close",))
    """,
    "close_subgenerator_handling_generator_exit": """
        def inner():
            try:
                yield 1
            except GeneratorExit as e:
                print("inner got", type(e).__name__)
                raise
        def outer():
            try:
                yield from inner()
            except GeneratorExit:
                print("outer got GeneratorExit")
                raise
        drive(outer(), ("next",), ("close",))
    """,
    "close_subgenerator_that_returns": """
        def inner():
            try:
                yield 1
            except GeneratorExit:
                return "ignored"
        def outer():
            try:
                yield from inner()
            except GeneratorExit:
                print("outer got GeneratorExit")
                raise
        drive(outer(), ("next",), ("close",))
    """,
    "close_subgenerator_that_yields": """
        def inner():
            try:
                yield 1
            except GeneratorExit:
                yield "again"
        def outer():
            try:
                yield from inner()
            finally:
                print("outer finally")
        drive(outer(), ("next",), ("close",))
    """,
    "close_subgenerator_that_raises": """
        def inner():
            try:
                yield 1
            except GeneratorExit:
                raise ValueError("in close")
        def outer():
            try:
                yield from inner()
            except ValueError as e:
                print("outer caught", chain(e))
                raise
        drive(outer(), ("next",), ("close",))
    """,
    "close_plain_iterator_without_close": """
        def outer():
            try:
                yield from iter([1, 2])
            except GeneratorExit:
                print("outer got GeneratorExit")
                raise
        drive(outer(), ("next",), ("close",))
    """,
    "close_iterator_with_close_method": """
        class It:
            def __iter__(self):
                return self
            def __next__(self):
                return 1
            def close(self):
                print("It.close")
        def outer():
            try:
                yield from It()
            except GeneratorExit:
                print("outer got GeneratorExit")
                raise
        drive(outer(), ("next",), ("close",))
    """,
    "close_method_raises": """
        class It:
            def __iter__(self):
                return self
            def __next__(self):
                return 1
            def close(self):
                raise KeyError("close failed")
        def outer():
            yield from It()
        drive(outer(), ("next",), ("close",))
    """,
    "throw_generator_exit": """
        def inner():
            try:
                yield 1
            finally:
                print("inner finally")
        def outer():
            try:
                yield from inner()
            except GeneratorExit as e:
                print("outer caught", repr(e))
                yield "caught"
        drive(outer(), ("next",), ("throw", GeneratorExit("ge")), ("next",))
    """,
    "generator_exit_keeps_context_in_handler": """
        def outer():
            try:
                raise KeyError("k")
            except KeyError:
                try:
                    yield from [1]
                except GeneratorExit as e:
                    print("context", chain(e))
                    raise
        drive(outer(), ("next",), ("close",))
    """,
    "yield_from_in_try_finally": """
        def inner():
            yield 1
            yield 2
        def outer():
            try:
                r = yield from inner()
                return "done"
            finally:
                print("finally")
        drive(outer(), ("next",), ("next",), ("next",))
    """,
    "yield_from_in_with": """
        class CM:
            def __enter__(self):
                print("enter")
            def __exit__(self, *args):
                print("exit", args[0])
                return True
        def inner():
            yield 1
            raise KeyError("k")
        def outer():
            with CM():
                yield from inner()
            yield "after"
        print(list(outer()))
    """,
    "yield_from_in_for_loop_with_break": """
        def inner(n):
            for i in range(n):
                yield i
            return n
        def outer():
            for n in range(4):
                r = yield from inner(n)
                if r == 2:
                    break
            else:
                yield "no break"
            yield "end"
        print(list(outer()))
    """,
    "stop_iteration_in_body_after_yield_from": """
        def outer():
            yield from [1]
            raise StopIteration("leak")
        drive(outer(), ("next",), ("next",))
    """,
    "exception_in_initial_next": """
        def inner():
            raise ValueError("early")
            yield
        def outer():
            try:
                yield from inner()
            except ValueError as e:
                print("caught", e)
            yield "ok"
        print(list(outer()))
    """,
    "already_executing": """
        def inner():
            yield next(g)
        def outer():
            yield from inner()
        g = outer()
        drive(g, ("next",))
    """,
    "coroutine_in_plain_generator": """
        async def co():
            return 1
        c = co()
        def outer():
            yield from c
        drive(outer(), ("next",))
        c.close()
    """,
    "coroutine_in_types_coroutine": """
        import types
        async def co():
            return 1
        @types.coroutine
        def outer():
            r = yield from co()
            print("r", r)
            return r
        drive(outer(), ("send", None))
    """,
    "delegate_to_generator_that_yields_none": """
        def inner():
            x = yield
            print("x", x)
            return x
        def outer():
            return (yield from inner())
        drive(outer(), ("next",), ("send", "v"))
    """,
    "yield_from_shadowed_builtins": """
        iter = next = None
        def outer():
            r = yield from [1, 2]
            yield r
        print(list(outer()))
    """,
    "subgenerator_released_after_yield_from": """
        import gc, weakref
        class It:
            def __init__(self):
                self.items = [1, 2]
            def __iter__(self):
                return self
            def __next__(self):
                if self.items:
                    return self.items.pop()
                raise StopIteration
        def outer():
            it = It()
            ref = weakref.ref(it)
            yield from it
            del it
            gc.collect()
            yield ref() is None
        print(list(outer()))
    """,
    "subgenerator_frame_called_from_delegator": """
        import sys
        def names():
            frame = sys._getframe(1)
            return [frame.f_code.co_name, frame.f_back.f_code.co_name]
        def inner():
            print("inner", names())
            try:
                yield 1
            except KeyError:
                print("inner after throw", names())
                yield 2
            print("inner after send", names())
        def outer():
            yield from inner()
        drive(outer(), ("next",), ("throw", KeyError("k")), ("next",))
    """,
    "yield_from_value_in_return_of_method": """
        class C:
            def gen(self):
                v = yield from self.sub()
                return v * 2
            def sub(self):
                yield "s"
                return 21
        drive(C().gen(), ("next",), ("next",))
    """,
}


#: Snippets that define an ``async def`` (the async family is another rule's).
ASYNC = ("coroutine_in_plain_generator", "coroutine_in_types_coroutine")


@pytest.mark.parametrize("name", sorted(YIELD_FROM))
def test_yield_from(name: str) -> None:
    allow = ("asyncfunctiondef",) if name in ASYNC else ()
    assert_same(textwrap.dedent(DRIVER) + textwrap.dedent(YIELD_FROM[name]), allow=allow)


def test_stop_iteration_thrown_while_delegating_depends_on_version() -> None:
    """3.11 lets it escape (RuntimeError); 3.12+ ends the ``yield from`` with its value."""
    outcome = assert_same(textwrap.dedent(DRIVER) + textwrap.dedent("""
        def outer():
            r = yield from [1, 2]
            print("r", r)
            yield r
        drive(outer(), ("next",), ("throw", StopIteration(7)))
    """))
    expected = "throw -> 7" if sys.version_info >= (3, 12) else "throw raised RuntimeError"
    assert expected in outcome.stdout
