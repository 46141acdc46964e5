"""Literals: str-literal, bytes-literal, float-literal, complex-literal, true-false, none, ellipsis."""

import re

import pytest
from difftest import assert_same

ALL_BYTES = repr(bytes(range(256)))
LONG_TEXT = "héllo wörld ☃ 𝄞 \\ud800 \\x00 "

STR = {
    "ascii_and_empty": """
        a = "hello"
        e = ""
        print(a, e, len(e), sep="|")
    """,
    "name_like_constants_are_interned": """
        import operator, sys
        def same(constant, *parts):
            return operator.is_(constant, sys.intern("".join(parts)))
        r = (same("ROUND_UP", "ROUND", "_UP"), same("_9", "_", "9"),
             same("not a name", "not a", " name"), same("é", "é"),
             same("name_made_of_chunks_because_it_is_longer_than_sixty_four_characters",
                  "name_made_of_chunks_", "because_it_is_longer_than_sixty_four_characters"))
    """,
    "non_ascii": """
        s = "héllo wörld ☃ 𝄞 日本"
        print(len(s), ascii(s))
    """,
    "nul_and_controls": """
        s = "a\\x00b\\n\\t\\r\\x7f"
        print(len(s), repr(s))
    """,
    "lone_surrogates": """
        s = "\\ud800x\\udfff"
        print(len(s), ascii(s))
    """,
    "long_and_not_identifier": """
        s = "a long string that is not an identifier, with spaces: 1 + 2 = 3!"
        t = "123abc"
        print(s, t)
    """,
    "names_of_helpers_are_plain_strings": """
        print("join", "text", "octets", "none", "true", "_us_text", "print")
    """,
    "same_literal_is_same_object": """
        a = "shared"
        b = "shared"
        print(len({id(a), id(b)}), a, b)
    """,
    "in_nested_function": """
        def f():
            def g():
                return "inner"
            return "outer", g()
        r = f()
    """,
    "keyword_argument_values": """
        print("a", "b", sep="-", end="!\\n")
    """,
    # longer than LONG_LITERAL: built from chunks of UTF-8 (text_of)
    "long_literal_in_chunks": """
        s = "{}"
        t = "{}"
        u = "{}"
        print(len(s), len(t), len(u), ascii(s[:40]), ascii(s[-40:]), s.count("\\ud800"))
        print(s == "".join(["héllo wörld ☃ 𝄞 \\ud800 \\x00 "] * 100))
    """.format(LONG_TEXT * 100, "x" * 512, "é" * 256),
}

BYTES = {
    "all_byte_values": f"""
        b = {ALL_BYTES}
        print(len(b), b)
    """,
    "empty_and_ascii": """
        e = b""
        h = b"hi"
        print(e, h, type(h))
    """,
    "long_bytes_in_chunks": f"""
        b = {bytes(range(256)) * 5!r}
        z = {bytes(700)!r}
        print(len(b), b[:3], b[-3:], b == bytes(range(256)) * 5, len(z), z == bytes(700))
    """,
    "bytes_and_str_differ": """
        s = "ab"
        b = b"ab"
        print(repr(s), repr(b))
    """,
}

FLOAT = {
    "tenth": """
        x = 0.1
        print(repr(x), float.hex(x))
    """,
    "subnormals": """
        x = 1e-320
        y = 5e-324
        print(repr(x), float.hex(x), repr(y), float.hex(y))
    """,
    "huge": """
        x = 1e308
        y = 1.7976931348623157e308
        print(repr(x), float.hex(x), repr(y), float.hex(y))
    """,
    "overflow_to_inf": """
        x = 1e999
        print(repr(x), type(x))
    """,
    "integral_and_zero": """
        a = 1.0
        z = 0.0
        big = 123456789012345678901234567890.0
        print(repr(a), repr(z), float.hex(z), repr(big))
    """,
    "many_digits_round_the_same": """
        x = 0.1000000000000000055511151231257827
        y = 2.5e-5
        print(repr(x), repr(y))
    """,
    "shadowed_float_builtin": """
        float = int
        x = 1.5
        print(repr(x), type(x).__name__)
    """,
}

