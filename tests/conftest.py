import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

#: sample projects that tests run pytest on (tests/test_pytest_plugin.py), not tests of this suite
collect_ignore = ["projects"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--semantics", choices=("python", "native"), default="python",
                     help="the semantics the differential tests desugar with (default python)")


def pytest_configure(config: pytest.Config) -> None:
    import difftest

    difftest.SEMANTICS[0] = config.getoption("--semantics")
