"""``yield from``: what CPython does to the subiterator (PEP 380).

The delegating generator runs the loop itself (``rules/generators.py``): it
yields, catches what is thrown in, gets from :func:`yield_from_resumption`
what resumes the subiterator, and calls it. A ``StopIteration`` from the
subiterator never reaches the generator's body: its handler takes the value
(:func:`yield_from_stopped`) and ends the loop. The subiterator is resumed outside any
``except`` block of the delegating generator, so that the exceptions it
raises get the context CPython gives them, and directly from its frame, so
that the subiterator's frame is called from the delegating generator's.
"""

yield_from_sys = __import__("sys")
yield_from_handled_exception = yield_from_sys.exception


def yield_from_sample():
    """A generator function: the generator and method types, without ``types``."""
    yield


def yield_from_coroutine_of(function):
    """The type of coroutines (``async def`` is not rewritten): ``function``'s
    code flagged ``CO_COROUTINE`` instead of ``CO_GENERATOR`` makes one, closed
    before it runs."""
    code = function.__code__
    flags = int.__xor__(code.co_flags, 160)
    coroutine = type(function)(code.replace(co_flags=flags), dict())()
    coroutine.close()
    return type(coroutine)


yield_from_generator_type = type(yield_from_sample())
yield_from_coroutine_type = yield_from_coroutine_of(yield_from_sample)
yield_from_method_type = type(yield_from_sample.__get__(0))
#: ``coroutine.__await__``: its iterator (``next``, ``send``, ``throw``, ``close``
#: of the coroutine), which a ``yield from`` or an ``await`` delegates to.
yield_from_coroutine_wrapper = yield_from_coroutine_type.__await__

#: ``cr_suspended`` of a coroutine, by the id of its type (hashing a value's type
#: could run its metaclass's ``__hash__``): ``await_iterator``'s first test (a
#: coroutine not suspended is awaited as it is; for another type ``id`` is not ``False``)
yield_from_suspended = operator_table(  # noqa: F821  (runtime/operators.py)
    (yield_from_coroutine_type, yield_from_coroutine_type.cr_suspended.__get__))
yield_from_suspension = yield_from_suspended.get
#: ``CO_COROUTINE | CO_ITERABLE_COROUTINE``: code that may delegate to a coroutine.
yield_from_coroutine_flags = 384
yield_from_stop_value_slot = StopIteration.value
yield_from_context_slot = BaseException.__context__
yield_from_missing = object()
#: 3.12+ (``CLEANUP_THROW``): a ``StopIteration`` raised into the generator
#: while it delegates a ``throw`` or ``close`` ends the ``yield from`` too.
yield_from_cleanup_throw = yield_from_sys.version_info >= (3, 12)


def yield_from_partial(function, argument):
    """A callable without arguments that calls ``function(argument)`` from C, so
    that no frame of its own comes between the caller and ``function`` (what
    ``functools.partial`` does, which the runtime does not import), as often as
    it is called: a method bound to ``argument``, or for ``None`` (which binds
    nothing) ``next`` of a ``map`` over endless ``None``s (``NoneType()`` until
    it gives 0)."""
    if argument is None:
        return yield_from_method_type(next, map(function, iter(type(None), 0)))
    return yield_from_method_type(function, argument)


def yield_from_iter(iterable):
    """``GET_YIELD_FROM_ITER``: a generator as it is; a coroutine only in a
    coroutine or ``types.coroutine`` generator (the caller's code flags), through
    its ``__await__`` iterator; anything else through ``iter``.
    """
    kind = type(iterable)
    if kind is yield_from_generator_type:
        return iterable
    if kind is yield_from_coroutine_type:
        if yield_from_sys._getframe(1).f_code.co_flags & yield_from_coroutine_flags:
            return yield_from_coroutine_wrapper(iterable)
        raise TypeError("cannot 'yield from' a coroutine object in a non-coroutine generator")
    return iter(iterable)


