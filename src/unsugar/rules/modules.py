"""The module body: a def over the module's namespace (:mod:`unsugar.namespaces`)."""

from __future__ import annotations

from unsugar.registry import layout_rule

MODULE = layout_rule(
    id="module",
    summary="the module body runs as the code of a def, in the module's namespace (its frame's "
    "locals, as a module's): the helpers and constants are locals of the def around it, its "
    "temporaries cells, the user's names are stored in the namespace and read as globals (kept, "
    "or with any rule kept, the body stays at module level)",
    before="x = 1\ndef f():\n    return x",
    after="def _us_module(_us_namespace):\n"
    "    def _us_body(_us_namespace, _us_f_1, _us_store):\n\n"
    "        def _us_body():\n"
    "            nonlocal _us_namespace, _us_f_1, _us_store\n"
    "            _us_namespace_remove(_us_namespace, _us_s__us_module)\n"
    "            _us_store = _us_namespace_setitem(_us_namespace)\n"
    "            _us_store(_us_namespace, _us_s_x, 1)\n\n"
    "            def _us_f_1():\n                return x\n"
    "            _us_rename_function(_us_f_1, _us_s_f, _us_s_f)\n"
    "            _us_store(_us_namespace, _us_s_f, _us_f_1)\n"
    "            _us_f_1 = _us_none\n"
    "        return _us_body\n"
    "    _us_body = _us_module_code(_us_body, _us_namespace)\n"
    "    try:\n        _us_exec(_us_getattr(_us_body, _us_s___code__), _us_getattr(_us_body, _us_s___globals__), "
    "_us_namespace, closure=_us_getattr(_us_body, _us_s___closure__))\n"
    "    except:\n        _us_module_failed(_us_namespace, _us_s__us_module)\n        raise\n"
    "try:\n    _us_module(locals())\nexcept:\n    try:\n        _us_module()\n    except:\n        0\n    raise",
    reference="executionmodel.html#naming-and-binding",
    family="modules",
)
