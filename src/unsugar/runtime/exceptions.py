"""Exceptions: matching ``except`` clauses, ``raise ... from ...``, and the
end of a ``for`` loop's iterator.

The checks follow CPython's C macros, so no ``__instancecheck__`` or
``__subclasscheck__`` hook of a metaclass is consulted:
``PyExceptionClass_Check`` is :func:`exception_class_check`,
``PyExceptionInstance_Check`` is :func:`exception_instance_check`.
"""

#: ``sys.exception()``: the exception being handled (3.11+).
handled_exception = __import__("sys").exception

#: The slots of ``BaseException`` itself, safe from subclass overrides.
exception_cause_slot = BaseException.__cause__
exception_traceback_slot = BaseException.__traceback__

#: What ``next(iterator, loop_end)`` returns once a ``for`` loop's iterator is
#: exhausted; ``loop_more(id(item), loop_end_id)`` is ``item is not loop_end``.
loop_end = object()
loop_end_id = kept_id(loop_end)  # noqa: F821  (runtime/bootstrap.py)
loop_more = int.__ne__


#: The built-in exception classes an ``except`` clause named, by id: checked
#: once (such a class cannot change; kept alive here, its id is never another's).
exception_checked = operator_table()  # noqa: F821  (runtime/operators.py)
exception_was_checked = exception_checked.get


def exception_subtype(klass, base):
    """``PyType_IsSubtype``: ``base`` is in the MRO of ``klass`` (no hooks)."""
    return operator_is_subtype(base, klass)  # noqa: F821  (runtime/operators.py)


def exception_class_check(value):
    """A class deriving from ``BaseException``."""
    return exception_subtype(type(value), type) and exception_subtype(value, BaseException)


def exception_instance_check(value):
    """An instance of a class deriving from ``BaseException``."""
    return exception_subtype(type(value), BaseException)


def exception_matches(kinds):
    """Whether the exception being handled matches ``except kinds:``.

    ``kinds`` is a class or a tuple of classes, each deriving from
    ``BaseException`` (checked first, as CPython does).
    """
    handled = type(handled_exception())
    if exception_was_checked(id(kinds), 0):
        return operator_is_subtype(kinds, handled)  # noqa: F821  (runtime/operators.py)
    return exception_matches_checked(kinds, handled)


def exception_matches_checked(kinds, handled):
    """``exception_matches`` of ``kinds`` not checked before; a built-in class is remembered."""
    message = "catching classes that do not inherit from BaseException is not allowed"
    if exception_subtype(type(kinds), tuple):
        for kind in tuple.__iter__(kinds):
            if not exception_class_check(kind):
                raise TypeError(message)
        for kind in tuple.__iter__(kinds):
            if exception_subtype(handled, kind):
                return True
        return False
    if not exception_class_check(kinds):
        raise TypeError(message)
    if int.__and__(operator_flags_of(kinds), 256):  # noqa: F821  (immutable: built in)
        operator_plan_set(exception_checked, id(kinds), kinds)  # noqa: F821  (kept alive: its id stays its)
    return exception_subtype(handled, kinds)


def exception_instance(value, what):
    """An exception class called without arguments, or an exception instance."""
    if exception_class_check(value):
        made = value()
        if not exception_instance_check(made):
            raise TypeError(
                "calling " + repr(value) + " should have returned an instance of "
                "BaseException, not " + repr(type(made))
            )
        return made
    if exception_instance_check(value):
        return value
    raise TypeError(what + " must derive from BaseException")


def exception_with_cause(exc, cause):
    """``raise exc from cause``: the exception to raise, its cause set.

    A ``None`` cause only suppresses the context.
    """
    value = exception_instance(exc, "exceptions")
    if cause is not None:
        cause = exception_instance(cause, "exception causes")
    exception_cause_slot.__set__(value, cause)
    return value
