"""The hand-written core every other helper is built from.

This module is already core syntax (``unsugar check`` passes on it): it is
what gives the rest of the runtime its first strings and constants. A string
is built from code points by ``str.join``, and the name ``"join"`` itself
comes from a keyword argument: ``next(iter(dict(join=0)))``.
"""

join = getattr(str(), next(iter(dict(join=0))))  # noqa: UP018  (core: no str literal)


def text(*codes):
    """``text(104, 105)`` is ``"hi"``."""
    return join(map(chr, codes))


intern = getattr(__import__(text(115, 121, 115)), text(105, 110, 116, 101, 114, 110))


def name_text(*codes):
    """``text`` of a string of ASCII letters, digits and underscores, interned,
    as CPython interns such constants (``"ROUND_UP" is sys.intern("ROUND_UP")``)."""
    return intern(join(map(chr, codes)))


def octets(*codes):
    """``octets(104, 105)`` is ``b"hi"``."""
    return bytes(codes)


join_octets = getattr(bytes(), next(iter(dict(join=0))))  # noqa: UP018  (core: no bytes literal)
int_to_bytes = getattr(int, next(iter(dict(to_bytes=0))))


def octets_of(*chunks):
    """``octets_of(0x6869, 2)`` is ``b"hi"``: a long literal as big-endian
    integers, each followed by its size in bytes (``map`` takes them in pairs)."""
    pairs = iter(chunks)
    return join_octets(map(int_to_bytes, pairs, pairs))


decode_octets = getattr(bytes, next(iter(dict(decode=0))))
utf8 = text(117, 116, 102, 56)
surrogatepass = text(115, 117, 114, 114, 111, 103, 97, 116, 101, 112, 97, 115, 115)


def text_of(*chunks):
    """``text_of(0x6869, 2)`` is ``"hi"``: the UTF-8 of a long literal (lone
    surrogates passed through) in chunks, as ``octets_of`` takes them."""
    return decode_octets(octets_of(*chunks), utf8, surrogatepass)


def nothing():
    return


def tuple_of(*items):
    """``tuple_of(a, b)`` is ``(a, b)``."""
    return items


later_call = next(iter(dict(call=0)))
later_arguments = next(iter(dict(arguments=0)))


def later_reduce(made):
    """How pickling keeps a :func:`later`: as the call itself."""
    return tuple_of(getattr(made, later_call), getattr(made, later_arguments))


later_type = type(text(108, 97, 116, 101, 114), tuple_of(),
                  dict(__slots__=tuple_of(later_call, later_arguments), __reduce__=later_reduce))


def later(call, *arguments):
    """What pickles as ``call(*arguments)``, made when the pickle is loaded. The
    runtime's reductions call builtins and classes only: dill fills the cells
    of a function it pickles by value last, so a helper cannot run while its
    pickle loads."""
    made = later_type()
    setattr(made, later_call, call)
    setattr(made, later_arguments, arguments)
    return made


kept_id_value = next(iter(dict(value=0)))


def kept_id_reduce(number):
    """How pickling keeps a :func:`kept_id`: the id of its value when loaded."""
    value = getattr(number, kept_id_value)
    return tuple_of(kept_id_type, tuple_of(later(id, value)), dict(value=value))


kept_id_type = type(text(105, 100), tuple_of(int), dict(__reduce__=kept_id_reduce))


def kept_id(value):
    """``id(value)``, an int that cloudpickle and dill, pickling a closure by
    value, bring back as the id of the same value in the process that loads it
    (``x is None`` is ``int.__eq__(id(x), none_id)``)."""
    number = kept_id_type(id(value))
    setattr(number, kept_id_value, value)
    return number


none = nothing()
none_id = kept_id(none)
true = bool(1)
false = bool(0)
