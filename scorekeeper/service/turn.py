"""One piece of long work's turns (turns.py): what it has worked, where it stands, and its steps between them."""

import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Protocol


class Taking(Protocol):
    """What a piece of work asks of its turns (turns.Turns): the clocks, where it stands, its next turn."""

    clock: Callable[[], float]  # the processor's
    wall: Callable[[], float]

    def wait(self, turn: "Turn") -> None: ...
    def standing(self, turn: "Turn") -> float: ...
    def due_to_others(self, turn: "Turn", used: float) -> bool: ...
    def count(self, turn: "Turn", seconds: float) -> None: ...
    def give_up(self) -> None: ...


class Turn:
    """One piece of work's turns; the processor it has in them is counted to its owner and its address."""

    def __init__(self, turns: Taking, owner: Hashable, address: Hashable, arrival: int, expected: float = 0.0) -> None:
        self.turns, self.arrival = turns, arrival
        self.expected = expected  # the processor seconds the whole work is expected to take
        self.worked = 0.0  # the processor seconds of its turns given up
        # whose processor it is: its owner's, and its address's (a group made anew for each file is not new)
        self.keys: tuple[Hashable, ...] = (("owner", owner), *([("address", address)] if address is not None else []))
        self.woken = threading.Event()
        self.began = 0.0  # the clock when its present turn began
        self.holding = False  # it has the turn now
        self.placed = False  # it holds one of the places in the turns (Turns.taken)
        self.kept = False  # it keeps its place to its end: it has begun to store (``keep_place``)
        self.refused = False  # it was refused as it waited (Turns.refuse_last_coming)
        self.displaced = False  # it gave its place up, and waits for one again (Turns.take_place_of_last)
        self.oldest = False  # its present turn was given for its having been in the turns longest (Turns.first)
        self.came = turns.wall()  # when it came to the turns

    def share(self, before_waiting: Callable[[], None] = lambda: None) -> None:
        """Between two steps of the work: once it is due (``due``), the turn goes to the work waiting that stands
        first, and this work (``before_waiting`` called first) waits for its next."""
        if not self.due():
            return
        before_waiting()
        self.give_up()
        self.turns.wait(self)

    def rest(self, seconds: float, before_waiting: Callable[[], None] = lambda: None) -> None:
        """A pause of ``seconds`` between two steps of the work (SQLite's, for a phone's write), the turn given to
        work waiting meanwhile (``before_waiting`` called first): the processor never idles while work waits."""
        before_waiting()
        self.give_up()
        time.sleep(seconds)
        self.turns.wait(self)

    def standing(self) -> float:
        """Where the work stands in the turns now, were it waiting: the least goes first (``Turns.rank``)."""
        return self.turns.standing(self)

    def expect(self, seconds: float) -> None:
        """The whole work is now expected to take ``seconds`` of processor (an import's, as it reads its file)."""
        self.expected = seconds

    def left(self, used: float = 0.0) -> float:
        """The processor seconds the work is expected to take still, ``used`` of its present turn taken."""
        return max(0.0, self.expected - self.worked - used)

    def due(self) -> bool:
        """Whether the work should give its turn to work waiting (``Turns.due_to_others``)."""
        return self.turns.due_to_others(self, self.turns.clock() - self.began)

    @contextmanager
    def step(self, before_waiting: Callable[[], None] = lambda: None) -> Iterator[None]:
        """One step of the work (an export's next games), in a turn (``before_waiting`` called first) given up after
        it: the work waits for something else between its steps (its phone) holding none."""
        before_waiting()
        self.turns.wait(self)
        try:
            yield
        finally:
            self.give_up()

    def keep_place(self) -> None:
        """From now on the work stores what it does: it keeps its place in the turns to its end, never refused."""
        self.kept = True

    def give_up(self) -> None:
        """The turn given up, the processor it took counted to the work's owner: the whole of it, however short."""
        if not self.holding:  # refused as it waited (Turns.enter): the turn is another's
            return
        self.holding = False
        used = self.turns.clock() - self.began
        self.worked += used
        self.turns.count(self, used)
        self.turns.give_up()
