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
import time
from collections.abc import Awaitable, Callable

from ..security.guesses import client_key
from .reading import Message, Scope, Send

Lane = Callable[[Awaitable[None]], Awaitable[None]]

LANE_SECONDS = 10  # after an address's last refusal: a phone that met one 404 is soon out of the lane again
HOLD_SECONDS = 1.0  # a request keeps the lane this long at most (a guess takes a few milliseconds)
REMEMBERED = 4096  # addresses kept before those whose time is over are forgotten
REFUSED = {400, 404, 429}


class Guessers:
    """The addresses refused lately, and the lane their requests take."""

    def __init__(self, proxies: int = 0) -> None:
        self.proxies = proxies  # in front of the server, each adding its client to X-Forwarded-For (0: none)
        self.until: dict[str, float] = {}  # an address's key (guesses.client_key), and the end of its time
        self.lane: asyncio.Semaphore | None = None  # made in the server's loop, at its first use

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
        ends = self.until.get(client_key(address)) if address else None
        return self.in_lane if ends is not None and ends > time.monotonic() else at_once

    async def in_lane(self, answer: Awaitable[None]) -> None:
        """``answer`` once the lane is free, holding it until the answer is over or HOLD_SECONDS have passed."""
        if self.lane is None:
            self.lane = asyncio.Semaphore(1)
        async with self.lane:
            running = asyncio.ensure_future(answer)
            try:
                await asyncio.wait({running}, timeout=HOLD_SECONDS)
            except asyncio.CancelledError:
                running.cancel()
                raise
        try:
            await running
        except asyncio.CancelledError:
            running.cancel()
            raise

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
        now = time.monotonic()
        if len(self.until) >= REMEMBERED:
            self.until = {key: ends for key, ends in self.until.items() if ends > now}
        self.until[client_key(address)] = now + LANE_SECONDS


async def at_once(answer: Awaitable[None]) -> None:
    await answer
