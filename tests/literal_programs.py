"""Random literals and f-strings, for ``tests/test_literal_programs.py``.

Each program starts with a docstring (or a first statement that is not one:
an f-string, a bytes literal), sometimes ``from __future__ import
annotations`` (then annotated names whose annotations are literals, and
``__annotations__`` printed: their text is CPython's unparsing of the
literal), and then a random list of statements, each at module level, in a
function (that has a docstring of its own) or in a class body (whose
docstring is printed too). The statements print, with ``type()``,
``ascii()``, ``len()`` and ``hash()``:

- str literals: every kind of escape (``\\n``, octal, ``\\x``, ``\\u`` and
  ``\\U`` up to U+10FFFF, lone surrogates, ``\\N{...}``, a backslash before
  a newline), raw strings, the ``u`` prefix, single and triple quotes (lines
  of their own, tabs, U+2028 and non-BMP characters written as they are),
  NUL, empty strings, strings thousands of characters long, and implicit
  concatenations of all of those and f-strings;
- bytes literals: escapes, raw bytes, all 256 values in a random order,
  long ones, implicit concatenation;
- int literals (hundreds of digits, hex, octal, binary, underscores), float
  literals (``1e308``, ``1e309``, subnormals, more digits than a double
  holds, ``-0.0``; the sign through ``math.copysign``, ``float.hex``),
  complex literals (``-0j``, ``1e309j``, ``0.5+2j``; the signs of both
  parts), ``float('nan')`` compared and looked up in tuples;
- ``True``, ``False``, ``None``, ``...``, constant tuples and sets in
  ``in`` tests and comparisons, expressions CPython's compiler folds
  (``-1``, ``2**100``, ``"a" * 3``, ``~5``, indexing a constant);
- f-strings: ``!r``, ``!s``, ``!a``, format specs (fill, alignment, ``,``,
  ``_``, ``#x``, precision, specs nested in specs, empty ones), the ``=``
  debug form with spaces around it, nested f-strings, ``{{`` and ``}}``,
  multi-line f-strings, fields that call ``note`` (which logs, so the order
  in which fields, specs and conversions run is compared), values whose
  ``__format__``, ``__str__`` and ``__repr__`` log their calls and return
  non-ASCII text, or raise, or return a non-str; from 3.12 the forms of PEP
  701 (the same quotes nested, backslashes and comments in fields);
- ``%`` formatting of str and bytes, ``str.format``;
- keyword arguments and class attributes spelt with characters NFKC
  normalises (``ﬁ`` is ``fi``).

Fields, ``%`` and ``str.format`` that may raise run in ``attempt``, which
prints the value or the exception's type and message, and the log.

    python tests/literal_programs.py 1000 2000   # seeds 1000 to 2999, each compared
"""

from __future__ import annotations

import ast
import random
import re
import sys

from difftest import Writer, first_compiling

#: PEP 701 (the same quotes nested, backslashes and comments in fields) is 3.12 syntax
PEP701 = sys.version_info >= (3, 12)

#: how often a program is under ``from __future__ import annotations``, with
#: annotated names whose annotations are literals and f-strings
FUTURE = 0.2

HEADER = '''\
import math
log = []
def show(tag, value):
    try:
        digest = hash(value)
    except TypeError:
        digest = "unhashable"
    try:
        size = len(value)
    except TypeError:
        size = "-"
    print(tag, type(value).__name__, ascii(value), size, digest)
def number(tag, x):
    if isinstance(x, complex):
        print(tag, ascii(x), math.copysign(1, x.real), math.copysign(1, x.imag), x == x and hash(x))
    elif isinstance(x, float):
        print(tag, ascii(x), math.copysign(1, x), x.hex(), x == x and hash(x), x != x)
    else:
        print(tag, type(x).__name__, x, hash(x), x.bit_length())
def attempt(tag, run):
    del log[:]
    try:
        value = run()
    except Exception as error:
        print(tag, "raised", type(error).__name__, ascii(str(error)), ascii(log))
    else:
        print(tag, "=", type(value).__name__, ascii(value), ascii(log))
def note(name, value):
    log.append(name)
    return value
class V:
    def __init__(self, name):
        self.name = name
    def __format__(self, spec):
        log.append(("format", self.name, spec))
        return self.name + "\\xe9" + spec
    def __str__(self):
        log.append(("str", self.name))
        return "\\xdf" + self.name
    def __repr__(self):
        log.append(("repr", self.name))
        return "V(\\U0001f600" + self.name + ")"
class Bad:
    def __init__(self, how):
        self.how = how
    def __format__(self, spec):
        log.append(("bad format", self.how, spec))
        if self.how == "raise":
            raise ValueError("format \\u2603 " + spec)
        return 42 if self.how == "int" else b"x"
    def __str__(self):
        log.append(("bad str", self.how))
        if self.how == "raise":
            raise KeyError("str")
        return 7 if self.how == "int" else "str of bad"
    def __repr__(self):
        log.append(("bad repr", self.how))
        if self.how == "raise":
            raise LookupError("repr")
        return None if self.how == "int" else "repr of bad"
i, neg, fl, big, w, p = 42, -7, 3.14159, 2**200 + 1, 12, 3
s, u, by, none = "h\\xe9llo", "\\ud800\\U0001f600\\x00", b"\\x00b\\xff", None
nan, inf = float("nan"), float("inf")
v, v2 = V("a"), V("\\u4e2d")
'''

