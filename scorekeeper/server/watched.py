"""Each connection watched: uvicorn's own protocol, admitted to its address's share, with its headers' deadline.

uvicorn closes a kept-alive connection that sends nothing for a while, but neither a new connection that sends
nothing nor one that sends its request's headers a byte at a time (its timer starts again at each byte).

Here every connection, admitted to its address's share (connections.py), must have sent its request's headers whole
within HEADERS_SECONDS; each later request on it, within NEXT_HEADERS_SECONDS of the last answer. The server's
protocol is uvicorn's h11 one, which keeps at most HEADERS_MOST bytes of headers not yet whole (uvicorn's
``h11_max_incomplete_event_size``: past it, 400 and the connection closed; its httptools one keeps any amount),
wrapped through the asyncio protocol interface alone: ``Watched`` hands each event on to it. The app's entry
(asgi.py) says when a request's headers are whole (``began``: its ASGI call starts) and when its answer is over
(``ended``); the deadline for the next headers starts once no request of the connection is under way.
"""

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .connections import Client, Connections

# A request's headers come whole within this long of its connection opening: a phone sends them in one go, in a
# fraction of a second even on a weak signal.
HEADERS_SECONDS = 15
# And the next request's on a kept-alive connection, within this long of the answer before: uvicorn closes a
# connection that sends nothing for 30 s (serving.IDLE_SECONDS), and one that starts a request has 15 s more.
NEXT_HEADERS_SECONDS = 45
# A request's line and headers: a phone's are under 2 kB. A client sending more is answered 400 (serving.py).
HEADERS_MOST = 16 * 1024
REFUSED = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


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
