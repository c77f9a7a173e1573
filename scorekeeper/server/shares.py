"""The page threads, given in turn: each group's and each address's share of them, the least served first, and the
busy held to a few.

A page waits in the event loop (holding a connection and no thread) until a thread is free for it, and then:

- a free thread goes to the waiting request whose group and address have had the least time in the app lately
  (each second counts half after HALF_LIFE_SECONDS); the first come among equals;
- EACH of a group's requests run at once, and EACH of an address's: a group's or an address's next request waits
  for one of them to end (a group's, holding nothing the others need). A light group's request is not held for its
  address's: a table behind the address of a busy one (a household's, a club's Wi-Fi) runs beside it, not after it.
  The boards and streams of a group's follow pages are its followers': EACH of them run beside EACH of its taps, so
  a club's phones asking for the board keep no tap of its table waiting;
- the busy groups and addresses run BUSY_MOST requests at once in all: the other threads are kept for the rest.
  More would give them no more processor (one process runs its Python one thread at a time), and a phone would
  share it with all of them.

Busy and light go by the time in heavy requests lately (each HEAVY_SECONDS or longer): a club of twenty tables in
one group asks for as much time as a few heavy lists, but in taps of a few milliseconds each, and is never busy.

Without these, a group's phones asking for a heavy page of their own (the list of a group of 1,500 games, back to
back on eight connections) held every page thread, and another group's phone waited behind them (p50 115 ms, alone
5 ms; docs/performance.md has the figures since). A request keeps its thread until its answer is sent, as the
thread writing it does (a client that takes none of an answer is given up after sending.SEND_WAIT_SECONDS).

Pages and the app's part of a follow stream take their turn here; imports and exports have turns and places of
their own (service/turns.py, views/history.py), and an address refused lately takes the guessers' lane instead
(guessers.py).
"""

import asyncio
import inspect
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager

from ..security.group_scope import group_path
from ..security.guesses import client_key
from ..service.lately import Lately

Key = tuple[str, str]  # ("group", its key), ("follow", its key: its followers'), or ("address", its /64)
EACH = 2  # a group's (and an address's) requests in the app at once: a table's taps take milliseconds each
HALF_LIFE_SECONDS = 10.0  # a second in the app counts half this long after, a quarter twice as long after
HEAVY_SECONDS = 0.5  # a request this long is heavy (a table's page takes milliseconds, a game's review a tenth)
BUSY_SECONDS = 2.0  # in heavy requests lately: a group or address with as much is busy
BUSY_MOST = 2
LIGHT_SECONDS = 1.0  # in heavy requests lately: a group with less is light, whatever its address
REMEMBERED = 4096  # keys whose time in the app is remembered before the smallest are forgotten
# A follow page's asking, its board and its stream: a club's sixty phones that ask every second (no stream left for
# them) took the group's two places, and its table's taps waited about 5 s behind them (twentieth probe, F).
FOLLOWING = ("/follow/board", "/follow/events")


