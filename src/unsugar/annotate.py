"""Annotated output (``unsugar --annotate``) and ``unsugar explain FILE:LINE``.

An output statement keeps the position of the input it was made from
(:func:`unsugar.builder.copy_location`; ``unsugar run`` reports the original
lines with it). Its *origin* is the innermost input statement holding that
position; a statement without one (a released temporary, on line -1) goes with
the statement before it in its block, or else with the block's owner. While
lowering, a :class:`Recorder` notes each rule applied with the position of the
node it rewrote, so each input statement has the rules that made its output.

The output is printed with a marker line before each statement whose origin
is not that of the statement printed before it; the markers become comments
(``# 12: for x in xs:  [for]``), or tell which output lines an input
statement became. Every other line is the plain output's, byte for byte. The
runtime's helpers, the constants at the top and the module's wrapping defs
have no origin and no comment.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial

from unsugar import nodes as ast
from unsugar import printer
from unsugar.pipeline import Compilation, Known, check_compiles, collector_paused, with_headroom
from unsugar.registry import Rule, load_all
from unsugar.trees import core_blocks

#: what would make a comment on the output's first two lines an encoding declaration (PEP 263)
_CODING = re.compile(r"coding[:=][ \t]*[-\w.]")
#: where the parser ends lines
_NEWLINE = re.compile(r"\r\n|\r|\n")


class Recorder:
    """The rules a compilation applies, each with the position (line, UTF-8
    column) of the node it rewrote."""

    def __init__(self) -> None:
        self.notes: list[tuple[int, int, str]] = []

    def note(self, rule_id: str, node: ast.AST) -> None:
        """Rule ``rule_id`` rewrote ``node`` (a node without a line is not noted)."""
        line = getattr(node, "lineno", None)
        if line is not None and line > 0:
            self.notes.append((line, node.col_offset, rule_id))


@dataclass
class Statement:
    """One statement of the input."""

    line: int  # the line of its keyword (a decorated def's ``def``)
    col: int  # its column there, in UTF-8 bytes
    start: tuple[int, int]  # where it starts: its first decorator, if any
    end: tuple[int, int]  # where it ends (exclusive)
    parent: int  # the index of the statement it is nested in; -1 at the top level
    last: int = 0  # the index of its last nested statement (its own if none)


def _blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists nested in ``stmt``, in source order."""
    for name in ("body", "handlers", "orelse", "finalbody", "cases"):
        value = getattr(stmt, name, None)
        if not isinstance(value, list):
            continue
        if name in ("handlers", "cases"):
            yield from (part.body for part in value)
        else:
            yield value


