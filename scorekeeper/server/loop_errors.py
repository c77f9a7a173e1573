"""What the server says of errors that come again and again, kept to a line a minute for each.

Out of files (the process's all open), asyncio cannot take a new connection, and says so with a traceback for each
one it tries, up to its backlog each time it tries again: 150 MB of log a minute (twenty-third probe). And uvicorn
warns of each connection that sends what is no HTTP request: 3.8 MB a minute from a crowd opening thousands a
second (twenty-sixth probe). Here each is said once a minute, with how many times since; any other error as asyncio
or uvicorn says it.
"""

import asyncio
import logging
import time
from collections import defaultdict
from typing import Any

ACCEPT_FAILED = "socket.accept() out of system resource"  # asyncio's words for it
SAID_EVERY = 60.0  # seconds
UVICORN = "uvicorn.error"  # the logger of uvicorn's warnings of a client's request (h11_impl.py)

log = logging.getLogger(__name__)


class Tally:
    """How many times one thing happened since it was last said."""

    def __init__(self) -> None:
        self.said: float | None = None  # when it was last said
        self.unsaid = 0

    def due(self) -> int | None:
        """It happened again: how many times to say, if it is time to say it (None: not yet)."""
        self.unsaid += 1
        now = time.monotonic()
        if self.said is not None and now - self.said < SAID_EVERY:
            return None
        count, self.said, self.unsaid = self.unsaid, now, 0
        return count


class LoopErrors:
    """The loop's exception handler (``loop.set_exception_handler``)."""

    def __init__(self) -> None:
        self.tally = Tally()

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != ACCEPT_FAILED:
            loop.default_exception_handler(context)
        elif (count := self.tally.due()) is not None:
            log.error("No file left for new connections: %d not taken (%s); said again in a minute at most",
                      count, context.get("exception"))  # fmt: skip


class Warnings(logging.Filter):
    """uvicorn's warnings (UVICORN), each said once a minute at most, with how many times."""

    def __init__(self) -> None:
        super().__init__()
        self.tallies: defaultdict[str, Tally] = defaultdict(Tally)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING:
            return True
        said = record.getMessage()
        count = self.tallies[said].due()
        if count is None:
            return False
        record.msg, record.args = "%s (×%d; said again in a minute at most)", (said, count)
        return True


def hush_uvicorn() -> None:
    """uvicorn's warnings said once a minute each, from now on (once in a process, however many servers it runs)."""
    logger = logging.getLogger(UVICORN)
    if not any(isinstance(each, Warnings) for each in logger.filters):
        logger.addFilter(Warnings())
