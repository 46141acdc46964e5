"""Coroutines: an ``async def`` is a generator function whose code is flagged
a coroutine's.

The body is compiled as a generator's, each ``await x`` delegating (the
``yield from`` loop of ``rules/generators.py``) to ``await_iterator(x)``;
``coroutine_function`` then gives the function's code ``CO_COROUTINE``
instead of ``CO_GENERATOR``, so that calling it makes a native coroutine
running that code: asyncio, ``inspect``, the "never awaited" warning and the
protocol's messages are CPython's own.
"""

#: ``CO_GENERATOR ^ CO_COROUTINE``: what turns a generator's code into a coroutine's.
coroutines_generator_to_coroutine = 160
#: ``CO_ITERABLE_COROUTINE``: a ``types.coroutine`` generator, which ``await`` takes.
coroutines_iterable_coroutine = 256


def coroutine_function(function):
    """``function`` (a generator function) made again as a coroutine function:
    the same code flagged ``CO_COROUTINE``."""
    code = function.__code__
    return function_with_code(
        function, code.replace(co_flags=int.__xor__(code.co_flags, coroutines_generator_to_coroutine)))


def function_with_code(function, code):
    """``function`` made again with ``code`` instead, with the same attributes
    (a function's code cannot change kind in place from 3.13)."""
    made = type(function)(code, function.__globals__, function.__name__, function.__defaults__,
                          function.__closure__)
    made.__kwdefaults__ = function.__kwdefaults__
    made.__annotations__ = function.__annotations__
    made.__doc__ = function.__doc__
    made.__qualname__ = function.__qualname__
    made.__module__ = function.__module__
    made.__dict__.update(function.__dict__)
    if hasattr(function, "__type_params__"):
        made.__type_params__ = function.__type_params__
    return made


def await_iterator(value, where):
    """``GET_AWAITABLE``: what ``await value`` delegates to: a coroutine or a
    ``types.coroutine`` generator as it is, else what ``__await__`` returns,
    checked as CPython checks it. ``where`` is 1 for the result of
    ``__aenter__``, 2 for that of ``__aexit__``, 3 for that of ``__anext__``
    (their own messages). A coroutine gives its ``__await__`` iterator."""
    if yield_from_suspension(id(type(value)), id)(value) is False:  # noqa: F821  (runtime/generators.py)
        return yield_from_coroutine_wrapper(value)  # noqa: F821  (runtime/generators.py)
    if where == 3:  # any failure, as the cause of one error
        try:
            return await_iterator(value, 0)
        except BaseException as cause:
            raise TypeError("'async for' received an invalid object from __anext__: "
                            + operator_type_name(type(value), 100)) from cause  # noqa: F821
    kind = type(value)
    if kind is yield_from_coroutine_type:  # noqa: F821  (runtime/generators.py)
        if value.cr_suspended:  # a coroutine suspends only where it awaits
            raise RuntimeError("coroutine is being awaited already")
        return yield_from_coroutine_wrapper(value)  # noqa: F821  (runtime/generators.py)
    if kind is yield_from_generator_type and int.__and__(  # noqa: F821  (runtime/generators.py)
            value.gi_code.co_flags, coroutines_iterable_coroutine):
        return value
    method = special_lookup(kind, "__await__")  # noqa: F821  (runtime/operators.py)
    if method is operator_missing:  # noqa: F821  (runtime/operators.py)
        shown = operator_type_name(kind, 100)  # noqa: F821  (runtime/operators.py)
        if where:
            method = "__aenter__" if where == 1 else "__aexit__"
            raise TypeError(f"'async with' received an object from {method} "
                            f"that does not implement __await__: {shown}")
        raise TypeError(f"object {shown} can't be used in 'await' expression")
    iterator = special_call(method, value)  # noqa: F821  (runtime/operators.py)
    result = type(iterator)
    if result is yield_from_coroutine_type or result is yield_from_generator_type and int.__and__(  # noqa: F821
            iterator.gi_code.co_flags, coroutines_iterable_coroutine):
        raise TypeError("__await__() returned a coroutine")
    if special_lookup(result, "__next__") is operator_missing:  # noqa: F821
        raise TypeError(f"__await__() returned non-iterator of type '{operator_type_name(result, 100)}'")  # noqa: F821
    return iterator


def async_context_enter_method(manager):
    """The bound ``__aenter__`` of ``manager``."""
    enter = context_special(manager, "__aenter__")  # noqa: F821  (runtime/contexts.py)
    if enter is context_missing:  # noqa: F821  (runtime/contexts.py)
        raise TypeError("'" + context_type_name(type(manager))  # noqa: F821
                        + "' object does not support the asynchronous context manager protocol")
    return enter


def async_context_exit_method(manager):
    """The bound ``__aexit__`` of ``manager``."""
    leave = context_special(manager, "__aexit__")  # noqa: F821  (runtime/contexts.py)
    if leave is context_missing:  # noqa: F821  (runtime/contexts.py)
        raise TypeError(
            "'" + context_type_name(type(manager))  # noqa: F821  (runtime/contexts.py)
            + "' object does not support the asynchronous context manager protocol "
            "(missed __aexit__ method)"
        )
    return leave


def async_iterator(iterable):
    """``GET_AITER``: ``type(iterable).__aiter__(iterable)``, which must have ``__anext__``."""
    method = special_lookup(type(iterable), "__aiter__")  # noqa: F821  (runtime/operators.py)
    if method is operator_missing:  # noqa: F821  (runtime/operators.py)
        raise TypeError("'async for' requires an object with __aiter__ method, got "
                        + operator_type_name(type(iterable), 100))  # noqa: F821
    iterator = special_call(method, iterable)  # noqa: F821  (runtime/operators.py)
    if special_lookup(type(iterator), "__anext__") is operator_missing:  # noqa: F821
        raise async_no_anext(iterator)
    return iterator


def async_next(iterator):
    """``GET_ANEXT``: what ``type(iterator).__anext__(iterator)`` returns (awaited after)."""
    method = special_lookup(type(iterator), "__anext__")  # noqa: F821  (runtime/operators.py)
    if method is operator_missing:  # noqa: F821  (runtime/operators.py)
        raise async_no_anext(iterator)
    return special_call(method, iterator)  # noqa: F821  (runtime/operators.py)


def async_no_anext(iterator):
    return TypeError("'async for' received an object from __aiter__ that does not implement "
                     "__anext__: " + operator_type_name(type(iterator), 100))  # noqa: F821
