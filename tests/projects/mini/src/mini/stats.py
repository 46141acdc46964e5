"""Sums, means and counts."""


def total(values):
    result = 0
    for value in values:
        result += value
    return result


def mean(values):
    if not values:
        raise ValueError("mean of no values")
    return total(values) / len(values)


def running(values):
    """The running totals of ``values``."""
    so_far = 0
    for value in values:
        yield (so_far := so_far + value)


def histogram(words):
    """How often each word's length occurs, shortest first."""
    counts = {}
    for length in sorted(len(word) for word in words):
        counts[length] = counts.get(length, 0) + 1
    return {length: "*" * count for length, count in counts.items()}
