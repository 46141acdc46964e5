"""unsugar: rewrite Python into Minimum Viable Python.

    >>> import unsugar
    >>> print(unsugar.desugar("x = 1"))
    x = 1
    <BLANKLINE>
"""

from unsugar.pipeline import desugar, desugar_tree

__version__ = "0.1.0"
__all__ = ["desugar", "desugar_tree", "__version__"]
