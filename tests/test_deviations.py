"""The documented differences (README, "Allowed deviations" and "Known
limitations"), pinned: each test shows the difference as it is today, so a
change in behaviour is noticed and the README kept true."""

from __future__ import annotations

import sys
import textwrap
import traceback

import pytest
from difftest import desugared, run

from unsugar.runner import Options, compile_source


def outputs(source: str) -> tuple[str, str]:
    """What ``source`` prints, as written and desugared."""
    source = textwrap.dedent(source)
    original = run(source)
    rewritten = run(desugared(source))
    assert original.error is None and rewritten.error is None
    return original.stdout, rewritten.stdout


def test_super_after_its_first_argument_is_deleted() -> None:
    """Core syntax cannot unbind a variable: ``del x`` leaves a marker (reads
    raise ``UnboundLocalError`` and ``locals()`` hides it, as in CPython), so a
    zero-argument ``super()`` still finds its first argument."""
    original, rewritten = outputs("""
        class C:
            def m(self):
                def f(x):
                    del x
                    super()
                try:
                    f(None)
                except (RuntimeError, TypeError) as error:
                    print(type(error).__name__)
        C().m()
    """)
    assert original == "RuntimeError\n"
    assert rewritten == "TypeError\n"


def test_frames_above_a_module_body_are_two_more() -> None:
    """The module def and the module's own frame run above a module body:
    code that walks the frames sees them (``warnings.warn`` counts past them,
    ``test_module_namespace``), as python-dateutil's ``zoneinfo`` does when it
    counts its own ``stacklevel``."""
    original, rewritten = outputs("""
        import sys
        frame, names = sys._getframe(), []
        while frame is not None and frame.f_code.co_filename == "<difftest>":
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        print(names)
    """)
    assert original == "['<module>']\n"
    assert rewritten == "['<module>', '_us_module', '<module>']\n"


def _frames(code: object) -> list[str]:
    namespace: dict[str, object] = {"__name__": "m"}
    try:
        exec(code, namespace)
    except ZeroDivisionError as exc:
        return [entry.name for entry in traceback.extract_tb(exc.__traceback__)[1:]]
    raise AssertionError("no error")


def test_error_raised_in_a_helper_shows_its_frame() -> None:
    """An operator's error is raised inside its helper: one more frame."""
    source = "def f(n):\n    return 1 / n\nf(0)\n"
    original = _frames(compile(source, "m.py", "exec"))
    rewritten = _frames(compile_source(source.encode(), "m.py", Options(cache=False)))
    assert original == ["<module>", "f"]
    assert rewritten[:2] == ["<module>", "f"] and len(rewritten) > 2


def test_delegating_generator_has_no_gi_yieldfrom() -> None:
    original, rewritten = outputs("""
        def inner():
            yield 1
        def outer():
            yield from inner()
        g = outer()
        next(g)
        print(g.gi_yieldfrom is None)
    """)
    assert (original, rewritten) == ("False\n", "True\n")


def test_a_subiterators_method_is_called_from_the_delegating_generator() -> None:
    """CPython calls the ``throw`` (``send``, ``close``) of a subiterator that
    is no generator from C, with the frame that resumed the delegating
    generator as the caller; the output's loop calls it from the delegating
    generator. A cycle made in that method (a frame that holds the exception
    it raises) then holds the caller's frame, and what that frame holds waits
    for the garbage collector, where the output frees it at once."""
    original, rewritten = outputs("""
        import gc, sys
        gc.disable()
        class Sub:
            def __iter__(self):
                return self
            def __next__(self):
                return 1
            def throw(self, error, *rest):
                print("called from", sys._getframe(1).f_code.co_name)
                raise error  # (this frame holds error, whose traceback holds this frame)
        class Watched:
            def __del__(self):
                print("freed")
        def outer():
            try:
                yield from Sub()
            except KeyError:
                yield 2
        def drive():
            watched = Watched()
            g = outer()
            next(g)
            print(g.throw(KeyError))
        drive()
        print("returned")
        gc.collect()
    """)
    assert original == "called from drive\n2\nreturned\nfreed\n"
    assert rewritten.splitlines()[0] != "called from drive"
    assert rewritten.endswith("2\nfreed\nreturned\n")


