"""The command line (SPEC section 5)::

    unsugar FILE.py [-o OUT.py]          unsugar check PATH...
    unsugar SRC_DIR -o OUT_DIR           unsugar rules [--markdown]
    unsugar - < FILE.py                  unsugar explain RULE
    unsugar --in-place PATH...           unsugar explain FILE:LINE
    unsugar --diff PATH...
    unsugar --show-settings [PATH...]
    unsugar run [OPTIONS] (SCRIPT.py | -m MODULE) [ARGS...]   (see unsugar.runner)

Settings come from ``[tool.unsugar]`` in the nearest ``pyproject.toml`` (see
unsugar.config); the command line overrides them.

Exit codes: 0 success; 1 a file failed (syntax error, undecodable) or
``check`` found sugar; 2 usage error or unusable settings. Errors go to stderr as
``FILE:LINE:COL: message``. Outputs are written to a temporary file in the
same directory and renamed, so a failure never leaves a half-written file;
the other files of the run are still processed.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import difflib
import io
import os
import re
import shutil
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import unsugar
from unsugar import __version__, batch, store
from unsugar import nodes as ast
from unsugar.config import ConfigError, Settings, load_settings, settings_text
from unsugar.options import RUNTIMES, SEMANTICS, UnknownRuleError, check_keep, comma_list

if TYPE_CHECKING:
    from unsugar.registry import Rule

#: the path that names standard input (an input) or standard output (``-o``)
STDIN = STDOUT = "-"


class Failure(Exception):
    """A file that could not be processed; the message is what stderr shows."""


# ------------------------------------------------------------------ reading
# How ``python FILE`` decodes a source file (the C tokenizer reading a file,
# the same on 3.11 to 3.13), reproduced so that a file fails here exactly when
# and as it fails there: a UTF-8 byte order mark; a PEP 263 cookie in a
# comment on line 1, or on line 2 after a blank or comment line; without
# either, every line must be UTF-8; a NUL byte is an error on its line.
_COOKIE = re.compile(rb"[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
_NOT_CODE = re.compile(rb"[ \t\f]*(?:[#\r\n]|$)")
_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_UTF8_TAIL = re.compile(rb"utf-8(?:-.*)?")
_LATIN1 = re.compile(rb"(?:latin-1|iso-8859-1|iso-latin-1)(?:-.*)?")


def _normal_encoding(name: bytes) -> bytes:
    """The name the tokenizer gives a cookie's encoding (``get_normal_name``)."""
    key = name[:12].lower().replace(b"_", b"-")
    if _UTF8_TAIL.fullmatch(key):
        return b"utf-8"
    if _LATIN1.fullmatch(key):
        return b"iso-8859-1"
    return name


def _column(line: bytes, end: int) -> int:
    """The 1-based column, in characters, of byte ``end`` of ``line``."""
    return len(line[:end].decode("utf-8", "replace")) + 1


def decode(data: bytes, name: str) -> str:
    """``data`` decoded as ``python FILE`` decodes it, newlines as ``\\n``.

    A file ``python`` refuses raises :class:`Failure` with its message:
    ``Non-UTF-8 code starting with ...``, ``encoding problem: ...``,
    ``source code cannot contain null bytes``, ``(unicode error) ...``.
    """
    bom = data.startswith(codecs.BOM_UTF8)
    body = data[len(codecs.BOM_UTF8):] if bom else data
    declared = b"utf-8" if bom else None
    header = 0  # with a cookie: the end of its line, where its codec takes over
    for number, match in enumerate(_LINE.finditer(body), 1):
        line = match.group().partition(b"\0")[0]  # the tokenizer sees a C string
        cookie = _COOKIE.match(line)
        if cookie:
            encoding = _normal_encoding(cookie.group(1))
            if bom and encoding != b"utf-8":
                raise Failure(f"{name}:{number}:{cookie.start(1) + 1}: encoding problem: "
                              f"{encoding.decode()} with BOM")
            declared, header = encoding, match.end()
            break
        if declared is None:
            _check_utf8(match.group(), number, name)
        _check_nul(match.group(), number, name)
        if number == 2 or not _NOT_CODE.match(line):
            break
    if declared is None or declared == b"utf-8":
        text = _decode_utf8(data, len(data) - len(body), name, strict=declared is None)
    else:
        text = _decode_declared(body, header, declared.decode("ascii"), name)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _check_utf8(line: bytes, number: int, name: str) -> None:
    """The tokenizer's check of a line when no encoding is declared: UTF-8 up to a NUL."""
    part = line.partition(b"\0")[0]
    try:
        part.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Failure(
            f"{name}:{number}:{_column(part, exc.start)}: Non-UTF-8 code starting with "
            f"'\\x{part[exc.start]:02x}' in file {name} on line {number}, but no encoding "
            "declared; see https://peps.python.org/pep-0263/ for details"
        ) from None


