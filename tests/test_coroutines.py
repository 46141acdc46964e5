"""Coroutines: ``async def`` and ``await`` (rules ``async-def``, ``await``).

Each snippet runs as written and desugared, and prints what asyncio, the
coroutine protocol and introspection show.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.difftest import assert_same, desugared

#: An asynchronous iterator of 1..n that awaits before each item (``COUNT`` snippets use it).
COUNT = """
import asyncio
class Count:
    def __init__(self, n):
        self.i, self.n = 0, n
    def __aiter__(self):
        return self
    async def __anext__(self):
        await asyncio.sleep(0)
        if self.i >= self.n:
            raise StopAsyncIteration
        self.i += 1
        return self.i
"""

SNIPPETS = {
    "run_and_return": """
        import asyncio
        async def add(a, b=1, *rest, c=0, **extra):
            await asyncio.sleep(0)
            return a + b + sum(rest) + c + sum(extra.values())
        async def main():
            return await add(1), await add(1, 2, 3, c=4, d=5)
        print(asyncio.run(main()))
    """,
    "never_awaits": """
        import asyncio
        async def five():
            return 5
        print(asyncio.run(five()))
    """,
    "tasks_gather_wait_for_shield": """
        import asyncio
        async def job(n, delay=0):
            await asyncio.sleep(delay)
            return n * 10
        async def main():
            print(await asyncio.gather(job(1), job(2), job(3)))
            task = asyncio.create_task(job(4))
            print(await task, task.done())
            try:
                await asyncio.wait_for(job(5, 10), 0.01)
            except TimeoutError:
                print("timed out")
            print(await asyncio.shield(job(6)))
            done = []
            for future in asyncio.as_completed([job(7), job(8)]):
                done.append(await future)
            print(sorted(done))
        asyncio.run(main())
    """,
    "cancellation_runs_cleanup": """
        import asyncio
        async def worker(log):
            try:
                log.append("started")
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                log.append("cancelled at the await")
                raise
            finally:
                log.append("finally")
        async def main():
            log = []
            task = asyncio.create_task(worker(log))
            await asyncio.sleep(0)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                log.append("main saw it")
            print(log, task.cancelled())
        asyncio.run(main())
    """,
    "task_group_and_timeout": """
        import asyncio, sys
        async def ok(n):
            await asyncio.sleep(0)
            return n
        async def bad():
            await asyncio.sleep(0)
            raise ValueError("bad child")
        async def main():
            try:
                async with asyncio.TaskGroup() as group:
                    group.create_task(ok(1))
                    group.create_task(bad())
            except* ValueError as errors:
                print("group:", [str(e) for e in errors.exceptions])
            try:
                async with asyncio.timeout(0.01):
                    await asyncio.sleep(10)
            except TimeoutError:
                print("timeout")
        asyncio.run(main())
    """,
    "queue_and_lock": """
        import asyncio
        async def producer(queue, n):
            for i in range(n):
                await queue.put(i)
            await queue.put(None)
        async def consumer(queue, lock, out):
            while True:
                item = await queue.get()
                if item is None:
                    return
                async with lock:
                    out.append(item)
        async def main():
            queue, lock, out = asyncio.Queue(2), asyncio.Lock(), []
            await asyncio.gather(producer(queue, 5), consumer(queue, lock, out))
            print(out)
        asyncio.run(main())
    """,
    "exceptions_and_chaining": """
        import asyncio
        async def fails():
            await asyncio.sleep(0)
            raise KeyError("inner")
        async def main():
            try:
                await fails()
            except KeyError as error:
                raise ValueError("outer") from error
        try:
            asyncio.run(main())
        except ValueError as error:
            print(repr(error), repr(error.__cause__))
        async def stops():
            raise StopIteration
        try:
            asyncio.run(stops())
        except RuntimeError as error:
            print(error, type(error.__cause__).__name__)
    """,
    "protocol": """
        import types
        @types.coroutine
        def suspend(value):
            sent = yield value
            return sent
        async def child():
            return await suspend("first") * 2
        async def parent():
            try:
                return await child()
            except KeyError as e:
                return "caught " + str(e)
        c = parent()
        print(type(c).__name__, c.__name__, c.__qualname__, c.cr_code.co_name, c.cr_running)
        print(c.send(None))
        try:
            c.send(21)
        except StopIteration as stop:
            print("returned", stop.value)
        try:
            c.send(None)
        except RuntimeError as e:
            print(e)
        c = parent()
        print(c.send(None))
        try:
            c.throw(KeyError("k"))
        except StopIteration as stop:
            print(stop.value)
        c = parent()
        c.send(None)
        c.close()
        print(c.cr_frame)
    """,
    "awaitables_and_errors": """
        import warnings
        warnings.simplefilter("ignore")  # (where a coroutine left unawaited is collected differs)
        class Future:
            def __await__(self):
                yield "waiting"
                return 42
        class NotIterator:
            def __await__(self):
                return 5
        class ReturnsCoroutine:
            def __await__(self):
                return inner()
        async def inner():
            return 1
        async def use(x):
            return await x
        c = use(Future())
        print(c.send(None))
        try:
            c.send(None)
        except StopIteration as s:
            print(s.value)
        for bad in (5, NotIterator(), ReturnsCoroutine()):
            c = use(bad)
            try:
                c.send(None)
            except TypeError as e:
                print(e)
            except StopIteration:
                print("stopped")
        twice = inner()
        async def await_twice():
            await twice
            await twice
        try:
            await_twice().send(None)
        except RuntimeError as e:
            print(e)
        globals().pop("__warningregistry__", None)  # (its version is the process's)
    """,
    "never_awaited_warning": """
        import gc, warnings
        async def lonely():
            return 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lonely()
            gc.collect()
        print([(w.category.__name__, str(w.message)) for w in caught])
        globals().pop("__warningregistry__", None)  # (its version is the process's)
    """,
    "introspection": """
        import asyncio, inspect, collections.abc, types
        async def f():
            pass
        class C:
            async def method(self):
                return super().__repr__ is not None
        c = f()
        print(inspect.iscoroutinefunction(f), asyncio.iscoroutinefunction(f),
              inspect.iscoroutine(c), asyncio.iscoroutine(c), isinstance(c, collections.abc.Coroutine),
              isinstance(c, collections.abc.Awaitable), type(c) is types.CoroutineType)
        print(inspect.getcoroutinestate(c), f.__qualname__, C.method.__qualname__)
        c.close()
        print(asyncio.run(C().method()), inspect.iscoroutinefunction(C.method))
    """,
    "closures_and_decorators": """
        import asyncio, functools
        def logged(function):
            @functools.wraps(function)
            async def wrapper(*args):
                print("call", function.__name__)
                return await function(*args)
            return wrapper
        def make(n):
            async def inner(x):
                nonlocal n
                n += x
                return n
            return inner
        @logged
        async def double(x):
            'Doc.'
            return x * 2
        async def main():
            step = make(10)
            print(await step(1), await step(2), await double(4), double.__doc__)
        asyncio.run(main())
    """,
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_coroutines(source: str) -> None:
    assert_same(source)


def test_rewritten_coroutines_leave_no_async_syntax() -> None:
    out = desugared(textwrap.dedent(SNIPPETS["task_group_and_timeout"]))
    assert "async " not in out and "await " not in out


WITH_COUNT = {
    "async_for_else_break_continue": """
        import asyncio
        async def main():
            async for x in Count(3):
                print("item", x)
            else:
                print("else")
            async for x in Count(5):
                if x == 2:
                    continue
                if x == 4:
                    break
                print("kept", x)
            else:
                print("not reached")
            async for a, b in Pairs():
                print(a, b)
        class Pairs(Count):
            def __init__(self):
                super().__init__(2)
            async def __anext__(self):
                return (await super().__anext__(), "p")
        asyncio.run(main())
    """,
    "async_for_errors": """
        import asyncio
        class NoNext:
            def __aiter__(self):
                return 5
        class BadNext:
            def __aiter__(self):
                return self
            def __anext__(self):
                return 5
        class Raises:
            def __aiter__(self):
                return self
            async def __anext__(self):
                raise StopAsyncIteration
        async def over(x):
            async for item in x:
                raise StopAsyncIteration("from the body")
        for x in (5, NoNext(), BadNext(), Raises()):
            try:
                over(x).send(None)
            except (TypeError, StopIteration) as e:
                print(type(e).__name__, e)
        class One:
            def __aiter__(self):
                return self
            async def __anext__(self):
                return 1
        try:
            over(One()).send(None)
        except Exception as e:
            print(type(e).__name__, e)
    """,
    "async_with_protocol": """
        import asyncio
        class Manager:
            def __init__(self, name, swallow=False):
                self.name, self.swallow = name, swallow
            async def __aenter__(self):
                print("enter", self.name)
                await asyncio.sleep(0)
                return self.name
            async def __aexit__(self, kind, value, tb):
                print("exit", self.name, kind.__name__ if kind else None)
                return self.swallow
        async def main():
            async with Manager("a") as a, Manager("b", swallow=True) as b:
                print("body", a, b)
                raise KeyError
            for n in range(3):
                async with Manager(n):
                    if n == 0:
                        continue
                    if n == 1:
                        break
            try:
                async with Manager("c"):
                    raise ValueError("out")
            except ValueError as e:
                print("propagated", e)
            async with Manager("d") as d:
                return d
        print(asyncio.run(main()))
        for bad in (5, type("A", (), {"__aenter__": lambda self: 1, "__aexit__": lambda *a: 1})()):
            async def use():
                async with bad:
                    pass
            try:
                use().send(None)
            except TypeError as e:
                print(e)
    """,
    "async_comprehensions": """
        import asyncio
        async def double(x):
            await asyncio.sleep(0)
            return 2 * x
        async def main():
            a = [x async for x in Count(3)]
            b = {x: await double(x) for x in range(3)}
            c = {y async for x in Count(2) for y in (x, -x) if y}
            d = [(x, y) for x in range(2) async for y in Count(2)]
            e = [[await double(z) for z in range(x)] for x in range(3)]
            return a, b, sorted(c), d, e
        print(asyncio.run(main()))
        async def bad():
            return [x async for x in 5]
        try:
            asyncio.run(bad())
        except TypeError as error:
            print(error)
    """,
}


@pytest.mark.parametrize("source", WITH_COUNT.values(), ids=WITH_COUNT.keys())
def test_async_for_with_and_comprehensions(source: str) -> None:
    assert_same(COUNT + textwrap.dedent(source))


TRACEBACK_THROUGH_DELEGATION = """
import traceback

