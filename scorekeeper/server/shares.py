"""Each group's and each address's share of the page threads, and the threads given in turn.

- EACH of a group's requests, and of an address's, run in the app at once; the rest wait in the event loop,
  holding a connection and no thread.
- A free thread goes to the waiting request whose group (or address) has had the least time in the app lately
  (each second counts half after HALF_LIFE_SECONDS); the first come among equals.
- The busy groups and addresses (BUSY_SECONDS lately) run BUSY_MOST requests at once in all: the other threads are
  kept for the rest.

Without them, a group's phones asking for a heavy page of their own (the list of a group of 1,500 games, back to
back on eight connections) held every page thread, and another group's phone waited behind them (p50 115 ms, alone
5 ms). The shares keep one group or address to EACH threads, whatever it asks and however slowly it reads the
answers. But four groups from four addresses took the eight threads within their shares, and a phone given a thread
shared the processor with eight heavy requests (p50 198 ms; eight groups: 2.6 s). The turns give the phone the next
thread, and the busy ones run two at once in all, as fast for them (one process runs its Python one thread at a
time) and a phone shares the processor with two (p50 39 ms; 138 ms). A request keeps its share and its thread
until its answer is sent, as the thread writing it does (a client that takes none of an answer is given up after
asgi.SEND_WAIT_SECONDS).

Pages and the app's part of a follow stream take shares; imports and exports have turns and places of their own
(service/turns.py, views/history.py), and an address refused lately takes the guessers' lane instead (guessers.py).
"""

import asyncio
import inspect
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import AsyncExitStack, asynccontextmanager

from ..security.group_scope import group_path
from ..security.guesses import client_key

EACH = 2  # a group's (and an address's) requests in the app at once: a table's taps take milliseconds each
HALF_LIFE_SECONDS = 10.0  # a second in the app counts half this long after, a quarter twice as long after
REMEMBERED = 4096  # keys whose time in the app is remembered before the smallest are forgotten
# A key with this much time lately is busy (a third of a thread, kept up): its requests, and every other busy key's,
# run BUSY_MOST at once in all. More threads would give them no more processor (one process runs its Python one
# thread at a time), and would make every other request share it with them.
BUSY_SECONDS = 5.0
BUSY_MOST = 2


class Shares:
    """The shares taken, and the requests waiting for one (the shares of a key no request holds are forgotten); the
    ``threads`` and the requests waiting for one (None: the shares alone)."""

    def __init__(self, threads: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.each = EACH
        self.held: dict[Hashable, tuple[asyncio.Semaphore, list[int]]] = {}  # a key's share, and its users
        self.threads, self.free, self.clock = threads, threads or 0, clock
        self.busy = 0  # the requests running whose keys are busy
        self.waiting: list[tuple[list[Hashable], asyncio.Future[bool]]] = []  # in the order they came; True: busy
        self.used: dict[Hashable, tuple[float, float]] = {}  # a key's time in the app, as it was at a moment

    @staticmethod
    def keys(address: str | None, path: str) -> list[Hashable]:
        """Whose request this is: on an open server its group's, and its address's (its /64's). The group's share
        is taken first: a group's many requests wait for it, so that a phone of another group at the same address
        (a household, a club's Wi-Fi) waits for the address's share behind two of them at most, not behind all.

        >>> Shares.keys("192.0.2.7", "/g/Ab3/api/games"), Shares.keys(None, "/rules")
        ([('group', 'Ab3'), ('address', '192.0.2.7')], [])
        """
        group = group_path(path)
        return [
            *([("group", group[0])] if group else []),
            *([("address", client_key(address))] if address else []),
        ]

    async def run(self, keys: list[Hashable], answer: Awaitable[None]) -> None:
        """``answer``, once each of ``keys`` has a share free (taken in the same order by every request)."""
        begun = False
        try:
            async with AsyncExitStack() as shares:
                for key in keys:
                    await shares.enter_async_context(self.share(key))
                await shares.enter_async_context(self.thread(keys))
                begun = True
                await answer
        finally:
            if not begun and inspect.iscoroutine(answer):
                answer.close()  # never begun: the server stopped while it waited

    @asynccontextmanager
    async def share(self, key: Hashable) -> AsyncIterator[None]:
        semaphore, users = self.held.setdefault(key, (asyncio.Semaphore(self.each), [0]))
        users[0] += 1
        try:
            async with semaphore:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self.held[key]

    @asynccontextmanager
    async def thread(self, keys: list[Hashable]) -> AsyncIterator[None]:
        """A thread for a request of ``keys``, in its turn; its time in the app counted to each of them."""
        if self.threads is None:
            yield
            return
        turn: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        waiter = (keys, turn)
        self.waiting.append(waiter)
        self.hand_on()
        try:
            busy = await turn  # at once when a thread is free for it
        except asyncio.CancelledError:
            if waiter in self.waiting:
                self.waiting.remove(waiter)
            elif not turn.cancelled():
                self.give_back(turn.result())  # given a thread as it was cancelled: the next one's
            raise
        began = self.clock()
        try:
            yield
        finally:
            self.note(keys, self.clock() - began)
            self.give_back(busy)

    def give_back(self, busy: bool) -> None:
        self.free += 1
        self.busy -= busy
        self.hand_on()

    def hand_on(self) -> None:
        """The free threads to the waiting requests, the one whose keys have had the least time lately first (the
        first come among equals); a busy one only while fewer than BUSY_MOST busy ones run."""
        while self.free and self.waiting:
            now = self.clock()
            chosen = min(self.waiting, key=lambda waiter: self.time_of(waiter[0], now))
            busy = self.time_of(chosen[0], now) >= BUSY_SECONDS
            if busy and self.busy >= BUSY_MOST:
                return  # every waiting request is busy (the least is): a thread is kept for the others
            self.waiting.remove(chosen)
            self.free -= 1
            self.busy += busy
            chosen[1].set_result(busy)

    def time_of(self, keys: list[Hashable], now: float | None = None) -> float:
        """The most time in the app lately of any of ``keys``, in seconds, each halved every HALF_LIFE_SECONDS."""
        at = self.clock() if now is None else now
        return max((self.lately(key, at) for key in keys), default=0.0)

    def lately(self, key: Hashable, now: float) -> float:
        seconds, at = self.used.get(key, (0.0, now))
        return seconds * math.pow(0.5, (now - at) / HALF_LIFE_SECONDS)

    def note(self, keys: list[Hashable], seconds: float) -> None:
        now = self.clock()
        for key in keys:
            self.used[key] = (self.lately(key, now) + seconds, now)
        if len(self.used) > REMEMBERED:  # the least time lately is forgotten first: it counts least
            for key in sorted(self.used, key=lambda key: self.lately(key, now))[: REMEMBERED // 2]:
                del self.used[key]
