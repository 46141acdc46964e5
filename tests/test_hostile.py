"""Hostile and odd input: each case against what ``python FILE`` does with it.

Every case is a file (its bytes) or a path made for it. For each, CPython's
result is found in the same run, by the running interpreter: ``python FILE``
in a subprocess whose ``sys.excepthook`` (a ``sitecustomize`` module) records
the ``SyntaxError`` it reports. Then the command line desugars the file
(``unsugar FILE -o OUT``, in this process) and:

- if CPython compiles the file, unsugar exits 0 and writes core syntax that
  compiles, and running the output prints what running the input prints
  (standard output, last line of standard error, exit code);
- if CPython rejects it, unsugar exits 1 and prints one line,
  ``FILE:LINE:COL: message``: CPython's message, CPython's line (or the line
  its message names, "on line N"; where it names none, unsugar gives its
  own) and CPython's column (where it gives none, or 0, unsugar gives its
  own); it writes no output file, ``--in-place`` leaves the file as it was,
  and ``--in-place``, ``--diff`` and ``unsugar check`` print the same line.

``python tests/test_hostile.py`` prints the table of every case (Markdown):
the input, CPython's result and unsugar's (``--big`` adds the 10 MB file;
names of cases choose those cases).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from unsugar import cli
from unsugar.checker import check_source

HOOK = """\
import json, os, sys

def _record(kind, error, trace, _hook=sys.excepthook):
    # Only an error with no frame is the script's own compile error.
    if trace is None and os.environ.get("HOSTILE_REPORT"):
        with open(os.environ["HOSTILE_REPORT"], "w", encoding="utf-8") as report:
            json.dump({"type": kind.__name__, "msg": getattr(error, "msg", str(error)),
                       "lineno": getattr(error, "lineno", None),
                       "offset": getattr(error, "offset", None)}, report)
    _hook(kind, error, trace)

