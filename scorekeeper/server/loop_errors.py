"""What the server's event loop says of an error no callback of its caught, kept to a line a minute where asyncio
would say it for every connection.

Out of files (the process's all open), asyncio cannot take a new connection, and says so with a traceback for each
one it tries, up to its backlog each time it tries again: 150 MB of log a minute (twenty-third probe). Here it is said
once a minute, with how many since; the server makes room for connections before files (serving.py), so it should
never be said at all. Any other error is said as asyncio says it.
"""

import asyncio
import logging
import time
from typing import Any

ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's words for it
SAID_EVERY = 60.0  # seconds

log = logging.getLogger(__name__)


class LoopErrors:
    """The loop's exception handler (``loop.set_exception_handler``)."""

    def __init__(self) -> None:
        self.said: float | None = None  # when the last was said
        self.unsaid = 0  # connections not taken since

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != ACCEPT_FAILED:
            loop.default_exception_handler(context)
            return
        self.unsaid += 1
        now = time.monotonic()
        if self.said is None or now - self.said >= SAID_EVERY:
            log.error("No file left for new connections: %d not taken (%s); said again in a minute at most",
                      self.unsaid, context.get("exception"))  # fmt: skip
            self.said, self.unsaid = now, 0
