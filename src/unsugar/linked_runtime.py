"""The runtime as one namespace, for outputs written with ``--runtime=import``.

The runtime modules use each other's top-level names (an output links them
into one namespace), so an output that imports its helpers takes them from
here: every module of :mod:`unsugar.runtime`, run in order in this module's
globals, as plain Python.
"""

from importlib.util import find_spec as _find_spec

from unsugar.runtime import MODULES as _MODULES

for _name in _MODULES:
    _spec = _find_spec("unsugar.runtime." + _name)
    exec(compile(_spec.loader.get_source(_spec.name), _spec.origin, "exec"), globals())
del _find_spec, _MODULES, _name, _spec