sys.excepthook = _record
"""


# ------------------------------------------------------------------ inputs
def module_block(n: int) -> str:
    """A realistic piece of a module (classes, closures, comprehensions,
    exceptions, ``with``, f-strings, a generator); its names end in ``n``."""
    return textwrap.dedent(f'''\
        class Account{n}:
            """An account with a history."""

            rate = {n % 7} / 100

            def __init__(self, owner, balance=0):
                self.owner = owner
                self.balance = balance
                self.history = []

            def deposit(self, amount):
                if amount <= 0:
                    raise ValueError(f"bad amount {{amount!r}}")
                self.balance += amount
                self.history.append(("deposit", amount))
                return self

            @property
            def interest(self):
                return round(self.balance * self.rate, 2)


        def summary{n}(accounts, *, limit=3):
            totals = {{a.owner: a.balance for a in accounts if a.balance}}
            best = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
            try:
                ratio = sum(totals.values()) / len(totals)
            except ZeroDivisionError:
                ratio = 0.0
            finally:
                pass
            with open(__file__, encoding="utf-8") as handle:
                first = handle.readline()[:2]
            return best, ratio, first


        def counter{n}(start):
            count = start
            def step(by=1):
                nonlocal count
                count += by
                return count
            yield from (step(k) for k in range(3))


        checksum += sum(counter{n}({n})) + len(summary{n}([Account{n}("a", {n}).deposit(2)])[0])
        ''')


def big_module(size: int) -> bytes:
    parts = ["checksum = 0\n"]
    total, n = len(parts[0]), 0
    while total < size:
        block = module_block(n)
        parts.append(block)
        total += len(block)
        n += 1
    parts.append(f"print(checksum, {n})\n")
    return "".join(parts).encode()


FI = "\N{LATIN SMALL LIGATURE FI}"


@dataclass(frozen=True)
class Case:
    """One input: ``data`` (bytes, or a function making them) written to
    ``filename``; or, for ``kind`` "directory", "dir-as-file" or
    "unreadable", a path made for it."""

    name: str
    what: str
    data: bytes | Callable[[], bytes] = b""
    kind: str = "file"
    filename: str = "case.py"
    slow: bool = False
    xfail: str = ""  # why unsugar does not yet do what CPython does

    def bytes(self) -> bytes:
        return self.data() if callable(self.data) else self.data


CASES = [
    # NUL bytes
    Case("nul-in-code", "a NUL byte in code", b"x = 1\ny = \x002\n"),
    Case("nul-in-comment", "a NUL byte in a comment", b"x = 1\n# a \x00 b\nprint(x)\n"),
    Case("nul-in-string", "a NUL byte in a string literal", b"x = '\x00'\n"),
    Case("nul-at-end", "a NUL byte alone after the last line", b"print(1)\n\x00"),
    Case("nul-then-bad-utf8", "a NUL, then a byte not UTF-8, on one line",
         b"x = 1 # \x00 \xff\n"),
    Case("bad-utf8-then-nul", "a byte not UTF-8 on line 1, a NUL on line 2",
         b"# \xff\n# \x00\n"),
    # UTF-8
    Case("bad-utf8-string", "invalid UTF-8 in a string literal", b"x = 1\ny = '\xff'\n"),
    Case("bad-utf8-comment", "invalid UTF-8 in a comment", b"x = 1\n# \xff\nprint(x)\n"),
    Case("bad-utf8-long-string", "invalid UTF-8 on line 2 of a triple-quoted string",
         b"x = '''a\nb\xff\n'''\n"),
    Case("utf8-surrogate-bytes", "a surrogate encoded in UTF-8 (ED A0 80) in a string",
         b"x = '\xed\xa0\x80'\n"),
    Case("utf8-overlong", "an overlong UTF-8 sequence (C0 80) in a comment",
         b"# \xc0\x80\nprint(1)\n"),
    Case("utf8-cookie-bad-comment", "`coding: utf-8`, invalid UTF-8 in a comment",
         b"# coding: utf-8\nx = 1 # \xff\nprint(x)\n"),
    Case("utf8-cookie-bad-string", "`coding: utf-8`, invalid UTF-8 in a string",
         b"# coding: utf-8\nx = 'a\xffb'\n"),
    Case("utf8-cookie-bad-name", "`coding: utf-8`, invalid UTF-8 in a name",
         b"# coding: utf-8\nx\xff = 1\n"),
    Case("bom-bad-comment", "a BOM, invalid UTF-8 in a comment",
         b"\xef\xbb\xbfx = 1 # \xff\nprint(x)\n"),
    Case("bom-bad-string", "a BOM, invalid UTF-8 in a string", b"\xef\xbb\xbfx = '\xff'\n"),
    Case("bom-bad-string-later", "a BOM, invalid UTF-8 after two characters of a string",
         b"\xef\xbb\xbfx = 'ab\xff'\n"),
    # coding cookies
    Case("cookie-latin1", "a latin-1 cookie", '# -*- coding: latin-1 -*-\nprint(ascii("café"))\n'
         .encode("latin-1")),
    Case("cookie-line2", "a cookie on line 2, after `#!`",
         b"#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nprint(ascii('\xe9'))\n"),
    Case("cookie-line2-blank", "a cookie on line 2, after a blank line (vim style)",
         b"\n# vim: set fileencoding=latin-1 :\nprint(ascii('\xe9'))\n"),
    Case("cookie-line3", "a cookie on line 3 (too late: the file is UTF-8)",
         b"\n\n# -*- coding: latin-1 -*-\nprint(ascii('\xe9'))\n"),
    Case("cookie-after-code", "a cookie on line 2 after a line of code (ignored)",
         b"x = 1\n# coding: latin-1\ny = '\xe9'\n"),
    Case("cookie-unknown", "an unknown encoding in the cookie", b"# coding: klingon\nx = 1\n"),
    Case("cookie-unknown-line2", "an unknown encoding in a cookie on line 2",
         b"#!/usr/bin/python\n# coding: klingon\nx = 1\n"),
    Case("cookie-invalid", "a cookie whose name is not a name (`coding: \\xe9`)",
         b"# coding: \xe9\nx = 1\n"),
    Case("cookie-wrong", "a wrong cookie: `ascii` over UTF-8 text",
         "# coding: ascii\nx = 'é'\n".encode()),
    Case("cookie-wrong-late", "a wrong cookie: `ascii`, the first non-ASCII byte 26 KB on",
         b"# coding: ascii\n" + b"# padding padding padding\n" * 1000 + "x = 'é'\n".encode()),
    Case("cookie-utf16", "a cookie naming an encoding that is not ASCII-compatible (utf-16)",
         b"# coding: utf-16\nx = 1\n"),
    Case("cookie-not-text", "a cookie naming a codec that is not a text encoding (hex)",
         b"# coding: hex\nx = 1\n"),
    Case("cookie-euc-jp", "an euc-jp cookie and text",
         b"# coding: euc-jp\nprint(ascii('\xa4\xa2'))\n"),
    Case("cookie-cr", "a latin-1 cookie, lines ended by lone CRs",
         b"# coding: latin-1\rprint(ascii('\xe9'))\r"),
    Case("bom-cookie-latin1", "a BOM and a latin-1 cookie (they disagree)",
         b"\xef\xbb\xbf# coding: latin-1\nx = 1\n"),
    Case("bom-cookie-utf8", "a BOM and a matching utf-8 cookie",
         "\ufeff# coding: utf-8\nprint(ascii('é'))\n".encode()),
    Case("bom-cookie-utf8-sig", "a BOM and a `utf-8-sig` cookie",
         b"\xef\xbb\xbf# coding: utf-8-sig\nprint(1)\n"),
    Case("bom-cookie-utf8-nodash", "a BOM and a `utf8` cookie (another spelling)",
         b"\xef\xbb\xbf# coding: utf8\nprint(1)\n"),
    Case("bom-only", "only a BOM", b"\xef\xbb\xbf"),
    # line endings
    Case("crlf", "CRLF line endings", b"x = 1\r\nif x:\r\n    print(x)\r\n"),
    Case("crlf-string", "CRLF inside a triple-quoted string",
         b"x = '''a\r\nb'''\r\nprint(ascii(x))\r\n"),
    Case("cr", "lone CR line endings", b"x = 1\rif x:\r    print(x)\r"),
    Case("cr-string", "a lone CR inside a triple-quoted string", b"x = '''a\rb'''\rprint(ascii(x))\r"),
    Case("cr-continuation", "a backslash continuation ended by a lone CR",
         b"x = 1 + \\\r2\rprint(x)\r"),
    Case("cr-in-string", "a lone CR inside a one-line string (it ends the line)",
         b"x = 'a\rb'\n"),
    Case("line-separators", "U+2028, U+0085, \\v and \\x1c in strings and comments",
         "s = 'a\u2028b\x85c\x0bd\x1ce'  # \u2028 \x85 \x0b \x1c\nprint(ascii(s), len(s))\n"
         .encode()),
    Case("formfeed-in-string", "a raw form feed inside a string", b"print(ascii('a\x0cb'))\n"),
    Case("mixed-endings", "LF, CRLF and CR in one file", b"x = 1\ny = 2\r\nz = 3\rprint(x, y, z)\n"),
    Case("no-final-newline", "no newline at the end", b"print(1)"),
    Case("ctrl-z", "a Ctrl-Z (\\x1a) line, as old DOS editors end files", b"print(1)\n\x1a\n"),
    Case("bom-mid-file", "a U+FEFF in the middle of the code", "x = 1\n\ufeffprint(x)\n".encode()),
    Case("nbsp", "a no-break space in code", "x =\u00a01\n".encode()),
    Case("cr-in-cookie-file-crlf", "a cookie on line 2, CRLF endings, latin-1 text",
         b"#!/usr/bin/env python\r\n# coding: latin-1\r\nprint(ascii('\xe9'))\r\n"),
    # indentation
    Case("formfeed-indent", "a form feed before an indent", b"if 1:\n\x0c    print(1)\n    print(2)\n"),
    Case("formfeed-line", "a form feed alone on a line in a block",
         b"if 1:\n    x = 1\n\x0c\n    print(x)\n"),
    Case("formfeed-after-indent", "a form feed after the indent (resets the column)",
         b"if 1:\n    \x0cprint(1)\n"),
    Case("tabs-consistent", "tabs, used consistently", b"if 1:\n\tif 1:\n\t\tprint(1)\n"),
    Case("tabs-spaces-consistent", "a tab, then a tab and 8 spaces, consistently",
         b"if 1:\n\tif 1:\n\t        print(1)\n"),
    Case("tabs-inconsistent", "8 spaces, then a tab (TabError)", b"if 1:\n        x = 1\n\ty = 2\n"),
    Case("tabs-dedent", "tabs, then a dedent to 8 spaces (TabError)",
         b"if 1:\n\tif 1:\n\t\tx = 1\n        print(x)\n"),
    Case("dedent-mismatch", "a dedent to no outer level",
         b"if 1:\n    if 1:\n        x = 1\n      y = 2\n"),
    Case("too-deep", "101 nested blocks (too many levels of indentation)",
         "".join(f"{' ' * i}if 1:\n" for i in range(101)).encode() + b" " * 101 + b"pass\n"),
    # empty and nearly
    Case("empty", "an empty file", b""),
    Case("comments-only", "only comments", b"# one\n# two\n"),
    Case("shebang-only", "only a `#!` line", b"#!/usr/bin/env python3\n"),
    Case("blank-only", "only blank lines, spaces and a form feed", b"\n  \n\x0c\n\n"),
    Case("backslash-eof", "a backslash continuation at the end of the file", b"x = 1 + \\\n"),
    Case("open-string-eof", "an unterminated triple-quoted string", b"x = '''abc\n\n"),
    # literals
    Case("N-escape", "`\\N{GREEK SMALL LETTER ALPHA}`",
         b"print(ascii('\\N{GREEK SMALL LETTER ALPHA}'), len('\\N{greek small letter alpha}'))\n"),
    Case("N-escape-bytes", "`\\N{...}` in a bytes literal (no such escape there)",
         b"print(b'\\N{DIGIT ONE}')\n"),
    Case("N-escape-unknown", "an unknown `\\N{...}` name", b"x = 1\nprint('\\N{NO SUCH NAME}')\n"),
    Case("N-escape-fstring", "`\\N{...}` in an f-string", b"a = 1\nprint(ascii(f'{a}\\N{BULLET}{a}'))\n"),
    Case("surrogate-escape", "a lone surrogate `'\\ud800'` in a literal",
         b"s = '\\ud800'\nprint(ascii(s), len(s), ascii(s + '\\udc00'))\n"),
    Case("surrogate-pair-escapes", "a surrogate pair as two escapes (two characters)",
         b"s = '\\ud83d\\ude00'\nprint(len(s), ascii(s), s == '\\U0001f600')\n"),
    Case("surrogate-bytes-escape", "`\\ud800` in a bytes literal (kept as is)",
         b"print(b'\\ud800')\n"),
    Case("non-bmp", "a character beyond the BMP, raw and escaped",
         "s = '😀'\nprint(ascii(s), s == '\\U0001F600')\n".encode()),
    # identifiers
    Case("nfkc-fi", f"`{FI} = 1; print(fi)`: NFKC turns `{FI}` into `fi`",
         f"{FI} = 1\nprint(fi)\nprint(sorted(k for k in globals() if not k.startswith('__')))\n"
         .encode()),
    Case("nfkc-globals-key", f"`globals()['{FI}']` after `{FI} = 1` (the key is `fi`)",
         f"{FI} = 1\nprint('{FI}' in globals(), 'fi' in globals())\nglobals()['{FI}']\n".encode()),
    Case("nfkc-everywhere", "NFKC in attributes, keywords, parameters, classes, imports",
         textwrap.dedent(f"""\
            import types
            from os import pa\N{MATHEMATICAL BOLD SMALL T}h
            ns = types.SimpleNamespace({FI}ve=5)
            def \N{BLACK-LETTER CAPITAL H}(*, x{FI}=1, **k):
                return x{FI}, sorted(k)
            class \N{BLACK-LETTER CAPITAL C}:
                \N{SCRIPT SMALL L} = 3
            print(ns.five, ns.{FI}ve, H(xfi=2, \N{LATIN SMALL LIGATURE FF}=3), C.l, sorted(vars(ns)))
            print(C.__name__, H.__name__, path.__name__, sorted(vars(C))[-1])
            """).encode()),
    Case("nfkc-keyword-names", "names NFKC makes keywords (`ｉｆ`, `ｃｌａｓｓ`): parameters, locals, "
         "nonlocal, keyword arguments, a function",
         textwrap.dedent("""\
            def f(ｉｆ=2, *, ｃｌａｓｓ=3, **ｋｗ):
                ｗｈｉｌｅ = ｉｆ + ｃｌａｓｓ
                def g():
                    nonlocal ｗｈｉｌｅ
                    ｗｈｉｌｅ += 1
                    return ｗｈｉｌｅ
                return g(), sorted(locals())
            print(f(), f(ｉｆ=5, ｃｌａｓｓ=1, ｉｍｐｏｒｔ=0), dict(ｌａｍｂｄａ=1))
            def ｒｅｔｕｒｎ():
                return 7
            print(globals()["return"](), ｒｅｔｕｒｎ.__name__)
            """).encode()),
    Case("nfkc-none", "`Ｎｏｎｅ = 1`: a name NFKC makes `None` (CPython stores it)",
         "Ｎｏｎｅ = 1\nprint(globals()['None'], None, Ｎｏｎｅ)\ndef f(Ｔｒｕｅ):\n"
         "    return Ｔｒｕｅ + 1\nprint(f(2))\n".encode()),
    Case("non-ascii-names", "non-ASCII names left as they are (`café`, `π`, `変数`)",
         "café = 1\nπ = 3.14\n変数 = café + π\nprint(sorted(k for k in globals() if not k.isascii()))\n"
         .encode()),
    Case("bad-identifier", "a character that cannot be in a name (`€`)", "x€ = 1\n".encode()),
    Case("bad-identifier-start", "a name starting with a combining mark",
         "\u0301x = 1\n".encode()),
    # the big file
    Case("200kb", "a 200 KB module (a realistic block of 55 lines repeated: 7,700 lines)",
         lambda: big_module(200_000)),
    Case("1mb", "a 1 MB module (the same block: 38,000 lines)",
         lambda: big_module(1_000_000), slow=True),
    Case("10mb", "a 10 MB module (the same block: 384,000 lines)",
         lambda: big_module(10_000_000), slow=True),
    # paths
    Case("directory", "a directory (with `__main__.py` importing a sibling)", kind="directory"),
    Case("dir-as-file", "a path `dir.py` that is a directory, given alone",
         kind="dir-as-file", filename="dir.py"),
    Case("unreadable", "an unreadable file", kind="unreadable"),
]


# ------------------------------------------------------------------ results
@dataclass
class Run:
    """A process's (or the command line's) exit code and output."""

    status: int
    stdout: str
    stderr: str
    error: dict | None = None  # the compile error CPython reported

    @property
    def last_line(self) -> str:
        lines = self.stderr.strip().splitlines()
        return lines[-1] if lines else ""


def python(path: Path, work: Path) -> Run:
    """``python PATH``, with the compile error it reports (if any)."""
    hook = work / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(HOOK)
    report = work / "report.json"
    report.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(hook), "HOSTILE_REPORT": str(report),
           "PYTHONIOENCODING": "utf-8"}
    size = path.stat().st_size if path.is_file() else 0
    done = subprocess.run([sys.executable, str(path)], capture_output=True, env=env,
                          cwd=work, timeout=120 + size / 4000)  # 90 MB compile: minutes
    error = json.loads(report.read_text("utf-8")) if report.exists() else None
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"),
               done.stderr.decode("utf-8", "replace"), error)


def unsugar(*argv: str) -> Run:
    """The command line, in this process; an exception that escapes it is its stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main([*argv, "-j", "1", "-q"] if argv[0] != "check" else list(argv))
        except BaseException as exc:  # noqa: BLE001  (a traceback is the finding)
            import traceback

            traceback.print_exception(exc, file=err)
            status = -1
    return Run(status, out.getvalue(), err.getvalue())


