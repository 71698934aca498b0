"""inventory.py: a tiny stock ledger, written live by a model through a write_file call."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    tags: list[str] = field(default_factory=list)

    def restock(self, amount: int) -> None:
        if amount <= 0:
            raise ValueError(f"restock needs a positive amount, got {amount}")
        self.quantity += amount

    def take(self, amount: int) -> None:
        if amount > self.quantity:
            raise ValueError(f"only {self.quantity} × {self.name!r} left")
        self.quantity -= amount


class Ledger:
    """Keeps items by SKU and writes them to disk as JSON."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: dict[str, Item] = {}

    def add(self, item: Item) -> None:
        if item.sku in self.items:
            raise KeyError(f"duplicate SKU \"{item.sku}\"")
        self.items[item.sku] = item

    def low_stock(self, threshold: int = 3) -> list[Item]:
        return sorted((i for i in self.items.values() if i.quantity < threshold),
                      key=lambda i: (i.quantity, i.sku))

    def save(self) -> None:
        data = {sku: vars(item) for sku, item in self.items.items()}
        self.path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, path: Path) -> "Ledger":
        ledger = cls(path)
        if path.exists():
            for sku, fields in json.loads(path.read_text()).items():
                ledger.items[sku] = Item(**fields)
        return ledger


def report(ledger: Ledger) -> str:
    lines = ["SKU      NAME                 QTY"]
    for item in sorted(ledger.items.values(), key=lambda i: i.sku):
        flag = "  ⚠ low" if item.quantity < 3 else ""
        lines.append(f"{item.sku:<8} {item.name:<20} {item.quantity:>3}{flag}")
    return "\n".join(lines)


if __name__ == "__main__":
    ledger = Ledger.load(Path("stock.json"))
    if not ledger.items:
        ledger.add(Item("A-100", "Café filters", 12, ["kitchen"]))
        ledger.add(Item("B-205", "Backslash \\ keys", 2, ["office", "odd"]))
        ledger.add(Item("C-310", "Tab\tseparated pens", 0))
    ledger.items["C-310"].restock(5)
    ledger.save()
    print(report(ledger))