class Shares:
    """The ``threads``, the requests running on them and those waiting for one, and each key's time lately."""

    def __init__(self, threads: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.free, self.clock = threads, clock
        self.shares = Each(EACH)  # a first key's share
        self.running: Counter[Key] = Counter()  # each key's requests in the app
        self.busy = 0  # the busy requests in the app
        self.waiting: list[tuple[list[Key], asyncio.Future[bool]]] = []  # in the order they came; True: busy
        self.time = Lately(HALF_LIFE_SECONDS, REMEMBERED)  # each key's time in the app
        self.heavy = Lately(HALF_LIFE_SECONDS, REMEMBERED)  # and in heavy requests

    @staticmethod
    def keys(address: str | None, path: str) -> list[Key]:
        """Whose request this is: on an open server its group's, and its address's (its /64's). A follow page's
        board and stream are its group's followers': they take their turns beside the group's taps, never before them.

        >>> Shares.keys("192.0.2.7", "/g/Ab3/api/games"), Shares.keys(None, "/rules")
        ([('group', 'Ab3'), ('address', '192.0.2.7')], [])
        >>> Shares.keys("192.0.2.7", "/g/Ab3/games/7/follow/board"), Shares.keys("192.0.2.7", "/games/7/follow/board")
        ([('follow', 'Ab3'), ('address', '192.0.2.7')], [('address', '192.0.2.7')])
        """
        group = group_path(path)
        return [
            *([("follow" if path.endswith(FOLLOWING) else "group", group[0])] if group else []),
            *([("address", client_key(address))] if address else []),
        ]

    async def run(self, keys: list[Key], answer: Awaitable[None]) -> None:
        """``answer``, once a thread is free for it; its time in the app counted to each of ``keys``. Its first key's
        share is taken first: a group's (or an address's) many requests wait for it, and EACH of them at most for a
        thread, so that the requests waiting for a thread are few to choose among."""
        begun = False
        try:
            async with self.shares.one(keys[0] if keys else None):
                busy = await self.thread(keys)
                began, begun = self.clock(), True
                try:
                    await answer
                finally:
                    self.note(keys, self.clock() - began)
                    self.give_back(keys, busy)
        finally:
            if not begun and inspect.iscoroutine(answer):
                answer.close()  # never begun: its client left, or the server stopped, while it waited

    async def thread(self, keys: list[Key]) -> bool:
        """A thread taken for a request of ``keys``, in its turn; whether it is busy."""
        turn: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        waiter = (keys, turn)
        self.waiting.append(waiter)
        self.hand_on()
        try:
            return await turn  # at once when a thread is free for it
        except asyncio.CancelledError:
            if waiter in self.waiting:
                self.waiting.remove(waiter)
            elif not turn.cancelled():
                self.give_back(keys, turn.result())  # given a thread as it was cancelled: the next one's
            raise

    def give_back(self, keys: list[Key], busy: bool) -> None:
        self.free += 1
        self.busy -= busy
        self.running.subtract(keys)
        for key in keys:
            if not self.running[key]:
                del self.running[key]
        self.hand_on()

    def hand_on(self) -> None:
        """The free threads to the waiting requests that may run, the least time lately first."""
        while self.free and self.waiting:
            # A request cancelled as it waited (its client left) is still here until its task next runs: its turn is
            # over already, and it takes no thread.
            self.waiting = [waiter for waiter in self.waiting if not waiter[1].done()]
            now = self.clock()
            ready = []
            for place, (keys, _turn) in enumerate(self.waiting):
                may, busy = self.may_run(keys, now)
                if may:
                    ready.append((self.time_of(keys, now), place, busy))
            if not ready:
                return  # each waits for its group, its address, or the busy: the threads left are kept
            _time, place, busy = min(ready)
            keys, turn = self.waiting.pop(place)
            self.free -= 1
            self.busy += busy
            self.running.update(keys)
            turn.set_result(busy)

    def may_run(self, keys: list[Key], now: float) -> tuple[bool, bool]:
        """Whether a request of ``keys`` may run now, and whether it is busy: its group is, or its address is and its
        group is not light (one address with many groups is busy; a table behind a busy one's address is not)."""
        kinds = dict(keys)
        group, address = kinds.get("group") or kinds.get("follow"), kinds.get("address")  # its followers' too
        group_heavy = None if group is None else self.heavy.of(("group", group), now)
        address_heavy = 0.0 if address is None else self.heavy.of(("address", address), now)
        light = group_heavy is not None and group_heavy < LIGHT_SECONDS
        busy = (group_heavy or 0.0) >= BUSY_SECONDS or (address_heavy >= BUSY_SECONDS and not light)
        may = (address is None or light or self.running[("address", address)] < EACH) and (
            not busy or self.busy < BUSY_MOST
        )
        return may, busy

    def time_of(self, keys: list[Key], now: float | None = None) -> float:
        """The time in the app lately of ``keys`` together, in seconds, each second halved every HALF_LIFE_SECONDS:
        of two phones at one busy address, the one whose group has had less goes first."""
        at = self.clock() if now is None else now
        return sum(self.time.of(key, at) for key in keys)

    def note(self, keys: list[Key], seconds: float) -> None:
        now = self.clock()
        for key in keys:
            self.time.add(key, seconds, now)
            if seconds >= HEAVY_SECONDS:
                self.heavy.add(key, seconds, now)


class Each:
    """``most`` requests at once for each key (a group, an address); the next of a key's waits in the loop, holding no
    thread, for one of them to end."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.held: dict[Key, tuple[asyncio.Semaphore, list[int]]] = {}  # a key's semaphore, and its users

    async def run(self, keys: list[Key], answer: Awaitable[None]) -> None:
        """``answer``, once each of ``keys`` has one free; never begun if it is cancelled first (its client left)."""
        begun = False
        try:
            async with AsyncExitStack() as stack:
                for key in keys:  # always in the same order (a group's, then an address's): none waits in a circle
                    await stack.enter_async_context(self.one(key))
                begun = True
                await answer
        finally:
            if not begun and inspect.iscoroutine(answer):
                answer.close()

    def users(self, key: Key) -> int:
        """``key``'s requests, in the app or waiting for it."""
        return self.held[key][1][0] if key in self.held else 0

    @asynccontextmanager
    async def one(self, key: Key | None) -> AsyncIterator[None]:
        """One of ``key``'s, once one is free (at once for no key)."""
        if key is None:
            yield
            return
        semaphore, users = self.held.setdefault(key, (asyncio.Semaphore(self.most), [0]))
        users[0] += 1
        try:
            async with semaphore:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self.held[key]
