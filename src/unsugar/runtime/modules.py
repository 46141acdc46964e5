"""The module body: code run in the module's namespace (``unsugar.namespaces``).

The output is ``def _us_module(namespace)``, which makes the helpers and then
runs the user's code, the code of ``def _us_body(namespace)``, with the
namespace as its frame's locals and under the name module code has,
``<module>``.
"""

modules_sys = __import__("sys")


def namespace_setitem(namespace):
    """``STORE_NAME``'s store into ``namespace``: ``operator.setitem`` when it is
    loaded (one fast call), else the ``__setitem__`` of the mapping's type."""
    operator = dict.get(modules_sys.modules, "_operator")
    setitem = getattr(operator, "setitem", None)
    if setitem is not None:
        return setitem
    return type(namespace).__setitem__


#: The code run in a namespace made of each body's code (a class statement run
#: again, in a loop or a function, makes a body of the same code).
namespace_codes = operator_table()  # noqa: F821  (runtime/operators.py)


def namespace_body(holder, namespace, name, qualname):
    """The function ``holder`` makes for ``namespace`` (the first of its
    parameters, the others the body's variables: cells, fresh for each run),
    its code made the code of a scope whose names live in a mapping, named
    ``name``: run by ``exec`` with the namespace as its locals, its frame's
    ``f_locals`` is the namespace, as a module's or a class body's is."""
    run = holder(namespace, *range(1, holder.__code__.co_argcount))  # (ints: they hold nothing)
    code = run.__code__
    made = dict.get(namespace_codes, code)
    if made is None:
        flags = int.__sub__(code.co_flags, 3)  # no CO_OPTIMIZED | CO_NEWLOCALS: no frame of a function
        made = code.replace(co_flags=flags, co_name=name, co_qualname=qualname)
        dict.__setitem__(namespace_codes, code, made)
    setattr(run, "__code__", made)  # noqa: B010  (same free variables: not code_set)
    return run


def module_code(holder, namespace):
    """The module body that ``holder`` makes, named as module code is:
    ``<module>`` in tracebacks and frames; ``exec`` runs its ``__code__``
    in the namespace, with its ``__globals__`` and ``__closure__``."""
    return namespace_body(holder, namespace, "<module>", "<module>")


def module_code_future(holder, namespace, future):
    """:func:`module_code` of a module with future statements: their flags,
    ``future``, are given to all of its code, as CPython's compiler gives
    them, so that what that code compiles (``exec`` or ``eval`` of a string,
    ``compile``) inherits them (``annotations``)."""
    run = namespace_body(holder, namespace, "<module>", "<module>")
    setattr(run, "__code__", modules_flagged(run.__code__, future))  # noqa: B010
    return run


modules_code_type = type(module_code.__code__)


def modules_flagged(code, flags):
    """``code``, and the code of the functions and classes in its constants, with ``flags``."""
    constants = []
    for constant in code.co_consts:
        if type(constant) is modules_code_type:
            constant = modules_flagged(constant, flags)
        list.append(constants, constant)
    return code.replace(co_flags=int.__or__(code.co_flags, flags), co_consts=tuple(constants))


def module_entry_dropped():
    """In the handler of the module def (or of a helper that stands for C
    code, ``warn_counted``, or that raises again what a frame caught,
    ``yield_from_stopped``): the exception being handled leaves without its
    first traceback entry, which the frame it enters adds again."""
    error = modules_sys.exception()
    error.__traceback__ = error.__traceback__.tb_next


def module_failed(namespace, name):
    """In the handler of the module def: the exception leaves without the
    def's entry, and ``namespace[name]`` (the def's own name, which the body
    took out) is a function for the handler at module level, which calls it
    to drop that level's entry too. It is bound only while the exception
    passes through: it takes itself out of the namespace. So that handler
    reads no name the module's code may have bound (``dict = 5``)."""
    module_entry_dropped()

    def dropped():
        type(namespace).__delitem__(namespace, name)
        module_entry_dropped()

    type(namespace).__setitem__(namespace, name, dropped)
