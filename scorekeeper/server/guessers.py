"""Addresses the app refused lately (429: too many wrong keys, passcodes or new groups; 404: a key no group has;
400: a request no page takes): their requests take a lane of one thread, so that a flood of guesses from many
addresses waits behind itself, never in front of a group's own phones.

A guess past its address's limit writes nothing (security/allowances.py), but is still a request for the app to
read and answer: a flood from a hundred addresses at full speed took the one process's processor, and a phone's
page waited behind a hundred guesses (p50 350 ms). Here, for LANE_SECONDS after a refusal, an address's requests
wait in the event loop (holding a connection, no thread) for the lane, and run one at a time: the phones' requests
find the other threads free. A request keeps the lane for HOLD_SECONDS at most, and then goes on beside it, so that
one answer sent slowly (an export read a byte at a time) never stops the lane. Behind a proxy, an address is the
one the proxy names (X-Forwarded-For, as the app reads it with werkzeug's ProxyFix).
"""

import asyncio
import functools
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable

from ..security.guesses import client_key
from .reading import Message, Scope, Send

Lane = Callable[[Awaitable[None]], Awaitable[None]]

LANE_SECONDS = 10  # after an address's last refusal: a phone that met one 404 is soon out of the lane again
HOLD_SECONDS = 1.0  # a request keeps the lane this long at most (a guess takes a few milliseconds)
REFUSED = {400, 404, 429}


class Guessers:
    """The addresses refused lately, and the lane their requests take: one request of each address waits for it at
    a time, so an address with many requests under way makes the others wait for one of them, not for all."""

    def __init__(self, proxies: int = 0) -> None:
        self.proxies = proxies  # in front of the server, each adding its client to X-Forwarded-For (0: none)
        # an address's key (guesses.client_key), and the end of its time: the soonest to end first
        self.until: OrderedDict[str, float] = OrderedDict()
        self.lane: asyncio.Semaphore | None = None  # made in the server's loop, at its first use
        self.waiting: dict[str, tuple[asyncio.Lock, list[int]]] = {}  # each address's turn to wait, and its users

    def address(self, scope: Scope) -> str | None:
        """Whose request this is: the client's address, or behind proxies the one they name (None: unknown)."""
        if not self.proxies:
            client = scope.get("client")
            return str(client[0]) if client else None
        named = b",".join(value for name, value in scope["headers"] if name == b"x-forwarded-for")
        hops = [hop.strip() for hop in named.decode("latin-1").split(",") if hop.strip()]
        return hops[-self.proxies] if len(hops) >= self.proxies else None

    def lane_of(self, scope: Scope) -> Lane:
        """How a request runs: in the lane, or at once."""
        address = self.address(scope)
        key = client_key(address) if address else ""
        ends = self.until.get(key)
        return functools.partial(self.in_lane, key) if ends is not None and ends > time.monotonic() else at_once

    async def in_lane(self, key: str, answer: Awaitable[None]) -> None:
        """``answer`` once its address's turn has come and the lane is free, holding both until the answer is over
        or HOLD_SECONDS have passed."""
        if self.lane is None:
            self.lane = asyncio.Semaphore(1)
        turn, users = self.waiting.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        running: asyncio.Future[None] | None = None
        try:
            async with turn, self.lane:
                running = asyncio.ensure_future(answer)
                await asyncio.wait({running}, timeout=HOLD_SECONDS)
            await running
        except asyncio.CancelledError:
            if running is not None:
                running.cancel()
            raise
        finally:
            users[0] -= 1
            if not users[0]:
                del self.waiting[key]

    def watch(self, scope: Scope, send: Send) -> Send:
        """``send``, noting the request's address when its answer is a refusal."""
        address = self.address(scope)
        if address is None:
            return send

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in REFUSED:
                self.note(address)
            await send(message)

        return sending

    def note(self, address: str) -> None:
        """The address refused now: in the lane for LANE_SECONDS; the addresses whose time is over are forgotten."""
        now = time.monotonic()
        while self.until and next(iter(self.until.values())) <= now:
            self.until.popitem(last=False)
        key = client_key(address)
        self.until.pop(key, None)
        self.until[key] = now + LANE_SECONDS  # the latest to end: last


async def at_once(answer: Awaitable[None]) -> None:
    await answer
