"""``warnings.warn``'s ``stacklevel``, counted over the frames CPython runs.

``warn(message, stacklevel=n)`` names the frame ``n - 1`` callers out from
its caller (``setup_context`` in ``Python/_warnings.c``). The output runs
frames CPython does not: the runtime's helpers (C code there:
``__build_class__``, an operator's dispatch) and, above a module body, the
module def and the module's own frame. A call that may be of ``warn``
(rules ``warn-callee`` and ``namespace-callee``) calls ``warn_counted``
instead, which passes ``warn`` the level that names, from its own frame, the
frame CPython's names from the caller's.
"""

stacklevels_sys = __import__("sys")
#: ``warnings.warn``: the C one, which ``warnings`` takes, of ``_warnings``
#: (loaded as the interpreter starts; not imported here); None if it is blocked
stacklevels_warn = getattr(dict.get(stacklevels_sys.modules, "_warnings"), "warn", None)


stacklevels_builtin_type = type(len)


def warn_callee(function):
    """The callee of a call that may be ``warnings.warn``: ``warn_counted`` if it
    is, a counting ``warn`` like it for another ``warn`` of ``warnings``."""
    if function is stacklevels_warn and function is not None:
        return warn_counted
    if warn_other(function):
        return warn_counting(function)
    return function


def warn_other(function):
    """Whether ``function`` is a ``warn`` of ``warnings`` other than the one the
    interpreter loaded as it started: of a ``_warnings`` loaded again, or the
    pure Python one, which ``warnings`` defines when ``_warnings`` is missing
    (as on an implementation of the core without it)."""
    kind = type(function)
    if kind is stacklevels_builtin_type:
        module = "_warnings"
    elif kind is operator_function_type:  # noqa: F821  (runtime/operators.py)
        module = "warnings"
    else:
        return False
    return function.__name__ == "warn" and function.__module__ == module


def warn_counting(function):
    """``function`` (a ``warnings.warn``) called with its ``stacklevel`` counted
    again. A warning raised as an error (``-W error``) leaves without this
    helper's traceback entry, as it leaves the C ``warn``. (A call of a name
    ``warn`` here would be one of rule ``warn-callee``: hence ``function``.)"""

    pure = type(function) is operator_function_type  # noqa: F821  (runtime/operators.py)

    def counted(*args, **kwargs):
        call = warn_arguments(args, kwargs, pure)
        try:
            return function(*call[0], **call[1])
        except BaseException:
            module_entry_dropped()  # noqa: F821  (runtime/modules.py)
            raise

    return counted


#: the C ``warnings.warn`` loaded as the interpreter started, counting
warn_counted = warn_counting(stacklevels_warn)


def warn_arguments(args, kwargs, pure):
    """The arguments a counting ``warn`` (:func:`warn_counting`) calls ``warn`` with: ``args`` and
    ``kwargs``, the ``stacklevel`` counted again (as they are if it is no int,
    which ``warn`` rejects, or, for the ``pure`` Python ``warn``, a level below
    1: it names its own frame then)."""
    count = len(args)
    level = tuple.__getitem__(args, 2) if int.__le__(3, count) else dict.get(kwargs, "stacklevel", 1)
    skip = dict.get(kwargs, "skip_file_prefixes", ())
    if not isinstance(level, int) or type(skip) is not tuple or not int.__le__(abs(level), 1 << 30):
        return args, kwargs
    if skip and level < 2:  # (3.12+: warn's own rule)
        level = 2
    if pure and level < 1:
        return args, kwargs
    end = None if pure else -1
    target = warn_target(frame_of_caller(2), level, skip, end)  # noqa: F821  (the caller)
    level = warn_level(frame_of_caller(1), target, skip, end)  # noqa: F821  (the counting warn)
    if int.__le__(3, count):
        return (*args[:2], level, *args[3:]), kwargs
    return args, {**kwargs, "stacklevel": level}


def warn_target(frame, level, skip, end):
    """The frame ``warn(..., level)`` called in ``frame`` names as CPython runs:
    ``level - 1`` callers out, each past the import system's frames and those
    of the files ``skip`` starts (or past none, if ``frame`` is the import
    system's or ``level`` is not positive); None past the outermost."""
    if level <= 0 or warn_skipped(frame, (), end):
        while level > 1 and frame is not None:
            frame = warn_back(frame)
            level -= 1
        return frame
    while level > 1 and frame is not None:
        frame = warn_back(frame)
        while frame is not None and warn_skipped(frame, skip, end):
            frame = warn_back(frame)
        level -= 1
    return frame


def warn_back(frame):
    """The caller of ``frame`` as CPython runs: past the module def and the
    module's own frame above a module body (module code, whose caller and
    its caller, named module code too, have its globals), and past the
    runtime's helpers."""
    back = frame.f_back
    scope = frame.f_globals
    if back is not None and frame.f_code.co_name == "<module>" and back.f_globals is scope:
        outer = back.f_back
        if outer is not None and outer.f_globals is scope and outer.f_code.co_name == "<module>":
            back = outer.f_back
    while back is not None and warn_helper(back):
        back = back.f_back
    return back


def warn_helper(frame):
    """Whether ``frame`` runs a runtime helper: one whose qualified name starts
    as this one's, inlined in an output (``<prefix>module.<locals>.<prefix>``);
    imported (``--runtime=import``), one of this module."""
    own = warn_helper.__code__.co_qualname
    stem = own[:-11]  # (without "warn_helper")
    if stem:
        return frame.f_code.co_qualname.startswith(stem)
    return frame.f_globals is warn_helper.__globals__


def warn_skipped(frame, skip, end):
    """Whether ``warnings`` steps over ``frame``: the import system's, or of a
    file that one of ``skip`` starts before ``end``: -1 for the C ``warn``
    (``PyUnicode_Tailmatch`` to -1: a prefix that is the whole name is none),
    None for the pure Python one (``str.startswith``)."""
    filename = frame.f_code.co_filename
    if "importlib" in filename and "_bootstrap" in filename:
        return True
    if not skip or type(filename) is not str:
        return False
    return filename.startswith(skip, 0, end)


def warn_level(start, target, skip, end):
    """The ``stacklevel`` that names ``target`` from ``start``, the frame that
    calls ``warn``: one more for each caller out, past those ``warnings``
    steps over."""
    level = 1
    frame = start
    while frame is not target and frame is not None:
        frame = frame.f_back
        while frame is not None and warn_skipped(frame, skip, end):
            frame = frame.f_back
        level += 1
    return level