def _check_nul(line: bytes | str, number: int, name: str) -> None:
    """The tokenizer's check of each line it reads: no NUL."""
    if isinstance(line, bytes):
        nul = line.find(b"\0")
        column = _column(line, nul)
    else:
        nul = line.find("\0")
        column = nul + 1
    if nul >= 0:
        raise Failure(f"{name}:{number}:{column}: source code cannot contain null bytes")


def _line_of(data: bytes, offset: int) -> tuple[int, bytes]:
    """The number and the bytes of the line holding byte ``offset`` (``\\r\\n``,
    ``\\r`` and ``\\n`` end lines)."""
    start = max(data.rfind(b"\n", 0, offset), data.rfind(b"\r", 0, offset)) + 1
    number = (data.count(b"\n", 0, start) + data.count(b"\r", 0, start)
              - data.count(b"\r\n", 0, start) + 1)
    ends = [found for found in (data.find(b"\n", offset), data.find(b"\r", offset)) if found >= 0]
    return number, data[start:min(ends, default=len(data))]


def _decode_utf8(data: bytes, skip: int, name: str, *, strict: bool) -> str:
    """``data[skip:]`` (after a byte order mark) read as UTF-8. Without a cookie
    or a mark (``strict``) each line must be UTF-8; with one, bytes that are
    not UTF-8 fail only where the parser decodes them (in a string or a name,
    not in a comment)."""
    nul = data.find(b"\0", skip)
    try:
        text = data[skip:].decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = skip + exc.start
    else:
        bad = len(data)
        if nul < 0:
            return text
    if nul < 0:
        nul = len(data)
    if strict and bad < nul:  # a NUL first on its line hides the rest of the line
        number, line = _line_of(data[skip:], bad - skip)
        _check_utf8(line, number, name)
    if nul < len(data):
        number, line = _line_of(data[skip:], nul - skip)
        _check_nul(line, number, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data, name)
        except SyntaxError as error:
            if error.msg.startswith("(unicode error)"):
                raise Failure(
                    f"{name}:{error.lineno or 1}:{error.offset or 1}: {error.msg}"
                ) from None
    return data[skip:].decode("utf-8", "replace")


def _decode_declared(body: bytes, header: int, encoding: str, name: str) -> str:
    """``body`` after the cookie's line, read as the tokenizer reads it: through
    ``io.open(..., encoding=encoding)`` from the cookie line's last byte. A
    failure of the first read (8 KB) is an ``encoding problem``; a later one
    a ``(unicode error)`` on the last line read before it."""
    first = body[:header]
    number = first.count(b"\n") + first.count(b"\r") - first.count(b"\r\n")
    try:
        stream = io.TextIOWrapper(io.BytesIO(body[header - 1:]), encoding=encoding, newline=None)
        stream.readline()  # the end of the cookie's line
    except Exception:  # noqa: BLE001  (an unknown codec, a failing decoder: all one to CPython)
        cookie_line, line = _line_of(body, header - 1)
        cookie = _COOKIE.match(line)
        column = cookie.start(1) + 1 if cookie else 1
        raise Failure(f"{name}:{cookie_line}:{column}: encoding problem: {encoding}") from None
    _check_nul(*_line_of(body, header - 1)[::-1], name)
    lines = [first.decode(encoding, "replace")]
    while True:
        try:
            line = stream.readline()
        except Exception as exc:  # noqa: BLE001
            message = f"(unicode error) {exc}" if isinstance(exc, UnicodeError) else str(exc)
            raise Failure(f"{name}:{number}:1: {message}") from None
        if not line:
            return "".join(lines)
        number += 1
        _check_nul(line, number, name)
        lines.append(line)


