"""What an answer's ``send`` does besides sending (asgi.py): say whether the answer has begun, give up a client that
takes none of it, close the connection after a refusal."""

import asyncio
import logging
from collections.abc import Callable

from .reading import Message, Send

# A client that takes none of an answer for this long is given no more of it: the app's thread writing it (a whole
# group's export, say) is let go, and the connection is closed once what it holds is sent.
SEND_WAIT_SECONDS = 20

log = logging.getLogger(__name__)


class Answering:
    """``send``, and whether the answer has begun."""

    def __init__(self, send: Send) -> None:
        self.send, self.begun = send, False

    async def __call__(self, message: Message) -> None:
        self.begun = True
        await self.send(message)


class Taken:
    """``send``, given up once the client has taken nothing for SEND_WAIT_SECONDS: the rest of the answer is dropped,
    so the thread writing it goes on to its end (and frees what it holds) instead of waiting for the client; and its
    connection is ``cut`` at once, what it was sent and never took dropped with it."""

    def __init__(self, send: Send, cut: Callable[[], None] = lambda: None) -> None:
        self.send, self.cut, self.given_up = send, cut, False

    async def __call__(self, message: Message) -> None:
        if self.given_up:
            return
        try:
            await asyncio.wait_for(self.send(message), SEND_WAIT_SECONDS)
        except TimeoutError:
            self.given_up = True
            self.cut()
            log.info("A client took none of its answer for %d s: the rest is dropped.", SEND_WAIT_SECONDS)


def closing(send: Send) -> Send:
    """``send``, its answer closing the connection: the rest of a refused body is never read."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message["headers"], (b"connection", b"close")]}
        await send(message)

    return sending