class Origins:
    """The statements of an input in source order (nested ones after their
    owner), to find the innermost one at a position."""

    def __init__(self, tree: ast.Module, source: str) -> None:
        self.lines = _NEWLINE.split(source)
        self.statements: list[Statement] = []
        self._visit(tree.body, -1)
        self.starts = [statement.start for statement in self.statements]

    def _visit(self, stmts: list[ast.stmt], parent: int) -> None:
        for stmt in stmts:
            index = len(self.statements)
            start = (stmt.lineno, stmt.col_offset)
            for decorator in getattr(stmt, "decorator_list", ()):
                start = min(start, (decorator.lineno, decorator.col_offset))
            end = (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
            self.statements.append(Statement(stmt.lineno, stmt.col_offset, start, end, parent))
            for block in _blocks(stmt):
                self._visit(block, index)
            self.statements[index].last = len(self.statements) - 1

    def find(self, line: int, col: int) -> int | None:
        """The index of the innermost statement holding position (``line``, ``col``)."""
        point = (line, col)
        index = bisect.bisect_right(self.starts, point) - 1
        while index >= 0 and not point < self.statements[index].end:
            index = self.statements[index].parent
        return index if index >= 0 else None

    def at_line(self, line: int) -> int | None:
        """The statement ``unsugar explain FILE:LINE`` explains: the first (the
        outermost) whose keyword is on ``line`` (a decorated def's is its
        ``def``), else the innermost one over it (a decorator's line, an
        ``else:``, a continuation line)."""
        first = next((index for index, statement in enumerate(self.statements)
                      if statement.line == line), None)
        if first is not None:
            return first
        index = bisect.bisect_right(self.starts, (line, sys.maxsize)) - 1
        while index >= 0 and self.statements[index].end[0] < line:
            index = self.statements[index].parent
        return index if index >= 0 else None

    def text(self, index: int) -> str:
        """The first line of statement ``index``, from its keyword to its end
        (or to the end of the line)."""
        statement = self.statements[index]
        data = self.lines[statement.line - 1].encode("utf-8", "surrogatepass")
        end = statement.end[1] if statement.end[0] == statement.line else len(data)
        return data[statement.col:end].decode("utf-8", "replace").rstrip()

    def source(self, index: int) -> list[str]:
        """The lines of statement ``index`` (its decorators too); of a statement
        on one line, its own text (``y = 2`` of ``x = 1; y = 2``)."""
        statement = self.statements[index]
        if statement.start[0] == statement.end[0]:
            return [self.text(index)]
        return self.lines[statement.start[0] - 1:statement.end[0]]


#: what starts a marker line: no source text holds a NUL (``ast.unparse``,
#: which writes an output that kept sugar, escapes it in a string)
MARKER = "\0"


class _Marked(Mapping[int, Callable[[int], str]]):
    """What the printer is given for ``known``: the runtime's texts, and before
    each statement of ``marks`` a marker line, ``MARKER`` and the index of its
    origin (``-``: none)."""

    def __init__(self, known: Known, marks: dict[int, tuple[ast.stmt, int | None]]) -> None:
        self.known = known
        self.marks = marks
        self.printing = 0  # the statement being printed after its marker

    def get(self, key: int, default: Callable[[int], str] | None = None) -> Callable[[int], str] | None:
        if key == self.printing:
            self.printing = 0
        elif key in self.marks:
            return partial(self._render, key)
        return self.known.get(key, default)

    def _render(self, key: int, indent: int) -> str:
        stmt, origin = self.marks[key]
        self.printing = key
        marker = "-" if origin is None else str(origin)
        return f"\n{'    ' * indent}{MARKER}{marker}" + printer.statements([stmt], indent, self)

    def __getitem__(self, key: int) -> Callable[[int], str]:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __iter__(self) -> Iterator[int]:
        yield from self.known
        yield from (key for key in self.marks if key not in self.known)

    def __len__(self) -> int:
        return len(self.known) + sum(key not in self.known for key in self.marks)


def _marking(origins: Origins) -> Callable[[list[ast.stmt], Known], Known]:
    """``mark`` for :meth:`Compilation.text`: a marker before each statement,
    in printing order, whose origin is not the previous statement's."""

    def mark(body: list[ast.stmt], known: Known) -> Known:
        marks: dict[int, tuple[ast.stmt, int | None]] = {}
        last: int | None = None

        def block(stmts: list[ast.stmt], owner: int | None) -> None:
            nonlocal last
            before = owner
            for stmt in stmts:
                if isinstance(stmt, printer.TextRun) or known.get(id(stmt)) is not None:  # the runtime's
                    before = last = None
                    continue
                line = getattr(stmt, "lineno", None)
                origin = origins.find(line, stmt.col_offset) if line is not None and line > 0 else None
                if origin is None:
                    origin = before
                if origin != last:
                    marks[id(stmt)] = (stmt, origin)
                    last = origin
                for inner in [stmt.body] if type(stmt) is ast.FunctionDef else core_blocks(stmt):
                    block(inner, origin)
                before = origin

        block(body, None)
        return _Marked(known, marks)

    return mark


@dataclass
class Annotation:
    """A module's output with the origin of each line."""

    origins: Origins
    lines: list[str] = field(default_factory=list)  # the plain output's lines
    line_origins: list[int | None] = field(default_factory=list)
    #: where an origin starts: (line index, indent, origin)
    starts: list[tuple[int, int, int]] = field(default_factory=list)
    #: the rule ids applied to each statement (its own, not those of nested statements)
    rules: dict[int, set[str]] = field(default_factory=dict)

    def read(self, marked: str) -> None:
        """Split the marked text into lines and their origins."""
        current: int | None = None
        for raw in marked.split("\n"):
            stripped = raw.lstrip(" ")
            if stripped.startswith(MARKER):
                current = None if stripped == MARKER + "-" else int(stripped[1:])
                if current is not None:
                    self.starts.append((len(self.lines), len(raw) - len(stripped), current))
                continue
            self.lines.append(raw)
            self.line_origins.append(current)

    def rule_ids(self, indices: Iterable[int]) -> list[str]:
        """The rules applied to the statements ``indices``, in the registry's order."""
        found: set[str] = set()
        for index in indices:
            found |= self.rules.get(index, set())
        return [rule_id for rule_id in load_all() if rule_id in found]

    def comment(self, origin: int) -> str:
        """``12: for x in xs:  [for]``."""
        rules = self.rule_ids([origin])
        text = f"{self.origins.statements[origin].line}: {self.origins.text(origin)}"
        return text + (f"  [{', '.join(rules)}]" if rules else "")

    def annotated(self) -> str:
        """The output with a comment before each run of lines of one origin."""
        out: list[str] = []
        starts = iter(self.starts)
        upcoming = next(starts, None)
        for number, line in enumerate(self.lines):
            while upcoming is not None and upcoming[0] == number:
                _, indent, origin = upcoming
                comment = self.comment(origin)
                if len(out) < 2 and _CODING.search(comment):  # it would declare an encoding
                    comment = f"{self.origins.statements[origin].line}: ..."
                out.append(" " * indent + "# " + comment)
                upcoming = next(starts, None)
            out.append(line)
        return "\n".join(out)

    def output_of(self, index: int) -> list[str]:
        """The output lines statement ``index`` (with what is nested in it)
        became, dedented; ``...`` between runs that are apart."""
        last = self.origins.statements[index].last
        runs: list[list[str]] = []
        previous = -2
        for number, origin in enumerate(self.line_origins):
            if origin is None or not index <= origin <= last:
                continue
            if number != previous + 1:
                runs.append([])
            runs[-1].append(self.lines[number])
            previous = number
        runs = [run for run in (_trimmed(run) for run in runs) if run]
        lines = [line for run in runs for line in run if line.strip()]
        margin = min((len(line) - len(line.lstrip(" ")) for line in lines), default=0)
        out: list[str] = []
        for run in runs:
            if out:
                out.append(" " * margin + "...")
            out += [line[margin:] for line in run]
        return out


def _trimmed(lines: list[str]) -> list[str]:
    """``lines`` without blank lines at either end."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def annotation(
    source: str, *, filename: str = "<string>", keep: Iterable[str] = (), runtime: str = "inline",
    semantics: str = "python",
) -> Annotation:
    """Desugar ``source`` (as :func:`unsugar.desugar` does), noting where each
    output line and each rule applied came from. Raises CPython's ``SyntaxError``."""

    def rewrite() -> Annotation:
        with collector_paused():
            tree = ast.parse(source, filename)
            check_compiles(tree, filename, source)
            origins = Origins(tree, source)
            compilation = Compilation(tree, keep=keep, runtime=runtime, semantics=semantics, source=source)
            recorder = compilation.unit.recorder = Recorder()
            compilation.lower()
            compilation.control()
            compilation.link()
            result = Annotation(origins)
            result.read(compilation.text(_marking(origins)))
            for line, col, rule_id in recorder.notes:
                index = origins.find(line, col)
                if index is not None:
                    result.rules.setdefault(index, set()).add(rule_id)
            return result

    return with_headroom(rewrite)


def annotated(
    source: str, *, filename: str = "<string>", keep: Iterable[str] = (), runtime: str = "inline",
    semantics: str = "python",
) -> str:
    """The output of :func:`unsugar.desugar` with a comment before the
    statements each input statement became: ``# LINE: TEXT  [RULE, ...]``.
    Without the comment lines it is the same text. Output that kept sugar
    (``keep``) and is not core has no comments."""
    return annotation(source, filename=filename, keep=keep, runtime=runtime,
                      semantics=semantics).annotated()


class NoStatement(LookupError):
    """``explain FILE:LINE`` names a line out of the file, or with no statement on it."""


@dataclass
class Explanation:
    """What ``unsugar explain FILE:LINE`` prints."""

    first: int  # the statement's lines
    last: int
    source: list[str]
    output: list[str]
    rules: list[Rule]

    def format(self, name: str) -> str:
        """The text: the statement, its output, the rules with their summaries."""
        where = f"{name}:{self.first}" + (f"-{self.last}" if self.last != self.first else "")
        parts = [f"statement at {where}:", *_indented(_dedented(self.source)), "", "becomes:"]
        parts += _indented(self.output) if self.output else ["    (nothing)"]
        parts += ["", "rules:"]
        parts += [f"    {rule.id}: {rule.summary}" for rule in self.rules] or ["    (none)"]
        return "\n".join(parts) + "\n"


def _dedented(lines: list[str]) -> list[str]:
    margin = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[margin:].rstrip() for line in lines]


def _indented(lines: list[str]) -> list[str]:
    return [f"    {line}" if line else "" for line in lines]


def explain(
    source: str, line: int, *, filename: str = "<string>", keep: Iterable[str] = (),
    runtime: str = "inline", semantics: str = "python",
) -> Explanation:
    """The statement of ``source`` at ``line`` (:meth:`Origins.at_line`), what
    it became and the rules that made it. :class:`NoStatement` if there is
    none there; CPython's ``SyntaxError`` for a file it rejects."""
    result = annotation(source, filename=filename, keep=keep, runtime=runtime, semantics=semantics)
    origins = result.origins
    count = len(origins.lines) - (origins.lines[-1] == "")
    if not 1 <= line <= count:
        raise NoStatement(f"line {line} is out of range (the file has {count} lines)")
    index = origins.at_line(line)
    if index is None:
        raise NoStatement(f"no statement on line {line}")
    statement = origins.statements[index]
    rules = load_all()
    return Explanation(
        statement.start[0], statement.end[0], origins.source(index), result.output_of(index),
        [rules[rule_id] for rule_id in result.rule_ids(range(index, statement.last + 1))],
    )