def read_source(path: str) -> str:
    """The text of ``path`` (``-`` is standard input)."""
    if path == STDIN:
        return decode(sys.stdin.buffer.read(), "<stdin>")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise Failure(f"{path}: {exc.strerror or exc}") from None
    return decode(data, path)


def display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def _nothing_excluded(path: str) -> bool:
    return False


def python_files(path: str, excluded: Callable[[str], bool] = _nothing_excluded) -> Iterator[str]:
    """``path`` itself, or every ``.py`` file under the directory ``path`` that is
    not ``excluded`` (nor inside an excluded directory)."""
    if not os.path.isdir(path):
        yield path
        return
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(
            d for d in dirs if d != "__pycache__" and not excluded(os.path.join(root, d))
        )
        yield from (
            os.path.join(root, f) for f in sorted(files)
            if f.endswith(".py") and not excluded(os.path.join(root, f))
        )


# ---------------------------------------------------------------- rewriting
def convert(text: str, name: str, args: argparse.Namespace) -> str:
    """The desugared form of ``text``; a ``#!`` line is kept."""
    try:
        out = unsugar.desugar(text, filename=name, keep=args.keep, runtime=args.runtime,
                              semantics=args.semantics, annotate=args.annotate)
    except SyntaxError as exc:
        raise Failure(f"{name}:{exc.lineno or 1}:{exc.offset or 1}: {exc.msg}") from None
    except RecursionError:
        raise Failure(f"{name}: too deeply nested to desugar") from None
    except Exception as exc:  # noqa: BLE001  (one file's failure must not stop the run)
        raise Failure(f"{name}: cannot desugar: {type(exc).__name__}: {exc}") from None
    if text.startswith("#!"):
        out = text.partition("\n")[0] + "\n" + out
    return out