#: a lone surrogate's escape
SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\U0000[dD][89a-fA-F][0-9a-fA-F]{2}")
#: characters written as they are inside a str literal (not quotes, backslashes, newlines)
PLAIN = ["abc", "Hello", " ", "x", "é", "中文", "😀", "\u2028", "\u00a0", "\t", "𝄞", "0", "ÿ",
         "\u200b", "Ω", "ﬁ", "{}", "%s", "%", "#", "$"]
#: escapes that mean the same in str and bytes literals
COMMON_ESCAPES = ["\\n", "\\t", "\\r", "\\\\", "\\'", '\\"', "\\a", "\\b", "\\f", "\\v", "\\0",
                  "\\12", "\\377", "\\007", "\\x00", "\\xff", "\\x7f", "\\x80", "\\101"]
STR_ESCAPES = ["\\u00e9", "\\ud800", "\\udfff", "\\udc80", "\\U0001f600", "\\U0010ffff",
               "\\U00000000", "\\u0000", "\\uffff", "\\ufeff", "\\N{SNOWMAN}",
               "\\N{LATIN SMALL LETTER E WITH ACUTE}", "\\N{GRINNING FACE}",
               "\\N{NO-BREAK SPACE}", "\\N{EM DASH}", "\\N{LATIN SMALL LIGATURE FI}"]
RAW_PIECES = ["\\n", "\\d", "\\\\", "\\x41", "\\N{SNOWMAN}", "\\u00e9", "\\{", "\\0", "\\ "]
DOC_NAMES = ["C", "D"]

FLOATS = ["1e308", "1e309", "0.1", "1.7976931348623157e308", "1.7976931348623159e308", "5e-324",
          "2.5e-324", "2.4e-324", "1e-320", "4.9406564584124654e-324", "1e-400", "0.0", "0e0",
          "00.5", ".5", "5.", "1_0.0_1e1_0", "0.1000000000000000055511151231257827", "123456789012345678901234567890.0",
          "2.2250738585072014e-308", "2.2250738585072011e-308", "1E5", "3.14159265358979323846264338327950288",
          "9007199254740993.0", "1e22", "1e23", "0.30000000000000004", "1_000.000_1"]
COMPLEXES = ["1j", "0j", "-0j", "1e309j", "0.5+2j", "-1-0j", "1_0j", "0.0j", "-(0j)", "2j*1j", "1e-320j",
             "-1e309j", "(1+0j)*1e309", "0.1j", "-0.0-0j", "3.0J", "00j", "1e1_0j"]
INTS = ["0", "00", "0_0", "0x_ff", "0XDEAD_BEEF", "0o777", "0O1_7", "0b1010_1010", "0B1", "1_000_000",
        "0xffffffffffffffffffffffffffffffff", "9223372036854775807", "9223372036854775808",
        "18446744073709551616", "-9223372036854775808", "256", "257", "-5", "-6", "2**63", "2**100"]