@dataclass
class Row:
    case: Case
    cpython: str = ""
    unsugar: str = ""
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def describe_python(run: Run, path: Path) -> str:
    if run.error:
        where = f"line {run.error['lineno']}" if run.error["lineno"] else "no line"
        if run.error["offset"]:
            where += f", offset {run.error['offset']}"
        message = run.error["msg"].replace(str(path), "FILE")
        return f"exit {run.status}, {run.error['type']} ({where}): {message}"
    if run.status and run.last_line.startswith(sys.executable + ": "):  # not even started
        return f"exit {run.status}; {run.last_line.replace(str(path), 'FILE')}".replace(
            sys.executable, "python")
    text = f"exit {run.status}"
    if run.stdout:
        shown = run.stdout.strip().replace("\n", " / ")
        text += f", prints {shown[:60] + '...' if len(shown) > 60 else shown}"
    if run.status and run.last_line:
        text += f"; {run.last_line.replace(str(path), 'FILE')}"
    return text


ERROR_LINE = re.compile(r"(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)")


def check_rejected(row: Row, path: Path, reference: Run, got: Run) -> None:
    """``got`` (the command line on ``path``) is CPython's error in one line."""
    error = reference.error
    lines = got.stderr.splitlines()
    match = ERROR_LINE.fullmatch(lines[0]) if len(lines) == 1 else None
    if got.status != 1:
        row.problems.append(f"exit {got.status}, not 1")
    if got.stdout:
        row.problems.append("printed on standard output")
    if not match:
        row.problems.append(f"not one FILE:LINE:COL line: {got.stderr!r}")
        return
    if match["file"] != str(path):
        row.problems.append(f"names {match['file']}")
    if match["msg"] != error["msg"]:
        row.problems.append(f"message {match['msg']!r}, CPython's {error['msg']!r}")
    named = re.search(r" on line (\d+)\b", error["msg"])
    line = error["lineno"] or (int(named[1]) if named else None)
    if line and int(match["line"]) != line:
        row.problems.append(f"line {match['line']}, CPython's {line}")
    if error["offset"] and error["offset"] > 0 and int(match["col"]) != error["offset"]:
        row.problems.append(f"column {match['col']}, CPython's {error['offset']}")


