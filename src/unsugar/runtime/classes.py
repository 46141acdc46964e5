"""Classes: what ``builtins.__build_class__`` does, and the class-body names.

A class body is a core ``def`` that takes the namespace and reads and writes
its names through these helpers, as CPython's ``LOAD_NAME``, ``STORE_NAME``,
``DELETE_NAME`` and ``LOAD_CLASSDEREF`` do. ``build_class`` resolves the
bases, chooses the metaclass, prepares the namespace, runs the body in it and
calls the metaclass, in CPython's order and with its messages.
"""

classes_sys = __import__("sys")
classes_is_subtype = type.__subclasscheck__
classes_missing = object()
classes_builtin_locals = locals
classes_builtin_vars = vars
classes_builtin_dir = dir
classes_builtin_exec = exec
classes_builtin_eval = eval


def namespace_lookup(namespace, name):
    """``namespace[name]`` (``__getitem__`` of its type), or ``classes_missing`` on KeyError."""
    if type(namespace) is dict:
        return dict.get(namespace, name, classes_missing)
    try:
        return type(namespace).__getitem__(namespace, name)
    except KeyError:
        return classes_missing


def namespace_load(namespace, name):
    """A name read in a class body: the namespace, then globals, then builtins."""
    value = namespace_lookup(namespace, name)
    if value is not classes_missing:
        return value
    frame = frame_of_caller(1)  # noqa: F821  (runtime/names.py)
    value = namespace_global_lookup(frame, name)
    if value is classes_builtin_locals or value is classes_builtin_vars:
        return namespace_reader(namespace, value, frame.f_globals, 0)
    return value


def classes_warn_entries(warn):
    """The entry of ``warnings.warn`` in ``classes_namespace_readers``, if it is loaded."""
    if warn is None:
        return ()
    return ((warn, 4),)


#: the builtins that read the namespace of their caller, by id: 1 ``locals``
#: and ``vars``, 2 ``dir``, 3 ``exec`` and ``eval`` (the helpers below compare
#: with int and dict methods, which need no other helper); and 4
#: ``warnings.warn``, which counts its caller's callers (``warn_counted``)
classes_namespace_readers = operator_table(  # noqa: F821  (runtime/operators.py)
    (classes_builtin_locals, 1), (classes_builtin_vars, 1), (classes_builtin_dir, 2),
    (classes_builtin_exec, 3), (classes_builtin_eval, 3),
    *classes_warn_entries(stacklevels_warn))  # noqa: F821  (runtime/stacklevels.py)
classes_reader_kind = classes_namespace_readers.get
classes_int_le = int.__le__
classes_tuple_item = tuple.__getitem__
classes_dict_has = dict.__contains__
classes_dict_pop = dict.pop


def namespace_callee(namespace, function):
    """The callee of a call in a module or class body: the builtin that reads
    the caller's namespace, if it is one (under another name, as six's
    ``exec_``, or through an attribute), made to read ``namespace``;
    ``warnings.warn``, made to count the frames CPython runs (also one that
    ``warnings`` defines again, :func:`warn_callee`); anything else, itself."""
    kind = classes_reader_kind(id(function), 0)
    if kind:
        return namespace_special_callee(namespace, function, kind, 0, frame_of_caller(1).f_globals)  # noqa: F821
    return warn_callee(function)  # noqa: F821  (another warnings.warn: runtime/stacklevels.py)


def namespace_callee_synced(namespace, function, cells):
    """:func:`namespace_callee` in a class body whose ``cells`` are synced
    into its namespace when it is read (:func:`namespace_sync`); ``locals``
    or ``vars`` read by name there is already a reader (:func:`namespace_load`),
    made again with the cells."""
    if type(function) is classes_function and function.__code__ is classes_reader_code:
        function = classes_builtin_vars if function.__name__ == "vars" else classes_builtin_locals
    kind = classes_reader_kind(id(function), 0)
    if kind:
        return namespace_special_callee(namespace, function, kind, cells, frame_of_caller(1).f_globals)  # noqa: F821
    return warn_callee(function)  # noqa: F821


def namespace_special_callee(namespace, function, kind, cells, scope):
    """The callee that stands for ``function``, a builtin of ``kind`` in
    ``classes_namespace_readers``, in a body whose globals are ``scope``."""
    if operator_int_eq(kind, 4):  # noqa: F821
        return warn_counted  # noqa: F821  (runtime/stacklevels.py)
    return namespace_reader(namespace, function, scope, cells)


def namespace_reader(namespace, builtin, scope, cells):
    """``builtin`` (``locals``, ``exec``...) reading ``namespace``, and ``scope``
    as the globals: what a module or class body sees under another name."""

    def reader(*args, **kwargs):
        return namespace_call_in(scope, namespace, builtin, args, kwargs, cells)

    reader.__name__ = builtin.__name__
    reader.__qualname__ = builtin.__qualname__
    return reader


