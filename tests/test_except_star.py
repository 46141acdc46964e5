"""try/except* (PEP 654): splitting, handlers, what escapes."""

import textwrap

import pytest
from difftest import assert_same

#: Instrumentation shared by the snippets: ``report(f)`` runs ``f`` and prints
#: the structure of what escapes (types, messages, sub-exceptions, notes,
#: context and cause, traceback presence) naming each object by the order in
#: which it is first seen, so identity relations are compared too.
PRELUDE = """
import sys
seen = []
def label(exc):
    for i, known in enumerate(seen):
        if known is exc:
            return "#" + str(i)
    seen.append(exc)
    return "#" + str(len(seen) - 1) + "(new)"
def describe(exc, depth=0):
    if exc is None or depth > 6:
        return repr(exc)
    parts = [label(exc), type(exc).__name__, repr(str(exc)), "tb" if exc.__traceback__ else "no-tb"]
    parts.append("notes=" + repr(getattr(exc, "__notes__", None)))
    parts.append("cause=" + describe(exc.__cause__, depth + 1))
    parts.append("context=" + describe(exc.__context__, depth + 1))
    parts.append("suppress=" + str(exc.__suppress_context__))
    if isinstance(exc, BaseExceptionGroup):
        parts.append("[" + ", ".join(describe(e, depth + 1) for e in exc.exceptions) + "]")
    return " ".join(parts)
def report(f, *originals):
    for exc in originals:
        label(exc)
    try:
        f()
    except BaseException as exc:
        print("escaped:", describe(exc))
    else:
        print("nothing escaped")
    print("after:", sys.exception())
"""