FOLDED = ["-1", "--1", "-(-1)", "+5", "~5", "~-1", "2**100", "2**-1", "-2**2", "(-2)**2", "'a' * 3",
          "b'ab' * 4", "'ab' 'cd' * 2", "(1, 2) + (3,)", "(1, 'a') * 2", "7 // 2", "-7 // 2", "-5 % 3",
          "5 % -3", "1 << 70", "1 / 3", "2 ** 0.5", "'abc'[1]", "'abc'[::-1]", "b'abc'[1]",
          "(1, 2, 3)[-1]", "'%s-%d' % ('a', 3)", "'a' in 'abc'", "not 0", "not ''", "1 if 0 else 2",
          "None is None", "... is Ellipsis", "-True", "+False", "-0.0", "-(0.0)", "0.0 * -1",
          "1e309 - 1e309", "-1e309", "'é' * 3", "'a' < 'b' < 'c'", "3 & 5 | 8 ^ 2", "True + True",
          "(2**64) % 7", "-(2**63)", "(1, (2, (3, 'x')))", "(...,)", "('a',) * 0", "()", "''", "b''",
          "'\\x00' * 3", "divmod(-7, 2)", "1_0 ** 2_0", "1 < 2 == 2", "(b'x', 'x', 1, 1.0, 1j, None, True)"]
MEMBERS = ["1", "2", "1.0", "True", "'a'", "b'a'", "None", "nan", "(1, 2)", "2**100", "-0.0", "'\\ud800'",
           "frozenset()", "0"]
#: format specs for any value (some are refused by some types)
SPECS = ["", ">10", "<5", "^7", "*^9", "=+8", ",", "_", ".3f", "#x", "#o", "#b", "08.2f", "+", "e",
         "%", "g", ".2", "s", "d", "x", "c", "n", ".0f", "-^11", "\u2603<6", "=^10", "10.4", ",.2f",
         "_x", "#_b", " ", "z.1f", ">{w}", "{w}.{p}", "^{w},", "{'*'}>{w}", "{note('spec', w)}"]
#: the values fields show: names of HEADER, literals, calls that log
VALUES = ["i", "neg", "fl", "big", "s", "u", "by", "none", "nan", "inf", "v", "v2", "-0.0", "1e309",
          "'\\N{SNOWMAN}'", "2**100", "0.1", "1j", "-0j", "True", "...", "(1, 'é')", "[u]", "{'k': by}",
          "note('x', i)", "note('y', v)", "note('z', fl)", "Bad('raise')", "Bad('int')", "Bad('bytes')",
          "(i if none else s)", "(lambda: s)()", "(q := 5)", "b'\\x00'", "''", "'{'", "'}'"]
CONVERSIONS = ["", "", "!r", "!s", "!a"]


