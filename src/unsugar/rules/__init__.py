"""The rules, one module per family. Importing this package registers them all."""

from unsugar import control  # noqa: F401  (if, break, continue, while/else, finally)
from unsugar.rules import (  # noqa: F401
    assignments,
    attributes,
    boolean,
    classes,
    comparisons,
    comprehensions,
    deletion,
    displays,
    except_star,
    exceptions,
    fstrings,
    functions,
    generators,
    imports,
    introspection,
    literals,
    loops,
    match,
    modules,
    operators,
    simple,
    subscripts,
    walrus,
    with_stmt,
)
