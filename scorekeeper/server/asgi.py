"""What the production server runs (serving.py): the Flask app behind a2wsgi, and the follow streams beside it.

Three things happen here, around the Flask app, in the server's event loop:

- a request's body is read whole before a worker thread sees it (a large one into a temporary file), so a client
  sending a byte at a time holds a connection, never a thread; a body larger than its page takes (security/bodies.py)
  is refused by its length before any of it is read, and its connection closed after the app's 413. A body must come
  at a floor of speed, and one address keeps so much on disk at once (``Disk``), so a slow sender cannot fill it;
- a follow stream (``…/follow/events``) is answered by the app first, behind every check any page of the game
  passes; its answer then stays open here, and each change to its game is told on it (news.py). A stream that
  waits costs a connection and nothing else;
- on PostgreSQL, where several processes may share the database, a listener hears every process's changes
  (LISTEN) and tells this process's streams.
"""

import asyncio
import logging
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask

from .. import config
from ..security.bodies import HELD_BACK, body_max
from ..store import news
from ..store.db import db
from ..web.views.follow import FOLLOWS, event
from .connections import Connections

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
# proxy every request comes from the proxy's address, and the proxy reads each body whole before sending it on: then
# there is no such share.
DISK_PER_ADDRESS = 2 * config.IMPORT_MAX
CHUNK = 64 * 1024
# A client that takes none of an answer for this long is given no more of it: the app's thread writing it (a whole
# group's export, say) is let go, and the connection is closed once what it holds is sent.
SEND_WAIT_SECONDS = 20
# A stream with no news says it is alive this often: the page takes a longer silence for a server gone.
ALIVE_SECONDS = 15
ALIVE = b"event: alive\ndata: 1\n\n"
STREAMS = "/follow/events"
FOLLOWS_HEADER = FOLLOWS.lower().encode()  # as the server hands the app's headers on
LISTEN_AGAIN_SECONDS = 5  # a listener that lost its database tries again after this long (the pages poll meanwhile)

log = logging.getLogger(__name__)


