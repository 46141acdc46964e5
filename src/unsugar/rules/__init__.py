"""The rules, one module per family. Importing this package registers them all."""

from unsugar import control  # noqa: F401  (control-flow rules)
