"""The helpers that rewritten code calls, as ordinary Python.

unsugar compiles these modules to core syntax and inlines, at the top of each
output, just the helpers it uses (see :mod:`unsugar.linker`). With
``--runtime=import`` the output imports them from these modules instead.

Conventions for helper code: no helper is named after a builtin; a helper
may use any syntax whose rewriting does not call that same helper (the
operator helpers call methods explicitly, e.g. ``int.__eq__(id(a), id(b))``);
module-level statements other than ``def`` run once when the output starts.
What a helper keeps must survive pickling by value (cloudpickle and dill pickle
a closure's cells, which reach the helpers): a dict kept for the process is an
``operator_table``, an id kept at the top a ``kept_id``, a C-level getter an
``operator_getter``; each is made again in the process that loads it.
"""

import os
from importlib.util import decode_source
from types import CodeType

#: The runtime modules, in the order their top-level statements run.
MODULES = (
    "bootstrap",
    "names",
    "operators",
    "strings",
    "displays",
    "functions",
    "assignments",
    "exceptions",
    "exception_groups",
    "contexts",
    "generators",
    "coroutines",
    "async_generators",
    "type_params",
    "imports",
    "stacklevels",
    "classes",
    "matching",
    "modules",
)


def source_path(name: str) -> str:
    """The file of runtime module ``name``. The modules are read, never imported
    one by one: their top-level statements use each other's names."""
    return os.path.join(os.path.dirname(__file__), name + ".py")


def compiled(name: str) -> CodeType:
    """The code of runtime module ``name``, compiled from its file as plain
    Python (read from the file whatever loader imported this package: pytest's
    assertion rewriting, which takes the modules of its plugins, has no
    ``get_source``)."""
    path = source_path(name)
    with open(path, "rb") as file:
        return compile(decode_source(file.read()), path, "exec")