classes_function = type(namespace_callee)
classes_reader_code = namespace_reader(None, classes_builtin_locals, None, 0).__code__


def namespace_sync(namespace, cells):
    """What CPython up to 3.12 does to a class body's namespace when it reads it
    as the frame's locals: the cells of the frame are copied in, in the order
    of their names, an empty one deleting its key. ``cells`` 1: the
    ``__class__`` cell, empty while the body runs; 2: the ``__classdict__``
    cell (3.12), which holds the namespace."""
    if cells & 1:
        try:
            del namespace["__class__"]
        except KeyError:
            pass
    if cells & 2:
        namespace["__classdict__"] = namespace


def namespace_call_in(scope, namespace, function, args, kwargs, cells):
    """``function(*args, **kwargs)`` where the builtins that read the caller's
    namespace must read ``namespace``: ``locals()``, ``vars()`` and ``dir()``
    without an argument, ``exec`` and ``eval`` without mappings (``scope`` as
    globals, and ``namespace`` as locals)."""
    kind = classes_reader_kind(id(function), 0)
    if not args and not kwargs:
        if operator_int_eq(kind, 1):  # noqa: F821
            namespace_sync(namespace, cells)
            return namespace
        if operator_int_eq(kind, 2):  # noqa: F821
            namespace_sync(namespace, cells)
            return sorted(mapping_keys(namespace))  # noqa: F821  (runtime/imports.py)
    count = len(args)
    if operator_int_eq(kind, 3) and count:  # noqa: F821
        source = classes_tuple_item(args, 0)
        future = int.__and__(frame_of_caller(2).f_code.co_flags, classes_future_mask)  # noqa: F821
        if future and (type(source) is str or type(source) is bytes):
            args = (classes_compiled(function, source, future), *args[1:])
    if operator_int_eq(kind, 3) and count and classes_int_le(count, 3):  # noqa: F821
        mapping = classes_tuple_item(args, 1) if classes_int_le(2, count) else None
        local = classes_tuple_item(args, 2) if operator_int_eq(count, 3) else None  # noqa: F821
        rest = dict(kwargs)
        if classes_dict_has(rest, "globals") and classes_int_le(count, 1):
            mapping = classes_dict_pop(rest, "globals")
        if classes_dict_has(rest, "locals") and classes_int_le(count, 2):
            local = classes_dict_pop(rest, "locals")
        if mapping is None:
            if local is None:
                namespace_sync(namespace, cells)
                local = namespace
            return function(classes_tuple_item(args, 0), scope, local, **rest)
    return function(*args, **kwargs)


#: the code flags of the future statements, which code compiled in a frame
#: inherits (``CO_FUTURE_BARRY_AS_BDFL``, ``CO_FUTURE_ANNOTATIONS``: ``unit.FUTURE_CODE_FLAGS``)
classes_future_mask = 0x1400000


def classes_compiled(function, source, future):
    """``source`` compiled as ``function`` (``exec`` or ``eval``) called in the
    module's code would compile it: with the ``future`` flags that code passes
    on (``namespace_call_in`` runs it for a caller whose flags it reads)."""
    if function is classes_builtin_eval:  # (eval strips leading spaces and tabs)
        return compile(source.lstrip(" \t" if type(source) is str else b" \t"), "<string>", "eval", future)
    return compile(source, "<string>", "exec", future)


def namespace_global(name):
    """A read of a name the class body declares ``global``."""
    return namespace_global_lookup(frame_of_caller(1), name)  # noqa: F821  (runtime/names.py)


def namespace_global_lookup(frame, name):
    value = dict.get(frame.f_globals, name, classes_missing)
    if value is not classes_missing:
        return value
    builtins = frame.f_builtins
    if type(builtins) is dict:
        value = dict.get(builtins, name, classes_missing)
    else:
        try:
            value = type(builtins).__getitem__(builtins, name)
        except KeyError:
            value = classes_missing
    if value is classes_missing:
        raise NameError(f"name '{name}' is not defined", name=name)
    return value


def namespace_free(namespace, name, variable):
    """A read, in a class body, of a variable of an enclosing function: the
    namespace first, then the variable (``variable()`` returns it)."""
    value = namespace_lookup(namespace, name)
    if value is not classes_missing:
        return value
    return variable()


def namespace_store(namespace, name, value):
    """``name = value`` in a class body."""
    if type(namespace) is dict:
        dict.__setitem__(namespace, name, value)
        return
    setitem = getattr(type(namespace), "__setitem__", None)
    if setitem is None:
        raise TypeError(f"'{type(namespace).__name__}' object does not support item assignment")
    setitem(namespace, name, value)


