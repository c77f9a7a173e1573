"""What the production server runs (serving.py): the Flask app behind a2wsgi, and the follow streams beside it.

Three things happen here, around the Flask app, in the server's event loop:

- a request's body is read whole before a worker thread sees it (reading.py); a body refused for its size has its
  connection closed after the app's 413. An import runs on threads of its own, more than the imports' turns hold
  and those waiting for a place in them hold (service/turns.py), so that imports waiting never hold a thread the
  pages need; and so does an export (the app writes EXPORTS_MOST at once, and places.WAITING wait for one),
  once its group and its address have fewer than EXPORTS_AT_ONCE in the app: the rest wait here, holding no thread;
- a follow stream (``…/follow/events``) is answered by the app first, then kept open, each change to its game told
  on it (streams.py), and on PostgreSQL a listener hears every process's changes;
- an address refused lately has its requests run in a lane of one thread (guessers.py); any other page waits for
  its group's and its address's share of the threads (shares.py).
"""

import asyncio
import functools
import inspect
import threading
from collections.abc import Awaitable, Callable

from a2wsgi import WSGIMiddleware
from flask import Flask

from .. import config
from ..security.bodies import IMPORT, body_kind, body_max
from ..security.guesses import client_key
from ..service import places, turns
from ..store import news
from ..store.db import db
from ..web.views.history import CLIENT_LEFT, EXPORTS_AT_ONCE, EXPORTS_MOST, is_export
from .connections import Connections
from .guessers import Guessers, Lane, at_once
from .loop_errors import LoopErrors
from .reading import DISK_PER_ADDRESS, Disk, Receive, Scope, Send, whole_body
from .sending import Answering, Taken, closing
from .shares import Each, Key, Shares
from .streams import STREAMS, Listener, Streams, follow


