"""Asynchronous generators (PEP 525): a generator wrapped in CPython's protocol.

The body of ``async def g(): ... yield v ...`` is a generator (``rules/
async_generators.py``). Its ``await``s yield what the event loop gets, as a
coroutine's do; its own ``yield v`` yields ``async_generator_value(v)``,
which the awaitables below tell apart, as CPython's ``ASYNC_GEN_WRAP`` lets
them: a wrapped value ends the awaitable (``StopIteration(v)``), anything
else passes through to the event loop.

The objects follow ``Objects/genobject.c``: ``async_generator`` (``asend``,
``athrow``, ``aclose``, ``ag_running``, the ``sys.set_asyncgen_hooks``
first-iteration and finaliser hooks), and its awaitables
``async_generator_asend`` and ``async_generator_athrow``, with their states
(0 new, 1 iterated, 2 closed) and messages.
"""

async_generators_sys = __import__("sys")
#: ``CO_ASYNC_GENERATOR``.
async_generators_flag = 512
async_generators_hooks = async_generators_sys.get_asyncgen_hooks
#: From 3.12, ``athrow(type, value, traceback)`` is deprecated, and there is ``ag_suspended``.
async_generators_from_312 = int.__ge__(
    tuple.__getitem__(async_generators_sys.version_info, 1), 12)
#: From 3.13, an ``asend``/``athrow``/``aclose`` awaitable dropped unawaited warns,
#: and closing one that runs throws ``GeneratorExit`` in.
async_generators_from_313 = int.__ge__(
    tuple.__getitem__(async_generators_sys.version_info, 1), 13)


def async_generator_function(function):
    """``function`` made again with its code flagged ``CO_ASYNC_GENERATOR``
    (what ``inspect.isasyncgenfunction`` reads; it has no effect on a call,
    as its code does not start a generator), and the body (the code object
    made inside it) named after it: its frames, its generators and the
    functions nested in it are named as in the original ``async def``."""
    code = function.__code__
    consts = list(code.co_consts)
    index = 0
    while int.__lt__(index, len(consts)):
        item = list.__getitem__(consts, index)
        if isinstance(item, type(code)):
            list.__setitem__(consts, index, item.replace(
                co_name=code.co_name, co_qualname=code.co_qualname,
                co_consts=requalified_consts(  # noqa: F821  (runtime/functions.py)
                    item.co_consts, str.__add__(item.co_qualname, "."),
                    str.__add__(code.co_qualname, ".")),
            ))
        index = int.__add__(index, 1)
    return function_with_code(function, code.replace(  # noqa: F821  (runtime/coroutines.py)
        co_consts=tuple(consts), co_flags=int.__or__(code.co_flags, async_generators_flag)))


def async_generator_value(value):
    """What the body's ``yield value`` yields."""
    wrapped = object.__new__(async_generator_wrapped_type)
    wrapped.value = value
    return wrapped


def async_generator_new(generator):
    """The ``async_generator`` object over ``generator``, the running body."""
    agen = object.__new__(async_generator_type)
    agen.body = generator
    agen.running = False
    agen.closed = False
    agen.hooks_inited = False
    agen.finalizer = None
    return agen


def async_generator_init_hooks(agen):
    """On the first ``__anext__``/``asend``/``athrow``/``aclose``: the
    finaliser of ``sys.set_asyncgen_hooks`` is kept, its first-iteration hook
    called (asyncio registers the generator there, to close it at shutdown)."""
    if agen.hooks_inited:
        return
    agen.hooks_inited = True
    hooks = async_generators_hooks()
    finalizer = tuple.__getitem__(hooks, 1)
    if finalizer is not None:
        agen.finalizer = finalizer
    first = tuple.__getitem__(hooks, 0)
    if first is not None:
        first(agen)


