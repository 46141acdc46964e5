"""Building strings: the pieces of f-strings.

``f"a{x!r:>{w}}"`` is ``fstring_join(_us_s_a, fstring_format(*fstring_convert(x, repr), w_spec))``:
the value is converted (``!s``, ``!r``, ``!a``) and then given to ``format()``
with its spec. Python 3.13 converts the value before evaluating the spec,
3.11 and 3.12 after; ``fstring_convert`` does what the running version does.
"""

fstring_converts_early = int.__ge__(__import__("sys").version_info.minor, 13)


def fstring_unchanged(value):
    """The conversion of a value already converted."""
    return value


def fstring_convert(value, conversion):
    """``(value, conversion still to apply)``, for ``fstring_format``."""
    if fstring_converts_early:
        return (conversion(value), fstring_unchanged)
    return (value, conversion)


def fstring_format(value, conversion, spec):
    """A replacement field with a conversion and a format spec."""
    return format(conversion(value), spec)


def fstring_join(*pieces):
    """The pieces of an f-string, joined into one new ``str``."""
    return str.join("", pieces)