def run_file_case(case: Case, work: Path) -> Row:
    row = Row(case)
    path = work / case.filename
    data = case.bytes()
    path.write_bytes(data)
    reference = python(path, work)
    row.cpython = describe_python(reference, path)
    out = work / "out" / case.filename
    got = unsugar(str(path), "-o", str(out))
    if reference.error:
        check_rejected(row, path, reference, got)
        if out.exists():
            row.problems.append("wrote an output file")
        shown = got.stderr.strip() if len(lines := got.stderr.splitlines()) == 1 else \
            f"{len(lines)} lines, the last: {got.last_line}"
        row.unsugar = f"exit {got.status}: `{shown.replace(str(path), 'FILE')}`"
        for argv in (("--in-place", str(path)), ("--diff", str(path)), ("check", str(path))):
            again = unsugar(*argv)
            if again.stderr != got.stderr or again.status != 1:
                row.problems.append(f"{argv[0]}: exit {again.status}, {again.stderr!r}")
        if path.read_bytes() != data:
            row.problems.append("--in-place changed the file")
        return row
    printed = COMPILE_WARNING.sub("", got.stderr)  # the warnings CPython's compile prints
    if got.status != 0 or printed or got.stdout:
        row.problems.append(f"exit {got.status}: {got.stderr.strip()[-500:]}")
        row.unsugar = f"exit {got.status}: `{got.last_line.replace(str(path), 'FILE')}`"
        return row
    if findings := check_source(out.read_text("utf-8"), str(out)):
        row.problems.append(f"sugar left in the output: {findings[0].format(str(out))}")
    ran = python(out, work)
    if ran.error:
        row.problems.append(f"the output does not compile: {ran.error}")
    expected, warned = COMPILE_WARNING.subn("", reference.stderr)
    same = (ran.status, ran.stdout, ran.last_line.replace(str(out), str(path))) == (
        reference.status, reference.stdout, Run(0, "", expected).last_line)
    if not same:
        row.problems.append(f"the output runs differently: exit {ran.status}, "
                            f"{ran.stdout[:200]!r}, {ran.last_line!r}")
    row.unsugar = "exit 0; the output runs the same" if same else "exit 0; the output differs"
    if warned:
        row.unsugar += " (CPython's compile-time SyntaxWarning is not printed by the output"
        row.unsugar += ", but by unsugar as it reads the file)" if got.stderr else ")"
    return row


