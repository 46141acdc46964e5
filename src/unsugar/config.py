"""Settings from ``[tool.unsugar]`` in ``pyproject.toml``, validated, with their origins.

    settings = load_settings(["src/"])            # the nearest [tool.unsugar]
    settings = settings.override(keep=("not",))   # what the command line gave

The file is the nearest ``pyproject.toml`` that has a ``[tool.unsugar]``
table, looked for from the common directory of the paths (the current
directory when there are none) up to the root of the file system, as ruff
looks for ``[tool.ruff]``: a ``pyproject.toml`` without the table is passed
over, one that is not valid TOML is an error. ``config=FILE`` reads that file
instead (it must have the table); ``isolated=True`` reads none. Every
problem is a :class:`ConfigError` whose message names the file, the key and
what was expected. A file that was found is named relative to the current
directory when it is inside it (``pyproject.toml``), else by its absolute path.
"""

from __future__ import annotations

import difflib
import fnmatch
import os
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from unsugar.options import RUNTIMES, SEMANTICS, UnknownRuleError, check_keep

#: where a value comes from when neither a file nor the command line gives it
DEFAULT = "default"
#: where a value comes from when the command line gives it
COMMAND_LINE = "command line"
TABLE = "[tool.unsugar]"
KEYS = ("keep", "runtime", "semantics", "exclude", "include", "jobs")


class ConfigError(Exception):
    """A settings file that cannot be used; the message is one line,
    ``FILE: [tool.unsugar] key: expected ..., got ...``."""


def _default_origins() -> Mapping[str, str]:
    return MappingProxyType(dict.fromkeys(KEYS, DEFAULT))