class _Writer(Writer):
    """Writes literals, f-strings and the statements that print them."""

    # -- str and bytes literals ---------------------------------------------------------------

    def text_body(self, quote: str, raw: bool, kind: str, size: int, bare: bool = False) -> str:
        """The source between the quotes of a literal: ``kind`` ``str``, ``bytes`` or
        ``f`` (braces doubled), ``size`` pieces; ``bare``, without backslashes."""
        rng = self.rng
        triple = len(quote) == 3
        pieces = []
        for _ in range(size):
            roll = rng.random()
            if bare:
                piece = rng.choice(PLAIN)
            elif raw and roll < 0.3:
                piece = rng.choice(RAW_PIECES)
                if kind == "bytes" and not piece.isascii():
                    piece = "\\d"
            elif not raw and roll < 0.25:
                piece = rng.choice(COMMON_ESCAPES)
            elif not raw and kind != "bytes" and roll < 0.45:
                piece = rng.choice(STR_ESCAPES)
            elif not raw and roll < 0.55:
                piece = rng.choice([f"\\x{rng.randrange(256):02x}", f"\\{rng.randrange(256):03o}"]
                                   + ([] if kind == "bytes" else [self.random_escape()]))
            elif not raw and roll < 0.58:
                piece = "\\\n"  # a backslash and a newline: nothing
            elif triple and roll < 0.65:
                piece = rng.choice(["\n", "\n    ", "\n\t", " '\" ", "\n\n"])
            else:
                piece = rng.choice(PLAIN)
            if kind == "bytes" and not piece.isascii():
                piece = "b"
            if not piece.startswith("\\"):
                # the literal's own quote: escaped, or left out of a raw literal
                piece = piece.replace(quote[0], "" if raw or bare else "\\" + quote[0])
            if kind == "f" and (raw or not piece.startswith("\\N{")):
                piece = piece.replace("{", "{{").replace("}", "}}")
            pieces.append(piece)
        return "".join(pieces)

    def random_escape(self) -> str:
        rng = self.rng
        if rng.random() < 0.5:
            return f"\\u{rng.randrange(0x10000):04x}"
        return f"\\U{rng.randrange(0x110000):08x}"

    def quote(self) -> str:
        return self.rng.choice(["'", '"', "'''", '"""'])

    def str_literal(self, size: int = 0) -> str:
        rng = self.rng
        quote = self.quote()
        raw = rng.random() < 0.2
        prefix = rng.choice(["r", "R"]) if raw else rng.choice(["", "", "", "u", "U"])
        return prefix + quote + self.text_body(quote, raw, "str", size or rng.randint(0, 8)) + quote

    def bytes_literal(self, size: int = 0) -> str:
        rng = self.rng
        quote = self.quote()
        raw = rng.random() < 0.2
        prefix = rng.choice(["rb", "Rb", "bR", "BR"]) if raw else rng.choice(["b", "B"])
        return prefix + quote + self.text_body(quote, raw, "bytes", size or rng.randint(0, 8)) + quote

    def all_bytes(self) -> str:
        values = list(range(256))
        self.rng.shuffle(values)
        return 'b"' + "".join(f"\\x{value:02x}" for value in values) + '"'

    def long_str(self) -> str:
        rng = self.rng
        choice = rng.random()
        if choice < 0.3:
            return '"' + rng.choice(["x", "é", "😀", "\\ud800", "ab"]) * rng.randint(1000, 5000) + '"'
        if choice < 0.5:
            return self.all_bytes() + " * " + str(rng.randint(2, 20))
        if choice < 0.75:
            return self.bytes_literal(rng.randint(300, 2000))
        return self.str_literal(rng.randint(300, 2500))

    def concatenation(self) -> str:
        """Adjacent literals, of one kind (str and f-strings, or bytes)."""
        rng = self.rng
        count = rng.randint(2, 4)
        if rng.random() < 0.3:
            return " ".join(self.bytes_literal() for _ in range(count))
        parts = [self.fstring(simple=True) if rng.random() < 0.3 else self.str_literal()
                 for _ in range(count)]
        separator = rng.choice([" ", "", "\n    ", " \\\n    "])
        if "\n" in separator:
            return "(" + separator.join(parts) + ")"
        return separator.join(parts)

    # -- numbers ------------------------------------------------------------------------------

    def huge_int(self) -> str:
        rng = self.rng
        digits = rng.randint(60, 600)
        base = rng.choice(["", "0x", "0o", "0b"])
        alphabet = {"": "0123456789", "0x": "0123456789abcdefABCDEF", "0o": "01234567",
                    "0b": "01"}[base]
        text = rng.choice(alphabet[1:]) + "".join(rng.choice(alphabet) for _ in range(digits))
        if rng.random() < 0.3:
            text = "_".join(text[k:k + 3] for k in range(0, len(text), 3))
        return base + text

    # -- f-strings ----------------------------------------------------------------------------

    def spec(self, depth: int) -> str:
        rng = self.rng
        spec = rng.choice(SPECS)
        if depth > 0 and "{" in spec:
            spec = rng.choice(SPECS[:20])
        return spec

    def field(self, quote: str, depth: int) -> str:
        """A replacement field, inside an f-string quoted by ``quote``, nested
        ``depth`` f-strings deep. Before 3.12 its expression holds no backslash
        and no quote of an f-string around it."""
        rng = self.rng
        value = rng.choice(VALUES)
        spec = self.spec(depth)
        if not PEP701:
            other = {"'": '"', '"': "'"}[quote[0]]
            value = value.replace("'", other)
            spec = spec.replace("'", other)
            if depth > 0:  # inside two quotes already: no quotes at all
                value = value if "'" not in value and '"' not in value else "i"
                spec = spec if "'" not in spec and '"' not in spec else ">9"
            if "\\" in value:
                value = "s"
        if PEP701 and depth == 0 and rng.random() < 0.5:
            value = value.replace("'", quote[0])  # the same quotes (PEP 701)
        if depth < (2 if PEP701 else 1) and rng.random() < 0.15:
            value = self.fstring(depth + 1, outer=quote)
        if value.startswith("{"):
            value = " " + value  # not an escaped brace
        conversion = rng.choice(CONVERSIONS)
        roll = rng.random()
        # CPython 3.12 and 3.13 fail (UnicodeEncodeError) to compile the text of
        # ``{'\\ud800'=}``: no backslashes in a field that shows its text
        if roll < 0.2 and "lambda" not in value and ":=" not in value and "\\" not in value:
            before, after = rng.choice([("", ""), (" ", " "), ("  ", ""), ("", "\t")])
            tail = f"{conversion}:{spec}" if spec and rng.random() < 0.5 else conversion
            return "{" + before + value + after + "=" + rng.choice(["", " "]) + tail + "}"
        if roll < 0.25 and PEP701 and depth == 0:
            return "{" + value + rng.choice(["  # a comment }\n", "\n  # }{\n"]) + "}"
        if roll < 0.3 and PEP701 and depth == 0:
            return "{" + rng.choice(["'\\n'.join([s, u])", '"\\N{SNOWMAN}" * 2', "'\\x7b'",
                                     "f'{\"\\t\"!r}'"]).replace("'", quote[0]) + conversion + "}"
        if spec:
            return "{" + value + conversion + ":" + spec + "}"
        return "{" + value + conversion + "}"

    def fstring(self, depth: int = 0, outer: str = "", simple: bool = False) -> str:
        """An f-string; ``outer``, the quotes of the f-string it is nested in
        (before 3.12, a nested one has other quotes and no backslashes)."""
        rng = self.rng
        if outer and not PEP701:
            quote = {"'": '"', '"': "'"}[outer[0]] * rng.choice([1, 3])
        else:
            quote = self.quote()
        bare = bool(outer) and not PEP701
        raw = rng.random() < 0.15
        prefix = rng.choice(["rf", "fR", "Rf"]) if raw else rng.choice(["f", "F"])
        parts = []
        for _ in range(rng.randint(1, 2 if simple else 4)):
            parts.append(self.text_body(quote, raw, "f", rng.randint(0, 3), bare))
            parts.append(self.field(quote, depth))
        parts.append(self.text_body(quote, raw, "f", rng.randint(0, 2), bare))
        return prefix + quote + "".join(parts) + quote

    # -- statements ---------------------------------------------------------------------------

    def expression(self) -> tuple[str, str]:
        """An expression, and how to print it: ``show``, ``number`` or ``attempt``."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.15:
            return self.str_literal(), "show"
        if roll < 0.22:
            return self.bytes_literal(), "show"
        if roll < 0.28:
            return self.concatenation(), "show"
        if roll < 0.32:
            return self.long_str(), "show"
        if roll < 0.36:
            return rng.choice([self.huge_int(), rng.choice(INTS)]), "number"
        if roll < 0.44:
            text = rng.choice(FLOATS)
            return (rng.choice(["", "-", "+"]) + text if rng.random() < 0.3 else text), "number"
        if roll < 0.49:
            return rng.choice(COMPLEXES), "number"
        if roll < 0.55:
            return rng.choice(FOLDED), "attempt"
        if roll < 0.61:
            return self.membership(), "attempt"
        if roll < 0.85:
            return self.fstring(), "attempt"
        if roll < 0.88:
            return self.collisions(), "attempt"
        return self.formatting(), "attempt"

    def membership(self) -> str:
        rng = self.rng
        left = rng.choice(MEMBERS + ["x", "f'a'", "'a' 'b'"])
        items = rng.sample(MEMBERS, rng.randint(0, 4))
        if rng.random() < 0.5:
            container = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        else:
            items = [item for item in items if item != "frozenset()" or rng.random() < 0.5]
            container = "{" + ", ".join(items) + "}" if items else "frozenset()"
        op = rng.choice(["in", "not in", "==", "!="])
        if op in ("==", "!="):
            right = rng.choice(MEMBERS)
            return f"({left} {op} {right}, {left} {rng.choice(['in', 'not in'])} {container})"
        return f"{left} {op} {container}".replace("x ", "note('x', i) ", 1)

    def formatting(self) -> str:
        rng = self.rng
        choice = rng.random()
        values = ", ".join(rng.sample(["v", "v2", "i", "fl", "s", "u", "by", "none", "Bad('int')",
                                       "Bad('raise')", "big", "nan", "-0.0", "1e309"], 3))
        if choice < 0.35:
            codes = "|".join(rng.choice(["%s", "%r", "%a", "%5s", "%-6r", "%.2s", "%d", "%x", "%c",
                                         "%e", "%g", "%%", "%05.1f", "%+d", "%#o"]) for _ in range(3))
            return f"{rng.choice(['', 'u', 'r'])}'{codes}' % ({values})"
        if choice < 0.6:
            codes = "|".join(rng.choice(["%s", "%r", "%a", "%b", "%5b", "%d", "%x", "%c", "%05.1f",
                                         "%-4s", "%%|%s"]) for _ in range(3))
            operands = ", ".join(rng.sample(["by", "b'\\xe9'", "i", "-1", "65", "fl", "bytearray(b'z')",
                                             "'\\xe9'", "v", "bytearray()", "255"], 3))
            return f"b'{codes}' % ({operands})"
        if choice < 0.8:
            fields = "".join(rng.choice(["{0!r}", "{1:>{2}}", "{0}", "{k!a:^9}", "{{", "}}", "{1!s:.2}",
                                         "{k[0]}", "{2:#x}", "é"]) for _ in range(3))
            return f"'{fields}'.format({values}, k=u)"
        mapping = rng.choice(["%(a)s|%(b)r", "%(a)-5s%(a)a", "%(b)5.2f|%(a)s"])
        return f"'{mapping}' % {{'a': {rng.choice(['v', 's', 'u'])}, 'b': {rng.choice(['fl', 'i', 'v2'])}}}"

    def statement(self, number: int, where: str) -> list[str]:
        """Lines that print expression number ``number`` (the same at module
        level, in a function or in a class body: ``where``)."""
        text, how = self.expression()
        if how == "attempt":
            return [f"attempt({number}, lambda: {text})"]
        return [f"r{number} = {text}", f"{how}({number}, r{number})"]

    def docstring(self) -> str:
        """A docstring, indented or not, or a first statement that is none (3.13
        cannot compile a docstring that holds a lone surrogate: none has one)."""
        text = self.first_statement()
        if sys.version_info >= (3, 13):
            text = SURROGATE.sub("\\\\u00e9", text)
        return text

    def first_statement(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.1:  # an f-string that does not raise
            quote = self.quote()
            return "f" + quote + self.text_body(quote, False, "f", 2) + "{i}{s!r:>9}" + quote
        if roll < 0.15:
            return self.bytes_literal()
        if roll < 0.3:
            return " ".join(self.str_literal() for _ in range(rng.randint(2, 3)))
        if roll < 0.4:
            return "(" + self.str_literal() + ")"
        quote = rng.choice(['"""', "'''"])
        raw = rng.random() < 0.2
        lines = [self.text_body(quote, raw, "str", rng.randint(1, 3)).replace("\\\n", "\\n")
                 .replace("\n", " ")
                 for _ in range(rng.randint(1, 4))]
        indent = rng.choice(["", "    ", "        ", "\t"])
        body = ("\n" + indent).join(lines)
        if rng.random() < 0.5:
            body += "\n" + indent[:4]
        return ("r" if raw else "") + quote + body + quote

    def annotations(self, start: int) -> list[str]:
        """Annotated names whose annotations are literals (the text under
        ``from __future__ import annotations``)."""
        rng = self.rng
        lines = []
        for number in range(start, start + rng.randint(2, 5)):
            annotation = rng.choice([self.str_literal, self.bytes_literal, self.concatenation,
                                     lambda: rng.choice(FLOATS), lambda: rng.choice(COMPLEXES),
                                     lambda: rng.choice(FOLDED), lambda: rng.choice(INTS),
                                     self.fstring, self.huge_int])()
            lines.append(f"a{number}: {annotation}" + rng.choice(["", " = 1"]))
        lines.append("print(ascii(__annotations__))")
        return lines

    def collisions(self) -> str:
        """A tuple of literals that are equal but not the same (``0.0`` and
        ``-0.0``, ``1``, ``1.0``, ``True`` and ``1+0j``, ``'a'`` and ``b'a'``):
        its items' types and signs."""
        items = self.rng.sample(["0.0", "-0.0", "0", "False", "0j", "-0j", "1", "1.0", "True",
                                 "1+0j", "'a'", "b'a'", "(1,)", "(1.0,)", "(True,)", "(-0.0,)",
                                 "2**63", "2.0**63", "-1", "-1.0", "~0", "-True", "1e309", "1e310",
                                 "0.1", "0.10", "1_0", "0xa", "10.0", "''", "b''", "()", "None"], 8)
        return ("[(type(x).__name__, ascii(x), math.copysign(1, x.real) if type(x) in (float, complex)"
                f" else 0) for x in ({', '.join(items)},)]")

    def match(self, number: int) -> list[str]:
        """A ``match`` of a literal against literal patterns."""
        rng = self.rng
        patterns = rng.sample(["'a'", "'a' 'b'", "b'a'", "\"\\u00e9\"", "'\\ud800'", "-1", "1.0",
                               "-0.0", "0", "1j", "-1-1j", "1e309", "-1e309", "0.5+0j", "True", "False",
                               "None", "0x10", "0b1", "1_000", "'\\x00'",
                               "r'\\n'", "b'\\xff'", "''"], 5)
        subject = rng.choice(["'a'", "'ab'", "b'a'", "'é'", "'\\ud800'", "-1", "1", "True", "1.0",
                              "-0.0", "0.0", "False", "0", "1j", "complex(-1, -1)", "float('inf')",
                              "-float('inf')", "None", "16", "1", "1000", "'\\0'", "'\\\\n'",
                              "b'\\377'", "''", "b''"])
        lines = [f"match {subject}:"]
        for k, pattern in enumerate(patterns):
            lines += [f"    case {pattern}:", f"        print({number}, 'case', {k})"]
        lines += ["    case other:", f"        print({number}, 'no case', ascii(other))"]
        return lines

    def defaults(self, number: int) -> list[str]:
        """A def whose defaults and keyword defaults are literals."""
        rng = self.rng
        values = [rng.choice([self.str_literal(), self.bytes_literal(), rng.choice(FLOATS),
                              rng.choice(COMPLEXES), rng.choice(FOLDED), rng.choice(INTS)])
                  for _ in range(3)]
        decorator = rng.choice(["", "@(lambda f: f)\n"])
        return [f"{decorator}def g{number}(a={values[0]}, *, b=({values[1]}), c={values[2]}):",
                "    " + self.docstring().replace("\n", "\n    "),
                "    return a, b, c",
                f"print({number}, ascii(g{number}.__defaults__), ascii(g{number}.__kwdefaults__),"
                f" ascii(g{number}.__doc__))",
                f"print({number}, ascii(g{number}()))"]

    def nfkc(self) -> list[str]:
        """Names NFKC normalises: keyword arguments, class attributes, attribute reads."""
        rng = self.rng
        name = rng.choice(["ﬁx", "ℌ", "ｘ", "ᵢ", "𝐚", "Å", "ﬃ"])
        return ["def keys(**k):", "    return sorted(k)",
                f"print(ascii(keys({name}=1, b=2)))",
                f"class N:\n    {name} = 'c'\nprint(ascii(sorted(k for k in vars(N) if k[0] != '_')))",
                f"print(ascii(N.{name}), ascii(getattr(N, {name!r}, 'missing')))"]