def write_atomic(path: Path, data: bytes, mode_from: Path | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    The file keeps the mode of ``path`` if it exists, else takes that of
    ``mode_from`` (the input), else the default for new files.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        model = path if path.exists() else mode_from
        if model is not None and model.exists():
            shutil.copymode(model, temp)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def copy_atomic(source: Path, target: Path) -> None:
    """Copy ``source`` (with its mode and times) to ``target`` via a rename."""
    try:
        write_atomic(target, source.read_bytes(), source)
        shutil.copystat(source, target)
    except OSError as exc:
        raise Failure(f"{exc.filename or source}: {exc.strerror or exc}") from None


def convert_file(path: str, target: Path, args: argparse.Namespace) -> None:
    """Desugar ``path`` to the file ``target``."""
    out = convert(read_source(path), display_name(path), args)
    source = None if path == STDIN else Path(path)
    try:
        write_atomic(target, out.encode("utf-8"), source)
    except OSError as exc:
        raise Failure(f"{target}: {exc.strerror or exc}") from None


def diff_text(path: str, args: argparse.Namespace) -> str:
    """The unified diff from ``path`` to its desugared form."""
    name = display_name(path)
    text = read_source(path)
    out = convert(text, name, args)
    return "".join(difflib.unified_diff(
        text.splitlines(keepends=True), out.splitlines(keepends=True),
        fromfile=name, tofile=name, fromfiledate="original", tofiledate="desugared",
    ))


def tree_jobs(
    source: Path, target: Path, excluded: Callable[[str], bool] = _nothing_excluded
) -> Iterator[tuple[Path, Path]]:
    """Pairs (input file, output file) mirroring the tree ``source`` under
    ``target``, without what is ``excluded``."""
    skip = target.resolve()
    for root, dirs, files in os.walk(source):
        here = Path(root)
        dirs[:] = sorted(
            d for d in dirs if d != "__pycache__" and (here / d).resolve() != skip
            and not excluded(str(here / d))
        )
        for name in sorted(files):
            if not excluded(str(here / name)):
                yield here / name, target / (here / name).relative_to(source)


@dataclass(frozen=True)
class Job:
    """One file of a run: ``convert`` it (to ``target``; None: standard output),
    ``copy`` it (a file that is not Python, in a directory run), or ``diff`` it."""

    action: str
    source: str
    target: Path | None = None


def do_job(args: argparse.Namespace, job: Job) -> batch.Result:
    """Do ``job``: what it prints on standard output, and its error (:mod:`unsugar.batch`)."""
    try:
        if job.action == "diff":
            return diff_text(job.source, args), None
        if job.action == "copy":
            copy_atomic(Path(job.source), job.target)
        elif job.target is None:
            return convert(read_source(job.source), display_name(job.source), args), None
        else:
            convert_file(job.source, job.target, args)
    except Failure as failure:
        return "", str(failure)
    return "", None


def run_jobs(jobs: list[Job], args: argparse.Namespace) -> int:
    """Do every job, in a pool of ``--jobs`` processes; report failures and go on.
    The exit code."""
    parallel = args.jobs > 1 and all(job.source != STDIN for job in jobs)
    return batch.run(
        jobs, partial(do_job, args), workers=args.jobs if parallel else 1,
        progress=not args.quiet and sys.stderr.isatty(), names=lambda job: job.source,
        warm=partial(unsugar.desugar, "x = 1\n", runtime=args.runtime, semantics=args.semantics),
    )


# ------------------------------------------------------------------ parsers
def _keep_option(parser: argparse.ArgumentParser, values: list[str] | None) -> tuple[str, ...] | None:
    """The rule ids of the ``--keep`` options, validated (None: no ``--keep``)."""
    if values is None:
        return None
    keep = comma_list(values)
    try:
        check_keep(keep)
    except UnknownRuleError as exc:
        parser.error(f"--keep: {exc}; see 'unsugar rules'")
    return keep


def desugar_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unsugar",
        description="Rewrite Python modules into Minimum Viable Python: ten pieces of "
        "syntax, same behaviour.",
        epilog="other commands: 'unsugar check PATH...', 'unsugar rules [--markdown]', "
        "'unsugar explain RULE', 'unsugar explain FILE:LINE'",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="a .py file, a directory, or '-' for standard input")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write to OUT (a file, '-' for standard output, or a directory "
                        "for a directory input)")
    parser.add_argument("--in-place", action="store_true", help="rewrite the files where they are")
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff against the input instead of the output")
    parser.add_argument("--annotate", action="store_true",
                        help="write a comment before the statements each input statement "
                        "became: its line, its text and the rules applied")
    add_rewrite_options(parser)
    parser.add_argument("-j", "--jobs", type=int, metavar="N",
                        help="desugar N files at a time, in N processes (default: the number "
                        "of cores); the output is the same")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress line on a terminal")
    parser.add_argument("--no-cache", action="store_true",
                        help="compile the runtime again; neither read nor write the cache "
                        "($UNSUGAR_CACHE_DIR, else $XDG_CACHE_HOME/unsugar, else ~/.cache/unsugar)")
    add_config_options(parser)
    parser.add_argument("--version", action="version", version=f"unsugar {__version__}")
    return parser


