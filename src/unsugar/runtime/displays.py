"""Tuple, list, set and dict displays, with ``*`` and ``**`` unpacking.

The helpers raise CPython's own messages: ``[*1]`` says ``Value after * must
be an iterable, not int`` and ``{**1}`` says ``'int' object is not a
mapping``, not what a call's ``*``/``**`` would say. An error they report is
raised after their ``except:`` block ends, so that, as in CPython, its
``__context__`` is the exception being handled by the user, if any. Type
names are CPython's ``tp_name`` (``operator_type_name``, in ``operators``).
"""

displays_sys = __import__("sys")


def display_type_name(cls):
    """CPython's ``tp_name`` of ``cls``, cut to 200 characters as its messages do."""
    return operator_type_name(cls, 200)  # noqa: F821  (defined in runtime/operators.py)


def display_type_defines(cls, name):
    """Whether a class of the MRO of ``cls`` defines ``name`` (a type slot is set)."""
    mro = cls.__mro__
    i = 0
    count = len(mro)
    while int.__lt__(i, count):
        if tuple.__getitem__(mro, i).__dict__.__contains__(name):
            return True
        i = int.__add__(i, 1)
    return False


def star_items(value):
    """``*value`` in a tuple or list display: a new list of its items, made by
    ``list.extend`` as CPython's ``LIST_EXTEND`` does (``iter()``, then
    ``len()`` or ``__length_hint__`` of ``value``, then the iteration).

    Without ``__iter__``, ``iter()`` succeeds (old sequence protocol) or fails
    at once, running no user code; the failure has the display's message.
    """
    if not display_type_defines(type(value), "__iter__"):
        failed = False
        try:
            iter(value)
        except:  # noqa: E722  (a TypeError, raised before any user code runs)
            failed = True
        if failed:
            name = display_type_name(type(value))
            raise TypeError(str.join("", ("Value after * must be an iterable, not ", name)))
    items = list()
    list.extend(items, value)
    return items


def list_of(*items):
    """``[a, *b]`` is ``list_of(a, *star_items(b))``."""
    return list(items)


def set_of(*items):
    """``{a, b}``: the items are added in order, once all are evaluated."""
    return set(items)


def set_display_add(target, item):
    """An item of a set display that CPython adds as soon as it is evaluated."""
    set.add(target, item)


def set_display_update(target, values):
    """``*values`` in a set display (``set.update``'s own errors)."""
    set.update(target, values)


def dict_of(*items):
    """``{k1: v1, k2: v2}`` is ``dict_of(k1, v1, k2, v2)``: inserted in order, later keys win."""
    pairs = iter(items)
    return dict(zip(pairs, pairs, strict=False))


def dict_display_store(target, key, value):
    """An item of a dict display that CPython stores as soon as it is evaluated."""
    dict.__setitem__(target, key, value)


def dict_display_merge(target, mapping):
    """``**mapping`` in a dict display; returns ``target``.

    Any ``AttributeError`` on the way becomes ``'X' object is not a mapping``.
    """
    failed = False
    try:
        dict_merge_mapping(target, mapping)
    except:  # noqa: E722  (only an AttributeError is replaced)
        if isinstance(displays_sys.exception(), AttributeError):
            failed = True
        else:
            raise
    if failed:
        name = display_type_name(type(mapping))
        raise TypeError(str.join("", ("'", name, "' object is not a mapping")))
    return target


def dict_merge_mapping(target, mapping):
    """CPython's ``dict_merge``: a dict that keeps ``dict.__iter__`` is copied
    directly; anything else gives ``list(mapping.keys())``, then each
    ``mapping[key]`` in turn."""
    cls = type(mapping)
    if issubclass(cls, dict):
        if int.__eq__(id(cls.__iter__), id(dict.__iter__)):
            dict.update(target, mapping)
            return
    keys = mapping.keys()
    failed = False
    try:
        iterator = iter(keys)
    except:  # noqa: E722  (only a TypeError is replaced)
        if isinstance(displays_sys.exception(), TypeError):
            failed = True
        else:
            raise
    if failed:
        raise TypeError(str.join("", (
            display_type_name(cls), ".keys() returned a non-iterable (type ",
            display_type_name(type(keys)), ")",
        )))
    keys = list(iterator)
    i = 0
    count = len(keys)
    while int.__lt__(i, count):
        key = list.__getitem__(keys, i)
        dict.__setitem__(target, key, subscript_get(mapping, key))  # noqa: F821  (runtime/operators.py)
        i = int.__add__(i, 1)
