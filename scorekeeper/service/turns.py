"""Work that takes the processor for long (an import), done in turns: one at a time, a few seconds each.

However many groups import at once, one import works while the others wait their turn, so the processor's other
core and the pages of every group are never short of it for long; and after a few seconds of processor, an import
that others wait for gives its turn to the first of them and waits for its next.

A piece of work waiting holds a worker thread of the server's few. So a group has one piece of work in the turns at a
time, and only so many wait at all: past that, more work is refused at once (``NoTurn``), never left to wait.
"""

import threading
import time
from collections import deque
from collections.abc import Hashable, Iterator
from contextlib import contextmanager

TURN_SECONDS = 2.0  # of the processor, for the thread working
# Pieces of work in the turns at once, the one working included: of the server's 8 threads, imports hold 3 at most.
AT_ONCE = 3


class NoTurn(Exception):
    """Work refused a place in the turns, at once: its owner has work there already, or too many wait."""


class OwnerHasOne(NoTurn):
    """The owner's earlier work is still in the turns."""


class TooManyWaiting(NoTurn):
    """AT_ONCE pieces of work are in the turns already."""


class Turns:
    """Turns taken first come, first served."""

    def __init__(self, seconds: float = TURN_SECONDS, at_once: int = AT_ONCE) -> None:
        self.seconds, self.at_once = seconds, at_once
        self.lock = threading.Lock()
        self.waiting: deque[threading.Event] = deque()
        self.busy = False
        self.owners: set[Hashable] = set()  # whose work is in the turns, working or waiting

    @contextmanager
    def taken(self, owner: Hashable = None) -> Iterator["Turn"]:
        """A turn, once the work before has given it up; given up at the end. NoTurn at once, without waiting, when
        ``owner`` has work in the turns already or AT_ONCE pieces are there."""
        self.enter(owner)
        try:
            self.wait()
            try:
                yield Turn(self)
            finally:
                self.give_up()
        finally:
            with self.lock:
                self.owners.discard(owner)

    def enter(self, owner: Hashable) -> None:
        with self.lock:
            if owner in self.owners:
                raise OwnerHasOne()
            if len(self.owners) >= self.at_once:
                raise TooManyWaiting()
            self.owners.add(owner)

    def wait(self) -> None:
        with self.lock:
            if not self.busy:
                self.busy = True
                return
            mine = threading.Event()
            self.waiting.append(mine)
        mine.wait()  # busy stays set: the turn is handed over

    def give_up(self) -> None:
        with self.lock:
            if self.waiting:
                self.waiting.popleft().set()
            else:
                self.busy = False

    def others_wait(self) -> bool:
        with self.lock:
            return bool(self.waiting)


class Turn:
    """One piece of work's turn."""

    def __init__(self, turns: Turns) -> None:
        self.turns, self.began = turns, time.thread_time()

    def share(self) -> None:
        """Between two steps of the work: after its few seconds of processor, the turn goes to the first waiting,
        and this work waits for its next."""
        if time.thread_time() - self.began < self.turns.seconds or not self.turns.others_wait():
            return
        self.turns.give_up()
        self.turns.wait()
        self.began = time.thread_time()


IMPORTS = Turns()  # every import of this process, whatever its group
