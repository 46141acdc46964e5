"""The runtime as one namespace, for outputs written with ``--runtime=import``.

The runtime modules use each other's top-level names (an output links them
into one namespace), so an output that imports its helpers takes them from
here: every module of :mod:`unsugar.runtime`, run in order in this module's
globals, as plain Python.
"""

from unsugar.runtime import MODULES as _MODULES
from unsugar.runtime import compiled as _compiled

for _name in _MODULES:
    exec(_compiled(_name), globals())
del _compiled, _MODULES, _name
