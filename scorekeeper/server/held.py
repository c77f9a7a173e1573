"""What each address holds of something the server has only so much of (its connections, its follow streams), the
oldest first; and, once the server is full, whose gives way: the address holding the most, while it holds more than
one more than the address asking. So addresses crowding the server leave another as many as each of them holds."""

from collections.abc import Hashable
from typing import Generic, TypeVar

Item = TypeVar("Item", bound=Hashable)


class Held(Generic[Item]):
    """Each address's items, the oldest first.

    >>> held = Held[str]()
    >>> for item in ("a1", "a2", "a3"): held.add("a", item)
    >>> held.add("b", "b1")
    >>> held.count("a"), len(held), held.to_give_way(held.count("b"))
    (3, 4, ('a', 'a1'))
    >>> held.to_give_way(2) is None  # "a" holds no more than one more than 2
    True
    """

    def __init__(self) -> None:
        self.by_address: dict[str, dict[Item, None]] = {}
        self.total = 0

    def __len__(self) -> int:
        return self.total

    def count(self, address: str) -> int:
        return len(self.by_address.get(address, {}))

    def add(self, address: str, item: Item) -> None:
        items = self.by_address.setdefault(address, {})
        if item not in items:
            items[item] = None
            self.total += 1

    def remove(self, address: str, item: Item) -> None:
        items = self.by_address.get(address, {})
        if item in items:
            del items[item]
            self.total -= 1
            if not items:
                del self.by_address[address]

    def to_give_way(self, held: int) -> tuple[str, Item] | None:
        """For an address holding ``held``: the address that holds the most of those holding more than ``held`` + 1,
        and its oldest item; None if none does."""
        more = [address for address in self.by_address if self.count(address) > held + 1]
        if not more:
            return None
        address = max(more, key=self.count)
        return address, next(iter(self.by_address[address]))
