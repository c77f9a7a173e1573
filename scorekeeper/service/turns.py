"""Work that takes the processor for long (an import, an export), done in turns: one at a time, a few seconds each.

However many groups import and export at once, one of them works while the others wait their turn, so the
processor's other core and the pages of every group are never short of it for long. Work stands by its group's
processor lately (each second counts half after HALF_LIFE_SECONDS; of its group and its address, the more served
counts) and the seconds it is expected to take still; the least goes first, and among equals the first come. Work
gives its turn up after its few seconds (TURN_SECONDS) when others wait, and sooner, at its next batch, to work
waiting that stands MARGIN_SECONDS before it: working, its seconds of the present turn count as had. So a group's
small import just begun works next, however long the imports before it are, and a group whose work begins again and
again (an export, looping), or an address that makes a new group for each file, is not new each time: its seconds
are counted, and another group's work goes on beside it. Nor is a large import from an address never seen, nor a
file of many small games that its size makes look small: what an import is expected to take is what its file's size
says at first, and what its games read so far say once it has read some (restore.py), and it gives its turn at its
next batch once they say more. What its size says counts times the most that the files of its group, or of its
address, took lately more than their size said (half as much ten minutes on): such files look small once, not again
and again, and a broken file between them, which takes less than its size says, changes nothing.

Nor does smaller work that comes later keep larger work waiting for ever: once work has been in the turns a few
seconds (AGE_SECONDS), a quarter of the processor (OLDEST_SHARE) goes to the work that has been there longest, a
batch at a time, first come, first served; the rest to the work that stands first. So a stream of small imports,
each from an address never seen into a group made for it, lets a larger import that came before it in at a quarter
of the processor at least; and work that waited long, however it came to (an attacker's files, behind the attacker's
own stream), goes before other groups' work for a quarter of the processor at most, a turn at a time.

An export takes its turns a step at a time (``Turns.turn``, ``Turn.step``): while its phone reads what it wrote, it
holds no turn, so a phone that reads slowly keeps nobody waiting. Beside a large import, its next step waits for a
batch of the import's, not for its few seconds. Its places are counted where it is written (views/history.py).

Each import in the turns holds a thread (the production server runs imports on threads of their own, never on the
pages' threads: server/asgi.py), so the turns hold AT_ONCE at most, and of those one an owner (a group) and one an
address: a second of an owner or an address is refused at once (``NoTurn``). When work waiting that has stored
nothing yet stands after the new work (it is expected to take longer, or its group and address have had more
lately), it gives its place up to it, and waits for one again. So files that take long, or look small, keep
no group's small file out, and an import pausing between its batches (SQLite's pause, ``Turn.rest``) holds no turn
meanwhile. Else the new work waits for a place (COMING at most, each COMING_SECONDS at most), and a place given up
goes to the work waiting for one that stands first: a group refused at once would try again, and find the places
taken again by work that came meanwhile (a file that fails at once, sent between two, is such work).
"""

import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

from .lately import Lately
from .turn import Turn

TURN_SECONDS = 2.0  # of the processor, for the thread working, at most
MARGIN_SECONDS = 0.25  # work gives its turn to work waiting that stands this far before it: not to its equal
OLDEST_SHARE = 0.25  # of the processor lately, for the work in the turns longest
AGE_SECONDS = 2.0  # once it has been there this long
HALF_LIFE_SECONDS = 30.0  # a second of the processor counts half this long after, a quarter twice as long after
AT_ONCE = 32  # pieces of work in the turns at once, the one working included: the imports' threads (server/asgi.py)
PER_ADDRESS = 1  # of them from one address
# Pieces of work waiting for a place in the turns, at most, besides those that gave theirs up (AT_ONCE at most): the
# imports' threads have room for them all (server/asgi.py).
COMING = 16
COMING_SECONDS = 60.0  # work waits this long for a place at most, then is refused
REMEMBERED = 1024  # owners and addresses whose seconds lately are remembered
# What an owner's or an address's work took more than it was first expected to counts half after this long: files
# that take far more than their size says look small once, and a file that takes less (a broken one) does not make
# the next look small again.
LEARNED_HALF_LIFE_SECONDS = 600.0


class NoTurn(Exception):
    """Work refused a place in the turns, at once: its owner or its address has work there already, or too many
    wait."""


class OwnerHasOne(NoTurn):
    """The owner's earlier work is still in the turns."""


class AddressHasOne(NoTurn):
    """Work from the same address (for another owner) is in the turns already."""


class TooManyWaiting(NoTurn):
    """AT_ONCE pieces of work are in the turns already, none of those that have stored nothing standing after this
    one, and it waited COMING_SECONDS for a place, or COMING wait before it; or this work, having stored nothing, gave
    its place to work that stands before it."""


