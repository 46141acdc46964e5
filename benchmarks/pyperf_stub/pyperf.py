"""A stand-in for ``pyperf`` while ``benchmarks/runtime.py`` runs a pyperformance program.

The benchmark's function runs ``UNSUGAR_BENCH_LOOPS`` times (default 1) in this
process, and the seconds per loop are printed as one line, ``BENCH name seconds``.
pyperf itself would spawn worker processes and calibrate; the comparison of an
original with its desugared form needs neither.
"""

import argparse
import asyncio
import os
import time

perf_counter = time.perf_counter
LOOPS = int(os.environ.get("UNSUGAR_BENCH_LOOPS", "1"))


def _report(name, seconds, inner_loops):
    print(f"BENCH {name} {seconds / LOOPS / (inner_loops or 1)!r}", flush=True)


class Runner:
    def __init__(self, *args, add_cmdline_args=None, **kwargs):
        self.argparser = argparse.ArgumentParser()
        self.metadata = {}
        self.args = None

    def parse_args(self, args=None):
        self.args = self.argparser.parse_args(args)
        return self.args

    def bench_time_func(self, name, time_func, *args, inner_loops=None, **kwargs):
        _report(name, time_func(LOOPS, *args), inner_loops)

    def bench_func(self, name, func, *args, inner_loops=None, **kwargs):
        start = perf_counter()
        for _ in range(LOOPS):
            func(*args)
        _report(name, perf_counter() - start, inner_loops)

    def bench_async_func(self, name, func, *args, inner_loops=None, **kwargs):
        start = perf_counter()
        for _ in range(LOOPS):
            asyncio.run(func(*args))
        _report(name, perf_counter() - start, inner_loops)