@dataclass(frozen=True)
class Settings:
    """The settings in effect, and where each came from (``origins``: ``"default"``,
    the path of the file, or ``"command line"``)."""

    keep: tuple[str, ...] = ()
    runtime: str = "inline"
    semantics: str = "python"
    exclude: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    jobs: int | None = None
    origins: Mapping[str, str] = field(default_factory=_default_origins, hash=False)
    #: the file the settings were read from (None: none); ``exclude`` patterns
    #: with a ``/`` are relative to its directory
    source: Path | None = None

    def override(self, **given: Any) -> Settings:
        """These settings with the values the command line gave (None: not given)
        in place of the others; ``include`` is added to, not replaced."""
        values: dict[str, Any] = {}
        origins = dict(self.origins)
        for key, value in given.items():
            if key not in KEYS:
                raise TypeError(f"unknown setting {key!r}")
            if value is None:
                continue
            if key == "include" and self.include:
                if not value:
                    continue
                value = tuple(dict.fromkeys((*self.include, *value)))
                origins[key] = f"{origins[key]} + {COMMAND_LINE}"
            else:
                origins[key] = COMMAND_LINE
            values[key] = tuple(value) if isinstance(value, list) else value
        return replace(self, **values, origins=MappingProxyType(origins))

    def excludes(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file or directory ``path``, found in a directory walk, is
        excluded: a pattern without ``/`` matches its name, one with ``/`` its
        path relative to the settings file's directory (``fnmatch`` globs)."""
        if not self.exclude:
            return False
        absolute = os.path.abspath(path)
        name = os.path.basename(absolute)
        base = self.source.parent if self.source is not None else Path.cwd()
        relative = Path(os.path.relpath(absolute, base)).as_posix()
        for pattern in self.exclude:
            pattern = pattern.rstrip("/")
            if "/" not in pattern:
                if fnmatch.fnmatchcase(name, pattern):
                    return True
            elif not relative.startswith("../") and fnmatch.fnmatchcase(
                relative, pattern.removeprefix("./")
            ):
                return True
        return False

    def excludes_import(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file ``path`` that ``unsugar run`` imports is excluded, as
        a directory walk from the settings file's directory would leave it
        out: the file, or a directory it is in below that one, is excluded (a
        file elsewhere, such as a library module included by name, is not)."""
        file = Path(os.path.abspath(path))
        base = self.source.parent if self.source is not None else Path.cwd()
        if not self.exclude or not file.is_relative_to(base):
            return False
        inside = [parent for parent in file.parents if parent != base and parent.is_relative_to(base)]
        return any(map(self.excludes, [file, *inside]))


def find_config(paths: Sequence[str | os.PathLike[str]]) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.unsugar]`` table, from the
    common directory of ``paths`` (a file's is its directory; ``-`` and no paths:
    the current directory) upwards; None if there is none."""
    directory = _common_directory(paths)
    for folder in (directory, *directory.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _table(candidate, _display(candidate)) is not None:
            return candidate
    return None


def load_settings(
    paths: Sequence[str | os.PathLike[str]] = (), *,
    config: str | os.PathLike[str] | None = None, isolated: bool = False,
) -> Settings:
    """The settings of the nearest ``[tool.unsugar]`` (see :func:`find_config`), of
    ``config`` if given, or the defaults with ``isolated``. Raises :class:`ConfigError`."""
    if isolated:
        if config is not None:
            raise ValueError("config and isolated exclude each other")
        return Settings()
    if config is not None:
        source = Path(config)
        table = _table(source, str(config))
        if table is None:
            raise ConfigError(f"{config}: no {TABLE} table")
    else:
        found = find_config(paths)
        if found is None:
            return Settings()
        source, table = found, _table(found, _display(found))
    return _settings(table, source, str(config) if config is not None else _display(source))


# ----------------------------------------------------------------- reading
_POSITION = re.compile(r" \(at line (\d+), column (\d+)\)$")


def _table(path: Path, name: str) -> dict[str, Any] | None:
    """The ``[tool.unsugar]`` table of the TOML file ``path`` (None: it has none)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{name}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
        document = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - data.rfind(b"\n", 0, exc.start)
        raise ConfigError(f"{name}:{line}:{column}: invalid TOML: not UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        position = _POSITION.search(message)
        if position:
            line, column = position.groups()
            message = message[:position.start()]
        else:  # "(at end of document)"
            line, column = str(text.count("\n") + 1), str(len(text.rpartition("\n")[2]) + 1)
            message = message.removesuffix(" (at end of document)") + " at the end"
        raise ConfigError(f"{name}:{line}:{column}: invalid TOML: {message}") from None
    tool = document.get("tool")
    if not isinstance(tool, dict) or "unsugar" not in tool:
        return None
    table = tool["unsugar"]
    if not isinstance(table, dict):
        raise ConfigError(f"{name}: {TABLE}: expected a table, got {_shown(table)}")
    return table


def _settings(table: dict[str, Any], source: Path, name: str) -> Settings:
    """``table`` validated: the settings it gives, with ``name`` as their origin."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ConfigError(f"{name}: {TABLE} {key}: unknown key; expected one of "
                              f"{', '.join(KEYS)}{hint}")
        values[key] = _VALIDATORS[key](value, f"{name}: {TABLE} {key}")
    origins = dict.fromkeys(KEYS, DEFAULT) | dict.fromkeys(values, name)
    return Settings(**values, origins=MappingProxyType(origins), source=source.absolute())


def _shown(value: object, limit: int | None = 60) -> str:
    """``value`` as TOML spells it (shortened to ``limit`` characters)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif isinstance(value, list):
        text = "[" + ", ".join(map(_shown, value)) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {_shown(v)}" for k, v in value.items()) + "}"
    else:
        text = str(value)
    return text if limit is None or len(text) <= limit else text[:limit - 3] + "..."


def _strings(value: object, where: str, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where}: expected an array of {what}, got {_shown(value)}")
    return tuple(dict.fromkeys(value))


def _keep(value: object, where: str) -> tuple[str, ...]:
    keep = _strings(value, where, 'rule ids such as ["not", "pass"]')
    try:
        check_keep(keep)
    except UnknownRuleError as exc:
        raise ConfigError(f"{where}: expected rule ids (see 'unsugar rules'), got {exc}") from None
    return keep


def _choice(choices: tuple[str, ...]) -> Callable[[object, str], str]:
    def check(value: object, where: str) -> str:
        if value not in choices or not isinstance(value, str):
            spelled = " or ".join(f'"{choice}"' for choice in choices)
            raise ConfigError(f"{where}: expected {spelled}, got {_shown(value)}")
        return value

    return check


def _exclude(value: object, where: str) -> tuple[str, ...]:
    return _strings(value, where, "glob patterns")


def _include(value: object, where: str) -> tuple[str, ...]:
    names = _strings(value, where, "dotted module names")
    for name in names:
        if not all(part.isidentifier() for part in name.split(".")):
            raise ConfigError(f"{where}: expected dotted module names, got {_shown(name)}")
    return names


def _jobs(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{where}: expected a positive integer, got {_shown(value)}")
    return value


_VALIDATORS: dict[str, Callable[[object, str], Any]] = {
    "keep": _keep, "runtime": _choice(RUNTIMES), "semantics": _choice(SEMANTICS),
    "exclude": _exclude, "include": _include, "jobs": _jobs,
}


def _display(path: Path) -> str:
    """How messages name a file that was found: relative to the current
    directory when it is inside it, else absolute."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _common_directory(paths: Sequence[str | os.PathLike[str]]) -> Path:
    """The deepest directory holding every path (a file counts as its directory)."""
    folders = []
    for path in paths:
        if os.fspath(path) == "-":
            continue
        absolute = os.path.abspath(path)
        folders.append(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))
    return Path(os.path.commonpath(folders)) if folders else Path.cwd()


def settings_text(settings: Settings) -> str:
    """``unsugar --show-settings``: each setting, its value as TOML spells it, its origin."""
    rows = [("setting", "value", "from")]
    for key in KEYS:
        value = getattr(settings, key)
        if key == "jobs" and value is None:
            shown = "(one per core)"
        else:
            shown = _shown(list(value) if isinstance(value, tuple) else value, limit=None)
        rows.append((key, shown, settings.origins[key]))
    width = [max(len(row[i]) for row in rows) + 2 for i in range(2)]
    return "".join(
        f"{key:<{width[0]}}{value:<{width[1]}}{origin}\n" for key, value, origin in rows
    )
