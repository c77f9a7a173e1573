"""The follow streams (``…/follow/events``), kept open in the server's event loop (asgi.py).

A stream is answered by the app first, behind every check any page of the game passes; its answer then stays open
here, and each change to its game is told on it (news.py). A stream that waits costs a connection and nothing else;
a process keeps STREAMS_MOST open at most, so that its other connections are the pages' (``Streams``). One it has no
place for is answered NO_STREAM before the app, holding no thread: whatever its path, it says nothing of a group
or a game.
On PostgreSQL, where several processes may share the database, a listener hears every process's changes (LISTEN)
and tells this process's streams.
"""

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

from ..store import news
from ..web.views.follow import FOLLOWS, event
from .held import Held
from .reading import Message, Receive, Send

# A stream with no news says it is alive this often: the page takes a longer silence for a server gone.
ALIVE_SECONDS = 15
ALIVE = b"event: alive\ndata: 1\n\n"
STREAMS = "/follow/events"
FOLLOWS_HEADER = FOLLOWS.lower().encode()  # as the server hands the app's headers on
LISTEN_AGAIN_SECONDS = 5  # a listener that lost its database tries again after this long (the pages poll meanwhile)
# Follow streams open at once in a process, at most: of its connections (serving.CONNECTIONS), the rest are for the
# pages. Past it, a new stream takes the place of the oldest of the address holding the most, while that address
# holds more than one more; else it is answered 204, and its page asks every five seconds instead (follow.js).
STREAMS_MOST = 3000
NO_STREAM = 204  # an EventSource told this opens no stream again (the page asks instead)

log = logging.getLogger(__name__)


class Streams:
    """The follow streams open in a process, by the address each comes from (behind a proxy, the one it names): so
    many at most, and past them, each address as many as the one that holds the most, give or take one."""

    def __init__(self, most: int | None = None) -> None:
        self.most = STREAMS_MOST if most is None else most
        self.held = Held["Told"]()

    def room_for(self, address: str) -> bool:
        """Whether a new stream from ``address`` may have a place (``take``): asked before the app answers it, so a
        stream refused costs no thread."""
        return len(self.held) < self.most or self.held.to_give_way(self.held.count(address)) is not None

    def take(self, address: str, told: "Told") -> bool:
        """A place for ``told``'s stream from ``address``: at once while there are fewer than ``most``; else the
        oldest stream of the address holding the most ends for it, if that holds more than one more; else none."""
        if len(self.held) >= self.most:
            giving = self.held.to_give_way(self.held.count(address))
            if giving is None:
                return False
            oldest_address, oldest = giving
            oldest.end()
            self.held.remove(oldest_address, oldest)
        self.held.add(address, told)
        return True


async def follow(answer: Callable[[Send], Awaitable[None]], followers: news.Followers | None,
                 closing: asyncio.Event | None, receive: Receive, send: Send, streams: Streams | None = None,
                 address: str = "", waiting: Callable[[], None] = lambda: None) -> None:  # fmt: skip
    """The app's ``answer`` to a follow stream (each of its messages to the send it is given); kept open, with each
    of the game's news, when the app asks so and the process has ``followers`` and one of ``streams``' places for
    ``address`` (else NO_STREAM), until the client leaves or ``closing`` is set. ``waiting`` is called as the stream
    opens, to wait for news."""
    if followers is not None and streams is not None and not streams.room_for(address):
        await no_stream(send)  # before the app: an address crowding the process with streams takes no thread
        return
    said: list[Message] = []
    early: list[tuple[int, str]] = []  # the games' news while the app answers: none made meanwhile is lost

    async def keep(message: Message) -> None:
        said.append(message)

    def heard(game_id: int, version: str) -> None:
        early.append((game_id, version))

    if followers is not None:
        followers.opening.add(heard)
    try:
        await answer(keep)
    finally:
        if followers is not None:
            followers.opening.discard(heard)
    start, rest = said[0], said[1:]
    game = dict(start["headers"]).get(FOLLOWS_HEADER)
    if start["status"] != 200 or game is None or followers is None:
        headers = [(name, value) for name, value in start["headers"] if name != FOLLOWS_HEADER]
        for message in [{**start, "headers": headers}, *rest]:
            await send(message)
        return
    # The app's word to this server is no header of the stream's, and a stream has no length.
    headers = [(name, value) for name, value in start["headers"] if name not in (FOLLOWS_HEADER, b"content-length")]
    told = Told(closing)
    if streams is not None and not streams.take(address, told):
        await no_stream(send)
        return
    followers.follow(int(game), told)
    for game_id, version in early:
        if game_id == int(game):
            told(version)
    try:
        waiting()
        await send({**start, "headers": headers})
        first = b"".join(message.get("body", b"") for message in rest)
        await send({"type": "http.response.body", "body": first, "more_body": True})
        await told.until_gone(receive, send)
    finally:
        followers.leave(int(game), told)
        if streams is not None:
            streams.held.remove(address, told)  # its place is free (it may have been given already)


