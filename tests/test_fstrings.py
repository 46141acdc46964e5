"""f-strings: the fstring rule (JoinedStr and FormattedValue)."""

import textwrap

import pytest
from difftest import assert_same

HELPERS = {
    "v(": """
def v(x):
    print("eval", x)
    return x
""",
    "Loud(": """
class Loud:
    def __repr__(self):
        print("repr")
        return "R"
    def __str__(self):
        print("str")
        return "S"
    def __format__(self, spec):
        print("format", repr(spec))
        return "F"
""",
}


def source(snippet: str) -> str:
    """``snippet`` after the helpers it uses."""
    snippet = textwrap.dedent(snippet)
    return "".join(code for use, code in HELPERS.items() if use in snippet) + snippet


FSTRING = {
    "plain_and_empty": """
        x = 42
        r = f"value {x} end", f"", f"{x}", f"no fields", f"{{braces}} {x}"
    """,
    "fields_in_order": """
        r = f"{v(1)}-{v(2)}-{v(3)}"
    """,
    "conversions": """
        s = "héllo\\n"
        r = f"{s!s}|{s!r}|{s!a}|{s}"
    """,
    "conversions_call_the_methods": """
        r = f"{Loud()!s} {Loud()!r} {Loud()!a} {Loud()}"
    """,
    "format_specs": """
        x = 3.14159
        n = 1234567
        r = f"{x:.2f}|{x:>10.3f}|{n:,}|{n:_x}|{'ab':*^7}|{-5:+05d}|{0.5:%}"
    """,
    "nested_replacement_fields_in_spec": """
        x = 3.14159
        w = 12
        p = 3
        r = f"{x:>{w}.{p}f}|{x:{'<'}{w}}|{'t':{'*'}^{v(5)}}"
    """,
    "spec_evaluated_after_value": """
        r = f"{v('value'):{v('')}>{v(6)}}"
    """,
    "conversion_and_spec_order": """
        r = f"{Loud()!r:{v('>4')}}"
    """,
    "spec_goes_to_format_method": """
        r = f"{Loud():abc{v(1)}}", f"{Loud():}", f"{Loud()}"
    """,
    "self_documenting": """
        x = 7
        name = "n"
        r = f"{x=}", f"{x = }", f"{x=:>4}", f"{name=!s}", f"{x * 2=}"
    """,
    "nested_fstrings": '''
        x = 2.5
        r = f"{f'{x:.1f}'!r:>{len(f'{x}')}}", f"""a{f'b{f"c{x}"}'}"""
    ''',
    "text_with_nul_surrogates_non_ascii": """
        x = 1
        r = ascii(f"\\x00é\\ud800{x}☃\\U0001d11e")
    """,
    "many_pieces": """
        x = "y"
        r = f"{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}.{x}"
    """,
    "str_value_passed_through": """
        class S(str):
            pass
        s = S("sub")
        r = type(f"{s}").__name__, type(f"{s:}").__name__, type(f"a{s}").__name__
    """,
    "single_field_keeps_format_result": """
        class S(str):
            pass
        class Y:
            def __format__(self, spec):
                return S("sub")
        r = type(f"{Y()}").__name__, type(f"{Y()}{''}").__name__, type(f"-{Y()}").__name__
    """,
    "unknown_format_code": """
        r = f"{3:q}"
    """,
    "format_code_for_wrong_type": """
        r = f"{'s':d}"
    """,
    "invalid_spec_for_object": """
        class C:
            pass
        r = f"{C():>5}"
    """,
    "format_must_return_str": """
        class C:
            def __format__(self, spec):
                return 5
        r = f"{C()}"
    """,
    "repr_must_return_str": """
        class C:
            def __repr__(self):
                return 5
        r = f"{C()!r}"
    """,
    "error_in_spec_field": """
        r = f"{v(1):{v(2) + 'x'}}"
    """,
    "shadowed_builtins": """
        format = repr = str = ascii = None
        x = 5
        r = f"{x!r:>3}|{x!s}|{x!a}|{x:x}"
    """,
}


@pytest.mark.parametrize("name", sorted(FSTRING))
def test_fstring(name):
    assert_same(source(FSTRING[name]))


def test_fstring_kept():
    """With the rule kept, the f-string stays one (its fields still lowered)."""
    assert_same(source('x = 1.5\nr = f"a{x!r:>{v(6)}}b{\'c\'}"\n'), keep=("fstring",))
