"""Module-level names: ``global`` stores and deletes go through the module's dict."""

module_dict = globals()


def global_set(name, value):
    """``global name; name = value`` inside a function."""
    module_dict[name] = value