def async_generator_resume(agen, sent, thrown):
    """Runs the body with ``send(sent)`` (or ``throw(*thrown)``) to its next
    yield. A value of its own ends the awaitable: ``StopIteration(value)``.
    What an ``await`` yields is returned, for the event loop. The end of the
    body is ``StopAsyncIteration``; a ``StopIteration`` or
    ``StopAsyncIteration`` the body raised is a ``RuntimeError``. No local
    holds an exception that leaves here (its traceback holds this frame: the
    cycle would keep the generator alive past its last use)."""
    ended = False
    cause = None
    body = agen.body
    if sent is not None and body.gi_frame is not None and not body.gi_suspended \
            and not body.gi_running:
        agen.running = False
        raise TypeError("can't send non-None value to a just-started async generator")
    try:
        if thrown is None:
            result = body.send(sent)
        else:
            result = body.throw(*thrown)
    except StopIteration:
        agen.closed = True
        agen.running = False
        ended = True
    except GeneratorExit:
        thrown = None
        agen.closed = True
        agen.running = False
        raise
    except StopAsyncIteration as error:
        thrown = None
        agen.running = False
        raise async_generator_raised(error, "async generator raised StopAsyncIteration") from error
    except RuntimeError as error:
        thrown = None
        agen.running = False
        if not isinstance(error.__cause__, StopIteration) or \
                not tuple.__eq__(error.args, ("generator raised StopIteration",)):
            raise
        cause = error.__cause__
    except BaseException:
        thrown = None
        agen.running = False
        raise
    if ended:
        raise StopAsyncIteration
    if cause is not None:
        try:
            raise async_generator_raised(cause, "async generator raised StopIteration")
        finally:
            cause = None
    if type(result) is async_generator_wrapped_type:
        agen.running = False
        raise StopIteration(result.value)
    return result


def async_generator_raised(cause, message):
    """The ``RuntimeError`` for a stop signal the body raised, from ``cause``."""
    error = RuntimeError(message)
    error.__cause__ = cause  # also suppresses the context
    error.__context__ = cause
    return error


def async_generator_throw_arguments(awaitable):
    """The arguments of ``athrow(type[, value[, traceback]])`` as one
    exception, as ``generator.throw`` makes it (without its deprecation
    warning). They are taken from the awaitable: the exception's traceback
    will hold the frames that hold the awaitable."""
    args = awaitable.argument
    awaitable.argument = ()
    count = len(args)
    if int.__lt__(count, 1):
        raise TypeError(f"athrow expected at least 1 argument, got {count}")
    if int.__gt__(count, 3):
        raise TypeError(f"athrow expected at most 3 arguments, got {count}")
    kind = tuple.__getitem__(args, 0)
    value = tuple.__getitem__(args, 1) if int.__gt__(len(args), 1) else None
    trace = tuple.__getitem__(args, 2) if int.__gt__(len(args), 2) else None
    if isinstance(kind, BaseException):
        error = kind
    elif isinstance(value, kind):
        error = value
    elif value is None:
        error = kind()
    elif isinstance(value, tuple):
        error = kind(*value)
    else:
        error = kind(value)
    if trace is not None:
        error = error.with_traceback(trace)
    return (error,)


def async_generator_aiter(agen):
    return agen


def async_generator_anext(agen):
    async_generator_init_hooks(agen)
    return async_generator_awaitable_new(async_generator_asend_type, agen, None)


def async_generator_asend(agen, value):
    async_generator_init_hooks(agen)
    return async_generator_awaitable_new(async_generator_asend_type, agen, value)


def async_generator_athrow(agen, *args):
    if async_generators_from_312 and int.__gt__(len(args), 1):
        __import__("warnings").warn(
            "the (type, exc, tb) signature of athrow() is deprecated, "
            "use the single-arg signature instead.", DeprecationWarning, 2)
    async_generator_init_hooks(agen)
    return async_generator_awaitable_new(async_generator_athrow_type, agen, args)


def async_generator_aclose(agen):
    async_generator_init_hooks(agen)
    return async_generator_awaitable_new(async_generator_athrow_type, agen, None)


def async_generator_finalize(agen):
    """``__del__``: an unfinished generator goes to the finaliser hook (asyncio
    schedules its ``aclose()``), or is closed where it stands."""
    body = agen.body
    if body.gi_frame is None:
        return
    if agen.finalizer is not None and not agen.closed:
        agen.finalizer(agen)
        return
    try:
        body.throw(GeneratorExit)
    except (GeneratorExit, StopIteration):
        return
    raise RuntimeError("async generator ignored GeneratorExit")


def async_generator_repr(agen):
    return f"<async_generator object {agen.body.__qualname__} at {hex(id(agen))}>"


def async_generator_awaitable_new(kind, agen, argument):
    """An ``asend`` (``argument``: the value sent) or ``athrow`` awaitable
    (the arguments of ``athrow``, ``None`` for ``aclose``), not started."""
    awaitable = object.__new__(kind)
    awaitable.agen = agen
    awaitable.argument = argument
    awaitable.state = 0
    return awaitable


