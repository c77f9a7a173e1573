"""Each address's share of the server's connections: what uvicorn leaves to a proxy in front, for a server without one.

uvicorn's limit on connections is one for every client together, so one address could hold every connection, and
every other phone got 503. Here every connection, as it opens, takes a place in its address's share (PER_ADDRESS);
of the server's connections, the last KEPT are for addresses holding few, and a crowd's new connection takes the place
of one that waits (``Connections.room``). Each connection is watched through uvicorn's protocol (watched.py), which
asks for its place as it opens and says when its requests begin and end.
"""

import heapq
import itertools
import time
from typing import Any, Protocol

from ..security.guesses import client_key
from .held import Held

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
Client = tuple[str, int]  # an address and port, as ASGI's scope["client"] has it


class Connection(Protocol):
    """What the share asks of a connection it holds (watched.Watched)."""

    under_way: int  # its requests begun and not yet answered

    def close(self) -> None: ...
    def request_began(self) -> None: ...
    def request_ended(self) -> None: ...


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
        self.watched: dict[Client, Connection] = {}
        self.stirred: dict[Client, float] = {}  # when each was opened, or its last answer ended

    def admit(self, client: Client, watched: Connection) -> bool:
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
