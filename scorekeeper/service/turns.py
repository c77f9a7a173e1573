"""Work that takes the processor for long (an import), done in turns: one at a time, a few seconds each.

However many groups import at once, one import works while the others wait their turn, so the processor's other
core and the pages of every group are never short of it for long; and after a few seconds of processor, an import
that others wait for gives its turn to the first of them and waits for its next.
"""

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

TURN_SECONDS = 2.0  # of the processor, for the thread working


class Turns:
    """Turns taken first come, first served."""

    def __init__(self, seconds: float = TURN_SECONDS) -> None:
        self.seconds = seconds
        self.lock = threading.Lock()
        self.waiting: deque[threading.Event] = deque()
        self.busy = False

    @contextmanager
    def taken(self) -> Iterator["Turn"]:
        """A turn, once the work before has given it up; given up at the end."""
        self.wait()
        try:
            yield Turn(self)
        finally:
            self.give_up()

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