def async_generator_checked(awaitable, method):
    """What a resumption of an awaitable checks first: that it has not ended,
    and on the first one, that the generator is not running (``method``
    names the awaitable in the message)."""
    state = awaitable.state
    if int.__eq__(state, 2):
        raise RuntimeError("cannot reuse already awaited __anext__()/asend()"
                           if str.__eq__(method, "anext") else
                           "cannot reuse already awaited aclose()/athrow()")
    if int.__eq__(state, 0) and awaitable.agen.running:
        awaitable.state = 2
        raise RuntimeError(f"{method}(): asynchronous generator is already running")
    return awaitable.agen


def async_generator_asend_send(awaitable, value):
    agen = async_generator_checked(awaitable, "anext")
    if int.__eq__(awaitable.state, 0):
        if value is None:
            value = awaitable.argument
        awaitable.state = 1
    agen.running = True
    try:
        return async_generator_resume(agen, value, None)
    except BaseException:
        awaitable.state = 2
        raise


def async_generator_asend_next(awaitable):
    return async_generator_asend_send(awaitable, None)


def async_generator_asend_throw(awaitable, *args):
    try:
        return async_generator_thrown_in(awaitable, "anext", args)
    except BaseException:
        args = None  # what leaves holds this frame: no cycle through the exception thrown in
        raise


def async_generator_thrown_in(awaitable, method, args):
    """``throw(*args)`` of an ``asend`` or ``athrow`` awaitable: into the body."""
    agen = async_generator_checked(awaitable, method)
    if int.__eq__(awaitable.state, 0):
        awaitable.state = 1
        agen.running = True
    try:
        return async_generator_resume(agen, None, args)
    except BaseException:
        args = None
        agen.running = False
        awaitable.state = 2
        raise


def async_generator_awaitable_close(awaitable):
    """``close()`` before 3.13: the awaitable is done, the generator left as it is."""
    awaitable.state = 2


def async_generator_thrown_close(awaitable):
    """``close()`` from 3.13: ``GeneratorExit`` thrown in, as a coroutine's close."""
    if int.__eq__(awaitable.state, 2):
        return
    try:
        awaitable.throw(GeneratorExit)
    except (StopIteration, StopAsyncIteration, GeneratorExit):
        return
    raise RuntimeError("coroutine ignored GeneratorExit")


def async_generator_athrow_send(awaitable, value):
    closing = awaitable.argument is None
    agen = async_generator_checked(awaitable, "aclose" if closing else "athrow")
    if agen.body.gi_frame is None:  # the body has finished
        awaitable.state = 2
        raise StopIteration
    if int.__eq__(awaitable.state, 0):
        if agen.closed:
            awaitable.state = 2
            raise StopAsyncIteration
        if value is not None:
            raise RuntimeError("can't send non-None value to a just-started coroutine")
        awaitable.state = 1
        agen.running = True
        if closing:
            agen.closed = True
            return async_generator_closing(awaitable, None, (GeneratorExit,))
        return async_generator_thrown(awaitable, None, async_generator_throw_arguments(awaitable))
    if closing:
        return async_generator_closing(awaitable, value, None)
    return async_generator_thrown(awaitable, value, None)


def async_generator_thrown(awaitable, sent, thrown):
    """``athrow()``: the body resumed, its values and its end as for ``asend()``."""
    try:
        return async_generator_resume(awaitable.agen, sent, thrown)
    except BaseException:
        thrown = None
        awaitable.state = 2
        raise


def async_generator_closing(awaitable, sent, thrown):
    """``aclose()``: the body resumed; a value it yields is an error, its end
    (or ``GeneratorExit``/``StopAsyncIteration``) ends the awaitable."""
    agen = awaitable.agen
    ended = False
    try:
        if thrown is None:
            result = agen.body.send(sent)
        else:
            result = agen.body.throw(*thrown)
    except (StopIteration, StopAsyncIteration, GeneratorExit):
        ended = True
    except BaseException:
        thrown = None
        agen.running = False
        awaitable.state = 2
        raise
    if ended:
        agen.running = False
        awaitable.state = 2
        raise StopIteration
    if type(result) is async_generator_wrapped_type:
        agen.running = False
        awaitable.state = 2
        raise RuntimeError("async generator ignored GeneratorExit")
    return result


def async_generator_athrow_next(awaitable):
    return async_generator_athrow_send(awaitable, None)


