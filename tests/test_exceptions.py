"""except clauses and 'as', try/else, raise from, assert."""

import subprocess
import sys
import textwrap

import pytest
from difftest import assert_same, desugared

EXCEPT = {
    "clauses_in_order": """
        def f(n):
            try:
                if n == 1:
                    raise KeyError("k")
                if n == 2:
                    raise IndexError("i")
                if n == 3:
                    raise ValueError("v")
                print("no error")
            except KeyError:
                print("key")
            except LookupError:
                print("lookup")
            except (TypeError, ValueError):
                print("type or value")
        f(0)
        f(1)
        f(2)
        f(3)
    """,
    "type_evaluated_only_when_reached": """
        def kind(k, name):
            print("evaluating", name)
            return k
        try:
            raise KeyError(1)
        except kind(KeyError, "first"):
            print("first")
        except kind(ValueError, "second"):
            print("second")
    """,
    "no_match_reraises_same_exception": """
        caught = []
        def f():
            try:
                raise KeyError("inner")
            except ValueError:
                print("no")
        try:
            f()
        except KeyError as e:
            print(repr(e), e.__context__, e.__traceback__ is not None)
    """,
    "bare_clause_last": """
        try:
            raise OSError("x")
        except KeyError:
            print("key")
        except:
            print("bare")
    """,
    "name_bound_then_deleted": """
        try:
            raise KeyError("k")
        except KeyError as e:
            print("got", repr(e))
        print(e)
    """,
    "name_deleted_unbound_local": """
        def f():
            try:
                raise KeyError("k")
            except KeyError as e:
                pass
            return e
        f()
    """,
    "name_deleted_when_handler_raises": """
        def f():
            e = "before"
            try:
                try:
                    raise KeyError("k")
                except KeyError as e:
                    raise ValueError("from handler")
            except ValueError as v:
                print(repr(v), repr(v.__context__))
            return e
        f()
    """,
    "name_deleted_when_handler_returns": """
        def f():
            try:
                raise KeyError("k")
            except KeyError as e:
                return repr(e)
        print(f())
    """,
    "name_deleted_after_break_in_handler": """
        for x in "ab":
            try:
                raise KeyError(x)
            except KeyError as err:
                break
        print(x)
        print(err)
    """,
    "global_name_in_handler": """
        def f():
            global e
            try:
                raise KeyError("k")
            except KeyError as e:
                print(repr(e))
        e = 1
        f()
        print(e)
    """,
    "not_an_exception_class": """
        try:
            try:
                raise KeyError(1)
            except 3:
                print("no")
        except TypeError as t:
            print(t, repr(t.__context__))
    """,
    "tuple_with_non_exception": """
        try:
            try:
                raise KeyError(1)
            except (KeyError, "x"):
                print("no")
        except TypeError as t:
            print(t)
    """,
    "nested_tuple_rejected": """
        try:
            try:
                raise KeyError(1)
            except ((KeyError,),):
                print("no")
        except TypeError as t:
            print(t)
    """,
    "metaclass_instancecheck_ignored": """
        class Meta(type):
            def __instancecheck__(cls, obj):
                return True
            def __subclasscheck__(cls, sub):
                return True
        class Anything(Exception, metaclass=Meta):
            pass
        try:
            try:
                raise KeyError(1)
            except Anything:
                print("should not match")
        except KeyError:
            print("key")
    """,
    "context_after_handler": """
        try:
            try:
                raise KeyError("first")
            except KeyError:
                pass
            raise ValueError("second")
        except ValueError as v:
            print(repr(v.__context__))
    """,
    "context_inside_handler": """
        try:
            raise KeyError("first")
        except KeyError:
            raise ValueError("second")
    """,
    "bare_except_does_not_catch_break": """
        n = 0
        while n < 5:
            n = n + 1
            try:
                if n == 3:
                    break
            except BaseException:
                print("caught")
        print(n)
    """,
    "handler_in_generator": """
        import sys
        def gen():
            try:
                raise KeyError("k")
            except KeyError as e:
                yield repr(e)
                yield repr(sys.exception())
            yield sys.exception()
        print(list(gen()))
    """,
    "type_with_prelude_evaluated_when_reached": """
        def flag(value):
            print("flag", value)
            return value
        try:
            raise ValueError(1)
        except (KeyError if flag(0) else IndexError):
            print("no")
        except (TypeError if flag(0) else ValueError) as e:
            print("matched", repr(e))
    """,
    "mangled_name_in_class_body": """
        class C:
            try:
                raise KeyError(1)
            except KeyError as __e:
                print(repr(__e))
        print(hasattr(C, "_C__e"), hasattr(C, "__e"))
    """,
    "exception_group_caught_by_type": """
        try:
            raise ExceptionGroup("g", [KeyError(1)])
        except ExceptionGroup as g:
            print(repr(g))
    """,
}