class Turns:
    """Turns taken by the work whose owner (its group) or address has had the least processor lately."""

    def __init__(self, seconds: float = TURN_SECONDS, at_once: int = AT_ONCE, per_address: int = PER_ADDRESS,
                 clock: Callable[[], float] = time.thread_time, wall: Callable[[], float] = time.monotonic,
                 coming: int = COMING, coming_seconds: float = COMING_SECONDS) -> None:  # fmt: skip
        self.seconds, self.at_once, self.per_address, self.clock = seconds, at_once, per_address, clock
        self.coming_most, self.coming_seconds = coming, coming_seconds
        self.wall = wall
        self.used = Lately(HALF_LIFE_SECONDS, REMEMBERED)  # the processor of each owner and address
        self.lock = threading.Lock()
        self.waiting: list[Turn] = []
        self.busy = False
        self.owners: set[Hashable] = set()  # whose work is in the turns, working or waiting, or waits for a place
        self.addresses: Counter[Hashable] = Counter()  # and from where
        self.places = 0  # taken, of AT_ONCE
        self.coming: list[Turn] = []  # the work waiting for a place
        self.arrivals = itertools.count()
        # what each owner's and address's work took lately more than it was first expected to: the times less one
        self.learned = Lately(LEARNED_HALF_LIFE_SECONDS, REMEMBERED)
        # the processor of the last turn given to the work in the turns longest, and of the turns given since
        self.oldest_used, self.since_oldest = 0.0, 0.0

    @contextmanager
    def taken(self, owner: Hashable = None, address: Hashable = None, expected: float = 0.0) -> Iterator[Turn]:
        """A turn, once the work before has given it up; given up at the end. NoTurn at once, without waiting, when
        ``owner`` has work in the turns already, or ``address`` its share; once it has waited for a place, when AT_ONCE
        pieces are there (``enter``). ``expected``: the processor seconds the work is
        expected to take (an import's, by its file; ``Turn.expect``), times the most the owner's or the address's
        work took lately more than it was first expected to (``learned``): files that take far more than their size
        says look small once, not again and again."""
        turn = Turn(self, owner, address, next(self.arrivals), expected)
        with self.lock:
            now = self.wall()
            turn.expected = expected * (1 + max(self.learned.of(key, now) for key in turn.keys))
        self.enter(turn, owner, address)
        try:
            self.wait(turn)
            try:
                yield turn
            finally:
                turn.give_up()
        finally:
            with self.lock:
                if turn.worked and expected:
                    self.learn(turn.keys, turn.worked / expected)
                if turn.placed:
                    turn.placed = False
                    self.give_place(self.wall())
                self.leave(owner, address)

    def leave(self, owner: Hashable, address: Hashable) -> None:
        """The work of ``owner`` from ``address`` has left the turns, or its wait for a place (the lock held)."""
        self.owners.discard(owner)
        self.addresses[address] -= 1
        if not self.addresses[address]:
            del self.addresses[address]

    def give_place(self, now: float) -> None:
        """A place given up (the lock held): the work waiting for one that stands first has it, work that gave its
        place up first (it waits without an end, for its turn: ``wait``)."""
        if not self.coming:
            self.places -= 1
            return
        first = min(self.coming, key=lambda coming: (not coming.displaced, self.rank(coming, now), coming.arrival))
        self.coming.remove(first)
        first.placed = True
        if not first.displaced:
            first.woken.set()  # it has its place (``enter``)
            return
        first.displaced = False  # it waits for its turn again (``wait``)
        if self.busy:
            self.waiting.append(first)
        else:
            self.busy = True
            first.woken.set()

    def learn(self, keys: tuple[Hashable, ...], times: float) -> None:
        """The last work of ``keys`` took ``times`` what it was first expected to (the lock held): what they took
        lately more than that is at least as much, never less (work that took less, a broken file, says nothing of
        the next)."""
        now = self.wall()
        for key in keys:
            self.learned.at_least(key, times - 1, now)

    def turn(self, owner: Hashable = None, address: Hashable = None, expected: float = 0.0) -> Turn:
        """Turns for ``owner``'s work that takes them a step at a time (``Turn.step``), its places counted elsewhere."""
        return Turn(self, owner, address, next(self.arrivals), expected)

    def enter(self, turn: Turn, owner: Hashable, address: Hashable) -> None:
        """A place in the turns for ``turn``. With every place taken, the work waiting that has stored nothing yet and
        stands last gives its place up, if it stands after ``turn``: many files that take long (or look small) keep
        no other group's small one out. Else the work waits for a place, COMING_SECONDS at most, and a place given up
        goes to the work waiting for one that stands first: work refused at once would come again, and again find
        every place taken by work that came meanwhile. Past COMING waiting, the one that stands last is refused."""
        with self.lock:
            if owner in self.owners:
                raise OwnerHasOne()
            if address is not None and self.addresses[address] >= self.per_address:
                raise AddressHasOne()
            self.owners.add(owner)
            self.addresses[address] += 1
            now = self.wall()
            if self.places < self.at_once:
                self.places += 1
                turn.placed = True
                return
            # none that waits for a place is passed over (work that gave its place up waits for the next first)
            if all(coming.displaced for coming in self.coming) and self.take_place_of_last(turn, now):
                turn.placed = True
                return
            if len(self.coming) >= self.coming_most and not (self.coming and self.refuse_last_coming(turn, now)):
                self.leave(owner, address)
                raise TooManyWaiting()
            turn.woken.clear()
            self.coming.append(turn)
        given = turn.woken.wait(self.coming_seconds)
        with self.lock:
            if not given and turn in self.coming:
                self.coming.remove(turn)
            if not turn.placed:
                self.leave(owner, address)
                raise TooManyWaiting()

    def take_place_of_last(self, turn: Turn, now: float) -> bool:
        """Whether the work waiting in the turns that has stored nothing yet and stands last, after ``turn``, gave its
        place up to it (the lock held): it waits for a place again, as it waited for its turn."""
        unkept = [waiting for waiting in self.waiting if waiting.placed and not waiting.kept]
        last = max(unkept, key=lambda waiting: (self.rank(waiting, now), waiting.arrival), default=None)
        if last is None or self.rank(last, now) <= self.rank(turn, now):
            return False
        self.waiting.remove(last)
        last.placed, last.displaced = False, True
        self.coming.append(last)
        return True

    def refuse_last_coming(self, turn: Turn, now: float) -> bool:
        """Whether the work waiting for a place that stands last, after ``turn``, gave its wait up to it (the lock
        held): it is refused."""
        last = max(self.coming, key=lambda coming: (self.rank(coming, now), coming.arrival))
        if self.rank(last, now) <= self.rank(turn, now):
            return False
        self.coming.remove(last)
        last.refused = True
        last.woken.set()  # refused, as it waited for a place or (displaced) for its turn
        return True

    def wait(self, turn: Turn) -> None:
        """Until ``turn``'s work has the turn; TooManyWaiting if it gave its place up meanwhile (``enter``)."""
        with self.lock:
            if not self.busy:
                self.busy = True
                turn.began, turn.holding = self.clock(), True
                return
            turn.woken.clear()
            self.waiting.append(turn)
        turn.woken.wait()  # busy stays set: the turn is handed over
        if turn.refused:
            raise TooManyWaiting()
        turn.began, turn.holding = self.clock(), True

    def give_up(self) -> None:
        with self.lock:
            if not self.waiting:
                self.busy = False
                return
            least = self.first(self.wall())
            self.waiting.remove(least)
            least.woken.set()

    def others_wait(self) -> bool:
        with self.lock:
            return bool(self.waiting)

    def due_to_others(self, turn: Turn, used: float) -> bool:
        """Whether ``turn``, having worked ``used`` seconds of its present turn, should give it to work waiting: it
        has worked its few seconds, or work waiting stands MARGIN_SECONDS before it. Working, it stands by its
        seconds lately and those of its present turn, and those it is expected to take after them: an import found
        to be larger than its file's size said gives its turn at its next batch; and so does work that had its turn
        for having waited longest."""
        with self.lock:
            if not self.waiting:
                return False
            now = self.wall()
            least = min(self.rank(waiting, now) for waiting in self.waiting)
            mine = self.rank(turn, now, used)
            return used >= self.seconds or least + MARGIN_SECONDS <= mine

    def standing(self, turn: Turn) -> float:
        """Where ``turn``'s work stands now, were it waiting (``rank``)."""
        with self.lock:
            return self.rank(turn, self.wall())

    def rank(self, turn: Turn, now: float, used: float = 0.0) -> float:
        """Where work stands, ``used`` seconds of its present turn worked: its seconds lately, and those it is expected
        to take still (the lock held). A large import from an address never counted does not go before a group's
        small export that was."""
        return self.lately(turn.keys, now) + used + turn.left(used)

    def first(self, now: float) -> Turn:
        """The work waiting that has the next turn (the lock held): the one in the turns longest, once that is
        AGE_SECONDS, if the turns given since the last given for that have had OLDEST_SHARE's other part of the
        processor; else the one that stands first, and among equals the one expected to take the least still, then
        the first come. A turn for the oldest is never put by to be had later: no work has several in a row."""
        oldest = min(self.waiting, key=lambda waiting: waiting.arrival)
        due = self.since_oldest >= (1 / OLDEST_SHARE - 1) * self.oldest_used
        if due and now - oldest.came >= AGE_SECONDS:
            oldest.oldest = True
            return oldest
        return min(self.waiting, key=lambda waiting: (self.rank(waiting, now), waiting.left(), waiting.arrival))

    def lately(self, keys: tuple[Hashable, ...], now: float) -> float:
        """The processor seconds lately of the most served of ``keys`` (work's owner and address), each halved
        every HALF_LIFE_SECONDS (the lock held): a new group of an address that has had its seconds is not new."""
        return max((self.used.of(key, now) for key in keys), default=0.0)

    def count(self, turn: Turn, seconds: float) -> None:
        """The ``seconds`` of ``turn``'s work, counted to its owner and its address, and to the turns given for having
        waited longest if it was one."""
        with self.lock:
            now = self.wall()
            for key in turn.keys:
                self.used.add(key, seconds, now)
            if turn.oldest:
                self.oldest_used, self.since_oldest = seconds, 0.0
            else:
                self.since_oldest += seconds
            turn.oldest = False


LONG_WORK = Turns()  # every import and export of this process, whatever its group
