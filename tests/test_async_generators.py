"""Asynchronous generators and asynchronous generator expressions (rules
``async-generator``, ``genexpr``).

Each snippet runs as written and desugared, and prints what the protocol
(``asend``, ``athrow``, ``aclose``, their awaitables), asyncio's hooks and
introspection show, on every way an async generator is driven or ends.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from tests.difftest import assert_same, desugared
from unsugar.checker import check_source

SNIPPETS = {
    "iterate_send_close": """
        import asyncio
        async def ticker(n, *, delay=0):
            "Counts."
            try:
                for i in range(n):
                    await asyncio.sleep(delay)
                    got = yield i
                    if got is not None:
                        print("got", got)
            finally:
                print("ticker finally", n)
        async def main():
            print([x async for x in ticker(3)])
            g = ticker(5)
            print(await g.asend(None), await g.asend("hi"))
            print(await g.aclose(), await g.aclose())
            try:
                await g.__anext__()
            except StopAsyncIteration as e:
                print("stop", repr(e))
            print(await anext(ticker(2)), await anext(ticker(0), "default"))
            async def returns_through_finally():
                for i in range(3):
                    try:
                        if i == 1:
                            return
                        yield i
                    finally:
                        print("finally", i)
            print([x async for x in returns_through_finally()])
        asyncio.run(main())
    """,
    "athrow": """
        import asyncio
        async def ticker(n):
            try:
                for i in range(n):
                    await asyncio.sleep(0)
                    yield i
            finally:
                print("ticker finally", n)
        async def catcher():
            while True:
                try:
                    yield "ready"
                except ValueError as e:
                    yield f"caught {e}"
        async def main():
            h = ticker(5)
            print(await h.__anext__())
            try:
                await h.athrow(ValueError("boom"))
            except ValueError as e:
                print("raised", e)
            try:
                print(await h.athrow(ValueError("again")))
            except StopAsyncIteration as e:
                print("athrow after the end", type(e).__name__)
            try:
                await ticker(2).athrow(KeyError("k"))
            except KeyError as e:
                print("athrow before the start", e)
            k = catcher()
            print(await anext(k), await k.athrow(ValueError("v")), await anext(k))
            await k.aclose()
        asyncio.run(main())
    """,
    "errors_inside": """
        import asyncio
        async def failing(kind):
            yield 1
            raise kind("inner")
        async def ignorer():
            try:
                yield 1
            finally:
                yield 2
        async def main():
            for kind in (StopAsyncIteration, StopIteration, KeyError):
                f = failing(kind)
                print(await anext(f))
                try:
                    await anext(f)
                except BaseException as e:
                    print(type(e).__name__, e, type(e.__cause__).__name__)
            i = ignorer()
            await anext(i)
            try:
                await i.aclose()
            except RuntimeError as e:
                print(e)
        asyncio.run(main())
    """,
    "awaitables_are_used_once": """
        import asyncio
        async def ticker(n):
            for i in range(n):
                yield i
        async def main():
            a = ticker(3)
            first = a.__anext__()
            print(await first)
            try:
                await first
            except RuntimeError as e:
                print(e)
            closing = a.aclose()
            await closing
            try:
                await closing
            except RuntimeError as e:
                print(e)
            await ticker(2).aclose()
        asyncio.run(main())
    """,
    "aclose_awaits_in_finally": """
        import asyncio
        async def awaits_in_finally():
            try:
                yield 1
            finally:
                await asyncio.sleep(0)
                print("cleaned up after await")
        async def main():
            w = awaits_in_finally()
            await anext(w)
            await w.aclose()
            print("closed")
        asyncio.run(main())
    """,
    "already_running": """
        import asyncio
        async def slow():
            try:
                yield 1
                await asyncio.sleep(0.01)
                yield 2
            finally:
                print("slow finally")
        async def main():
            g = slow()
            await anext(g)
            task = asyncio.ensure_future(anext(g))
            await asyncio.sleep(0)
            print("ag_running", g.ag_running)
            for make in (g.__anext__, g.aclose, lambda: g.athrow(ValueError)):
                try:
                    await make()
                except RuntimeError as e:
                    print(e)
            print(await task, g.ag_running)
            await g.aclose()
        asyncio.run(main())
    """,
    "finalised_by_asyncio": """
        import asyncio, gc
        async def slow(tag):
            try:
                yield 1
                await asyncio.sleep(0.01)
                yield 2
            finally:
                print("finally of", tag)
        async def left_unfinished():
            g = slow("unfinished")
            print(await anext(g))
            global keep
            keep = g
        async def dropped():
            g = slow("dropped")
            print(await anext(g))
            del g
            gc.collect()
            await asyncio.sleep(0.05)
            print("after the drop")
        asyncio.run(left_unfinished())
        print("run returned")
        asyncio.run(dropped())
    """,
    "cancelled_consumer": """
        import asyncio
        async def source():
            try:
                yield "first"
                await asyncio.sleep(10)
                yield "never"
            except asyncio.CancelledError:
                print("cancelled inside the generator")
                raise
            finally:
                print("generator finally")
        async def consume():
            async for x in source():
                print("got", x)
        async def main():
            task = asyncio.create_task(consume())
            await asyncio.sleep(0.01)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                print("consumer cancelled", task.cancelled())
        asyncio.run(main())
    """,
    "cancelled_in_async_with_and_finally": """
        import asyncio
        class Resource:
            async def __aenter__(self):
                print("acquire")
                return self
            async def __aexit__(self, *exc):
                await asyncio.sleep(0)
                print("release", exc[0].__name__)
        async def worker():
            try:
                async with Resource():
                    await asyncio.sleep(10)
            finally:
                print("worker finally")
        async def main():
            task = asyncio.create_task(worker())
            await asyncio.sleep(0.01)
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                print("cancelled", task.cancelled())
        asyncio.run(main())
    """,
    "hooks": """
        import asyncio, gc, sys
        calls = []
        def first(agen):
            calls.append(("first", agen.__name__))
        def finalizer(agen):
            calls.append(("finalizer", agen.__name__))
        async def hooked():
            yield 1
            yield 2
        old = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(first, finalizer)
        try:
            g = hooked()
            step = g.asend(None)
            try:
                step.send(None)
            except StopIteration as e:
                print("value", e.value)
            del g, step
            gc.collect()
        finally:
            sys.set_asyncgen_hooks(*old)
        print(calls)
    """,
    "methods_names_and_introspection": """
        import asyncio, collections.abc, inspect
        class Base:
            async def items(self):
                yield "base"
        class Sub(Base):
            async def items(self, n=2, *rest, k=1, **kw):
                "Sub items."
                async for x in super().items():
                    yield x
                def inner():
                    return n
                print(inner.__qualname__, sorted(locals()))
                self.__hidden = n
                yield self.__hidden
        async def main():
            s = Sub()
            print([x async for x in s.items()])
            f = Sub.items
            print(f.__name__, f.__qualname__, f.__doc__, f.__defaults__, f.__kwdefaults__)
            print(inspect.signature(f), inspect.isasyncgenfunction(f),
                  inspect.isasyncgenfunction(s.items), asyncio.iscoroutinefunction(f))
            ag = s.items()
            print(ag.__name__, ag.__qualname__, type(ag).__name__, ag.ag_running, ag.ag_code.co_name)
            print(isinstance(ag, collections.abc.AsyncGenerator),
                  isinstance(ag, collections.abc.AsyncIterator))
            print(repr(ag).startswith("<async_generator object Sub.items at 0x"))
            await ag.aclose()
        asyncio.run(main())
    """,
    "unawaited_awaitables": """
        import asyncio, gc, warnings
        async def items():
            yield 1
        async def main():
            ag = items()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                print(type(ag.asend(None)).__name__, type(ag.athrow(KeyError)).__name__,
                      type(ag.aclose()).__name__)
                gc.collect()
            print([(w.category.__name__, str(w.message)) for w in caught])  # 3.13 warns
            globals().pop("__warningregistry__", None)  # (its version is the process's)
        asyncio.run(main())
    """,
    "generator_expressions": """
        import asyncio
        async def ticker(n):
            for i in range(n):
                await asyncio.sleep(0)
                yield i
        async def two():
            await asyncio.sleep(0)
            return 2
        def plain(xs):
            return (await two() + x for x in xs)
        async def main():
            scale = 10
            gx = (x * scale async for x in ticker(3) if x)
            print(gx.__name__, gx.__qualname__, [y async for y in gx])
            print([y async for y in plain([1, 2])])
            nested = (y async for y in (x + 1 async for x in ticker(2)))
            print([z async for z in nested])
        asyncio.run(main())
    """,
    "asynccontextmanager": """
        import asyncio, contextlib
        @contextlib.asynccontextmanager
        async def managed(tag):
            print("enter", tag)
            try:
                yield tag.upper()
            except KeyError as e:
                print("handled", e)
            finally:
                print("exit", tag)
        async def main():
            async with managed("a") as v:
                print("inside", v)
            async with managed("b"):
                raise KeyError("kk")
            try:
                async with managed("c"):
                    raise ValueError("vv")
            except ValueError as e:
                print("propagated", e)
        asyncio.run(main())
    """,
    "cpythons_own_type": """
        import asyncio, collections.abc, inspect, types
        async def agen():
            await asyncio.sleep(0)
            yield 1
        async def consume(awaitable):  # param tells an async generator from an awaitable so
            if isinstance(awaitable, types.AsyncGeneratorType) and inspect.isasyncgen(awaitable):
                return [value async for value in awaitable]
            return await awaitable
        async def main():
            ag = agen()
            print(type(ag) is types.AsyncGeneratorType, inspect.isasyncgen(ag), type(ag).__name__)
            print(isinstance(ag, collections.abc.AsyncGenerator), inspect.isasyncgenfunction(agen))
            print(await consume(ag), await consume(asyncio.sleep(0, "slept")))
        asyncio.run(main())
    """,
    "freed_after_it_ignored_its_close": """
        import sys
        saved, sys.unraisablehook = sys.unraisablehook, lambda report: print("unraisable", report.exc_value)
        async def agen():
            try:
                yield 1
            finally:
                try:
                    yield 2
                finally:
                    print("inner finally")
        def drive(coroutine):
            try:
                while True:
                    coroutine.send(None)
            except StopIteration:
                pass
        ag = agen()
        drive(anext(ag))
        del ag
        print("freed")
        sys.unraisablehook = saved
    """,
}


@pytest.mark.parametrize("source", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_async_generators(source: str) -> None:
    assert_same(source)


def test_async_generators_are_core() -> None:
    for name in ("iterate_send_close", "generator_expressions", "methods_names_and_introspection"):
        out = desugared(textwrap.dedent(SNIPPETS[name]))
        assert not check_source(out)
        assert not any(isinstance(node, ast.AsyncFunctionDef | ast.Await | ast.AsyncFor)
                       for node in ast.walk(ast.parse(out)))