class Entry:
    """The ASGI application of ``app``: its pages on ``threads`` worker threads, its follow streams in the loop."""

    def __init__(self, app: Flask, threads: int, connections: Connections | None = None) -> None:
        self.app = app
        self.connections = connections or Connections(None)  # told when each request begins and ends
        # Whether the server is stopping (its server says: serving.py); then the follow streams end, so that it
        # stops at once.
        self.stopping: Callable[[], bool] = lambda: False
        self.closing: asyncio.Event | None = None  # set as the server stops: the streams end
        # a2wsgi types the ASGI messages as TypedDicts: here they are the plain dicts the server hands over
        self.wsgi: Callable[[Scope, Receive, Send], Awaitable[None]] = WSGIMiddleware(app, workers=threads)  # type: ignore
        self.followers: news.Followers | None = app.extensions.get("followers")
        self.largest = int(app.config.get("MAX_CONTENT_LENGTH") or config.IMPORT_MAX)
        self.disk = Disk(None if app.config.get("BEHIND_PROXY") else DISK_PER_ADDRESS)
        self.listener: Listener | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)
        # A websocket: the app takes none, and the server refuses one the app does not accept.

    async def lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.start(asyncio.get_running_loop())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.closing = asyncio.Event()
        self.watching = loop.create_task(self.watch_for_stopping())
        if self.followers is None:
            return
        self.followers.serve_in(loop)
        with self.app.app_context():
            url = db.engine.url
        if url.get_backend_name() == "postgresql":
            conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
            self.listener = Listener(conninfo, loop, self.followers)
            self.listener.start()

    async def watch_for_stopping(self) -> None:
        """Set ``closing`` once the server is told to stop (uvicorn's own flag, looked at a few times a second)."""
        while not self.stopping():
            await asyncio.sleep(0.2)
        if self.closing is not None:
            self.closing.set()

    def stop(self) -> None:
        if self.closing is not None:
            self.closing.set()
            self.watching.cancel()
        if self.followers is not None:
            self.followers.serve_in(None)
        if self.listener is not None:
            self.listener.stop()

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A request whose headers are whole (its connection's deadline for them is over), answered."""
        self.connections.began(scope.get("client"))
        try:
            await self.answer(scope, receive, send)
        finally:
            self.connections.ended(scope.get("client"))

    async def answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            read = await whole_body(scope, receive, body_max(scope["path"], self.largest), self.disk)
        except TimeoutError:
            await send({"type": "http.response.start", "status": 408, "headers": [(b"connection", b"close")]})
            await send({"type": "http.response.body", "body": b""})
            return
        if read is None:
            return  # the client left before its request was whole: nobody to answer
        scope, body, refused = read
        try:
            if refused:
                await self.wsgi(scope, body.receive, closing(send))
            elif scope["method"] == "GET" and scope["path"].endswith(STREAMS):
                await self.stream(scope, body.receive, receive, send)
            else:
                await self.wsgi(scope, body.receive, Taken(send))
        finally:
            body.close()

    async def stream(self, scope: Scope, body: Receive, receive: Receive, send: Send) -> None:
        """The app's answer to a follow stream; kept open, with each of the game's news, when the app asks so."""
        said: list[Message] = []
        early: list[tuple[int, str]] = []  # the games' news while the app answers: none made meanwhile is lost

        async def keep(message: Message) -> None:
            said.append(message)

        def heard(game_id: int, version: str) -> None:
            early.append((game_id, version))

        if self.followers is not None:
            self.followers.opening.add(heard)
        try:
            await self.wsgi(scope, body, keep)
        finally:
            if self.followers is not None:
                self.followers.opening.discard(heard)
        start, rest = said[0], said[1:]
        game = dict(start["headers"]).get(FOLLOWS_HEADER)
        if start["status"] != 200 or game is None or self.followers is None:
            headers = [(name, value) for name, value in start["headers"] if name != FOLLOWS_HEADER]
            for message in [{**start, "headers": headers}, *rest]:
                await send(message)
            return
        # The app's word to this server is no header of the stream's, and a stream has no length.
        headers = [(name, value) for name, value in start["headers"] if name not in (FOLLOWS_HEADER, b"content-length")]
        told = Told(self.closing)
        self.followers.follow(int(game), told)
        for game_id, version in early:
            if game_id == int(game):
                told(version)
        try:
            await send({**start, "headers": headers})
            first = b"".join(message.get("body", b"") for message in rest)
            await send({"type": "http.response.body", "body": first, "more_body": True})
            await told.until_gone(receive, send)
        finally:
            self.followers.leave(int(game), told)


class Told:
    """One stream's news: the game's newest version, told in the loop's thread."""

    def __init__(self, closing: asyncio.Event | None) -> None:
        self.version: str | None = None
        self.changed = asyncio.Event()
        self.closing = closing or asyncio.Event()

    def __call__(self, version: str) -> None:
        self.version = version
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
                if closing.done():  # the server stops: the stream ends, and the page opens it again elsewhere
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


class Disk:
    """The bytes of bodies on disk at once, for each client address: ``most`` each at most (None: no share)."""

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


async def whole_body(scope: Scope, receive: Receive, limit: int, disk: Disk | None = None) -> Read | None:
    """The request with its body read whole (its length said in Content-Length, as the app reads it), and whether it
    is refused: then nothing more of it is read, and the app answers it, told a length over ``limit`` (413) or that
    the address's share of ``disk`` is taken (HELD_BACK: 503). None when the client left first; TimeoutError when its
    body stopped coming for BODY_WAIT_SECONDS, or came slower than BODY_RATE.

    A body with a length takes its room on disk at once, so a share taken refuses it before any of it is read."""
    length = content_length(scope)
    body = Body(disk, str((scope.get("client") or ("",))[0]))
    if length is not None and length > limit:
        return scope, body, True
    if not body.room_for(length or 0):
        return {**scope, HELD_BACK: True}, body, True
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
            return {**scope, HELD_BACK: True}, Body(), True
        body.write(chunk)
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


class Taken:
    """``send``, given up once the client has taken nothing for SEND_WAIT_SECONDS: the rest of the answer is dropped,
    so the thread writing it goes on to its end (and frees what it holds) instead of waiting for the client."""

    def __init__(self, send: Send) -> None:
        self.send, self.given_up = send, False

    async def __call__(self, message: Message) -> None:
        if self.given_up:
            return
        try:
            await asyncio.wait_for(self.send(message), SEND_WAIT_SECONDS)
        except TimeoutError:
            self.given_up = True
            log.info("A client took none of its answer for %d s: the rest is dropped.", SEND_WAIT_SECONDS)


def closing(send: Send) -> Send:
    """``send``, its answer closing the connection: the rest of a refused body is never read."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message["headers"], (b"connection", b"close")]}
        await send(message)

    return sending


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