COMPLEX = {
    "imaginary": """
        a = 2j
        z = 0j
        print(repr(a), repr(z), a.real, a.imag, z.real)
    """,
    "infinite_and_tiny": """
        a = 1e999j
        b = 1.5e-320j
        print(repr(a), repr(b), b.imag)
    """,
    "shadowed_complex_builtin": """
        complex = str
        a = 3.25j
        print(repr(a), type(a).__name__)
    """,
}

SINGLETONS = {
    "true_false": """
        t = True
        f = False
        print(t, f, type(t).__name__, int(t), int(f))
    """,
    "none": """
        n = None
        print(n, type(n).__name__)
    """,
    "ellipsis": """
        e = ...
        print(e, type(e).__name__)
    """,
    "shadowed_builtins": """
        Ellipsis = 5
        bool = str
        e = ...
        t = True
        print(e, t, type(t).__name__)
    """,
    "none_from_function": """
        def f():
            return None
        r = f()
    """,
}

FOLDED = {
    "negative_and_inverted_numbers": """
        values = [1, 2, 3]
        print(-1, -(-3), ~7, ~-1, +2.5, -0.0, -1e999, -2j, -(1), values[-1], values[-2:])
        print(list(range(3, -1, -1)), -12345678901234567890, 2 ** -1, -1.5 * 2)
    """,
    "the_same_constant_is_the_same_object": """
        x = -1.5
        y = -1.5
        def f():
            return -2.5
        def g():
            return -2.5
        big = -12345678901234567890
        def h():
            return -12345678901234567890
        print(x is y, f() is g(), big is h())
    """,
    "bools_are_folded_and_errors_are_not": """
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            print(-True, +False, ~True, ~~False, type(+True), -(-True))
        print([str(warning.message)[:30] for warning in caught])  # the compiler's, not at run time
        try:
            ~1.5
        except TypeError as error:
            print(error)
        try:
            -"text"
        except TypeError as error:
            print(error)
    """,
}

FAMILIES = {
    "str-literal": STR,
    "bytes-literal": BYTES,
    "float-literal": FLOAT,
    "complex-literal": COMPLEX,
    "singletons": SINGLETONS,
    "folded-number": FOLDED,
}


@pytest.mark.parametrize(
    ("rule", "name"), [(rule, name) for rule, cases in FAMILIES.items() for name in sorted(cases)]
)
def test_literals(rule, name):
    assert_same(FAMILIES[rule][name])


def test_a_long_literal_is_built_from_chunks_not_one_argument_per_item():
    from unsugar import desugar

    out = desugar(f"s = {'a-' * 600!r}\nb = {b'ab' * 600!r}\nt = 'sh-'\nn = {'ab' * 600!r}\nm = 'short'\n")
    assert re.search(r"_us_str_1 = _us_text_of\((0x[0-9a-f]+|\d+), 512, (0x[0-9a-f]+|\d+), 512, ", out)
    assert re.search(r"_us_bytes_1 = _us_octets_of\((0x[0-9a-f]+|\d+), 512, ", out)
    assert "_us_text(115, 104, 45)" in out
    # a name-like string is interned, as CPython interns such a constant
    assert re.search(r"_us_str_3 = _us_intern\(_us_text_of\((0x[0-9a-f]+|\d+), 512, ", out)
    assert "_us_name_text(115, 104, 111, 114, 116)" in out


def test_a_folded_number_is_made_once_at_the_top():
    """``-1`` is the constant ``_us_minus_1``, made once; a float is its literal's constant."""
    from unsugar import desugar

    out = desugar("def f(x):\n    return x[-1], -1.5, -x\n")
    assert re.search(r"\n    _us_minus_1 = _us_\w*int_neg\w*\(1\)\n", out)  # int.__neg__, maybe the runtime's
    assert "return _us_tuple_of(_us_subscript_get(x, _us_minus_1), _us_float_1, _us_unary_neg(x))" in out