# What compiling the input prints (3.12 on: b'\N' is an invalid escape); unsugar,
# parsing it, prints it too; the output, its literals rewritten, does not.
COMPILE_WARNING = re.compile(r"^\S.*:\d+: (?:Syntax|Deprecation)Warning: .*\n(?:  .*\n)?",
                             re.MULTILINE)


def run_directory_case(case: Case, work: Path) -> Row:
    """A directory with ``__main__.py``: ``python DIR`` runs it; ``unsugar DIR -o
    OUT`` desugars the tree, and ``python OUT`` does the same."""
    row = Row(case)
    app = work / "app"
    app.mkdir()
    (app / "__main__.py").write_text("import helper\nprint(helper.twice(21))\n")
    (app / "helper.py").write_text("def twice(x):\n    return x * 2 if x else None\n")
    (app / "notes.txt").write_text("copied as it is\n")
    reference = python(app, work)
    row.cpython = describe_python(reference, app)
    out = work / "out"
    got = unsugar(str(app), "-o", str(out))
    if got.status or got.stderr:
        row.problems.append(f"exit {got.status}: {got.stderr!r}")
    for file in out.rglob("*.py"):
        if check_source(file.read_text("utf-8"), str(file)):
            row.problems.append(f"sugar left in {file.name}")
    if (out / "notes.txt").read_text() != "copied as it is\n":
        row.problems.append("notes.txt not copied")
    ran = python(out, work)
    same = (ran.status, ran.stdout) == (reference.status, reference.stdout)
    if not same:
        row.problems.append(f"the output runs differently: {ran.stdout!r} {ran.stderr!r}")
    row.unsugar = f"exit {got.status}, tree desugared ({len(list(out.rglob('*.py')))} files); " + (
        "`python OUT` runs the same" if same else "`python OUT` differs")
    return row


