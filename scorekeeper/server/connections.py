"""Each connection's share and its first seconds: what uvicorn leaves to a proxy in front, for a server without one.

uvicorn closes a kept-alive connection that sends nothing for a while, but neither a new connection that sends
nothing nor one that sends its request's headers a byte at a time (its timer starts again at each byte); and its
limit on connections is one for every client together. So one address could hold every connection with half-sent
headers, and every other phone got 503.

Here every connection, as it opens, takes a place in its address's share (PER_ADDRESS), and must have sent its
request's headers whole within HEADERS_SECONDS; each later request on it, within NEXT_HEADERS_SECONDS of the last
answer. The server's protocol is uvicorn's h11 one, which keeps at most HEADERS_MOST bytes of headers not yet whole
(uvicorn's ``h11_max_incomplete_event_size``: past it, 400 and the connection closed; its httptools one keeps any
amount), wrapped through the asyncio protocol interface alone: ``Watched`` hands each event on to it. The app's
entry (asgi.py) says when a request's headers are whole (``began``: its ASGI call starts) and when its answer is
over (``ended``); the deadline for the next headers starts once no request of the connection is under way.
"""

import asyncio
import heapq
import itertools
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from ..security.guesses import client_key
from .held import Held

# A request's headers come whole within this long of its connection opening: a phone sends them in one go, in a
# fraction of a second even on a weak signal.
HEADERS_SECONDS = 15
# And the next request's on a kept-alive connection, within this long of the answer before: uvicorn closes a
# connection that sends nothing for 30 s (serving.IDLE_SECONDS), and one that starts a request has 15 s more.
NEXT_HEADERS_SECONDS = 45
# An address holds this many connections at most, as the proxy of docs/open-server.md allows it: a club's Wi-Fi behind
# one router, with every phone following a game (40 tables, three followers each), stays below it. Past it, a new
# connection is answered 503 and closed.
PER_ADDRESS = 256
# Of the server's connections (serving.CONNECTIONS), the last KEPT are for addresses holding fewer than FEW: else
# sixteen addresses, each taking its share, held them all, and every other phone got 503. An address holding more
# (a club's Wi-Fi, its phones following games) takes the place of a connection that waits for a request (a new one,
# or one kept alive between two): its own address's first, else of the address holding the most such, but never of
# an address holding fewer than FEW (a phone's, a household's). Its phone loses nothing: a browser opens another
# connection for its next request. Only when none waits so does it take the place of a connection sending its
# request's body slowly, or else of a follow stream, of the address holding the most of those holding more than one
# more than it: so addresses filling the server with streams or slow bodies leave another as many as each of them
# holds, and addresses filling it with connections that wait leave a club every stream it holds.
KEPT = 500
FEW = 8
# A connection opened, or answered, this recently is not closed for another's: its request is on its way, or its
# answer (and the phone may send the next on it at once).
GRACE_SECONDS = 1.0
LOOKED = 64  # connections that wait looked at, at most, for one to close: the oldest of the addresses holding most
# A request's line and headers: a phone's are under 2 kB. A client sending more is answered 400 (serving.py).
HEADERS_MOST = 16 * 1024
REFUSED = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"

Client = tuple[str, int]  # an address and port, as ASGI's scope["client"] has it