TRY_ELSE = {
    "else_runs_without_exception": """
        try:
            print("body")
        except KeyError:
            print("no")
        else:
            print("else")
    """,
    "else_skipped_after_exception": """
        try:
            raise KeyError(1)
        except KeyError:
            print("handler")
        else:
            print("else")
    """,
    "else_not_protected_by_handlers": """
        try:
            try:
                print("body")
            except KeyError:
                print("inner handler")
            else:
                raise KeyError("from else")
        except KeyError as e:
            print("outer", repr(e), e.__context__)
    """,
    "else_skipped_by_break_continue_return": """
        for x in "ab":
            try:
                if x == "a":
                    continue
                break
            except KeyError:
                pass
            else:
                print("else", x)
        def f():
            try:
                return "returned"
            except KeyError:
                pass
            else:
                print("else after return")
        print(f())
    """,
    "else_and_finally_order": """
        def f(fail):
            try:
                if fail:
                    raise KeyError(1)
                print("body")
            except KeyError as e:
                print("handler", repr(e))
            else:
                print("else")
            finally:
                print("finally")
        f(0)
        f(1)
    """,
    "exception_in_else_runs_finally": """
        try:
            try:
                pass
            except KeyError:
                print("no")
            else:
                raise ValueError("else")
            finally:
                print("finally")
        except ValueError as e:
            print(repr(e))
    """,
    "empty_finally_in_a_loop": """
        def f(items):
            for x in items:
                try:
                    try:
                        if x == 2:
                            continue
                        print(1 / x)
                    except ZeroDivisionError as e:
                        print("caught", e)
                finally:
                    pass
            try:
                return len(items)
            finally:
                pass
        r = f([0, 1, 2, 4])
    """,
}

RAISE_FROM = {
    "cause_instance": """
        try:
            raise KeyError("a") from ValueError("b")
        except KeyError as e:
            print(repr(e.__cause__), e.__suppress_context__)
    """,
    "classes_instantiated": """
        raise KeyError from ValueError
    """,
    "from_none_suppresses_context": """
        try:
            raise KeyError("a")
        except KeyError:
            raise ValueError("b") from None
    """,
    "cause_and_context": """
        try:
            raise KeyError("a")
        except KeyError as e:
            raise ValueError("b") from OSError("c")
    """,
    "evaluation_order": """
        def exc(name):
            print("evaluate", name)
            return KeyError(name)
        raise exc("x") from exc("y")
    """,
    "cause_not_an_exception": """
        raise KeyError("a") from 5
    """,
    "exception_not_an_exception": """
        raise 5 from KeyError("b")
    """,
    "exception_checked_before_cause": """
        raise 5 from 6
    """,
    "cause_setter_not_overridable": """
        class E(Exception):
            def __setattr__(self, name, value):
                print("setattr", name)
        try:
            raise E("a") from KeyError("b")
        except E as e:
            print(repr(e.__cause__))
    """,
    "reraise_existing_exception_with_cause": """
        saved = KeyError("saved")
        try:
            raise saved from None
        except KeyError as e:
            print(e is saved, e.__suppress_context__)
        raise saved from ValueError("later")
    """,
}

ASSERT = {
    "passes": """
        assert 1, "never evaluated" + 1
        print("ok")
    """,
    "fails_with_message": """
        def msg():
            print("message evaluated")
            return "boom"
        assert 0, msg()
    """,
    "fails_without_message": """
        x = []
        assert x
    """,
    "shadowed_assertion_error": """
        AssertionError = KeyError
        try:
            assert 0, "m"
        except KeyError:
            print("wrong")
        except BaseException as e:
            print(type(e).__name__, e)
    """,
    "truth_tested_once": """
        class T:
            def __bool__(self):
                print("bool")
                return False
        try:
            assert T()
        except AssertionError as e:
            print("failed", repr(e))
    """,
}


@pytest.mark.parametrize("source", EXCEPT.values(), ids=EXCEPT.keys())
def test_except(source: str) -> None:
    assert_same(source)


@pytest.mark.parametrize("source", TRY_ELSE.values(), ids=TRY_ELSE.keys())
def test_try_else(source: str) -> None:
    assert_same(source)


@pytest.mark.parametrize("source", RAISE_FROM.values(), ids=RAISE_FROM.keys())
def test_raise_from(source: str) -> None:
    assert_same(source)


@pytest.mark.skipif(sys.version_info < (3, 13), reason="3.11 and 3.12 store the non-exception")
def test_raise_from_cause_class_returning_non_exception() -> None:
    assert_same("""
        class Odd(Exception):
            def __new__(cls):
                return 5
        try:
            raise KeyError from Odd
        except TypeError as e:
            print(str(e).replace(__name__, "M"))
    """)


def test_raise_from_class_returning_non_exception() -> None:
    assert_same("""
        class Odd(Exception):
            def __new__(cls):
                return 5
        try:
            raise Odd from None
        except TypeError as e:
            print(str(e).replace(__name__, "M"))
    """)


@pytest.mark.parametrize("source", ASSERT.values(), ids=ASSERT.keys())
def test_assert(source: str) -> None:
    assert_same(source)


def _run_python(source: str, *flags: str) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, *flags, "-c", source], capture_output=True, text=True, check=False
    )
    return done.stdout, done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""


@pytest.mark.parametrize("flags", [(), ("-O",)], ids=["debug", "optimized"])
def test_assert_under_optimize(flags: tuple[str, ...]) -> None:
    source = textwrap.dedent("""
        def msg():
            print("message evaluated")
            return "boom"
        print(__debug__)
        assert 0, msg()
        print("assert skipped")
    """)
    assert _run_python(desugared(source), *flags) == _run_python(source, *flags)