def run_dir_as_file_case(case: Case, work: Path) -> Row:
    """A directory named like a module, given as the one input: a usage
    error (exit 2) naming it, since a directory needs ``-o``, ``--in-place``
    or ``--diff``; with ``--in-place`` it is a tree like any other."""
    row = Row(case)
    path = work / case.filename
    path.mkdir()
    (path / "inner.py").write_text("x = 0\nprint(not x)\n")
    reference = python(path, work)
    row.cpython = describe_python(reference, path)
    got = unsugar(str(path))
    last = got.last_line
    if got.status != 2 or str(path) not in last or "Traceback" in got.stderr or got.stdout:
        row.problems.append(f"exit {got.status}: {got.stderr!r}")
    good = work / "good.py"
    good.write_text("x = 0\nprint(not x)\n")
    both = unsugar("--in-place", str(path), str(good))
    if both.status or check_source(good.read_text(), "good.py") or check_source(
            (path / "inner.py").read_text(), "inner.py"):
        row.problems.append(f"--in-place DIR.py good.py: exit {both.status}, {both.stderr!r}")
    row.unsugar = f"exit {got.status}: `{last.replace(str(path), 'FILE')}`; with --in-place: " \
                  f"the files in it desugared, exit {both.status}"
    return row


@contextlib.contextmanager
def unreadable_file(work: Path) -> Iterator[tuple[Path, bool]]:
    """A file that cannot be read, and whether it really cannot. A mode of 000
    does not stop root: then a write-only file of ``/proc/sys`` (unreadable
    even to root) is used; failing those, reading the file is made to fail
    in this process only."""
    path = work / "secret.py"
    path.write_text("print(1)\n")
    path.chmod(0)
    try:
        try:
            path.open("rb").close()
        except PermissionError:
            yield path, True
            return
        for candidate in (Path("/proc/sys/vm/drop_caches"), Path("/proc/sys/vm/compact_memory")):
            try:
                candidate.open("rb").close()
            except PermissionError:
                yield candidate, True
                return
            except OSError:
                pass
        original = Path.read_bytes

        def read_bytes(self: Path) -> bytes:
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return original(self)

        Path.read_bytes = read_bytes  # type: ignore[method-assign]
        try:
            yield path, False
        finally:
            Path.read_bytes = original  # type: ignore[method-assign]
    finally:
        path.chmod(0o600)