class Entry:
    """The ASGI application of ``app``: its pages on ``threads`` worker threads, its imports on threads of their
    own, its follow streams in the loop."""

    def __init__(self, app: Flask, threads: int, connections: Connections | None = None) -> None:
        self.app = app
        self.connections = connections or Connections(None)  # told when each request begins and ends
        self.streams = Streams()  # the follow streams open, by address
        # Whether the server is stopping (its server says: serving.py); then the follow streams end, so that it
        # stops at once.
        self.stopping: Callable[[], bool] = lambda: False
        self.closing: asyncio.Event | None = None  # set as the server stops: the streams end
        self.wsgi = on_threads(app, threads)
        # as many as the turns hold (and the exports written at once, and waiting for a place), and as many again as the
        # pages have, to refuse at once the imports (and exports) past them
        self.imports = on_threads(app, 2 * turns.AT_ONCE + turns.COMING + threads)  # placed, displaced, coming
        self.exports = on_threads(app, EXPORTS_MOST + places.WAITING + threads)
        self.followers: news.Followers | None = app.extensions.get("followers")
        self.largest = int(app.config.get("MAX_CONTENT_LENGTH") or config.IMPORT_MAX)
        self.disk = Disk(DISK_PER_ADDRESS)
        self.guessers = Guessers(int(app.config.get("BEHIND_PROXY") or 0))
        self.shares = Shares(threads)  # and the pages' threads, given in turn
        self.exporting = Each(EXPORTS_AT_ONCE)  # each group's and address's exports in the app
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
        loop.set_exception_handler(LoopErrors())
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
        """A request whose headers are whole (its connection's deadline for them is over), answered.

        One still waiting (for its body, for its turn) when the server stops, past the seconds it gives what is under
        way, is answered 503 if nothing of its answer was sent: try again in a moment, on a process that runs. Else
        the server logged a traceback and answered 500 for each, thousands when a crowd's requests wait (twenty-fifth
        probe)."""
        self.connections.began(scope.get("client"))
        answering = Answering(send)
        try:
            await self.answer(scope, receive, answering)
        except asyncio.CancelledError:
            if not self.stopping():
                raise
            if not answering.begun:
                await send({"type": "http.response.start", "status": 503, "headers": [
                    (b"content-length", b"0"), (b"retry-after", b"5"), (b"connection", b"close")]})  # fmt: skip
                await send({"type": "http.response.body", "body": b""})
        finally:
            self.connections.ended(scope.get("client"))

    async def answer(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            limit, address = body_max(scope["path"], self.largest), self.guessers.address(scope) or ""
            read = await whole_body(scope, receive, limit, self.disk, address)
            self.connections.read(scope.get("client"))
        except TimeoutError:
            await send({"type": "http.response.start", "status": 408, "headers": [(b"connection", b"close")]})
            await send({"type": "http.response.body", "body": b""})
            return
        if read is None:
            return  # the client left before its request was whole: nobody to answer
        scope, body, refused = read
        left = threading.Event()  # the app reads it (CLIENT_LEFT, through a2wsgi's environ["asgi.scope"])
        scope = {**scope, CLIENT_LEFT: left}
        lane = self.guessers.lane_of(scope)  # the app's part of the answer, once it may run
        page = lane if lane is not at_once else self.share_of(scope)  # and a page's
        send = self.guessers.watch(scope, send)
        try:
            if refused:
                await page(self.wsgi(scope, body.receive, closing(send)))
            elif scope["method"] == "GET" and scope["path"].endswith(STREAMS):

                async def app_answer(keep: Send) -> None:
                    await page(self.wsgi(scope, body.receive, keep))

                waiting = functools.partial(self.connections.streaming, scope.get("client"))
                follower = client_key(address)  # whose request it is, as its body was read for
                await follow(app_answer, self.followers, self.closing, receive, send, self.streams, follower, waiting)
            elif scope["method"] == "POST" and body_kind(scope["path"]) == IMPORT:
                await unless_left(receive, lane, self.imports(scope, body.receive, self.taken(scope, send)), left)
            elif scope["method"] == "GET" and is_export(scope["path"]):
                exports = lane if lane is not at_once else self.exports_of(scope)
                await unless_left(receive, exports, self.exports(scope, body.receive, self.taken(scope, send)), left)
            else:
                await unless_left(receive, page, self.wsgi(scope, body.receive, self.taken(scope, send)), left)
        finally:
            body.close()

    def taken(self, scope: Scope, send: Send) -> "Taken":
        """``send`` for an answer the client may not take (``Taken``), its connection cut when it does not."""
        return Taken(send, functools.partial(self.connections.cut, scope.get("client")))

    def exports_of(self, scope: Scope) -> Lane:
        """How an export runs: once its group and its address have fewer than EXPORTS_AT_ONCE in the app. The others
        wait here, holding no thread: an address looping exports on a thousand connections has two in the app, and
        another group's export does not wait for the threads to refuse the rest."""
        return functools.partial(self.exporting.run, self.keys_of(scope))

    def share_of(self, scope: Scope) -> Lane:
        """How a page runs once its group and its address each have a share of the threads free."""
        return functools.partial(self.shares.run, self.keys_of(scope))

    def keys_of(self, scope: Scope) -> list[Key]:
        """Whose request this is: its group's, and its address's (behind a proxy, the one it names)."""
        return self.shares.keys(self.guessers.address(scope), scope["path"])


async def unless_left(receive: Receive, run: Lane, answer: Awaitable[None], left: threading.Event) -> None:
    """``answer``, once ``run`` lets it begin; never begun if its client leaves while it waits (the request was read
    whole: what the server says next is that the client left, or that the answer was sent). Once begun, ``left`` is
    set if its client leaves: a long answer (an export) stops there.

    A client that sends thousands of heavy requests and closes each at once would otherwise have them all answered,
    one after the other, for nobody, for minutes after it stopped."""
    begun = False

    async def beginning() -> None:
        nonlocal begun
        begun = True
        await answer

    start = beginning()
    running = asyncio.ensure_future(run(start))
    gone = asyncio.ensure_future(receive())
    try:
        await asyncio.wait({running, gone}, return_when=asyncio.FIRST_COMPLETED)
        if not running.done() and gone.result()["type"] == "http.disconnect":
            if begun:
                left.set()
            else:
                running.cancel()
                await asyncio.wait({running})
                return
        await running
    finally:
        running.cancel()  # a no-op once it is over; the server stopping cancels both
        gone.cancel()
        if not begun:  # its client left, or the server stops: the answer never runs
            for waiting in (start, answer):
                if inspect.iscoroutine(waiting):
                    waiting.close()


def on_threads(app: Flask, threads: int) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """``app`` as an ASGI application, run on ``threads`` worker threads of its own."""
    # a2wsgi types the ASGI messages as TypedDicts: here they are the plain dicts the server hands over
    return WSGIMiddleware(app, workers=threads)  # type: ignore