EXCEPT_STAR = {
    "naked_exception_caught": """
        def f():
            try:
                raise KeyError("k")
            except* KeyError as eg:
                print(describe(eg), sys.exception() is eg)
                print(describe(eg.exceptions[0]))
        report(f)
    """,
    "naked_exception_not_caught_propagates_naked": """
        orig = ValueError("v")
        def f():
            try:
                raise orig
            except* KeyError:
                print("no")
            except* (TypeError, OSError):
                print("no")
        report(f, orig)
    """,
    "naked_exception_reraised_becomes_group": """
        def f():
            try:
                raise KeyError("k")
            except* KeyError:
                raise
        report(f)
    """,
    "naked_exception_handler_raises": """
        def f():
            try:
                raise KeyError("k")
            except* KeyError as eg:
                raise ValueError("new")
        report(f)
    """,
    "group_split_over_clauses": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2), ValueError(3), OSError(4)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                print("v", describe(eg))
            except* TypeError as eg:
                print("t", describe(eg))
            except* KeyError as eg:
                print("never")
        report(f, orig, *orig.exceptions)
    """,
    "group_fully_handled": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                print(describe(eg))
            except* TypeError as eg:
                print(describe(eg))
            print("after the try")
        report(f, orig, *orig.exceptions)
    """,
    "nested_groups": """
        inner = ExceptionGroup("inner", [TypeError(2), KeyError(3), ValueError(5)])
        orig = ExceptionGroup("outer", [ValueError(1), inner, OSError(4)])
        def f():
            try:
                raise orig
            except* (ValueError, OSError) as eg:
                print(describe(eg))
            except* LookupError as eg:
                print(describe(eg))
        report(f, orig, inner, *orig.exceptions, *inner.exceptions)
    """,
    "no_clause_matches_group": """
        orig = ExceptionGroup("eg", [ValueError(1), ExceptionGroup("in", [TypeError(2)])])
        def f():
            try:
                raise orig
            except* KeyError:
                print("no")
        report(f, orig)
    """,
    "bare_raise_reraises_with_structure": """
        inner = ExceptionGroup("inner", [TypeError(2), ValueError(3)])
        orig = ExceptionGroup("outer", [ValueError(1), inner, OSError(4)])
        def f():
            try:
                raise orig
            except* ValueError:
                raise
            except* TypeError as eg:
                print("handled", describe(eg))
        report(f, orig, inner, *orig.exceptions, *inner.exceptions)
    """,
    "raise_eg_by_name_is_a_reraise": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                raise eg
        report(f, orig, *orig.exceptions)
    """,
    "new_exception_in_handler": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError:
                raise KeyError("new")
            except* TypeError:
                pass
        report(f, orig, *orig.exceptions)
    """,
    "handlers_raise_and_unhandled_rest_combined": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2), OSError(3), KeyError(4)])
        def f():
            try:
                raise orig
            except* ValueError:
                raise RuntimeError("from v")
            except* TypeError:
                raise
            except* OSError as eg:
                raise ExceptionGroup("mine", [ZeroDivisionError(5)])
        report(f, orig, *orig.exceptions)
    """,
    "raise_from_in_handler": """
        orig = ExceptionGroup("eg", [ValueError(1)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                raise KeyError("k") from eg.exceptions[0]
        report(f, orig, *orig.exceptions)
    """,
    "base_exception_raised_in_handler": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError:
                raise SystemExit(3)
        report(f, orig, *orig.exceptions)
    """,
    "naked_base_exception_wrapped_in_base_group": """
        def f():
            try:
                raise SystemExit(3)
            except* SystemExit as eg:
                print(describe(eg))
                raise
        report(f)
    """,
    "else_runs_without_exception": """
        def f(fail):
            try:
                print("body")
                if fail:
                    raise ExceptionGroup("eg", [ValueError(1)])
            except* ValueError:
                print("handler")
            else:
                print("else")
            finally:
                print("finally")
        report(lambda: f(False))
        report(lambda: f(True))
    """,
    "finally_runs_when_rest_escapes": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError:
                print("handler")
            finally:
                print("finally", sys.exception())
        report(f, orig, *orig.exceptions)
    """,
    "except_star_exception_group_is_type_error": """
        orig = ExceptionGroup("eg", [ValueError(1)])
        def f():
            try:
                raise orig
            except* ExceptionGroup:
                print("no")
        report(f, orig)
        def g():
            try:
                raise orig
            except* (ValueError, BaseExceptionGroup):
                print("no")
        report(g, orig)
    """,
    "except_star_not_exception_class_is_type_error": """
        orig = ExceptionGroup("eg", [ValueError(1)])
        def f():
            try:
                raise orig
            except* ValueError:
                print("handled")
            except* int:
                print("no")
        report(f, orig)
    """,
    "types_evaluated_even_when_nothing_left": """
        def kind(k, name):
            print("evaluating", name, repr(sys.exception()))
            return k
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* kind(ValueError, "first"):
                print("first")
            except* kind(TypeError, "second"):
                print("second")
            except* kind(KeyError, "third"):
                print("third")
        report(f, orig)
    """,
    "sys_exception_in_handlers": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                print(sys.exception() is eg, describe(sys.exception()))
            except* TypeError as eg:
                print(sys.exception() is eg, describe(sys.exception()))
            print("outside", sys.exception())
        report(f, orig, *orig.exceptions)
    """,
    "inside_outer_handler_contexts": """
        outer = KeyError("outer")
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise outer
            except KeyError:
                try:
                    raise orig
                except* ValueError:
                    raise OSError("new")
        report(f, outer, orig, *orig.exceptions)
    """,
    "name_is_deleted_after_handler": """
        def f():
            try:
                raise ExceptionGroup("eg", [ValueError(1)])
            except* ValueError as eg:
                pass
            print(eg)
        report(f)
    """,
    "subclass_with_derive": """
        class MyEG(ExceptionGroup):
            def derive(self, excs):
                print("derive", [type(e).__name__ for e in excs])
                return MyEG(self.message + "!", excs)
        inner = MyEG("n", [OSError(3), KeyError(4)])
        orig = MyEG("m", [ValueError(1), TypeError(2), inner])
        orig.add_note("a note")
        def f():
            try:
                raise orig
            except* ValueError as eg:
                print(describe(eg))
            except* OSError:
                raise
            except* KeyError:
                raise RuntimeError("rt")
        report(f, orig, inner, *orig.exceptions, *inner.exceptions)
    """,
    "subclass_split_override": """
        class Splitting(ExceptionGroup):
            def split(self, kinds):
                print("split", kinds.__name__)
                return ExceptionGroup.split(self, kinds)
        orig = Splitting("s", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                print(describe(eg))
        report(f, orig)
    """,
    "handler_in_generator": """
        def gen():
            try:
                raise ExceptionGroup("eg", [ValueError(1), TypeError(2)])
            except* ValueError as eg:
                x = yield repr(eg)
                print("sent", x, repr(sys.exception()))
        g = gen()
        print(next(g))
        report(lambda: g.send(5))
    """,
    "traceback_of_reraised_parts": """
        def raiser():
            raise ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raiser()
            except* ValueError as eg:
                raise
        def g():
            try:
                f()
            except BaseException as exc:
                print(exc.__traceback__ is not None,
                      [e.__traceback__ is not None for e in exc.exceptions])
        g()
    """,
    "invalid_type_after_partial_match_context": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError:
                raise KeyError("collected, then lost")
            except* "not a class":
                print("no")
        report(f, orig, *orig.exceptions)
    """,
    "nested_except_star_in_handler": """
        orig = ExceptionGroup("eg", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError as outer:
                try:
                    raise ExceptionGroup("in", [OSError(3), KeyError(4)])
                except* OSError as inner:
                    print(describe(inner), describe(sys.exception()))
                print(sys.exception() is outer)
        report(f, orig, *orig.exceptions)
    """,
    "module_level_name_deleted": """
        try:
            raise ExceptionGroup("eg", [ValueError(1)])
        except* ValueError as eg:
            print("handled", repr(eg))
        print("eg" in globals())
    """,
    "falsy_group_subclass": """
        class Falsy(ExceptionGroup):
            def __bool__(self):
                return False
            def __len__(self):
                return 0
        orig = Falsy("f", [ValueError(1), TypeError(2)])
        def f():
            try:
                raise orig
            except* ValueError as eg:
                print(repr(eg))
                raise
        report(f, orig, *orig.exceptions)
    """,
    "a_clause_that_matches_nothing_leaves_the_rest": """
        orig = ExceptionGroup("g", [ExceptionGroup("h", [ValueError(1)]), TypeError(2)])
        def f():
            try:
                raise orig
            except* LookupError:
                print("no")
            except* Exception as eg:
                print("all", describe(eg), eg is orig)
                raise
        report(f, orig, *orig.exceptions)
    """,
}


@pytest.mark.parametrize("source", EXCEPT_STAR.values(), ids=EXCEPT_STAR.keys())
def test_except_star(source: str) -> None:
    assert_same(PRELUDE + textwrap.dedent(source))
