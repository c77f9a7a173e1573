"""The production server's connections: waitress's parser, channel, loop and server, each changed where the
phones at many tables need it.

- ``LimitedParser`` refuses a body larger than its address takes by its length, before reading it;
- ``Task`` keeps a connection open after an answer without a body (a 304), which waitress closed;
- ``Loop`` looks only at the connections that had something happen (epoll), not at a thousand idle ones;
- ``Server`` holds at most ``PER_ADDRESS`` connections from one address, and answers the follow board's 304 in
  the loop thread itself (one indexed query, no worker), with the same checks as the app's UnchangedBoards.

serving.py builds the server from these and starts it.
"""

import functools
import select
import socket
import sys
import threading
import time
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import WSGITask
from waitress.utilities import build_http_date

from .group_scope import GROUP_PATH, KEY
from .views.bodies import body_max
from .views.follow import OwnConnection, UnchangedBoards

# Open connections from one address at most: a browser keeps 6 to a server, a few phones behind one router
# (a guest network, a phone hotspot) a few dozen. Past it, the address's new connection is closed at once.
PER_ADDRESS = 32


def listening_options(platform: str) -> list[tuple[str, int]]:
    """The listening socket's options (their names in ``socket``), chosen so that a port in use is an error.

    Windows lets a second server bind a port in use, silently, when it sets SO_REUSEADDR (as waitress
    does): there the port is taken with SO_EXCLUSIVEADDRUSE instead. Elsewhere SO_REUSEADDR only lets
    a restarted server have its port back while its last connections close; a port in use stays refused.

    >>> listening_options("win32"), listening_options("linux"), listening_options("darwin")
    ([('SO_EXCLUSIVEADDRUSE', 1)], [('SO_REUSEADDR', 1)], [('SO_REUSEADDR', 1)])
    """
    return [("SO_EXCLUSIVEADDRUSE", 1)] if platform == "win32" else [("SO_REUSEADDR", 1)]


class LimitedParser(HTTPRequestParser):  # type: ignore[misc]  # waitress ships no types
    """Waitress's request parser, which refuses a body larger than its page takes (views/bodies.py) by its length.

    Such a request goes to the app at once, without its body, for the app's own 413 (a page, or the API's JSON
    error), and its connection closes after it: the body is never read into memory or a temporary file.
    """

    def __init__(self, adj: Adjustments, channel: "Channel") -> None:
        super().__init__(adj)
        self.channel = channel

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        if self.content_length > body_max(self.path, self.adj.max_request_body_size):
            self.body_rcv = None  # the request is complete without its body
            self.headers["CONNECTION"] = "close"
            self.channel.dropping = True

    def received(self, data: bytes) -> int:
        consumed: int = super().received(data)
        return len(data) if self.channel.dropping else consumed  # what came with the headers: body, left unread


class Task(WSGITask):  # type: ignore[misc]
    """Waitress's task, which keeps an HTTP/1.1 connection open after an answer that has no body (304, 204).

    Waitress closes the connection after any HTTP/1.1 answer without a Content-Length, and so after every 304
    (which must not carry one): each follower's poll, a 304 nearly always, cost a new connection. An answer with
    no body ends with its headers, so the client knows where the next one starts; a request that asked for
    ``Connection: close`` still has its connection closed.
    """

    bodiless = False  # set while the headers of such an answer are built

    def build_response_header(self) -> bytes:
        closing = "close" in tokens(self.request.headers.get("CONNECTION", ""))
        self.bodiless = not self.has_body and self.version == "1.1" and not closing
        try:
            header: bytes = super().build_response_header()
        finally:
            self.bodiless = False
        return header

    def set_close_on_finish(self) -> None:
        if not self.bodiless:  # waitress's own reason alone (no Content-Length) is none for an answer without body
            super().set_close_on_finish()


class Channel(HTTPChannel):  # type: ignore[misc]
    """A connection that drops the body of a request refused for its size as it comes, until it closes; its
    answers without a body keep it open (Task)."""

    dropping = False
    task_class = Task

    def parser_class(self, adj: Adjustments) -> LimitedParser:  # waitress makes each request's parser so
        return LimitedParser(adj, self)

    def received(self, data: bytes) -> bool:
        return True if self.dropping else bool(super().received(data))


