import pytest
from mini import Square


@pytest.fixture
def square():
    return Square(3)