def namespace_remove(namespace, name):
    """``del name`` in a class body: any failure is a NameError."""
    failed = False
    try:
        type(namespace).__delitem__(namespace, name)
    except:  # noqa: E722  (CPython turns every failure into NameError)
        failed = True
    if failed:
        raise NameError(f"name '{name}' is not defined", name=name)


def namespace_setup_annotations(namespace):
    """A class body with annotations starts with an ``__annotations__`` dict."""
    if type(namespace) is dict:
        if "__annotations__" not in namespace:
            dict.__setitem__(namespace, "__annotations__", {})
        return
    try:
        type(namespace).__getitem__(namespace, "__annotations__")
    except KeyError:
        namespace_store(namespace, "__annotations__", {})


def class_first_line(namespace, line):
    """From 3.13, ``__firstlineno__``: the line of the class (or its first decorator)."""
    if classes_sys.version_info >= (3, 13):
        namespace_store(namespace, "__firstlineno__", line)


def class_static_attributes(namespace, *names):
    """From 3.13, ``__static_attributes__``: the ``self.x`` its functions assign."""
    if classes_sys.version_info >= (3, 13):
        namespace_store(namespace, "__static_attributes__", names)


def class_cell(namespace, reader):
    """Store the ``__class__`` cell (the one ``reader`` reads) as ``__classcell__``."""
    namespace_store(namespace, "__classcell__", reader.__closure__[0])


def class_cell_of(run):
    """The ``__class__`` cell of the class body ``run``, or None: ``type.__new__``
    fills the one stored as ``__classcell__``."""
    names = run.__code__.co_freevars
    if "__class__" in names:
        return run.__closure__[names.index("__class__")]
    return None


def class_dict_cell(namespace, reader):
    """Store the ``__classdict__`` cell (the one ``reader`` reads) as
    ``__classdictcell__``: ``type.__new__`` puts the class's dict in it."""
    namespace_store(namespace, "__classdictcell__", reader.__closure__[0])


def class_bases(bases):
    """The bases after ``__mro_entries__`` (``types.resolve_bases``); the same
    tuple when no base has one."""
    resolved = None
    index = 0
    for base in bases:
        if isinstance(base, type):
            entries = None
        else:
            entries = getattr(base, "__mro_entries__", None)
        if entries is None:
            if resolved is not None:
                resolved.append(base)
        else:
            replacement = entries(bases)
            if not isinstance(replacement, tuple):
                raise TypeError("__mro_entries__ must return a tuple")
            if resolved is None:
                resolved = list(bases[:index])
            resolved.extend(replacement)
        index += 1
    if resolved is None:
        return bases
    return tuple(resolved)


def class_metaclass(meta, bases):
    """The most derived of ``meta`` and the metaclasses of the bases."""
    winner = meta
    for base in bases:
        kind = type(base)
        if classes_is_subtype(kind, winner):
            continue
        if classes_is_subtype(winner, kind):
            winner = kind
            continue
        raise TypeError(
            "metaclass conflict: the metaclass of a derived class must be a "
            "(non-strict) subclass of the metaclasses of all its bases"
        )
    return winner


def build_class(body, name, /, *bases, **keywords):
    """``builtins.__build_class__``; ``body(namespace)`` makes the class body,
    whose code runs with the namespace as its locals (``namespace_body``)."""
    original_bases = bases
    bases = class_bases(bases)
    if "metaclass" in keywords:
        meta = keywords.pop("metaclass")
        is_class = isinstance(meta, type)
    else:
        meta = type(bases[0]) if bases else type
        is_class = True
    if is_class:
        meta = class_metaclass(meta, bases)
    prepare = getattr(meta, "__prepare__", None)
    if prepare is None:
        namespace = {}
    else:
        namespace = prepare(name, bases, **keywords)
    if not hasattr(type(namespace), "__getitem__"):
        shown = meta.__name__ if is_class else "<metaclass>"
        raise TypeError(
            f"{shown}.__prepare__() must return a mapping, not {type(namespace).__name__}"
        )
    run = namespace_body(body, namespace, body.__code__.co_name, body.__code__.co_qualname)  # noqa: F821
    classes_builtin_exec(run.__code__, run.__globals__, namespace, closure=run.__closure__)
    cell = class_cell_of(run)
    run = None  # the body's variables die as its frame would, before the metaclass runs
    if bases is not original_bases:
        namespace_store(namespace, "__orig_bases__", original_bases)
    cls = meta(name, bases, namespace, **keywords)
    if isinstance(cls, type) and cell is not None:
        try:
            owner = cell.cell_contents
        except ValueError:
            owner = classes_missing
        if owner is not cls:
            if owner is classes_missing:
                raise RuntimeError(
                    f"__class__ not set defining {name!r} as {cls!r}. "
                    "Was __classcell__ propagated to type.__new__?"
                )
            raise TypeError(f"__class__ set to {owner!r} defining {name!r} as {cls!r}")
    return cls
