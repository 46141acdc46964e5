"""Stores in evaluation order, unpacking (``a, *b, c = value``), ``__annotations__``.

The unpacking helpers take every value first, as CPython does, and return an
iterator over what the targets get, one ``next()`` per target, in order.
"""

unpack_end = object()


def attribute_set(value, obj, name):
    """``obj.name = value``, with the arguments in evaluation order."""
    setattr(obj, name, value)


def subscript_store(value, obj, key):
    """``obj[key] = value``, with the arguments in evaluation order (``subscript_set``)."""
    set_plan(id(type(obj)), subscript_set_full)(obj, key, value)  # noqa: F821


def unpack_defines_iter(cls):
    """Whether ``cls`` has an ``__iter__`` slot (even a failing one)."""
    for klass in cls.__mro__:
        if "__iter__" in klass.__dict__:
            return True
    return False


def unpack_start(value):
    """``iter(value)``; a value that has no way to iterate gets CPython's message."""
    try:
        return iter(value)
    except TypeError:
        if unpack_defines_iter(type(value)):
            raise
    name = operator_type_name(type(value), 200)  # noqa: F821  (runtime/operators.py)
    raise TypeError(f"cannot unpack non-iterable {name} object")


def unpack_exact(value, count):
    """``a, b = value``: exactly ``count`` items (one more is asked for, to check).
    A tuple or list of the right length gives its items as they are now, as
    CPython's ``UNPACK_SEQUENCE`` does (``tuple()`` of a list is a copy, since
    storing a target may change the list; of a tuple, the tuple itself)."""
    size = unpack_size(id(type(value)), unpack_unsized)(value)
    if operator_int_eq(size, count):  # noqa: F821
        return iter(tuple(value))
    return unpack_items(value, count)


#: ``len`` by the id of the type it is exact for: hashing the value's type
#: itself could run its metaclass's ``__hash__``
unpack_sizes = operator_table((tuple, len), (list, len))  # noqa: F821  (runtime/operators.py)
unpack_size = unpack_sizes.get


def unpack_unsized(value):
    """The size ``unpack_exact`` takes for a value other than a tuple or list: none."""
    return -1


def unpack_items(value, count):
    """``unpack_exact`` of an iterable other than a tuple or list of ``count`` items."""
    items = unpack_start(value)
    values = []
    while len(values) < count:
        item = next(items, unpack_end)
        if item is unpack_end:
            raise ValueError(
                f"not enough values to unpack (expected {count}, got {len(values)})"
            )
        values.append(item)
    if next(items, unpack_end) is not unpack_end:
        raise ValueError(f"too many values to unpack (expected {count})")
    return iter(values)


def unpack_starred(value, before, after):
    """``a, *b, c = value``: ``before`` items, a list of the middle, ``after`` items."""
    items = unpack_start(value)
    values = []
    while len(values) < before:
        item = next(items, unpack_end)
        if item is unpack_end:
            raise ValueError(
                "not enough values to unpack "
                f"(expected at least {before + after}, got {len(values)})"
            )
        values.append(item)
    rest = list(items)
    if len(rest) < after:
        raise ValueError(
            "not enough values to unpack "
            f"(expected at least {before + after}, got {before + len(rest)})"
        )
    middle = len(rest) - after
    values.append(rest[:middle])
    values.extend(rest[middle:])
    return iter(values)


def setup_annotations():
    """A module or class body with annotations starts with an ``__annotations__`` dict."""
    namespace = frame_of_caller(1).f_locals  # noqa: F821  (runtime/names.py)
    if type(namespace) is dict:
        if "__annotations__" not in namespace:
            namespace["__annotations__"] = {}
        return
    try:
        namespace["__annotations__"]
    except KeyError:
        namespace["__annotations__"] = {}
