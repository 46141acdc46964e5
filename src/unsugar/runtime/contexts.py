"""Context managers: ``__enter__`` and ``__exit__`` looked up as CPython does.

A special method is looked up on the type (never the instance) along its
MRO, then bound with the ``__get__`` of its own type, if it has one
(``_PyObject_LookupSpecial``).
"""

context_missing = object()
context_handled_exception = __import__("sys").exception
context_traceback_slot = BaseException.__traceback__


def context_type_lookup(klass, name):
    """``_PyType_Lookup``: ``name`` in the namespaces of the MRO of ``klass``."""
    mro = operator_mro_of(klass)  # noqa: F821  (runtime/operators.py)
    if mro is None:
        mro = operator_readied_mro(klass)  # noqa: F821
    for base in mro:
        namespace = operator_dict_of(base)  # noqa: F821
        if name in namespace:
            return namespace[name]
    return context_missing


def context_special(value, name):
    """``type(value).name`` bound to ``value``, or ``context_missing``."""
    klass = type(value)
    found = context_type_lookup(klass, name)
    if found is context_missing:
        return found
    bind = context_type_lookup(type(found), "__get__")
    if bind is context_missing:
        return found
    return bind(found, value, klass)


def context_type_name(klass):
    """The C ``tp_name`` of a class: ``module.Name`` for static types not in builtins."""
    name = klass.__name__
    if klass.__flags__ & 512:  # Py_TPFLAGS_HEAPTYPE
        return name
    module = klass.__module__
    if module == "builtins":
        return name
    return module + "." + name


def context_enter_method(manager):
    """The bound ``__enter__`` of ``manager``."""
    enter = context_special(manager, "__enter__")
    if enter is context_missing:
        raise TypeError(
            "'" + context_type_name(type(manager))
            + "' object does not support the context manager protocol"
        )
    return enter


def context_exit_method(manager):
    """The bound ``__exit__`` of ``manager``."""
    leave = context_special(manager, "__exit__")
    if leave is context_missing:
        raise TypeError(
            "'" + context_type_name(type(manager))
            + "' object does not support the context manager protocol (missed __exit__ method)"
        )
    return leave


def context_exit_arguments():
    """``(type, value, traceback)`` of the exception being handled: what
    ``__exit__`` is called with, from the frame of the ``with`` statement (as
    CPython calls it: code that looks at its caller's frame finds that one)."""
    value = context_handled_exception()
    return type(value), value, context_traceback_slot.__get__(value)
