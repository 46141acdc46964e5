"""Asynchronous generators (PEP 525): CPython's own.

The body of ``async def g(): ... yield v ...`` is a generator def (``rules/
async_generators.py``) whose code is flagged ``CO_ASYNC_GENERATOR`` instead
of ``CO_GENERATOR``: calling it makes the interpreter's ``async_generator``,
which runs the body under CPython's protocol (``asend``, ``athrow``,
``aclose``, ``ag_running``, the hooks of ``sys.set_asyncgen_hooks``). Its
``await``s yield what the event loop gets, as a coroutine's do; its own
``yield v`` yields ``async_generator_value(v)``, the value wrapped as
CPython's ``ASYNC_GEN_WRAP`` wraps it, which ends the awaitable with
``StopIteration(v)``. Only that instruction makes the wrapper, so the runtime
assembles, once, the code of a function that runs it.
"""

async_generators_sys = __import__("sys")
#: ``CO_GENERATOR`` and ``CO_ASYNC_GENERATOR``.
async_generators_generator_flag = 32
async_generators_flag = 512
#: the function that wraps a value (made on first use)
async_generators_wrapper = []


def async_generator_function(function):
    """``function`` made again with its code flagged ``CO_ASYNC_GENERATOR``
    (what ``inspect.isasyncgenfunction`` reads; it has no effect on a call,
    as its code does not start a generator), and the body (the generator code
    made inside it) flagged an async generator's instead of a generator's and
    named after it: its frames, its async generators and the functions
    nested in it are named as in the original ``async def``."""
    code = function.__code__
    consts = list(code.co_consts)
    index = 0
    while int.__lt__(index, len(consts)):
        item = list.__getitem__(consts, index)
        if isinstance(item, type(code)):
            flags = item.co_flags
            if int.__and__(flags, async_generators_generator_flag):
                flags = int.__or__(int.__sub__(flags, async_generators_generator_flag),
                                   async_generators_flag)
            list.__setitem__(consts, index, item.replace(
                co_name=code.co_name, co_qualname=code.co_qualname, co_flags=flags,
                co_consts=requalified_consts(  # noqa: F821  (runtime/functions.py)
                    item.co_consts, str.__add__(item.co_qualname, "."),
                    str.__add__(code.co_qualname, ".")),
            ))
        index = int.__add__(index, 1)
    return function_with_code(function, code.replace(  # noqa: F821  (runtime/coroutines.py)
        co_consts=tuple(consts), co_flags=int.__or__(code.co_flags, async_generators_flag)))


def async_generator_value(value):
    """What the body's ``yield value`` yields: ``value`` in the interpreter's wrapper."""
    if not async_generators_wrapper:
        code = intrinsic_code("INTRINSIC_ASYNC_GEN_WRAP")  # noqa: F821  (runtime/type_params.py)
        list.append(async_generators_wrapper, type(async_generator_value)(code, {}))
    return list.__getitem__(async_generators_wrapper, 0)(value)
