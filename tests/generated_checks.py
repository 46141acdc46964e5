"""The checks that generated programs go through, shared by ``tests/test_generated.py``
and ``benchmarks/generated.py``.

``check(source)`` returns a :class:`Verdict` with one answer per stage:

1. ``compiled``: CPython compiles the source (warnings silenced); if not,
   ``refused`` is the only other stage: when CPython's compiler raises a
   ``SyntaxError``, ``desugar`` raises one with the same message and line;
2. ``desugared``: ``desugar`` returns (any exception is a failure: CPython
   compiled the input, so there is no SyntaxError to share);
3. ``output_compiles``: the output compiles;
4. ``core``: ``check_source`` finds nothing in the output;
5. ``idempotent``: desugaring the output gives the same bytes;
6. ``agreed`` (only when :func:`runnable`): the original and the output, each
   run in a subprocess, print the same and end with the same exception line.

A stage that fails stops the stages after it; ``failure`` names the stage and
what went wrong.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from unsugar import desugar
from unsugar.checker import check_source

#: The stages in order, as ``Verdict`` attributes and as the benchmark's table rows.
STAGES = ("compiled", "refused", "desugared", "output_compiles", "core", "idempotent", "agreed")

#: Names whose use makes a program unsafe to run or not reproducible: they reach
#: outside the process (files, the terminal, other modules) or run code that is
#: not rewritten (``exec``), or print something that differs from run to run
#: (``id``, object hashes).
UNSAFE_NAMES = frozenset({
    "open", "exec", "eval", "compile", "input", "__import__", "breakpoint", "exit", "quit",
    "help", "copyright", "credits", "license", "__builtins__", "__loader__", "__spec__",
    "id", "hash", "memoryview", "os", "sys",
})

_ADDRESS = re.compile(rb" at 0x[0-9a-fA-F]+")


@dataclass
class Run:
    """What a program did when run: its stdout, the last line of stderr if it
    failed, whether it ran out of time."""

    stdout: bytes
    error: bytes
    timed_out: bool


@dataclass
class Verdict:
    """The answer of each stage (``None``: not reached or not applicable)."""

    source: str
    compiled: bool | None = None
    refused: bool | None = None
    desugared: bool | None = None
    output_compiles: bool | None = None
    core: bool | None = None
    idempotent: bool | None = None
    agreed: bool | None = None
    output: str = ""
    failure: str = ""
    stage: str = ""
    details: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """No stage failed."""
        return not self.stage


def cpython_compiles(source: str) -> bool:
    """Whether CPython compiles ``source`` as a module (warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, "<generated>", "exec", dont_inherit=True)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return False
    return True