READ, WRITE = select.POLLIN | select.POLLPRI, select.POLLOUT  # as waitress's own loop asks (wasyncore.poll2)
LOOK_AT_ALL_EVERY = 1.0  # seconds: every connection's state is looked at again this often, whatever happened


class Sockets(dict[int, Any]):
    """Waitress's map of the sockets it serves (fd: dispatcher), noting each fd added or removed for Loop."""

    def __init__(self) -> None:
        super().__init__()
        self.changed: set[int] = set()

    def __setitem__(self, fd: int, dispatcher: Any) -> None:
        super().__setitem__(fd, dispatcher)
        self.changed.add(fd)

    def __delitem__(self, fd: int) -> None:
        super().__delitem__(fd)
        self.changed.add(fd)


class Loop:
    """Waitress's loop over its sockets, for many connections: each turn looks at the sockets something may have
    changed (those that had an event, opened or closed, with a request under way or output to send, the server's
    own), not at every one, and keeps them registered with the system (epoll where there is one) between turns.

    Waitress's own loop (wasyncore.poll2) asks every connection whether it wants to read or write and registers
    each one anew at every turn, and a turn comes with every request and every answer: with a thousand phones
    keeping a connection open (following a game), that was most of the server's work. An idle connection
    (waiting for its next request) changes only with an event of its own, or when the server closes it for being
    idle too long (its maintenance, in a turn): every socket is looked at once a second besides.
    """

    def __init__(self, sockets: Sockets) -> None:
        self.sockets = sockets
        self.epoll = hasattr(select, "epoll")
        self.pollster: Any = select.epoll() if self.epoll else select.poll()
        self.registered: dict[int, int] = {}  # fd: the events asked for
        self.watched: set[int] = set()  # fds to look at in the next turn
        self.next_look_at_all = 0.0

    def run(self, timeout: float) -> None:
        try:
            while self.sockets:
                self.turn(timeout)
        finally:
            if self.epoll:
                self.pollster.close()

    def turn(self, timeout: float) -> None:
        """One turn, as wasyncore.poll2's: the events wanted asked for, then those that came handled."""
        sockets = self.sockets
        changed, sockets.changed = sockets.changed, set()
        for fd in changed & self.registered.keys():  # a socket closed (its fd perhaps another's now)
            self.forget(fd)
        look_at = self.watched | changed
        now = time.monotonic()
        if now >= self.next_look_at_all:
            look_at, self.next_look_at_all = set(sockets), now + LOOK_AT_ALL_EVERY
            for fd in self.registered.keys() - look_at:
                self.forget(fd)
        self.watched = set()
        for fd in look_at:
            dispatcher = sockets.get(fd)
            if dispatcher is None:
                continue
            events = (READ if dispatcher.readable() else 0) | (
                WRITE if dispatcher.writable() and not dispatcher.accepting else 0
            )
            self.ask(fd, events)
            if events != READ or not isinstance(dispatcher, HTTPChannel) or dispatcher.requests:
                self.watched.add(fd)  # not an idle connection: the server's own sockets, a request under way
        try:
            ready = self.pollster.poll(timeout if self.epoll else int(timeout * 1000))
        except InterruptedError:
            ready = []
        for fd, events in ready:
            dispatcher = sockets.get(fd)
            if dispatcher is not None:
                wasyncore.readwrite(dispatcher, events)
            self.watched.add(fd)

    def ask(self, fd: int, events: int) -> None:
        """Ask the system for these events on ``fd`` (none: forget it)."""
        was = self.registered.get(fd)
        if was == events:
            return
        if not events:
            if was is not None:
                self.forget(fd)
            return
        if was is None:
            self.pollster.register(fd, events)
        else:
            self.pollster.modify(fd, events)
        self.registered[fd] = events

    def forget(self, fd: int) -> None:
        del self.registered[fd]
        try:
            self.pollster.unregister(fd)
        except (OSError, KeyError):  # closed already: epoll forgets a socket as it closes
            pass