def add_rewrite_options(parser: argparse.ArgumentParser) -> None:
    """``--keep``, ``--runtime`` and ``--semantics``, shared by the converter and ``unsugar run``."""
    parser.add_argument("--keep", action="append", metavar="RULE,...",
                        help="keep the sugar of these rules (see 'unsugar rules')")
    parser.add_argument("--runtime", choices=RUNTIMES,
                        help="inline the helpers the output uses (default) or import them "
                        "from the installed package")
    parser.add_argument("--semantics", choices=SEMANTICS,
                        help="python: the runtime's helpers, exact and in Python (default); "
                        "native: the interpreter's own operators (operator.add for +), faster")


def add_config_options(parser: argparse.ArgumentParser, *, show: bool = True) -> None:
    """``--config``, ``--isolated`` and (with ``show``) ``--show-settings``."""
    parser.add_argument("--config", metavar="FILE",
                        help="read the settings from [tool.unsugar] in FILE, not from the "
                        "nearest pyproject.toml that has that table")
    parser.add_argument("--isolated", action="store_true",
                        help="read no settings file: the command line and the defaults only")
    if show:
        parser.add_argument("--show-settings", action="store_true",
                            help="print each setting in effect and where it comes from, "
                            "then exit")


def command_settings(
    parser: argparse.ArgumentParser, args: argparse.Namespace, paths: Sequence[str], **given: object
) -> Settings:
    """The settings of ``--config``, ``--isolated`` or the nearest ``[tool.unsugar]``
    from ``paths``, with the command line's values (``given``; None: not given)
    over them. A bad file raises :class:`ConfigError`."""
    if args.config is not None and args.isolated:
        parser.error("--config and --isolated exclude each other")
    settings = load_settings(paths, config=args.config, isolated=args.isolated)
    return settings.override(**given)


def desugar_command(argv: Sequence[str]) -> int:
    parser = desugar_parser()
    args = parser.parse_args(argv)
    paths: list[str] = args.paths
    keep = _keep_option(parser, args.keep)
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    settings = command_settings(parser, args, paths, keep=keep,
                                runtime=args.runtime, semantics=args.semantics, jobs=args.jobs)
    if args.show_settings:
        sys.stdout.write(settings_text(settings))
        return 0
    args.keep, args.runtime, args.semantics = settings.keep, settings.runtime, settings.semantics
    args.jobs = settings.jobs or batch.default_workers()
    store.use(not args.no_cache)
    if not paths:
        parser.error("nothing to do: give a file, a directory or '-'")
    if sum(map(bool, (args.output, args.in_place, args.diff))) > 1:
        parser.error("-o, --in-place and --diff exclude each other")
    if paths.count(STDIN) > 1 or (args.in_place and STDIN in paths):
        parser.error("'-' (standard input) can be given once, and not with --in-place")
    if args.diff or args.in_place:
        files = [f for p in paths for f in python_files(p, settings.excludes)]
        if args.diff:
            return run_jobs([Job("diff", f) for f in files], args)
        return run_jobs([Job("convert", f, Path(f)) for f in files], args)
    if len(paths) > 1:
        parser.error("several inputs need --in-place or --diff")
    (path,) = paths
    if os.path.isdir(path):
        if not args.output or args.output == STDOUT:
            parser.error(f"{path} is a directory: give -o OUT_DIR, --in-place or --diff")
        return run_jobs([
            Job("convert" if src.suffix == ".py" else "copy", str(src), dst)
            for src, dst in tree_jobs(Path(path), Path(args.output), settings.excludes)
        ], args)
    target = None  # (standard output)
    if args.output and args.output != STDOUT:
        target = Path(args.output)
        if target.is_dir():
            target = target / ("stdin.py" if path == STDIN else Path(path).name)
    return run_jobs([Job("convert", path, target)], args)


def check_command(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="unsugar check",
        description="List the syntax outside Minimum Viable Python as FILE:LINE:COL: RULE "
        "message; exit 1 if there is any.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, directories or '-'")
    add_config_options(parser, show=False)
    args = parser.parse_args(argv)
    settings = command_settings(parser, args, args.paths)

    status = 0
    for path in args.paths:
        for file in python_files(path, settings.excludes):
            try:
                status |= check_file(file)
            except Failure as failure:
                print(failure, file=sys.stderr)
                status = 1
    return status


