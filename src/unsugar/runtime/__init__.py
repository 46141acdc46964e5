"""The helpers that rewritten code calls, as ordinary Python.

unsugar compiles these modules to core syntax and inlines, at the top of each
output, just the helpers it uses (see :mod:`unsugar.linker`). With
``--runtime=import`` the output imports them from these modules instead.

Conventions for helper code: no helper is named after a builtin; a helper
may use any syntax whose rewriting does not call that same helper (the
operator helpers call methods explicitly, e.g. ``int.__eq__(id(a), id(b))``);
module-level statements other than ``def`` run once when the output starts.
"""

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
    "classes",
    "matching",
    "modules",
)