def async_generator_athrow_throw(awaitable, *args):
    try:
        if awaitable.argument is not None:
            return async_generator_thrown_in(awaitable, "athrow", args)
        agen = async_generator_checked(awaitable, "aclose")
        if int.__eq__(awaitable.state, 0):
            awaitable.state = 1
            agen.running = True
        return async_generator_closing(awaitable, None, args)
    except BaseException:
        args = None  # as in async_generator_asend_throw
        raise


def async_generator_asend_finalize(awaitable):
    if int.__eq__(awaitable.state, 0):
        async_generator_unawaited(awaitable.agen, "asend")


def async_generator_athrow_finalize(awaitable):
    if int.__eq__(awaitable.state, 0):
        async_generator_unawaited(awaitable.agen, "aclose" if awaitable.argument is None else "athrow")


def async_generator_unawaited(agen, method):
    __import__("warnings").warn(
        f"coroutine method {method!r} of {agen.body.__qualname__!r} was never awaited",
        RuntimeWarning, 3, source=agen)


def async_generator_self(awaitable):
    return awaitable


def async_generator_running(agen):
    return agen.running


def async_generator_frame(agen):
    return agen.body.gi_frame


def async_generator_code(agen):
    return agen.body.gi_code


def async_generator_awaited(agen):
    return None


def async_generator_suspended(agen):
    return agen.body.gi_suspended


def async_generator_names(agen, name):
    """``__name__`` and ``__qualname__`` are the body's (a type's own
    ``__qualname__`` cannot be a descriptor for its instances)."""
    if str.__eq__(name, "__name__") or str.__eq__(name, "__qualname__"):
        return getattr(agen.body, name)
    raise AttributeError(f"'async_generator' object has no attribute '{name}'")


def async_generator_rename(agen, name, value):
    """Setting ``__name__`` or ``__qualname__`` sets the body's (a string, or
    the generator's own ``TypeError``)."""
    if str.__eq__(name, "__name__") or str.__eq__(name, "__qualname__"):
        setattr(agen.body, name, value)
    else:
        object.__setattr__(agen, name, value)


def async_generator_object_type(methods):
    """The ``async_generator`` type (``ag_suspended`` from 3.12)."""
    if not async_generators_from_312:
        dict.__delitem__(methods, "ag_suspended")
    return type("async_generator", (), methods)


def async_generator_awaitable_type(name, send, throw, step, finalize):
    """``async_generator_asend`` or ``async_generator_athrow``: an awaitable
    that is its own iterator. From 3.13 one dropped unawaited warns
    (``finalize``), and ``close()`` throws in."""
    methods = {
        "__slots__": ("agen", "argument", "state"),
        "send": send,
        "throw": throw,
        "__next__": step,
        "__iter__": async_generator_self,
        "__await__": async_generator_self,
        "close": async_generator_awaitable_close,
        "__module__": "builtins",
    }
    if async_generators_from_313:
        dict.__setitem__(methods, "__del__", finalize)
        dict.__setitem__(methods, "close", async_generator_thrown_close)
    return type(name, (), methods)


async_generator_wrapped_type = type("async_generator_wrapped_value", (), {"__slots__": ("value",)})
async_generator_type = async_generator_object_type({
    "__slots__": ("body", "running", "closed", "hooks_inited", "finalizer", "__weakref__"),
    "__aiter__": async_generator_aiter,
    "__anext__": async_generator_anext,
    "asend": async_generator_asend,
    "athrow": async_generator_athrow,
    "aclose": async_generator_aclose,
    "__del__": async_generator_finalize,
    "__repr__": async_generator_repr,
    "ag_running": property(async_generator_running),
    "ag_frame": property(async_generator_frame),
    "ag_code": property(async_generator_code),
    "ag_await": property(async_generator_awaited),
    "ag_suspended": property(async_generator_suspended),
    "__getattr__": async_generator_names,
    "__setattr__": async_generator_rename,
    "__module__": "builtins",
})
async_generator_asend_type = async_generator_awaitable_type(
    "async_generator_asend", async_generator_asend_send, async_generator_asend_throw,
    async_generator_asend_next, async_generator_asend_finalize)
async_generator_athrow_type = async_generator_awaitable_type(
    "async_generator_athrow", async_generator_athrow_send, async_generator_athrow_throw,
    async_generator_athrow_next, async_generator_athrow_finalize)
