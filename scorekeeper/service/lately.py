"""Seconds counted to keys (a group, an address), each second halved after a half-life: who has had the most lately.

The page threads (server/shares.py) and the long work's turns (turns.py) each give the next turn to whoever has had
the least lately; both count here.
"""

import math
from collections.abc import Hashable


class Lately:
    """Each key's seconds lately, every second halved after ``half_life`` seconds of ``now``. Past ``remembered`` keys,
    the half that count least are forgotten: a key forgotten is new again, and had little to forget.

    >>> lately = Lately(half_life=10.0, remembered=2)
    >>> lately.add("a", 4.0, now=0.0)
    >>> lately.of("a", now=10.0), lately.of("a", now=20.0), lately.of("never", now=20.0)
    (2.0, 1.0, 0.0)
    >>> lately.add("b", 3.0, now=20.0); lately.add("c", 2.0, now=20.0)
    >>> lately.of("a", now=20.0), lately.of("b", now=20.0)
    (0.0, 3.0)
    """

    def __init__(self, half_life: float, remembered: int) -> None:
        self.half_life, self.remembered = half_life, remembered
        self.counted: dict[Hashable, tuple[float, float]] = {}  # a key's seconds, as they were at a moment

    def of(self, key: Hashable, now: float) -> float:
        seconds, at = self.counted.get(key, (0.0, now))
        return seconds * math.pow(0.5, (now - at) / self.half_life)

    def add(self, key: Hashable, seconds: float, now: float) -> None:
        self.keep(key, self.of(key, now) + seconds, now)

    def at_least(self, key: Hashable, seconds: float, now: float) -> None:
        """The key's seconds made ``seconds``, unless it has more lately."""
        self.keep(key, max(self.of(key, now), seconds), now)

    def keep(self, key: Hashable, seconds: float, now: float) -> None:
        self.counted[key] = (seconds, now)
        if len(self.counted) > self.remembered:
            for forgotten in sorted(self.counted, key=lambda counted: self.of(counted, now))[: self.remembered // 2]:
                del self.counted[forgotten]
