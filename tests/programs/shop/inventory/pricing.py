from . import items
from .items import lookup


def describe(name):
    price = lookup(name)
    return f"{name:>6}: {price} coins"


def total(names):
    amount = 0
    for name in names:
        amount += items.STOCK.get(name, 0)
    return amount
