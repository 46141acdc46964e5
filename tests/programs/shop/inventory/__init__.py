"""The stock: names and prices."""

from .items import STOCK, catalogue
from .pricing import describe

__all__ = ["STOCK", "catalogue", "describe"]
print("inventory loaded as", __name__, "package", __package__, "path", len(__path__))
