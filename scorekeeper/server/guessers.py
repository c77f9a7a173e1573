"""Addresses the app answered 429 lately (too many wrong keys, passcodes or new groups): their requests take a
lane of one thread, so that a flood of guesses from many addresses waits behind itself, never in front of a
group's own phones.

A guess past its address's limit writes nothing (security/allowances.py), but is still a request for the app to
read and answer: a flood from a hundred addresses at full speed took the one process's processor, and a phone's
page waited behind a hundred guesses (p50 350 ms). Here, for LANE_SECONDS after an answer of 429 to an address, its
requests wait in the event loop (holding a connection, no thread) for the lane, and run one at a time: the phones'
requests find the other threads free. A request keeps the lane for HOLD_SECONDS at most, and then goes on beside
it, so that one answer sent slowly (an export read a byte at a time) never stops the lane. Without a proxy only:
behind one, every request comes from the proxy's address (its own limits are the proxy's to keep).
"""

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..security.guesses import client_key
from .reading import Message, Send

Lane = Callable[[Awaitable[None]], Awaitable[None]]

LANE_SECONDS = 60  # after an address's last 429
HOLD_SECONDS = 1.0  # a request keeps the lane this long at most (a guess takes a few milliseconds)
REMEMBERED = 4096  # addresses kept before those whose time is over are forgotten
TOO_MANY = 429


class Guessers:
    """The addresses answered 429 lately, and the lane their requests take (None: no lane, every request alike)."""

    def __init__(self, watching: bool) -> None:
        self.watching = watching
        self.until: dict[str, float] = {}  # an address's key (guesses.client_key), and the end of its time
        self.lane: asyncio.Semaphore | None = None  # made in the server's loop, at its first use

    def lane_of(self, client: Any) -> Lane:
        """How a request from ``client`` (ASGI's scope["client"]) runs: in the lane, or at once."""
        if not self.watching or client is None:
            return at_once
        ends = self.until.get(client_key(str(client[0])))
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

    def watch(self, client: Any, send: Send) -> Send:
        """``send``, noting ``client``'s address when its answer is a 429."""
        if not self.watching or client is None:
            return send

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == TOO_MANY:
                self.note(str(client[0]))
            await send(message)

        return sending

    def note(self, address: str) -> None:
        now = time.monotonic()
        if len(self.until) >= REMEMBERED:
            self.until = {key: ends for key, ends in self.until.items() if ends > now}
        self.until[client_key(address)] = now + LANE_SECONDS


async def at_once(answer: Awaitable[None]) -> None:
    await answer
