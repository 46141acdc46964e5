"""Generated programs (``hypothesmith``, from the grammar and from libcst's tree):
for each one CPython compiles, unsugar does not crash, the output compiles, is
core and comes back unchanged when desugared again; where it is safe to run
(``generated_checks.runnable``), both print and raise the same.

Fixed seeds and small counts keep this a CI-sized sample; the long run is
``benchmarks/generated.py``.
"""

from __future__ import annotations

import sys
import warnings

import pytest
from generated_checks import check, compare, explain, runnable
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

# hypothesmith compiles what it draws (SyntaxWarning) and imports libcst (DeprecationWarning)
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning", "ignore::DeprecationWarning")

SETTINGS = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))

# Built when a test first draws, not when pytest collects (importing libcst and
# building the grammar's parser take seconds, in every xdist worker).
FROM_GRAMMAR = st.deferred(lambda: __import__("hypothesmith").from_grammar())
FROM_NODE = st.deferred(lambda: __import__("hypothesmith").from_node())


def assert_checks(source: str, run: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        verdict = check(source, run=run)
    assert verdict.ok, explain(verdict)


@seed(20261204)
@settings(SETTINGS, max_examples=60)
@given(FROM_GRAMMAR)
def test_programs_from_the_grammar(source: str) -> None:
    assert_checks(source, run=False)


@seed(20261204)
@settings(SETTINGS, max_examples=15)
@given(FROM_NODE)
def test_programs_from_the_tree(source: str) -> None:
    assert_checks(source, run=False)


@seed(4)
@settings(SETTINGS, max_examples=20)
@given(FROM_GRAMMAR)
def test_generated_programs_run_the_same(source: str) -> None:
    assert_checks(source, run=True)


def test_the_checks_see_a_difference() -> None:
    assert compare("print(1)", "print(2)", timeout=5).startswith("stdout differs")
    assert compare("1 / 0", "[][0]", timeout=5).startswith("error differs")
    assert compare("x = 1", "x = (1).real", timeout=5) == ""
    assert not runnable("import os") and not runnable("open('f')") and runnable("print(A)")


def test_a_program_only_compile_accepts_is_not_run() -> None:
    # found by benchmarks/generated.py: compile() accepts a continuation backslash
    # on the last line after \r\n line ends, running the file does not (3.11; from 3.12
    # compile() refuses it too, and the program is not tried)
    verdict = check("\r\n\\\r\n", run=True)
    assert verdict.ok and verdict.agreed is None
    assert verdict.details["not_run"] if verdict.compiled else sys.version_info >= (3, 12)