def loop(timeout: float, sockets: Sockets) -> None:
    """Serve ``sockets`` until none is left: Loop where the system has poll(), else waitress's own loop.

    This thread is the servers' loop thread, which may answer the board's 304 itself (Server.add_task); the
    connection it reads the database on is closed as the loop ends."""
    servers = [server for server in sockets.values() if isinstance(server, Server)]
    for server in servers:
        server.loop_thread = threading.get_ident()
    try:
        if hasattr(select, "poll"):
            Loop(sockets).run(timeout)
        else:
            wasyncore.loop(timeout=timeout, map=sockets)
    finally:
        for server in servers:
            server.loop_thread = None
            server.reads.close()


class Unread:
    """The loop's connection to the database where it has none: nothing to close."""

    @staticmethod
    def read(*_args: Any) -> None:
        return None

    def close(self) -> None:
        pass


class Server(TcpWSGIServer):  # type: ignore[misc]  # waitress ships no types
    """Waitress's server on one socket, with at most ``per_address`` connections open from one address; the follow
    board's 304, the request sent most, answered in the loop thread (``add_task``)."""

    channel_class = Channel
    per_address: int | None = PER_ADDRESS
    platform = sys.platform
    loop_thread: int | None = None  # the thread running the loop, while it runs
    boards: UnchangedBoards | None = None
    reads: "OwnConnection | Unread" = Unread()  # the loop's connection to the database (none until it has one)

    def __init__(self, application: Any, *args: Any, **kwargs: Any) -> None:
        try:
            super().__init__(application, *args, **kwargs)
        except OSError:  # a port in use, say: its socket and trigger closed, as the next port may be tried
            if getattr(self, "trigger", None) is not None:  # made first, then the socket
                self.close()
            raise
        extensions = getattr(application, "extensions", {})
        self.boards = extensions.get("unchanged_boards")
        if self.boards is not None and (self.boards.app.config["BEHIND_PROXY"] or self.adj.url_prefix):
            self.boards = None  # the proxy's headers and a prefix are the app's to read
        self.reads = OwnConnection(self.boards) if self.boards is not None else Unread()

    def add_task(self, channel: "Channel") -> None:
        """A request complete on ``channel``, the only one it has waiting: a worker thread serves it, unless it is
        the board's 304 to answer here, in the loop thread, without the WSGI machinery."""
        if self.loop_thread != threading.get_ident() or not self.unchanged_board(channel):
            super().add_task(channel)

    def unchanged_board(self, channel: "Channel") -> bool:
        """Answer the request waiting on ``channel`` with a 304 when UnchangedBoards would (the same checks, the
        same headers as waitress writes them); False, having done nothing, when the app is to answer."""
        request = channel.requests[0]
        if self.boards is None or not plain_keep_alive(request) or not channel.connected or channel.total_outbufs_len:
            return False
        path, key = request.path, None
        if self.boards.app.config["GROUPS_OPEN"]:
            found = GROUP_PATH.fullmatch(path)
            if found:
                key, path = found.groups()
                if path is None:
                    return False
        headers = request.headers
        environ = {
            "REQUEST_METHOD": request.command,
            "PATH_INFO": path,
            "HTTP_HOST": headers.get("HOST"),
            "HTTP_IF_NONE_MATCH": headers.get("IF_NONE_MATCH"),
            "CONTENT_LENGTH": headers.get("CONTENT_LENGTH"),
            **({KEY: key} if key is not None else {}),
        }
        try:
            tag = self.boards.unchanged(environ, self.reads.read)
        except Exception:  # whatever the doubt, the app answers (and says what went wrong)
            return False
        if tag is None:
            return False
        channel.write_soon(answer_304(self.boards.headers(tag), self.adj.ident))
        channel.requests.pop(0)
        request.close()
        channel.last_activity = time.time()
        return True

    def close(self) -> None:
        super().close()
        if self.loop_thread is None:  # else the loop closes it as it ends, in its own thread
            self.reads.close()

    def set_reuse_addr(self) -> None:
        """This platform's options for the listening socket, where waitress would set SO_REUSEADDR on every one."""
        for name, value in listening_options(self.platform):
            self.socket.setsockopt(socket.SOL_SOCKET, getattr(socket, name), value)

    def run(self) -> None:
        """Waitress's run, with Loop."""
        try:
            loop(self.adj.asyncore_loop_timeout, self._map)
        except (SystemExit, KeyboardInterrupt):
            self.task_dispatcher.shutdown()

    def accept(self) -> tuple[socket.socket, Any] | None:
        accepted: tuple[socket.socket, Any] | None = super().accept()
        if accepted is not None and self.per_address and self.open_from(accepted[1][0]) >= self.per_address:
            accepted[0].close()  # before waitress reads from it: the address's other connections go on
            return None
        return accepted

    def open_from(self, address: str) -> int:
        """The connections this address holds open now, on every socket of the server (they share one map)."""
        return sum(
            1 for channel in self._map.values() if isinstance(channel, HTTPChannel) and channel.addr[0] == address
        )