def test_a_functions_annotations_die_in_order() -> None:
    """CPython keeps a function's annotations as a tuple until they are read
    (its items die last first); the output's function has its dict at once."""
    original, rewritten = outputs("""
        class R:
            def __init__(self, n):
                self.n = n
            def __del__(self):
                print("del", self.n)
        def f(a: R(1), b: R(2)) -> R(3):
            pass
        del f
        def g(a: R(4)) -> R(5):
            pass
        g.__annotations__
        del g
    """)
    assert original.split() == "del 3 del 2 del 1 del 4 del 5".split()
    assert rewritten.split() == "del 1 del 2 del 3 del 4 del 5".split()


def test_a_match_releases_what_its_patterns_took_when_a_body_starts() -> None:
    """The last case before the default consumes the subject: CPython drops
    the tuple and the item its class pattern matched before the guard runs,
    and on a failure pops what is left in reverse; the output releases them
    as the body starts, or after the match, in the order they were taken."""
    original, rewritten = outputs("""
        class R:
            __match_args__ = ("n",)
            def __init__(self, n):
                self.n = n
            def __del__(self):
                print("del", self.n)
        def f(k):
            match (R(10 + k), R(20 + k)):
                case (R(10), b):
                    print("first")
                case (a, R(21)) if print("guard") or True:
                    print("second")
                case _:
                    print("none")
        f(1)
        f(2)
    """)
    assert original.split() == "del 21 guard second del 11 del 22 del 12 none".split()
    assert rewritten.split() == "guard del 21 second del 11 del 12 del 22 none".split()


@pytest.mark.skipif(sys.version_info < (3, 12), reason="comprehensions are inlined from 3.12")
def test_comprehension_runs_in_a_frame_of_its_own() -> None:
    """3.12 inlines list comprehensions (PEP 709): their frame is the
    function's; the output keeps a def, so the frame's locals differ."""
    original, rewritten = outputs("""
        import sys
        def f():
            outer = 1
            return [sorted(n for n in sys._getframe().f_locals if not n.startswith("_us"))
                    for item in (1,)]
        print(f())
    """)
    assert original == "[['item', 'outer']]\n"
    assert rewritten == "[['item']]\n"


@pytest.mark.skipif(sys.version_info < (3, 12), reason="comprehensions are inlined from 3.12")
def test_an_inlined_comprehension_reading_an_unbound_variable() -> None:
    """3.12 reads the function's variable as its own local; the output's
    comprehension reads it as a free variable, as 3.11 does."""
    original, rewritten = outputs("""
        def f(xs):
            try:
                return [x + a for x in xs]
            except NameError as error:
                print(type(error).__name__)
            a = 1
        f([1])
    """)
    assert (original, rewritten) == ("UnboundLocalError\n", "NameError\n")


def test_a_later_inlined_comprehension_reads_the_outer_name() -> None:
    """CPython 3.12.1 reads a name that an earlier inlined comprehension of
    the function bound as its variable as that hidden local (gh-118513,
    fixed later): the output reads the outer name, as 3.11 and 3.13 do."""
    source = textwrap.dedent("""
        a = 1
        def f():
            [a for a in range(2)]
            return [a for b in range(1)]
        print(f())
    """)
    assert run(desugared(source)).stdout == "[1]\n"
    original = run(source)
    if sys.version_info[:3] == (3, 12, 1):
        assert original.error is not None and original.error[0] == "UnboundLocalError"
    else:
        assert original.stdout == "[1]\n"


def test_exec_with_separate_locals_reads_module_names_from_the_globals() -> None:
    """The output stores into the mapping it runs in, but reads module names
    as globals (``LOAD_GLOBAL``), not ``LOAD_NAME``'s locals-then-globals."""
    source = "x = 1\ntry:\n    print(x)\nexcept NameError:\n    print('NameError')\n"
    printed = []
    for code in (source, desugared(source)):
        scope: dict[str, object] = {}
        names: dict[str, object] = {}
        buffer = __import__("io").StringIO()
        with __import__("contextlib").redirect_stdout(buffer):
            exec(code, scope, names)
        printed.append((buffer.getvalue(), sorted(names)))
    assert printed[0] == ("1\n", ["x"])
    assert printed[1] == ("NameError\n", ["x"])


