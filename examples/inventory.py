"""A small warehouse inventory: items, stock movements and a report.

Classes (inheritance, ``super()``, a dataclass, an Enum, properties,
``__repr__``, class attributes) and imports of the standard library.
"""

import json
from collections import Counter, OrderedDict, defaultdict
from dataclasses import dataclass, field
from enum import Enum


class Category(Enum):
    TOOL = "tool"
    PART = "part"
    SUPPLY = "supply"


@dataclass
class Movement:
    sku: str
    quantity: int
    note: str = ""
    tags: list = field(default_factory=list)


class Item:
    """Something kept in stock."""

    count = 0  # how many items were made, all kinds together
    category = Category.SUPPLY

    def __init__(self, sku, name, price_cents, stock=0):
        Item.count += 1
        self.sku = sku
        self.name = name
        self.price_cents = price_cents
        self._stock = stock

    @property
    def stock(self):
        return self._stock

    @stock.setter
    def stock(self, value):
        if value < 0:
            raise ValueError(f"stock of {self.sku} cannot go below zero ({value})")
        self._stock = value

    @property
    def value_cents(self):
        return self.stock * self.price_cents

    def describe(self):
        return f"{self.name} [{self.category.value}]"

    def __repr__(self):
        return f"{type(self).__name__}({self.sku!r}, stock={self.stock})"


class Tool(Item):
    category = Category.TOOL

    def __init__(self, sku, name, price_cents, stock=0, powered=False):
        super().__init__(sku, name, price_cents, stock)
        self.powered = powered

    def describe(self):
        text = super().describe()
        return text + (" (powered)" if self.powered else "")


class Part(Item):
    category = Category.PART

    def __init__(self, sku, name, price_cents, stock=0, fits=()):
        super().__init__(sku, name, price_cents, stock)
        self.fits = tuple(fits)

    def describe(self):
        return f"{super().describe()} fits {', '.join(self.fits) or 'anything'}"


class Inventory:
    def __init__(self):
        self.items = OrderedDict()
        self.log = []

    def add(self, item):
        self.items[item.sku] = item

    def apply(self, movement):
        item = self.items[movement.sku]
        try:
            item.stock = item.stock + movement.quantity
        except ValueError as error:
            self.log.append(f"refused: {error}")
            return False
        self.log.append(f"{movement.sku} {movement.quantity:+d} {movement.note}".rstrip())
        return True

    def by_category(self):
        groups = defaultdict(list)
        for item in self.items.values():
            groups[item.category.name].append(item.sku)
        return dict(sorted(groups.items()))

    def total_cents(self):
        total = 0
        for item in self.items.values():
            total += item.value_cents
        return total


def main():
    inventory = Inventory()
    inventory.add(Tool("T-100", "hammer", 1250, 4))
    inventory.add(Tool("T-200", "drill", 8900, 1, powered=True))
    inventory.add(Part("P-010", "drill bit", 350, 20, fits=["T-200"]))
    inventory.add(Part("P-020", "washer", 5, 500))
    inventory.add(Item("S-001", "tape", 199, 12))
    movements = [
        Movement("T-100", -3, "sold"),
        Movement("T-200", -2, "sold", ["rush"]),
        Movement("P-010", 15, "delivery", ["restock"]),
        Movement("P-020", -120),
        Movement("S-001", -12, "used up", ["rush", "internal"]),
    ]
    tags = Counter()
    for movement in movements:
        if inventory.apply(movement):
            tags.update(movement.tags)
    for line in inventory.log:
        print(line)
    print("items made:", Item.count)
    for sku, item in inventory.items.items():
        print(f"{sku:6} {item.describe():34} {item.stock:4} {item.value_cents / 100:10.2f}")
    print(repr(inventory.items["T-200"]), repr(movements[1]))
    print("categories:", json.dumps(inventory.by_category(), sort_keys=True))
    print("tags:", sorted(tags.items()))
    print(f"total value: {inventory.total_cents() / 100:.2f}")
    print(Category("part"), Category.TOOL.value, len(Category))


main()