# Request headers that leave a 304 to the app: a proxy's (waitress strips them, or the app reads them), a body's
# (Content-Length is checked on its own), an upgrade.
TAGS_MAX = 1024  # an If-None-Match longer than a phone's few tags is the app's to read, not the loop's (it stalls all)
NOT_PLAIN = ("FORWARDED", "X_FORWARDED", "TRANSFER_ENCODING", "EXPECT", "UPGRADE")


def tokens(header: str) -> set[str]:
    """A header's comma-separated tokens, as RFC 9110 lists them (two such headers: waitress joins them by commas).

    >>> sorted(tokens("keep-alive, Close")), tokens("")
    (['close', 'keep-alive'], set())
    """
    return {token.strip().lower() for token in header.split(",")} - {""}


def plain_keep_alive(request: Any) -> bool:
    """A parsed request the loop may answer: HTTP/1.1, whole, no body, the connection kept (waitress's parser)."""
    headers = request.headers
    return (
        not request.error
        and request.completed
        and request.version == "1.1"
        and request.command in ("GET", "HEAD")
        and not request.chunked
        and not request.expect_continue
        and request.content_length == 0
        and tokens(headers.get("CONNECTION", "keep-alive")) == {"keep-alive"}
        and len(headers.get("IF_NONE_MATCH", "")) <= TAGS_MAX
        and not any(name.startswith(NOT_PLAIN) for name in headers)
    )


def answer_304(headers: list[tuple[str, str]], ident: str | None) -> bytes:
    """A 304's bytes as waitress's task writes them: its header names capitalized, Server and Date added, sorted."""
    before, after = header_block(tuple(headers), ident)
    return before + http_date(int(time.time())) + after


@functools.lru_cache(maxsize=1024)  # one for each game's version being followed
def header_block(headers: tuple[tuple[str, str], ...], ident: str | None) -> tuple[bytes, bytes]:
    """A 304's bytes before its Date's value and after it."""
    lines = [("-".join(part.capitalize() for part in name.split("-")), value) for name, value in headers]
    if ident:
        lines.append(("Server", ident))
    lines.append(("Date", DATE))
    fields = [f"{name}: {value}" for name, value in sorted(lines, key=lambda line: line[0])]  # stable, as waitress's
    before, after = ("\r\n".join(["HTTP/1.1 304 Not Modified", *fields]) + "\r\n\r\n").split(DATE)
    return before.encode("latin-1"), after.encode("latin-1")


DATE = "\0date\0"  # where the Date goes: no header value holds a NUL


@functools.lru_cache(maxsize=2)
def http_date(second: int) -> bytes:
    return str(build_http_date(second)).encode("latin-1")


class Servers(MultiSocketServer):  # type: ignore[misc]  # waitress ships no types
    """Waitress's server on several sockets (every address of a name), with Loop."""

    def run(self) -> None:
        try:
            loop(self.adj.asyncore_loop_timeout, self.map)
        except (SystemExit, KeyboardInterrupt):
            self.close()
