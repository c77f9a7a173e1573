"""A request's body, read whole in the server's event loop before a worker thread sees it (asgi.py): a large one into
a temporary file, so a client sending a byte at a time holds a connection, never a thread. A body larger than its
page takes (security/bodies.py) is refused by its length before any of it is read. A body must come at a floor of
speed, and one address keeps so much on disk at once (``Disk``), so a slow sender cannot fill it.
"""

import asyncio
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from .. import config
from ..security.bodies import HELD_BACK, NO_ROOM, SHARE_TAKEN
from ..security.guesses import client_key

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Read = tuple[Scope, "Body", bool]  # the request, its body read whole, and whether it is refused unread

IN_MEMORY = 64 * 1024  # a body larger than this (the API's largest) waits in a temporary file until the app reads it
# A body that stops coming for this long is given up, and its connection closed: a client that sends part of a body
# and waits holds nothing for longer. (A phone's body comes in one go; an import of a club's history, at a few
# hundred kilobytes a second, comes in pieces well under a second apart.)
BODY_WAIT_SECONDS = 20
# And a body must come at this speed on average, after its first BODY_WAIT_SECONDS: a 64 MB import has an hour, and a
# sender trickling a byte every few seconds is given up long before. (A phone on a weak signal sends far faster.)
BODY_RATE = 16 * 1024  # bytes a second
# Bodies from one address kept on disk at once (those past IN_MEMORY, by their length): two of the largest imports.
# Past it, another is refused before any of it is read (the app says 503, try again once they are through). Behind a
# proxy, the address it names (the proxy hands each body on as it comes: docs/open-server.md).
DISK_PER_ADDRESS = 2 * config.IMPORT_MAX
CHUNK = 64 * 1024


class Disk:
    """The bytes of bodies on disk at once, for each client address (an IPv6 one's /64): ``most`` each at most (None:
    no share)."""

    def __init__(self, most: int | None) -> None:
        self.most, self.held = most, Counter[str]()

    def take(self, address: str, size: int) -> bool:
        """Room for ``size`` more bytes of ``address``'s; False, and nothing taken, past its share."""
        if self.most is not None and self.held[address] + size > self.most:
            return False
        self.held[address] += size
        return True

    def give_back(self, address: str, size: int) -> None:
        self.held[address] -= size
        if self.held[address] <= 0:
            del self.held[address]


class Body:
    """A request's body, read whole before the app sees it: then read by the app as the server would hand it. Once
    past IN_MEMORY it is on disk, and counted in its address's share of the disk until closed."""

    def __init__(self, disk: Disk | None = None, address: str = "") -> None:
        self.file = tempfile.SpooledTemporaryFile(IN_MEMORY)
        self.size = 0
        self.disk, self.address, self.taken = disk or Disk(None), address, 0

    def room_for(self, size: int) -> bool:
        """Whether the body may grow to ``size`` bytes: in memory, or on disk within its address's share."""
        if size <= IN_MEMORY or size <= self.taken:
            return True
        if not self.disk.take(self.address, size - self.taken):
            return False
        self.taken = size
        return True

    def write(self, chunk: bytes) -> None:
        self.file.write(chunk)
        self.size += len(chunk)

    async def receive(self) -> Message:
        chunk = self.file.read(CHUNK)
        return {"type": "http.request", "body": chunk, "more_body": len(chunk) == CHUNK}

    def close(self) -> None:
        self.file.close()
        if self.taken:
            self.disk.give_back(self.address, self.taken)
            self.taken = 0


def now() -> float:
    """The clock a body's speed is measured by (a test's own, where it says so)."""
    return time.monotonic()


async def whole_body(scope: Scope, receive: Receive, limit: int, disk: Disk | None = None,
                     address: str = "") -> Read | None:  # fmt: skip
    """The request with its body read whole (its length said in Content-Length, as the app reads it), and whether it
    is refused: then nothing more of it is read, and the app answers it, told a length over ``limit`` (413), that
    the address's share of ``disk`` is taken, or that no file or disk was left for it (HELD_BACK: 503). None when
    the client left first; TimeoutError when its body stopped coming for BODY_WAIT_SECONDS, or came slower than
    BODY_RATE.

    A body with a length takes its room on disk at once, so a share taken refuses it before any of it is read. Its
    share is its ``address``'s: whose request it is (guessers.Guessers.address: behind a proxy, the one it names)."""
    length = content_length(scope)
    body = Body(disk, client_key(address))  # an IPv6 /64 is one address
    if length is not None and length > limit:
        return scope, body, True
    if not body.room_for(length or 0):
        return {**scope, HELD_BACK: SHARE_TAKEN}, body, True
    began = now()
    while True:
        # A piece within BODY_WAIT_SECONDS of the last, and the body so far at BODY_RATE since its start
        wait = min(BODY_WAIT_SECONDS, began + BODY_WAIT_SECONDS + body.size / BODY_RATE - now())
        try:
            if wait <= 0:
                raise TimeoutError()
            message = await asyncio.wait_for(receive(), wait)
        except BaseException:  # the body stopped coming, or the server stops: its file goes at once, not at collection
            body.close()
            raise
        if message["type"] == "http.disconnect":
            body.close()
            return None
        chunk = message.get("body", b"")
        if body.size + len(chunk) > limit:  # sent without a length (chunked), and too large
            body.close()
            return with_length(scope, body.size + len(chunk)), Body(), True
        if not body.room_for(body.size + len(chunk)):  # sent without a length, and past the address's share
            body.close()
            return {**scope, HELD_BACK: SHARE_TAKEN}, Body(), True
        try:
            body.write(chunk)
        except OSError:  # no file (the process's all open: twenty-fifth probe) or no disk left for it
            body.close()
            return {**scope, HELD_BACK: NO_ROOM}, Body(), True
        if not message.get("more_body", False):
            break
    body.file.seek(0)
    return (scope if length == body.size else with_length(scope, body.size)), body, False


def content_length(scope: Scope) -> int | None:
    """The request's Content-Length (the server refused one that is no number).

    >>> content_length({"headers": [(b"host", b"x"), (b"content-length", b"12")]}), content_length({"headers": []})
    (12, None)
    """
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value)
    return None


def with_length(scope: Scope, length: int) -> Scope:
    """The request as the app sees it: its body's length said, whichever way it was sent.

    >>> with_length({"headers": [(b"transfer-encoding", b"chunked"), (b"host", b"x")]}, 3)["headers"]
    [(b'host', b'x'), (b'content-length', b'3')]
    """
    kept = [(name, value) for name, value in scope["headers"] if name not in (b"content-length", b"transfer-encoding")]
    return {**scope, "headers": [*kept, (b"content-length", str(length).encode())]}
