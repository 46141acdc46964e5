"""unsugar: rewrite Python into Minimum Viable Python.

    >>> import unsugar
    >>> print(unsugar.desugar("x = 1"))
    x = 1
    <BLANKLINE>
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["desugar", "desugar_tree", "__version__"]


def __getattr__(name: str) -> object:
    """``desugar`` and ``desugar_tree``, imported when first used (``unsugar run``
    with every module cached needs no compiler)."""
    if name in ("desugar", "desugar_tree"):
        from unsugar import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'unsugar' has no attribute {name!r}")
