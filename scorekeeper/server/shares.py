"""Each group's and each address's share of the page threads: EACH of its requests run in the app at once, and the
rest wait in the event loop, holding a connection and no thread.

Without it, a group's phones asking for a heavy page of their own (the list of a group of 1,500 games, back to back
on eight connections) held every page thread, and another group's phone waited behind them (p50 115 ms, alone 5
ms). With it, a group or an address has EACH threads at most, whatever it asks and however slowly it reads the
answers: the other threads are the other groups'. A request keeps its share until its answer is sent, as the thread
writing it does (a client that takes none of an answer is given up after asgi.SEND_WAIT_SECONDS).

Pages and the app's part of a follow stream take shares; imports and exports have turns and places of their own
(service/turns.py, views/history.py), and an address refused lately takes the guessers' lane instead (guessers.py).
"""

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Hashable
from contextlib import AsyncExitStack, asynccontextmanager

from ..security.group_scope import group_path
from ..security.guesses import client_key

EACH = 2  # a group's (and an address's) requests in the app at once: a table's taps take milliseconds each


class Shares:
    """The shares taken, and the requests waiting for one: the shares of a key no request holds are forgotten."""

    def __init__(self) -> None:
        self.each = EACH
        self.held: dict[Hashable, tuple[asyncio.Semaphore, list[int]]] = {}  # a key's share, and its users

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
