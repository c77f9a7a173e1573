"""What the production server runs (serving.py): the Flask app behind a2wsgi, and the follow streams beside it.

Three things happen here, around the Flask app, in the server's event loop:

- a request's body is read whole before a worker thread sees it (reading.py); a body refused for its size has its
  connection closed after the app's 413. An import runs on threads of its own, more than the imports' turns hold
  (service/turns.py), so that imports waiting their turn never hold a thread the pages need, and one past the turns
  is refused at once;
- a follow stream (``…/follow/events``) is answered by the app first, behind every check any page of the game
  passes; its answer then stays open here, and each change to its game is told on it (news.py). A stream that
  waits costs a connection and nothing else;
- on PostgreSQL, where several processes may share the database, a listener hears every process's changes
  (LISTEN) and tells this process's streams.
"""

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable

from a2wsgi import WSGIMiddleware
from flask import Flask

from .. import config
from ..security.bodies import IMPORT, body_kind, body_max
from ..service import turns
from ..store import news
from ..store.db import db
from ..web.views.follow import FOLLOWS, event
from .connections import Connections
from .guessers import Guessers, Lane
from .reading import DISK_PER_ADDRESS, Disk, Message, Receive, Scope, whole_body

Send = Callable[[Message], Awaitable[None]]

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
    """The ASGI application of ``app``: its pages on ``threads`` worker threads, its imports on threads of their
    own, its follow streams in the loop."""

    def __init__(self, app: Flask, threads: int, connections: Connections | None = None) -> None:
        self.app = app
        self.connections = connections or Connections(None)  # told when each request begins and ends
        # Whether the server is stopping (its server says: serving.py); then the follow streams end, so that it
        # stops at once.
        self.stopping: Callable[[], bool] = lambda: False
        self.closing: asyncio.Event | None = None  # set as the server stops: the streams end
        self.wsgi = on_threads(app, threads)
        # as many as the turns hold, and as many again as the pages have, to refuse at once the imports past them
        self.imports = on_threads(app, turns.AT_ONCE + threads)
        self.followers: news.Followers | None = app.extensions.get("followers")
        self.largest = int(app.config.get("MAX_CONTENT_LENGTH") or config.IMPORT_MAX)
        self.disk = Disk(None if app.config.get("BEHIND_PROXY") else DISK_PER_ADDRESS)
        self.guessers = Guessers(watching=not app.config.get("BEHIND_PROXY"))
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
        client = scope.get("client")
        lane = self.guessers.lane_of(client)  # the app's part of the answer, once it may run
        send = self.guessers.watch(client, send)
        try:
            if refused:
                await lane(self.wsgi(scope, body.receive, closing(send)))
            elif scope["method"] == "GET" and scope["path"].endswith(STREAMS):
                await self.stream(scope, body.receive, receive, send, lane)
            elif scope["method"] == "POST" and body_kind(scope["path"]) == IMPORT:
                await lane(self.imports(scope, body.receive, Taken(send)))
            else:
                await lane(self.wsgi(scope, body.receive, Taken(send)))
        finally:
            body.close()

    async def stream(self, scope: Scope, body: Receive, receive: Receive, send: Send, lane: Lane) -> None:
        """The app's answer to a follow stream (in its ``lane``); kept open, with each of the game's news, when the app
        asks so."""
        said: list[Message] = []
        early: list[tuple[int, str]] = []  # the games' news while the app answers: none made meanwhile is lost

        async def keep(message: Message) -> None:
            said.append(message)

        def heard(game_id: int, version: str) -> None:
            early.append((game_id, version))

        if self.followers is not None:
            self.followers.opening.add(heard)
        try:
            await lane(self.wsgi(scope, body, keep))
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


def on_threads(app: Flask, threads: int) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """``app`` as an ASGI application, run on ``threads`` worker threads of its own."""
    # a2wsgi types the ASGI messages as TypedDicts: here they are the plain dicts the server hands over
    return WSGIMiddleware(app, workers=threads)  # type: ignore


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