async def no_stream(send: Send) -> None:
    await send({"type": "http.response.start", "status": NO_STREAM, "headers": []})
    await send({"type": "http.response.body", "body": b""})


class Told:
    """One stream's news: the game's newest version, told in the loop's thread."""

    def __init__(self, closing: asyncio.Event | None) -> None:
        self.version: str | None = None
        self.changed = asyncio.Event()
        self.closing = closing or asyncio.Event()
        self.over = False  # it ends, for another stream's place (Streams.take)

    def __call__(self, version: str) -> None:
        self.version = version
        self.changed.set()

    def end(self) -> None:
        """The stream ends, as a whole answer: its page opens it again (or asks every few seconds)."""
        self.over = True
        self.changed.set()

    async def until_gone(self, receive: Receive, send: Send) -> None:
        """Tell each version on the stream (and that it is alive, when there is none for a while), until the client
        leaves or the game is deleted."""
        gone = asyncio.ensure_future(receive())  # the request was read whole: what comes next is its disconnect
        closing = asyncio.ensure_future(self.closing.wait())
        try:
            while not gone.done():
                waiting = asyncio.ensure_future(self.changed.wait())
                await asyncio.wait({gone, waiting, closing}, timeout=ALIVE_SECONDS, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                if gone.done():
                    return
                # the server stops, or the stream's place is another's: it ends, and the page opens it again
                if closing.done() or self.over:
                    break
                if not self.changed.is_set():
                    await send({"type": "http.response.body", "body": ALIVE, "more_body": True})
                    continue
                self.changed.clear()
                version = self.version or ""
                await send({"type": "http.response.body", "body": event(version).encode(), "more_body": True})
                if not version:  # deleted: the page says so, and asks no more
                    break
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            closing.cancel()


class Listener(threading.Thread):
    """PostgreSQL's news of the games (LISTEN), for this process's streams: in a thread of its own, with the driver
    as every platform runs it; a database lost is tried again every few seconds."""

    def __init__(self, conninfo: str, loop: asyncio.AbstractEventLoop, followers: news.Followers) -> None:
        super().__init__(name="news-listener", daemon=True)
        self.conninfo, self.loop, self.followers = conninfo, loop, followers
        self.stopping = threading.Event()
        self.listening = threading.Event()  # set while it listens (a test waits for it)

    def run(self) -> None:
        import psycopg

        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {news.CHANNEL}")
                    self.listening.set()
                    while not self.stopping.is_set():
                        for notice in connection.notifies(timeout=1.0):
                            self.loop.call_soon_threadsafe(self.followers.heard, notice.payload)
            except Exception as failed:  # the database gone, or restarting: the pages' slow poll goes on meanwhile
                log.warning("Not hearing the other processes' changes (%s): trying again in %d s.", failed,
                            LISTEN_AGAIN_SECONDS)  # fmt: skip
            self.listening.clear()
            self.stopping.wait(LISTEN_AGAIN_SECONDS)

    def stop(self) -> None:
        self.stopping.set()