def check_file(path: str) -> int:
    """Print the sugar left in ``path``; 1 if there is any."""
    name = display_name(path)
    text = read_source(path)
    from unsugar.checker import check_source

    try:
        findings = check_source(text, name)
    except SyntaxError as exc:
        raise Failure(f"{name}:{exc.lineno or 1}:{exc.offset or 1}: {exc.msg}") from None
    for finding in findings:
        print(finding.format(name))
    return 1 if findings else 0


def run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="unsugar run", allow_abbrev=False,
        usage="unsugar run [OPTIONS] (SCRIPT.py | -m MODULE) [ARGS...]",
        description="Run a program as 'python' does, with the script and the modules it "
        "imports from the project desugared as they are imported. The project is the "
        "script's directory (the current directory for -m); compiled code is cached in "
        "$UNSUGAR_CACHE_DIR, else $XDG_CACHE_HOME/unsugar, else ~/.cache/unsugar.",
    )
    parser.add_argument("script", nargs="?", metavar="SCRIPT.py", help="the program to run")
    parser.add_argument("-m", dest="module", metavar="MODULE",
                        help="run library module MODULE as a script, as 'python -m' does")
    parser.add_argument("--include", action="append", default=[], metavar="PACKAGE",
                        help="desugar this module or package too (dotted name; installed "
                        "packages and standard library modules too); repeatable")
    parser.add_argument("--exclude", action="append", default=[], metavar="PACKAGE",
                        help="do not desugar this module or package; repeatable")
    add_rewrite_options(parser)
    parser.add_argument("--no-cache", action="store_true",
                        help="desugar every module again; neither read nor write the cache")
    parser.add_argument("--clear-cache", action="store_true",
                        help="delete the cache first, the code and the compiled runtime (alone: delete it and exit)")
    add_config_options(parser)
    return parser


