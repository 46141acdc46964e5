""":mod:`ast`'s classes and functions, from a module whose attributes the
interpreter loads fast. The modules of unsugar import it as ``ast``::

    from unsugar import nodes as ast
    ast.Name is __import__("ast").Name     # the same classes

From 3.12, ``ast`` has a module ``__getattr__`` (for its deprecated names,
``ast.Num`` and the like), and CPython does not specialize the load of an
attribute of a module that has one: every ``ast.Name`` in a walk was a
dictionary lookup through the generic path (three loads and ``is`` tests in
a function: 135 ns on 3.13 against 70 ns from a module without one).
"""

from ast import *  # noqa: F403  (every public name: the node classes, parse, unparse, walk...)
from ast import _Precedence, _Unparser  # noqa: F401  (what the annotations' text is written with)
