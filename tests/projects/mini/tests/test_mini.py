import mini
import pytest
from mini import Rectangle, Square, stats


def test_total_and_mean():
    assert stats.total([1, 2, 3, 4]) == 10
    assert mini.mean([1, 2, 3, 4]) == 2.5


def test_running_and_histogram():
    assert list(mini.running([1, 2, 3])) == [1, 3, 6]
    assert mini.histogram(["a", "bb", "cc", "d", "eee"]) == {1: "**", 2: "**", 3: "*"}


def test_describe():
    assert mini.describe([]) == "nothing"
    assert mini.describe([5]) == "one value: 5"
    assert mini.describe([1, 2, 4]) == "3 values, mean 2.33, largest 4"


def test_shapes(square):
    assert square.area == 9
    assert square.scaled(2) == Square(6)
    assert Rectangle(2, 3).scaled(2) == Rectangle(4, 6)
    assert repr(Rectangle(2, 3)) == "Rectangle(2, 3)"
    with pytest.raises(ValueError, match="negative side: -1 x 2"):
        Rectangle(-1, 2)
