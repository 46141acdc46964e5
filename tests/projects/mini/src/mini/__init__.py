"""mini: a little statistics and geometry, the sample project of ``pytest --unsugar``."""

from mini.shapes import Rectangle, Square
from mini.stats import histogram, mean, running, total

__all__ = ["Rectangle", "Square", "describe", "histogram", "mean", "running", "total"]


def describe(values):
    """One line about ``values``."""
    if not values:
        return "nothing"
    if len(values) == 1:
        return f"one value: {values[0]}"
    return f"{len(values)} values, mean {mean(values):.2f}, largest {max(values)}"