def run_unreadable_case(case: Case, work: Path) -> Row:
    row = Row(case)
    with unreadable_file(work) as (path, real):
        reference = python(path, work) if real else None
        out = work / "out.py"
        got = unsugar(str(path), "-o", str(out))
        good = work / "good.py"
        good.write_text("x = 0\nprint(not x)\n")
        both = unsugar("--diff", str(path), str(good))  # (never --in-place on /proc)
        if both.status != 1 or "+++ " not in both.stdout or both.stderr != got.stderr:
            row.problems.append(f"--diff with another file: exit {both.status}, {both.stderr!r}")
    row.cpython = describe_python(reference, path) if reference else \
        "(a file unreadable to root cannot be made here)"
    if reference and reference.status == 0:
        row.problems.append("CPython read the file: the case is not unreadable")
    if got.status != 1 or got.stderr != f"{path}: Permission denied\n" or out.exists():
        row.problems.append(f"exit {got.status}: {got.stderr!r}")
    shown = "FILE" if path.parent == work else str(path)
    row.unsugar = f"exit {got.status}: `{got.stderr.strip().replace(str(path), shown)}`; " \
        f"with --diff and another file: its diff printed, exit {both.status}"
    if not real:
        row.unsugar += " (reading made to fail in-process)"
    if reference:
        row.cpython = describe_python(reference, path).replace("FILE", shown)
    return row


