import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--semantics", choices=("python", "native"), default="python",
                     help="the semantics the differential tests desugar with (default python)")


def pytest_configure(config: pytest.Config) -> None:
    import difftest

    difftest.SEMANTICS[0] = config.getoption("--semantics")
