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


def octets(*codes):
    """``octets(104, 105)`` is ``b"hi"``."""
    return bytes(codes)


def nothing():
    return


none = nothing()
true = bool(1)
false = bool(0)


def tuple_of(*items):
    """``tuple_of(a, b)`` is ``(a, b)``."""
    return items
