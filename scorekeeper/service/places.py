"""Places for work that holds a thread and its phone's connection while it runs (an export): so many at once for each
group and each address, and so many in all, the last few of them kept for small work.

Work past the places in all waits for one, WAIT_SECONDS at most; a place that comes free goes to the work waiting that
stands first in the long work's turns (turns.py: its group's and its address's processor lately, and what it is
expected to take). So work that takes its place again and again, small each time (a group's export, looped from many
addresses), never keeps another group's out: the other group's waits for the next place, and has it first. WAITING
wait at most; past them, the one that stands last is refused, or the new work if it stands last. A group's (or an
address's) work past its own places is refused at once: its waiting counts among them.
"""

import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable

WAITING = 16  # pieces of work waiting for a place, at most
WAIT_SECONDS = 10.0  # work waits for a place this long at most, then is refused
LOOK_SECONDS = 0.5  # work waiting looks this often whether it is still wanted (its phone may have gone)


class Waiting:
    """Work waiting for a place."""

    def __init__(self, small: bool, standing: Callable[[], float], arrival: int) -> None:
        self.small, self.standing, self.arrival = small, standing, arrival
        self.placed = threading.Event()  # set once it has a place, or is refused
        self.refused = False


class Places:
    """``each`` at once for each group and each address, ``most`` in all, the last ``kept`` of them for small work;
    ``waiting`` wait for a place, each ``wait_seconds`` at most."""

    def __init__(self, each: int, most: int, kept: int = 0, waiting: int = WAITING,
                 wait_seconds: float = WAIT_SECONDS) -> None:  # fmt: skip
        self.each, self.most, self.kept, self.waiting_most, self.wait_seconds = each, most, kept, waiting, wait_seconds
        self.lock = threading.Lock()
        self.held: Counter[Hashable] = Counter()  # each group's and address's places, waiting included, and all held
        self.waiting: list[Waiting] = []
        self.arrivals = itertools.count()

    def take(
        self,
        group: Hashable,
        address: str,
        small: bool = True,
        standing: Callable[[], float] = lambda: 0.0,
        wanted: Callable[[], bool] = lambda: True,
        before_waiting: Callable[[], None] = lambda: None,
    ) -> bool:
        """Whether the work has a place: at once, or once it has waited for one. ``small``: whether it may have one of
        the last places; ``standing``: where it stands in the turns (the least first); ``wanted``: whether its phone
        is still there to take it; ``before_waiting``: called before it waits (to let go of its database connection:
        the work holding the places needs them)."""
        own = self.keys(group, address)
        with self.lock:
            if any(self.held[key] >= self.each for key in own):
                return False
            self.held.update(own)
            if self.room(small):
                self.held["all"] += 1
                return True
            work = Waiting(small, standing, next(self.arrivals))
            if len(self.waiting) >= self.waiting_most and not self.refuse_last(work):
                self.release(own)
                return False
            self.waiting.append(work)
        before_waiting()
        if self.waited(work, wanted):
            return True
        with self.lock:
            self.release(own)
        return False

    def waited(self, work: Waiting, wanted: Callable[[], bool]) -> bool:
        """Whether ``work`` was given a place as it waited; if it was not, it waits no more."""
        deadline = time.monotonic() + self.wait_seconds
        while not work.placed.wait(max(0.0, min(LOOK_SECONDS, deadline - time.monotonic()))):
            if time.monotonic() >= deadline or not wanted():
                with self.lock:
                    if work in self.waiting:
                        self.waiting.remove(work)
                        return False
                break  # given a place meanwhile
        return not work.refused

    def refuse_last(self, work: Waiting) -> bool:
        """Whether the work waiting that stands last gave its place in the waiting to ``work``, which stands before
        it (the lock held)."""
        last = max(self.waiting, key=lambda waiting: (waiting.standing(), waiting.arrival))
        if last.standing() <= work.standing():
            return False
        self.waiting.remove(last)
        last.refused = True
        last.placed.set()
        return True

    def give_back(self, group: Hashable, address: str) -> None:
        """A place given back: the work waiting that stands first and may have it, has it."""
        with self.lock:
            self.release([*self.keys(group, address), "all"])
            fitting = [waiting for waiting in self.waiting if self.room(waiting.small)]
            if fitting:
                first = min(fitting, key=lambda waiting: (waiting.standing(), waiting.arrival))
                self.waiting.remove(first)
                self.held["all"] += 1
                first.placed.set()

    def room(self, small: bool) -> bool:
        """Whether a place is free for work, small or not (the lock held)."""
        return self.held["all"] < (self.most if small else self.most - self.kept)

    def release(self, keys: list[Hashable]) -> None:
        """The places of ``keys`` given back (the lock held)."""
        self.held.subtract(keys)
        for key in keys:
            if not self.held[key]:
                del self.held[key]

    @staticmethod
    def keys(group: Hashable, address: str) -> list[Hashable]:
        """Whose places these are: its group's and its address's."""
        return [("group", group), ("address", address)]