yield_from_is_stop = StopIteration.__subclasscheck__
yield_from_stop_value = yield_from_stop_value_slot.__get__


def yield_from_subtype(klass, base):
    """``PyType_IsSubtype``: ``base`` is in the MRO of ``klass`` (no hooks)."""
    return operator_is_subtype(base, klass)  # noqa: F821  (runtime/operators.py)


def yield_from_stopped():
    """In the handler of the resumption: the value of the ``yield from`` for a
    ``StopIteration`` (its ``value`` slot); any other exception is raised again,
    without the delegating frame's traceback entry, which that frame adds again
    as the exception leaves this call (one entry, as CPython's ``SEND`` makes).
    """
    stop = yield_from_handled_exception()
    if yield_from_is_stop(type(stop)):
        return yield_from_stop_value(stop)
    module_entry_dropped()  # noqa: F821  (runtime/modules.py)
    raise


def yield_from_thrown():
    """In the handler of the ``yield``: the exception thrown into the delegating
    generator, without the traceback entry its frame got at the ``yield``
    (CPython hands it to the subiterator before it reaches that frame)."""
    error = yield_from_handled_exception()
    error.__traceback__ = error.__traceback__.tb_next
    return error


def yield_from_ended(value):
    """A resumption that ends the ``yield from`` with ``value``: a ``StopIteration``
    of its own, which the delegating generator handles as the subiterator's."""
    raise StopIteration(value)


def yield_from_resumption(iterator, sent, thrown):
    """What resumes ``iterator`` with a value ``sent`` (not ``None``: that is
    ``next``, which the delegating generator binds itself) or an exception
    ``thrown``, as a callable without arguments that the delegating generator
    calls itself (so that the subiterator's frame is called from it): its
    ``send``. With ``thrown`` (the exception thrown into the delegating
    generator): ``GeneratorExit`` closes the subiterator (``close``, if it has
    one) and is raised again; another exception goes to the subiterator's
    ``throw``, or is raised again if it has none.
    """
    if thrown is None:
        return yield_from_partial(iterator.send, sent)
    if not yield_from_cleanup_throw:
        return yield_from_throw(iterator, thrown)
    try:
        return yield_from_throw(iterator, thrown)
    except StopIteration as stop:
        return yield_from_partial(yield_from_ended, yield_from_stop_value(stop))


def yield_from_throw(iterator, thrown):
    """The resumption for an exception thrown in (see :func:`yield_from_resumption`).
    An exception raised again is raised when the delegating generator calls
    the resumption, so that it leaves no frame of the runtime behind (their
    locals would hold it); before 3.12 a ``StopIteration`` is raised at once,
    where the delegating generator does not take it for the subiterator's."""
    if yield_from_subtype(type(thrown), GeneratorExit):
        close = yield_from_method(iterator, "close")
        if close is not yield_from_missing:
            close()
        return yield_from_partial(yield_from_reraise, thrown)
    throw = yield_from_method(iterator, "throw")
    if throw is not yield_from_missing:
        return yield_from_partial(throw, thrown)
    if yield_from_cleanup_throw or not yield_from_subtype(type(thrown), StopIteration):
        return yield_from_partial(yield_from_reraise, thrown)
    yield_from_reraise(thrown)


def yield_from_method(iterator, name):
    """``iterator.name``, or ``yield_from_missing`` if it has no such attribute."""
    try:
        return getattr(iterator, name)
    except AttributeError:
        return yield_from_missing


def yield_from_reraise(error):
    """Raise ``error`` again, as the generator got it: its context and its
    traceback are kept (without an entry of this frame)."""
    context = yield_from_context_slot.__get__(error)
    traceback = error.__traceback__
    try:
        raise error
    except:  # noqa: E722  (any exception: it is raised again)
        yield_from_context_slot.__set__(error, context)
        error.__traceback__ = traceback
        raise