def program(seed: int) -> str:
    """The program of ``seed``: the first draw from it that CPython compiles."""
    return first_compiling(_draw, seed, 100)


def _draw(rng: random.Random) -> str:
    writer = _Writer(rng)
    lines = [writer.docstring()]
    future = rng.random() < FUTURE
    if future:
        if not isinstance(getattr(ast.parse(lines[0]).body[0].value, "value", None), str):
            lines = []  # the future import must come first
        lines.append("from __future__ import annotations")
    lines += HEADER.splitlines()
    lines.append("print('doc', ascii(__doc__))")
    number = 0
    if future:
        lines += writer.annotations(number)
        number += 10
    for block in range(rng.randint(2, 4)):
        where = rng.choice(["module", "module", "function", "class"])
        statements: list[str] = []
        for _ in range(rng.randint(2, 6)):
            number += 1
            statements += writer.statement(number, where)
        if where == "module":
            lines += statements
        elif where == "function":
            lines += [f"def f{block}():", "    " + writer.docstring().replace("\n", "\n    ")]
            lines += ["    " + line.replace("\n", "\n    ") for line in statements]
            lines += [f"print('doc', ascii(f{block}.__doc__))", f"f{block}()"]
        else:
            lines += [f"class C{block}:", "    " + writer.docstring().replace("\n", "\n    ")]
            lines += ["    " + line.replace("\n", "\n    ") for line in statements]
            lines += [f"print('doc', ascii(C{block}.__doc__))"]
    for _ in range(rng.randint(0, 2)):
        number += 1
        lines += rng.choice([writer.match, writer.defaults])(number)
    if rng.random() < 0.15:
        lines += writer.nfkc()
    lines.append("del log[:]")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    from difftest import compare_seeds

    compare_seeds(program, sys.argv[1:])