async def inner():
    raise ValueError("inner")

async def outer():
    try:
        await inner()
    except ValueError as error:
        print([entry.name for entry in traceback.extract_tb(error.__traceback__)])
    await inner()

def numbers():
    yield 1
    raise KeyError("numbers")

def delegating():
    try:
        yield from numbers()
    except KeyError as error:
        print([entry.name for entry in traceback.extract_tb(error.__traceback__)])
    yield from numbers()

try:
    outer().send(None)
except ValueError as error:
    print([entry.name for entry in traceback.extract_tb(error.__traceback__)])
try:
    list(delegating())
except KeyError as error:
    print([entry.name for entry in traceback.extract_tb(error.__traceback__)])
"""


def test_an_error_through_await_or_yield_from_has_one_entry_of_the_delegating_frame() -> None:
    """The error a subiterator raises is raised again by a helper: the
    delegating frame's entry, which that frame adds again, is dropped first."""
    assert_same(TRACEBACK_THROUGH_DELEGATION)


THROWN_INTO_DELEGATION = """
import gc, traceback, weakref

class Kept:
    def __init__(self, name):
        weakref.finalize(self, print, name, "freed")

class Pending:
    def __await__(self):
        yield self

def entries(error):
    return [entry.name for entry in traceback.extract_tb(error.__traceback__)]

async def task():
    kept = Kept("task's")
    await Pending()

def sub():
    yield 1

def delegating(iterable):
    kept = Kept("delegating's")
    yield from iterable

async def agen():
    kept = Kept("agen's")
    await Pending()
    yield 1

def raised():
    try:
        raise KeyError("earlier")
    except KeyError as error:
        return error

gc.disable()
coroutine = task()
coroutine.send(None)
try:
    coroutine.throw(KeyError("thrown"))
except KeyError as error:
    print("caught", entries(error))
print("after the handler")
for iterable, thrown in [(sub(), KeyError), (iter([1, 2]), KeyError), (sub(), raised()),
                         (iter([1, 2]), raised())]:
    generator = delegating(iterable)
    next(generator)
    try:
        generator.throw(thrown)
    except KeyError as error:
        print("caught", entries(error))
    del error
    print("after the handler")
generator = delegating(iter([1, 2]))
next(generator)
generator.close()
print("closed")
awaitable = agen().asend(None)
awaitable.send(None)
try:
    awaitable.throw(KeyError("thrown"))
except KeyError:
    print("caught")
print("after the handler")
awaitable = agen().asend(None)
awaitable.send(None)
awaitable.close()
print("closed")
gc.enable()
"""


@pytest.mark.parametrize("semantics", ["python", "native"])
def test_an_exception_thrown_into_a_delegating_frame_is_freed_with_its_handler(semantics: str) -> None:
    """No local of the delegating frame, and none of a runtime frame the
    exception leaves, holds the exception or the ``throw`` bound to it (a
    cycle that only the garbage collector would free), and its traceback has
    the entries CPython's has."""
    assert_same(THROWN_INTO_DELEGATION, semantics=semantics)