RUNNERS = {"file": run_file_case, "directory": run_directory_case,
           "dir-as-file": run_dir_as_file_case, "unreadable": run_unreadable_case}


def run_case(case: Case, work: Path) -> Row:
    start = time.perf_counter()
    row = RUNNERS[case.kind](case, work)
    row.seconds = time.perf_counter() - start
    return row


# ------------------------------------------------------------------- tests
# the inputs' invalid escapes (b'\N{...}'), warned about when unsugar parses them
pytestmark = [pytest.mark.filterwarnings("ignore:invalid escape sequence:DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:invalid escape sequence:SyntaxWarning")]


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.name, marks=[pytest.mark.slow] * c.slow + (
            [pytest.mark.xfail(reason=c.xfail, strict=True)] if c.xfail else []))
        for c in CASES
    ],
)
def test_hostile_input(case: Case, tmp_path: Path) -> None:
    row = run_case(case, tmp_path)
    assert not row.problems, f"{case.what}\nCPython: {row.cpython}\nunsugar: {row.unsugar}"


def test_unreadable_file_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading fails (as it does not for root with a mode of 000): one line
    naming the file, exit 1, no output, and the other files of the run done."""
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text("print(1)\n")
    good.write_text("x = 0\nprint(not x)\n")
    original = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "bad.py":
            raise PermissionError(13, "Permission denied", str(self))
        return original(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    got = unsugar(str(bad), "-o", str(tmp_path / "out.py"))
    assert (got.status, got.stdout, got.stderr) == (1, "", f"{bad}: Permission denied\n")
    assert not (tmp_path / "out.py").exists()
    both = unsugar("--in-place", str(bad), str(good))
    assert (both.status, both.stderr) == (1, f"{bad}: Permission denied\n")
    assert not check_source(good.read_text(), "good.py")
    assert bad.read_text() == "print(1)\n"


def test_nul_from_standard_input() -> None:
    """Standard input is read as a file is: a NUL is reported on its line."""
    done = subprocess.run([sys.executable, "-m", "unsugar", "-"], input=b"x = 1\ny = '\x00'\n",
                          capture_output=True)
    assert (done.returncode, done.stdout) == (1, b"")
    assert done.stderr == b"<stdin>:2:6: source code cannot contain null bytes\n"


# ------------------------------------------------------------------- table
def table(cases: list[Case]) -> str:
    lines = [f"Python {sys.version.split()[0]}", "",
             "| input | CPython (`python FILE`) | unsugar (`unsugar FILE -o OUT`) | agree | s |",
             "|---|---|---|---|---|"]
    for case in cases:
        with tempfile.TemporaryDirectory() as work:
            row = run_case(case, Path(work))
        cells = [case.what, row.cpython, row.unsugar[:300],
                 "yes" if not row.problems else "NO: " + "; ".join(p[:200] for p in row.problems),
                 f"{row.seconds:.1f}"]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells)
                     + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    names = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    chosen = [c for c in CASES if (c.name in names if names else not c.slow or "--big" in sys.argv)]
    sys.stdout.write(table(chosen))