def test_values_of_one_call_die_in_order_of_creation() -> None:
    """A temporary holds each value until the call returns, so a callee that
    packs its arguments into ``*args`` does not decide the order they die in."""
    original, rewritten = outputs("""
        class R:
            def __init__(self, n):
                self.n = n
            def __del__(self):
                print("del", self.n)
        def f(*args):
            return 0
        f(R(1), R(2) or 0)
    """)
    assert original == "del 2\ndel 1\n"
    assert rewritten == "del 1\ndel 2\n"


def test_an_async_generator_awaiting_shows_no_ag_await() -> None:
    """An ``await`` is a ``yield from`` loop in the async generator's body, so
    ``ag_await`` is ``None`` while it waits, as ``cr_await`` is."""
    original, rewritten = outputs("""
        import asyncio
        async def agen():
            await asyncio.sleep(0)
            yield 1
        async def main():
            ag = agen()
            step = asyncio.ensure_future(anext(ag))
            await asyncio.sleep(0)
            print(ag.ag_await is None)
            await step
        asyncio.run(main())
    """)
    assert original == "False\n"
    assert rewritten == "True\n"


def test_locals_of_a_function_read_under_another_name_shows_the_temporaries() -> None:
    """In a function, ``locals()``, ``vars()`` and ``dir()`` written so leave
    the compiler's temporaries out (rule ``locals``). Called under another
    name, or in a string given to ``eval``, they give what the frame holds,
    as its ``f_locals`` does: looking at the callee of every call in every
    function would cost each call a helper's frame."""
    original, rewritten = outputs("""
        names = locals
        def f(a):
            for i in range(1):
                pass
            return sorted(locals()), sorted(names()), sorted(eval("dir()"))
        print(*f(1), sep="\\n")
    """)
    direct, aliased, evaluated = rewritten.splitlines()
    assert original == "['a', 'i']\n" * 3
    assert direct == "['a', 'i']"
    for shown in (aliased, evaluated):
        assert "'a', 'i'" in shown and "'_us_" in shown


def test_a_function_closes_over_the_runtime_helpers_it_uses() -> None:
    """The runtime's helpers are locals of the module's def, so a function that
    uses one has free variables where CPython's has none. Code compiled
    elsewhere becomes its ``__code__`` (``assign-code``), but the code of a
    desugared function that uses a helper it does not close over cannot: it
    has no cell for it. A function made from such code without its closure
    gets the helpers' cells where the call is written ``FunctionType(...)``
    (``function-type-callee``), and ``exec`` where it is written
    ``exec(code)`` (``exec-callee``), not under other names; ``eval`` refuses
    such code."""
    original, rewritten = outputs("""
        import types
        def f(x):
            return x
        def g(x):
            return x.real
        print(f.__code__.co_freevars)
        try:
            f.__code__ = g.__code__
            print(f(2))
        except ValueError as error:
            print(type(error).__name__)
        print(types.FunctionType(g.__code__, globals())(3))
        try:
            print(type(f)(g.__code__, globals())(4))
        except TypeError as error:
            print(type(error).__name__)
        def body():
            print(len("five!"))
        exec(body.__code__)
        run = exec
        try:
            run(body.__code__)
        except TypeError as error:
            print(type(error).__name__)
        try:
            print(eval(body.__code__))
        except TypeError as error:
            print(type(error).__name__)
    """)
    assert original == "()\n2\n3\n4\n5\n5\n5\nNone\n"
    assert rewritten == "()\nValueError\n3\nTypeError\n5\nTypeError\nTypeError\n"


def test_source_read_from_a_written_output_is_the_output(tmp_path) -> None:
    """Code that reads the source file of a module written by the command line
    reads the output, which has no ``class`` statements and no string
    literals: doctest finds no line for a docstring's examples (sympy's
    doctest runner then leaves them out). Under ``unsugar run`` and ``pytest
    --unsugar`` the original text is read."""
    import doctest
    import importlib.util

    source = textwrap.dedent('''
        class A:
            """
            >>> 1 + 1
            2
            """
        def g():
            """
            >>> 3
            3
            """
    ''')
    lines = {}
    for name, text in (("original", source), ("output", desugared(source))):
        path = tmp_path / f"{name}.py"
        path.write_text(text, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"deviation_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found = doctest.DocTestFinder().find(module, "m")
        lines[name] = sorted((test.name, test.lineno, len(test.examples)) for test in found)
    assert lines["original"] == [("m.A", 2, 1), ("m.g", 7, 1)]
    assert lines["output"] == [("m.A", None, 1), ("m.g", None, 1)]
