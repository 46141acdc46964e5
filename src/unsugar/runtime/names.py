"""Names: ``global`` stores and deletes, ``del`` of names, reads of deleted locals.

The module and class helpers act on the namespace of the frame that calls
them, so they work the same whether the runtime is inlined or imported.
A function has no way to unbind a local in core syntax: ``del x`` stores
``unbound_marker`` in ``x``, and reads of such a variable check for it.

Also ``not``, a truth test that needs no operator.
"""

frame_of_caller = __import__("sys")._getframe
unbound_marker = object()
names_builtin_locals = locals
names_builtin_vars = vars
names_builtin_dir = dir


def global_set(name, value):
    """``global name; name = value`` inside a function."""
    dict.__setitem__(frame_of_caller(1).f_globals, name, value)


def call_if(flag, body):
    """``body()`` when ``flag`` is set: a segment of code nested too deep for a block."""
    if flag:
        body()


def visible_locals(found, function, prefix):
    """What ``function()`` returned in a function: when ``function`` is the builtin
    ``locals`` or ``vars``, without the compiler's temporaries (their names start
    with ``prefix``) and the variables ``del`` unbound (they hold the marker).
    The dict is changed in place: before 3.13 it is the frame's own, refreshed by
    every call. When ``function`` is ``dir``, the list of names without them
    (the values are the caller's frame's)."""
    if function is names_builtin_dir:
        return visible_names(found, frame_of_caller(1).f_locals, prefix)
    if function is not names_builtin_locals and function is not names_builtin_vars:
        return found
    shown = {}
    shown_locals(shown, found, prefix)
    dict.clear(found)
    dict.update(found, shown)
    return found


def shown_locals(shown, values, prefix):
    """Put in ``shown`` the variables of ``values`` (a frame's locals) that
    ``locals()`` shows: not the compiler's temporaries (their names start with
    ``prefix``), nor the variables ``del`` unbound (they hold the marker)."""
    for name in values:
        if not str.startswith(name, prefix):
            value = values[name]
            if value is not unbound_marker:
                dict.__setitem__(shown, name, value)


def visible_names(names, values, prefix):
    """``names`` (``dir()``'s sorted list) without the temporaries and the
    variables ``del`` unbound (their ``values`` hold the marker)."""
    shown = []
    for name in names:
        if not str.startswith(name, prefix) and values.get(name) is not unbound_marker:
            list.append(shown, name)
    return shown


def comprehension_locals(found, function, prefix, *iterators):
    """What ``function()`` returned in the def of a comprehension: when
    ``function`` is ``locals``, ``vars`` or ``dir``, the variables of the
    frames CPython's frame holds. ``iterators`` has one item for each frame
    shown, from the outermost to the def's own (``frame_of_caller(1)``): the
    name of the frame's iterator argument, shown as ``.0`` (that of a
    generator expression, and of every comprehension up to 3.11), or ``""``.
    The frames around are those a comprehension inlined from 3.12 runs in.
    The dict of ``locals()`` is filled in place (before 3.13, the frame's own)."""
    if function is not names_builtin_locals and function is not names_builtin_vars \
            and function is not names_builtin_dir:
        return found
    shown = {}
    depth = len(iterators)
    for iterator in iterators:
        values = frame_of_caller(depth).f_locals
        depth = depth - 1
        if iterator:
            dict.__setitem__(shown, ".0", values[iterator])
        shown_locals(shown, values, prefix)
    if function is names_builtin_dir:
        return sorted(shown)
    dict.clear(found)
    dict.update(found, shown)
    return found


def global_value(name):
    """A read of ``global name`` where an enclosing function binds ``name`` too."""
    return namespace_global_lookup(frame_of_caller(1), name)  # noqa: F821  (runtime/classes.py)


def global_delete(name):
    """``global name; del name``: the module's dict, NameError when missing."""
    missing = False
    try:
        dict.__delitem__(frame_of_caller(1).f_globals, name)
    except KeyError:
        missing = True
    if missing:
        raise NameError(f"name '{name}' is not defined", name=name)


def namespace_delete(name):
    """``del name`` in a module or class body: its namespace, NameError on any failure."""
    namespace_remove(frame_of_caller(1).f_locals, name)  # noqa: F821  (runtime/classes.py)


def unbound_local_message(name):
    return f"cannot access local variable '{name}' where it is not associated with a value"


def unbound_free_message(name):
    return (
        f"cannot access free variable '{name}' where it is not associated with a value"
        " in enclosing scope"
    )


def local_value(value, name):
    """A read of local ``name``, which ``del`` may have unbound."""
    if value is unbound_marker:
        raise UnboundLocalError(unbound_local_message(name), name=name)
    return value


def free_value(value, name):
    """A read of ``name`` from an enclosing function, which ``del`` may have unbound."""
    if value is unbound_marker:
        raise NameError(unbound_free_message(name), name=name)
    return value


def unbind_local(value, name):
    """``del name`` of a local: ``name = unbind_local(name, "name")``."""
    local_value(value, name)
    return unbound_marker


def unbind_free(value, name):
    """``nonlocal name; del name``: ``name = unbind_free(name, "name")``."""
    free_value(value, name)
    return unbound_marker