class Connections:
    """The server's open connections, by their client: ``share`` for each address at most (None: no share); and of
    ``most`` in all, the last KEPT for addresses holding fewer than FEW, or for a connection that takes the place of
    one that waits (``room``)."""

    def __init__(self, share: int | None, most: int | None = None) -> None:
        self.share, self.most = share, most
        self.by_address = Held[Client]()
        self.idle = Held[Client]()  # each address's connections waiting for a request: new, or kept alive
        self.following = Held[Client]()  # and those on a follow stream, waiting for news
        self.reading = Held[Client]()  # and those sending a request's body, not yet in the app
        self.watched: dict[Client, Watched] = {}
        self.stirred: dict[Client, float] = {}  # when each was opened, or its last answer ended

    def admit(self, client: Client, watched: "Watched") -> bool:
        """A place for a new connection from ``client``; False when its address (an IPv6 one's /64) holds its share
        already, or when only the KEPT connections are left, it holds FEW, and no connection may be closed for it."""
        address = client_key(client[0])
        held = self.by_address.count(address)
        if self.share is not None and held >= self.share:
            return False
        full = self.most is not None and len(self.watched) >= (self.most if held < FEW else self.most - KEPT)
        if full and not self.room(address, held):
            return False
        self.by_address.add(address, client)
        self.watched[client] = watched
        self.stirred[client] = time.monotonic()
        self.waits(client, self.idle)  # for its first request's headers
        return True

    def room(self, address: str, held: int) -> bool:
        """Whether a connection may be closed for a new one from ``address``, holding ``held``: one waiting for a
        request (``idle_to_close``); else one sending its request's body, or on a follow stream, of an address holding
        more (``busy_to_close``). If one may, it is closed, and its place is free."""
        client = self.idle_to_close(address, held) or self.busy_to_close(held)
        if client is None:
            return False
        self.watched[client].close()
        self.leave(client)
        return True

    def idle_to_close(self, address: str, held: int) -> Client | None:
        """The oldest connection waiting for a request that may be closed for a new one from ``address``, holding
        ``held``: its own address's first, then of the addresses holding the most such; none of an address holding
        fewer than FEW for one holding more, and none opened or answered less than GRACE_SECONDS ago."""
        others = [other for other in self.idle.by_address
                  if other != address and (held < FEW or self.by_address.count(other) >= FEW)]  # fmt: skip
        candidates = (
            client
            for holder in [address, *heapq.nlargest(LOOKED, others, key=self.idle.count)]
            for client in self.idle.by_address.get(holder, {})
        )
        now = time.monotonic()
        for client in itertools.islice(candidates, LOOKED):
            if now - self.stirred[client] >= GRACE_SECONDS:
                return client
        return None

    def busy_to_close(self, held: int) -> Client | None:
        """The oldest connection of the address holding the most of those holding more than ``held`` + 1 that is
        sending its request's body, for GRACE_SECONDS or longer (nothing of it is stored yet: a phone's body comes in
        one go), or else on a follow stream (its page opens it again, or asks); of the address holding the next most
        if that one has none."""
        holders = dict.fromkeys([*self.reading.by_address, *self.following.by_address])  # among equals, the first
        more = [holder for holder in holders if self.by_address.count(holder) > held + 1]
        now = time.monotonic()
        for holder in heapq.nlargest(LOOKED, more, key=self.by_address.count):
            reading = next(iter(self.reading.by_address.get(holder, {})), None)
            if reading is not None and now - self.stirred[reading] >= GRACE_SECONDS:
                return reading
            if (following := next(iter(self.following.by_address.get(holder, {})), None)) is not None:
                return following
        return None

    def leave(self, client: Client) -> None:
        if self.watched.pop(client, None) is not None:
            self.waits(client, None)
            self.stirred.pop(client, None)
            self.by_address.remove(client_key(client[0]), client)

    def waits(self, client: Client, waiting: Held[Client] | None) -> None:
        """``client``'s connection waits now, in ``idle``, ``following`` or ``reading`` (it may be closed for
        another's), or not (None: a request of its is in the app), since now."""
        address = client_key(client[0])
        for each in (self.idle, self.following, self.reading):
            each.remove(address, client)
        if waiting is not None:
            waiting.add(address, client)

    def asked(self, client: Client) -> None:
        """A request's headers came whole on ``client``'s connection: it waits no more, though the app is called
        with it (``began``) a pass or two of the loop later."""
        self.idle.remove(client_key(client[0]), client)

    def streaming(self, client: Any) -> None:
        """The request of ``client`` (ASGI's scope["client"]) is a follow stream now, waiting for news: its
        connection may be closed for another's (the page opens it again, or asks)."""
        if client is not None and (known := (str(client[0]), int(client[1]))) in self.watched:
            self.waits(known, self.following)

    def cut(self, client: Any) -> None:
        """The connection of ``client`` (ASGI's scope["client"]) closed at once, what it has not taken of its answer
        dropped: it took none of it for long (sending.Taken). Closed, it would wait for the client to take it."""
        if client is not None and (watched := self.watched.get((str(client[0]), int(client[1])))):
            watched.close()

    def began(self, client: Any) -> None:
        """The app is called with a request from ``client`` (ASGI's scope["client"]): its headers are whole, and its
        body is read first (``read``)."""
        if client is not None and (watched := self.watched.get(known := (str(client[0]), int(client[1])))):
            watched.request_began()
            self.stirred[known] = time.monotonic()
            self.waits(known, self.reading)

    def read(self, client: Any) -> None:
        """The request of ``client`` (ASGI's scope["client"]) is read whole: the app has it."""
        if client is not None and (known := (str(client[0]), int(client[1]))) in self.watched:
            self.waits(known, None)

    def ended(self, client: Any) -> None:
        """The app's answer to a request from ``client`` is over: the connection waits for its next request."""
        if client is not None and (watched := self.watched.get(known := (str(client[0]), int(client[1])))):
            watched.request_ended()
            self.stirred[known] = time.monotonic()
            self.waits(known, None if watched.under_way else self.idle)