def compile_error(source: str) -> SyntaxError | None:
    """The ``SyntaxError`` CPython's compiler raises for ``source``, which
    parses: None if it parses and compiles, or fails to parse."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(source)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return None
        try:
            compile(source, "<generated>", "exec", dont_inherit=True)
        except SyntaxError as error:
            return error
        except (ValueError, MemoryError, RecursionError):
            return None
    return None


def runnable(source: str) -> bool:
    """Whether ``source`` is safe to run: it imports nothing and names none of
    :data:`UNSAFE_NAMES` (as a name or an attribute).

    Everything else runs, loops included: each run is a subprocess in a fresh
    temporary directory with a time limit, no stdin, a minimal environment,
    1 GiB of memory and 1 MiB of file size (see :func:`run_program`).
    """
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return False
        name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
        if name in UNSAFE_NAMES:
            return False
    return True


def _limit(pid: int) -> None:
    """1 GiB of memory, 1 MiB of file size and no core file for process ``pid``
    (set from outside: a ``preexec_fn`` would make every start a slow fork)."""
    try:
        import resource

        for limit, value in ((resource.RLIMIT_AS, 1 << 30), (resource.RLIMIT_FSIZE, 1 << 20),
                             (resource.RLIMIT_CORE, 0)):
            resource.prlimit(pid, limit, (value, value))
    except (ImportError, AttributeError, OSError):  # not Linux, or the child is gone
        pass


def run_program(source: str, timeout: float) -> Run:
    """Run ``source`` as ``prog.py`` in a subprocess, in a new temporary
    directory, with a minimal environment (fixed hash seed, no user site, no
    script directory on ``sys.path``, no ``site``) and ``timeout`` seconds.

    Memory addresses (`` at 0x...``) in the output are blanked.
    """
    with tempfile.TemporaryDirectory(prefix="unsugar-gen-") as tmp:
        path = Path(tmp, "prog.py")
        path.write_text(source, encoding="utf-8")
        env = {"PYTHONHASHSEED": "0", "PYTHONIOENCODING": "utf-8", "PYTHONNOUSERSITE": "1",
               "PYTHONSAFEPATH": "1", "PYTHONDONTWRITEBYTECODE": "1", "HOME": tmp}
        with subprocess.Popen(
            [sys.executable, "-S", "-W", "ignore", "prog.py"], cwd=tmp, env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        ) as process:
            _limit(process.pid)  # the interpreter is still starting: before the first line
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                return Run(b"", b"", True)
    error = b""
    if process.returncode:
        lines = stderr.rstrip(b"\n").splitlines()
        error = lines[-1] if lines else f"exit {process.returncode}".encode()
    return Run(_ADDRESS.sub(b"", stdout), _ADDRESS.sub(b"", error), False)


#: What ``compare`` says when CPython's file tokenizer rejects a source that
#: ``compile()`` accepts (``"\r\n\\\r\n"``: a continuation backslash on the last
#: line, after ``\r\n`` line ends): the original does not run, nothing to compare.
NOT_A_FILE = "the original does not run as a file (SyntaxError), though compile() accepts it"


def compare(source: str, output: str, timeout: float) -> str:
    """Run both programs; what differs ("" when they agree). Both timing out
    agrees; when one alone times out, both run again with four times as long.
    :data:`NOT_A_FILE` when the original fails to compile as a file."""
    for limit in (timeout, 4 * timeout):
        original, rewritten = run_program(source, limit), run_program(output, limit)
        if original.timed_out == rewritten.timed_out:
            break
    if original.error.startswith(b"SyntaxError") and "SyntaxError" not in source:
        return NOT_A_FILE
    if original.timed_out != rewritten.timed_out:
        late = "desugared" if rewritten.timed_out else "original"
        return f"only the {late} program timed out ({4 * timeout:g} s)"
    if original.stdout != rewritten.stdout:
        return f"stdout differs:\n  original:  {original.stdout[-300:]!r}\n  desugared: {rewritten.stdout[-300:]!r}"
    if original.error != rewritten.error:
        return f"error differs:\n  original:  {original.error!r}\n  desugared: {rewritten.error!r}"
    return ""


def check(source: str, run: bool = True, timeout: float = 5.0) -> Verdict:
    """Every stage for ``source``; ``run`` asks for the run-and-compare stage
    (done only when :func:`runnable` says so)."""
    verdict = Verdict(source)
    verdict.compiled = cpython_compiles(source)

    def fail(stage: str, message: str) -> Verdict:
        setattr(verdict, stage, False)
        verdict.stage, verdict.failure = stage, message
        return verdict

    if not verdict.compiled:
        refusal = compile_error(source)
        if refusal is None:
            return verdict
        try:
            desugar(source, filename="<generated>")
        except SyntaxError as ours:
            if (ours.msg, ours.lineno) != (refusal.msg, refusal.lineno):
                return fail("refused", f"{ours.msg} (line {ours.lineno}), CPython: "
                            f"{refusal.msg} (line {refusal.lineno})")
        except Exception as exc:  # noqa: BLE001
            return fail("refused", f"{type(exc).__name__}: {exc}")
        else:
            return fail("refused", f"desugared what CPython refuses: {refusal.msg}")
        verdict.refused = True
        return verdict

    try:
        output = desugar(source, filename="<generated>")
    except Exception as exc:  # noqa: BLE001  (every crash is a failure)
        return fail("desugared", f"{type(exc).__name__}: {exc}")
    verdict.desugared, verdict.output = True, output
    if not cpython_compiles(output):
        try:
            compile(output, "<output>", "exec", dont_inherit=True)
        except Exception as exc:  # noqa: BLE001
            return fail("output_compiles", f"{type(exc).__name__}: {exc}")
    verdict.output_compiles = True
    findings = check_source(output)
    if findings:
        return fail("core", "; ".join(f.format("<output>") for f in findings[:5]))
    verdict.core = True
    try:
        again = desugar(output, filename="<output>")
    except Exception as exc:  # noqa: BLE001
        return fail("idempotent", f"desugaring the output: {type(exc).__name__}: {exc}")
    if again != output:
        return fail("idempotent", "desugaring the output changes it")
    verdict.idempotent = True
    if run and runnable(source):
        difference = compare(source, output, timeout)
        if difference == NOT_A_FILE:
            verdict.details["not_run"] = difference
            return verdict
        if difference:
            return fail("agreed", difference)
        verdict.agreed = True
    return verdict


def explain(verdict: Verdict) -> str:
    """A failure report: the stage, the message, the program."""
    return f"{verdict.stage}: {verdict.failure}\n--- program:\n{verdict.source}"
