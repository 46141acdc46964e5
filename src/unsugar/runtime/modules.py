"""The module body: a def over the module's namespace (``unsugar.namespaces``).

The output is ``def _us_module(namespace)``, which makes the helpers and then
runs the user's code, ``def _us_body(namespace)``, under the name module
code has, ``<module>``.
"""

modules_sys = __import__("sys")


def namespace_setitem(namespace):
    """``STORE_NAME``'s store into ``namespace``: ``operator.setitem`` when it is
    loaded (one fast call), else the ``__setitem__`` of the mapping's type."""
    operator = dict.get(modules_sys.modules, "_operator")
    setitem = getattr(operator, "setitem", None)
    if setitem is not None:
        return setitem
    return type(namespace).__setitem__


def module_code_named(body):
    """``body`` named as module code is: ``<module>`` in tracebacks and frames."""
    body.__code__ = body.__code__.replace(co_name="<module>", co_qualname="<module>")


def module_entry_dropped():
    """In the handler of the module def (or of a helper that stands for C
    code, ``warn_counted``, or that raises again what a frame caught,
    ``yield_from_stopped``): the exception being handled leaves without its
    first traceback entry, which the frame it enters adds again."""
    error = modules_sys.exception()
    error.__traceback__ = error.__traceback__.tb_next


def module_failed(namespace, name):
    """In the handler of the module def: the exception leaves without the
    def's entry, and ``namespace[name]`` (the def's own name, which the body
    took out) is a function for the handler at module level, which calls it
    to drop that level's entry too. It is bound only while the exception
    passes through: it takes itself out of the namespace. So that handler
    reads no name the module's code may have bound (``dict = 5``)."""
    module_entry_dropped()

    def dropped():
        type(namespace).__delitem__(namespace, name)
        module_entry_dropped()

    type(namespace).__setitem__(namespace, name, dropped)
