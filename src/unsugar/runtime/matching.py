"""The protocol checks of ``match`` (PEP 634), as CPython's ``MATCH_*`` opcodes do them.

Which subjects are sequences or mappings is read from the type's flags
(``Py_TPFLAGS_SEQUENCE``, ``Py_TPFLAGS_MAPPING``), as CPython does, not from
``isinstance``: ``register`` sets the flag only on a class that was not
already a virtual subclass (not on a ``str`` subclass), replacing the other
flag (a ``dict`` subclass registered as a ``Sequence`` stops being a mapping).
"""

match_missing = object()


def match_flag(subject, flag):
    """Whether the type of ``subject`` has the type flag ``flag``."""
    return operator_flags_of(type(subject)) & flag != 0  # noqa: F821  (runtime/operators.py)


def match_sequence(subject, size, exact):
    """``MATCH_SEQUENCE``, then ``len(subject) == size`` (``exact``) or ``>= size``
    (for a star pattern, skipped when ``size`` is 0)."""
    if not match_flag(subject, 32):
        return False
    if exact:
        return len(subject) == size
    if size:
        return len(subject) >= size
    return True


def match_sequence_items(subject, size, star):
    """The items of a sequence pattern of ``size`` patterns, star at ``star``
    (None: no star; its part is a list), taken by unpacking; None if no match."""
    if star is None:
        if not match_sequence(subject, size, True):
            return None
        return list(unpack_exact(subject, size))  # noqa: F821  (runtime/assignments.py)
    if not match_sequence(subject, size - 1, False):
        return None
    return list(unpack_starred(subject, star, size - 1 - star))  # noqa: F821


def match_item_from_end(subject, back):
    """``subject[len(subject) - back]``: CPython never relies on negative indexes."""
    return subject[len(subject) - back]


def match_mapping(subject, size):
    """``MATCH_MAPPING``, then ``len(subject) >= size`` (when there are keys)."""
    if not match_flag(subject, 64):
        return False
    if size:
        return len(subject) >= size
    return True


def match_mapping_values(subject, keys):
    """The values of ``keys`` by ``subject.get(key, missing)`` (``get`` looked up
    once), or None when one is missing; a key given twice is a ValueError."""
    if not keys:
        return []
    get = subject.get
    seen = set()
    values = []
    for key in keys:
        if key in seen:
            raise ValueError(f"mapping pattern checks duplicate key ({key!r})")
        seen.add(key)
        value = get(key, match_missing)
        if value is match_missing:
            return None
        values.append(value)
    return values


def match_mapping_rest(subject, keys):
    """``**rest``: a dict of ``subject`` without ``keys``, copied as ``PyDict_Update``
    does (a dict that keeps dict's ``__iter__`` directly, others by ``keys()``)."""
    kind = type(subject)
    if issubclass(kind, dict) and kind.__iter__ is dict.__iter__:
        rest = dict.copy(subject)
    else:
        rest = {}
        missing = False
        try:
            for key in list(iter(subject.keys())):
                rest[key] = subject[key]
        except AttributeError:
            missing = True
        if missing:
            name = operator_type_name(kind, 200)  # noqa: F821  (runtime/operators.py)
            raise TypeError(f"'{name}' object is not a mapping")
    for key in keys:
        del rest[key]
    return rest


def match_type_name(cls):
    """The C-level name of ``cls`` (``tp_name``), as CPython's messages show it."""
    return operator_type_name(cls, 1 << 30)  # noqa: F821  (runtime/operators.py)


def match_attribute(subject, cls, name, seen):
    """``getattr(subject, name)``, or ``match_missing`` on AttributeError."""
    if name in seen:
        raise TypeError(
            f"{match_type_name(cls)}() got multiple sub-patterns for attribute {name!r}"
        )
    seen.add(name)
    try:
        return getattr(subject, name)
    except AttributeError:
        return match_missing


def match_class(subject, cls, count, names):
    """``MATCH_CLASS``: the ``count`` positional attributes (by ``__match_args__``;
    the subject itself for the builtins that match themselves) then the
    keyword ones (``names``), or None if no match."""
    if not issubclass(type(cls), type):
        if __import__("sys").version_info >= (3, 12):
            raise TypeError("called match pattern must be a class")
        raise TypeError("called match pattern must be a type")
    if not isinstance(subject, cls):
        return None
    seen = set()
    attrs = []
    if count:
        match_self = False
        try:
            match_args = cls.__match_args__
        except AttributeError:
            match_args = ()
            match_self = operator_flags_of(cls) & (1 << 22) != 0  # noqa: F821
        if type(match_args) is not tuple:
            raise TypeError(
                f"{match_type_name(cls)}.__match_args__ must be a tuple "
                f"(got {match_type_name(type(match_args))})"
            )
        allowed = 1 if match_self else len(match_args)
        if allowed < count:
            plural = "" if allowed == 1 else "s"
            raise TypeError(
                f"{match_type_name(cls)}() accepts {allowed} positional "
                f"sub-pattern{plural} ({count} given)"
            )
        if match_self:
            attrs.append(subject)
        else:
            for name in match_args[:count]:
                if type(name) is not str:
                    raise TypeError(
                        "__match_args__ elements must be strings "
                        f"(got {match_type_name(type(name))})"
                    )
                attr = match_attribute(subject, cls, name, seen)
                if attr is match_missing:
                    return None
                attrs.append(attr)
    for name in names:
        attr = match_attribute(subject, cls, name, seen)
        if attr is match_missing:
            return None
        attrs.append(attr)
    return attrs