def protocol(connections: Connections) -> type[asyncio.Protocol]:
    """The protocol class for uvicorn's Config(http=…): uvicorn's own, each connection watched in ``connections``."""
    return type("WatchedHTTPProtocol", (Watched,), {"connections": connections})


class Watched(asyncio.Protocol):
    """One connection: uvicorn's protocol for it, once admitted, and a deadline for each request's headers."""

    connections: Connections  # the server's: set by protocol()

    def __init__(self, **uvicorn_arguments: Any) -> None:
        # uvicorn calls the class of Config(http=…) with its config and state: its own class takes the same
        self.http: asyncio.Protocol = H11Protocol(**uvicorn_arguments)
        self.client: Client | None = None
        self.admitted = False
        self.deadline: asyncio.TimerHandle | None = None
        self.under_way = 0  # requests begun and not yet answered (the next may begin before the last's end is told)
        self.tail = b""  # the last bytes received, for the end of a request's headers split between two reads

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Admitted, with HEADERS_SECONDS for its first request's headers; or answered 503 and closed, unread."""
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.client = (str(peer[0]), int(peer[1])) if isinstance(peer, tuple) and len(peer) >= 2 else None
        if self.client is not None and not self.connections.admit(self.client, self):
            if isinstance(transport, asyncio.WriteTransport):
                transport.write(REFUSED)
            transport.close()
            return
        self.admitted = True
        self.http.connection_made(transport)
        self.wait_for_headers()

    def wait_for_headers(self, first: bool = True) -> None:
        self.no_deadline()
        seconds = HEADERS_SECONDS if first else NEXT_HEADERS_SECONDS
        self.deadline = asyncio.get_running_loop().call_later(seconds, self.transport.close)

    def no_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if not self.under_way and self.client is not None and b"\r\n\r\n" in self.tail + data:
            self.connections.asked(self.client)
        self.tail = data[-3:] if len(data) >= 3 else (self.tail + data)[-3:]
        self.http.data_received(data)

    def request_began(self) -> None:
        self.under_way += 1
        self.no_deadline()

    def request_ended(self) -> None:
        # Armed here rather than at the next request's first byte, which may come before the answer's end is told;
        # and only once none is under way: the next request may have begun before this one's end is told.
        self.under_way -= 1
        if not self.under_way:
            self.wait_for_headers(first=False)

    def close(self) -> None:
        """Closed for another's connection (Connections.room), or cut (Connections.cut): at once, what it has not
        taken of its answers dropped (a close would wait for them, the connection still open)."""
        self.no_deadline()
        if isinstance(self.transport, asyncio.WriteTransport):
            self.transport.abort()
        else:
            self.transport.close()

    def eof_received(self) -> bool | None:
        return self.http.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        self.http.pause_writing()

    def resume_writing(self) -> None:
        self.http.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.no_deadline()
        if self.admitted:
            if self.client is not None:
                self.connections.leave(self.client)
            self.http.connection_lost(exc)