def split_run_args(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``unsugar run``'s own arguments (up to the script or ``-m MODULE``), and the program's."""
    with_value = {"--include", "--exclude", "--keep", "--runtime", "--semantics", "--config", "-m"}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "-m":
            return list(argv[:i + 2]), list(argv[i + 2:])
        if arg.startswith("-m") or not arg.startswith("-"):
            return list(argv[:i + 1]), list(argv[i + 1:])
        i += 2 if arg in with_value else 1
    return list(argv), []


def run_command(argv: Sequence[str]) -> int:
    from unsugar import runner

    parser = run_parser()
    own, program = split_run_args(argv)
    args = parser.parse_args(own)
    keep = _keep_option(parser, args.keep)
    store.use(not args.no_cache)
    if args.clear_cache:
        store.clear()
        if args.script is None and args.module is None and not args.show_settings:
            return 0
    settings = command_settings(
        parser, args, [args.script] if args.script else [], keep=keep,
        runtime=args.runtime, semantics=args.semantics, include=args.include or None,
    )
    if args.show_settings:
        sys.stdout.write(settings_text(settings))
        return 0
    if (args.script is None) == (args.module is None):
        parser.error("give a script or -m MODULE (not both)")
    if args.module:
        project = os.getcwd()
    elif os.path.isdir(args.script):
        project = os.path.abspath(args.script)
    else:
        project = os.path.dirname(os.path.abspath(args.script))
    finder = runner.install(
        settings.include, args.exclude, [project], settings.keep, settings.runtime,
        cache=not args.no_cache, semantics=settings.semantics,
        excluded_file=settings.excludes_import if settings.exclude else None,
    )
    if args.module:
        return runner.run_module(args.module, program)
    return runner.run_script(args.script, program, finder)


def rules_command(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="unsugar rules", description="Every rule: id, summary and example."
    )
    parser.add_argument("--markdown", action="store_true",
                        help="print the table of the README instead")
    args = parser.parse_args(argv)
    sys.stdout.write(rules_markdown() if args.markdown else rules_text())
    return 0


#: ``unsugar explain FILE:LINE`` (a rule id has no colon)
_FILE_LINE = re.compile(r"(.+):([0-9]+)")


def explain_command(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="unsugar explain",
        description="What a rule does: summary, example, reference. With FILE:LINE: the "
        "statement of FILE at LINE (the first whose keyword is there, else the innermost one "
        "over it), what it becomes and the rules that made it.",
    )
    parser.add_argument("rule", metavar="RULE | FILE:LINE")
    args = parser.parse_args(argv)
    statement = _FILE_LINE.fullmatch(args.rule)
    if statement is not None:
        return explain_statement(parser, statement.group(1), int(statement.group(2)))
    from unsugar.registry import load_all

    rules = load_all()
    rule = rules.get(args.rule)
    if rule is None:
        close = difflib.get_close_matches(args.rule, rules, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        parser.error(f"unknown rule {args.rule!r}{hint}; see 'unsugar rules'")
    sys.stdout.write(explain_text(rule))
    return 0


def explain_statement(parser: argparse.ArgumentParser, path: str, line: int) -> int:
    """``unsugar explain FILE:LINE``: a usage error (2) for a missing file or a
    line without a statement, 1 for a file that does not desugar."""
    from unsugar.annotate import NoStatement, explain

    if not os.path.isfile(path):
        parser.error(f"{path}: no such file")
    try:
        text = read_source(path)
        try:
            explanation = explain(text, line, filename=path)
        except SyntaxError as exc:
            raise Failure(f"{path}:{exc.lineno or 1}:{exc.offset or 1}: {exc.msg}") from None
    except Failure as failure:
        print(failure, file=sys.stderr)
        return 1
    except NoStatement as exc:
        parser.error(f"{path}:{line}: {exc}")
    sys.stdout.write(explanation.format(path))
    return 0


# ----------------------------------------------------------- rule listings
def _indent(text: str, by: str) -> str:
    return "".join(by + line + "\n" for line in text.splitlines())


def rules_text() -> str:
    """``unsugar rules``: every rule with its summary and example."""
    from unsugar.registry import load_all

    parts = []
    for rule in load_all().values():
        parts.append(
            f"{rule.id}: {rule.summary}\n  before:\n{_indent(rule.before, '    ')}"
            f"  after:\n{_indent(rule.after, '    ')}"
        )
    return "\n".join(parts)


def explain_text(rule: Rule) -> str:
    """``unsugar explain RULE``."""
    return (
        f"{rule.id}: {rule.summary}\n\nfamily: {rule.family}\nreference: {rule.reference}\n\n"
        f"before:\n{_indent(rule.before, '    ')}\nafter:\n{_indent(rule.after, '    ')}"
    )


def _cell(code: str) -> str:
    """``code`` in one Markdown table cell (lines joined by ``<br>``, indents kept)."""
    lines = []
    for line in code.splitlines():
        escaped = (
            line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|", "&#124;")
        )
        body = escaped.lstrip(" ")
        lines.append("&nbsp;" * (len(escaped) - len(body)) + body)
    return "<code>" + "<br>".join(lines) + "</code>"


def rules_markdown() -> str:
    """The README's rules table."""
    from unsugar.registry import load_all

    lines = ["| rule | what it does | before | after |", "|---|---|---|---|"]
    for rule in load_all().values():
        summary = rule.summary.replace("|", "\\|")
        lines.append(
            f"| [`{rule.id}`]({rule.reference}) | {summary} | {_cell(rule.before)} "
            f"| {_cell(rule.after)} |"
        )
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    commands = {"check": check_command, "rules": rules_command, "explain": explain_command}
    try:
        if args and args[0] == "run":
            return run_command(args[1:])
        if args and args[0] in commands:
            return commands[args[0]](args[1:])
        return desugar_command(args)
    except ConfigError as error:
        print(f"unsugar: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # (a file is written whole or not at all)
        print("unsugar: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exit:  # argparse: --help (0) and usage errors (2)
        return exit.code if isinstance(exit.code, int) else 2
