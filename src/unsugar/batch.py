"""Many files in one run: a pool of processes, results in input order, a progress line.

    status = batch.run(jobs, work, workers=4, progress=True)

``work(job)`` does one job (writes its file) and returns what goes to
standard output (a diff) and the error message, if any. With more than one
worker the jobs run in a process pool; what each writes depends on its file
alone, so the bytes are those of a run with one worker, and what is printed
comes in the order of the jobs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO, TypeVar

from unsugar import store

Job = TypeVar("Job")
#: what a job prints on standard output, and its error message (or None)
Result = tuple[str, str | None]


def default_workers() -> int:
    """The number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run(
    jobs: Sequence[Job], work: Callable[[Job], Result], *, workers: int = 1,
    progress: bool = False, names: Callable[[Job], str] = str, warm: Callable[[], object] | None = None,
) -> int:
    """Do every job; print outputs and errors in job order. The exit code (1 if any failed).

    ``warm`` runs once before the pool starts, so that workers forked from
    this process share what it prepared (the compiled runtime).
    """
    status = 0
    line = _Progress(sys.stderr, len(jobs)) if progress and len(jobs) > 1 else None
    for done, (job, (out, error)) in enumerate(zip(jobs, _results(jobs, work, workers, warm), strict=True), 1):
        if line is not None:
            line.clear()
        if out:
            sys.stdout.write(out)
            sys.stdout.flush()
        if error is not None:
            print(error, file=sys.stderr)
            status = 1
        if line is not None:
            line.show(done, names(job))
    if line is not None:
        line.clear()
    return status


def _results(
    jobs: Sequence[Job], work: Callable[[Job], Result], workers: int,
    warm: Callable[[], object] | None,
) -> Iterator[Result]:
    workers = min(workers, len(jobs))
    if workers <= 1:
        yield from map(work, jobs)
        return
    from concurrent.futures import ProcessPoolExecutor  # (not at start-up: unsugar run needs none)

    if warm is not None:
        warm()
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_setup, initargs=(os.getpid(), store.used())
    ) as pool:
        yield from pool.map(work, jobs, chunksize=1)


def _worker_setup(parent: int, use_store: bool) -> None:
    """In a worker: the cache as the run uses it (a worker may be spawned, not
    forked); Ctrl-C is for the run, which stops the pool; and leave when the
    run is gone (killed, it cannot say so) rather than wait for work forever."""
    import signal
    import threading
    import time

    store.use(use_store)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="unsugar-parent", daemon=True).start()


class _Progress:
    """``[12/120] path`` on one line of a terminal, rewritten in place."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.shown = False

    def show(self, done: int, name: str) -> None:
        self.stream.write(f"\r\x1b[K[{done}/{self.total}] {name}")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
