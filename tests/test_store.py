"""The compiled runtime kept in the cache: read back by the next process, the
same outputs as compiling it; compiled again when the entry is missing,
corrupt, of another version or not private; neither read nor written with
``--no-cache``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: desugars a module in a fresh process, counting the runtime's compilations
PROBE = """
import ast, hashlib, json, sys
from unsugar import desugar, desugar_tree, linker, store
compiled = []
real = linker._compile_runtime
linker._compile_runtime = lambda *args: compiled.append(args) or real(*args)
store.use(sys.argv[1] == "cache")
source = "class A:\\n    def f(self, x=[1, 'é']):\\n        return {k: x for k in 'ab'}\\nprint(A().f())\\n"
digest = lambda text: hashlib.sha256(text.encode()).hexdigest()
result = {
    "text": digest(desugar(source)),
    "native": digest(desugar(source, semantics="native")),
    "tree": digest(ast.dump(desugar_tree(ast.parse(source)), include_attributes=True)),
}
print(json.dumps({**result, "compiled": len(compiled)}))
"""


def probe(cache: Path, use: str = "cache") -> dict:
    env = {**os.environ, "UNSUGAR_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE, use], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.runtime"))


def outputs(result: dict) -> tuple[str, str, str]:
    return result["text"], result["native"], result["tree"]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """What a process that compiles the runtime (caching nothing) writes."""
    cache = tmp_path_factory.mktemp("none")
    result = probe(cache, "no-cache")
    assert result["compiled"] == 2 and not list(cache.iterdir())  # python, native: neither kept
    return result


def test_the_next_process_reads_the_runtime(tmp_path: Path, compiled: dict) -> None:
    first = probe(tmp_path)
    assert first["compiled"] == 2 and len(entries(tmp_path)) == 2
    assert all(entry.stat().st_mode & 0o777 == 0o600 for entry in entries(tmp_path))
    second = probe(tmp_path)
    assert second["compiled"] == 0
    assert outputs(first) == outputs(second) == outputs(compiled)


def test_a_bad_entry_is_compiled_again_and_replaced(tmp_path: Path, compiled: dict) -> None:
    probe(tmp_path)
    python, native = entries(tmp_path)
    python.write_bytes(python.read_bytes()[:1000])  # truncated
    native.chmod(0o666)  # writable by others: never read
    again = probe(tmp_path)
    assert again["compiled"] == 2 and outputs(again) == outputs(compiled)
    assert probe(tmp_path)["compiled"] == 0


def test_entries_of_other_versions_are_kept_but_the_oldest(tmp_path: Path, compiled: dict) -> None:
    """Two checkouts (or tox environments) that take turns each keep their entry;
    a fourth former version's entry goes, and another Python's is not touched."""
    probe(tmp_path)
    python = entries(tmp_path)[1]
    stem = python.name.rsplit("-", 1)[0]
    formers = [python.with_name(f"{stem}-{digit * 16}.runtime") for digit in "0123"]
    for age, former in enumerate(formers):
        former.write_bytes(b"")
        os.utime(former, (1_000_000 - age, 1_000_000 - age))  # the first written last
    python.unlink()
    other_python = tmp_path / "runtime-cpython-399-python-_us_-0123456789abcdef.runtime"
    other_python.write_bytes(b"")
    assert probe(tmp_path)["compiled"] == 1
    assert [former.exists() for former in formers] == [True, True, True, False]
    assert other_python.exists() and len(entries(tmp_path)) == 6


def test_a_cache_that_cannot_be_made_is_skipped(tmp_path: Path, compiled: dict) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = probe(blocker / "cache")
    assert result["compiled"] == 2 and outputs(result) == outputs(compiled)
