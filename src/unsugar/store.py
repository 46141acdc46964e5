"""The cache: what is kept between runs, the code of desugared modules
(``unsugar run``) and the compiled runtime (:mod:`unsugar.linker`), like
``.pyc`` files but never in ``__pycache__``.

Everything lives in :func:`directory`. An entry's name carries
:func:`fingerprint` (unsugar's version and sources, the Python that runs), so
a change of either makes new entries. What the cache holds will run, so the
directory is made private to the user (0700), an entry is read only if the
user owns it and no one else may write it, and an entry is written through a
temporary file and a rename. An entry that cannot be read is made again; a
cache that cannot be written is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
from functools import cache
from pathlib import Path

import unsugar

#: the suffixes of the entries :func:`clear` deletes: a module's code, a compiled runtime
SUFFIXES = (".code", ".runtime")

_used = True


def use(flag: bool) -> None:
    """Whether this process reads and writes the compiled runtime's entries
    (``--no-cache``: not; a module's code is cached as its options say)."""
    global _used
    _used = flag


def used() -> bool:
    return _used


def directory() -> Path:
    """``$UNSUGAR_CACHE_DIR``, else ``$XDG_CACHE_HOME/unsugar``, else ``~/.cache/unsugar``."""
    if os.environ.get("UNSUGAR_CACHE_DIR"):
        return Path(os.environ["UNSUGAR_CACHE_DIR"])
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "unsugar"
    return Path.home() / ".cache" / "unsugar"


@cache
def fingerprint() -> str:
    """unsugar's version, the stat of its source files, and the Python that runs."""
    digest = hashlib.sha256(f"{unsugar.__version__}\0{sys.version}\0".encode())
    digest.update(f"{sys.implementation.cache_tag}\0{sys.flags.optimize}\0".encode())
    package = Path(unsugar.__file__).parent
    for file in sorted(package.rglob("*.py")):
        stat = file.stat()
        digest.update(f"{file.relative_to(package)}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def clear() -> int:
    """Delete every entry of :func:`directory`; how many."""
    removed = 0
    with contextlib.suppress(FileNotFoundError):
        for entry in directory().iterdir():
            if entry.suffix in SUFFIXES:
                with contextlib.suppress(FileNotFoundError):
                    entry.unlink()
                    removed += 1
    return removed


def _own(stat: os.stat_result) -> bool:
    return stat.st_uid == (os.getuid() if hasattr(os, "getuid") else stat.st_uid)


def _private(stat: os.stat_result) -> bool:
    """Whether a cache file or directory is the user's own and no one else can write it."""
    return _own(stat) and not stat.st_mode & 0o022


def read(name: str) -> bytes | None:
    """The bytes of entry ``name``, or None: missing, unreadable, or not private."""
    path = directory()
    try:
        if not _private(path.stat()):
            return None
        with open(path / name, "rb") as handle:
            if not _private(os.fstat(handle.fileno())):
                return None
            return handle.read()
    except OSError:
        return None


def _made_directory() -> Path | None:
    """The cache directory, made private to the user (0700); None if it is another's."""
    path = directory()
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        stat = path.stat()
        if _own(stat) and stat.st_mode & 0o077:
            path.chmod(0o700)
            stat = path.stat()
    except OSError:
        return None
    return path if _private(stat) else None


def write(name: str, data: bytes) -> None:
    """Make entry ``name`` hold ``data``, through a temporary file (0600) and a
    rename; a cache that cannot be written, or is not the user's, is skipped."""
    path = _made_directory()
    if path is None:
        return
    try:
        fd, temp = tempfile.mkstemp(dir=path, prefix=f".{name}.", suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp, path / name)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)


#: how many entries of other fingerprints :func:`remove_others` spares: those
#: of other checkouts or environments of unsugar in use (tox's), each reading its own
SPARED = 3


def remove_others(prefix: str, keep: str) -> None:
    """Delete the entries whose names start with ``prefix``, but ``keep`` and
    the :data:`SPARED` last written others: a former version's entries go as
    new ones come, while two checkouts that take turns do not compile the
    runtime again each time."""
    with contextlib.suppress(OSError):
        others = []
        for entry in directory().glob(f"{prefix}*"):
            if entry.name != keep:
                with contextlib.suppress(OSError):
                    others.append((entry.stat().st_mtime, entry.name, entry))
        others.sort(reverse=True)
        for _, _, entry in others[SPARED:]:
            with contextlib.suppress(OSError):
                entry.unlink()
