"""Slow clients beside the phones: the production server reads each request whole before a thread sees it,
and one address holds a few dozen of its connections at most.

How long the phones wait beside them is measured by scripts/bench_slow_clients.py; here, only that
they are answered at all, with fewer threads than slow clients.
"""

import socket
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest
from waitress.channel import HTTPChannel

from scorekeeper import connections
from scorekeeper.connections import PER_ADDRESS

from server import call, running_server

pytestmark = pytest.mark.server

SLOW = 64
HEADER_START = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
BODY_START = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 4096\r\n\r\n{")  # fmt: skip


def slow_client(stack: ExitStack, base: str, start: bytes, source: str = "127.0.0.1") -> socket.socket:
    """A connection from ``source`` (any address of 127/8 is this machine) that has sent the start of a request."""
    address = urlsplit(base)
    client = stack.enter_context(socket.create_connection((address.hostname, address.port), 30, (source, 0)))
    client.sendall(start)
    return client


def test_phones_are_answered_while_64_slow_clients_hold_connections(database_url):
    with running_server(database_url, threads=2) as server, ExitStack() as stack:
        slow = [slow_client(stack, server.base, HEADER_START if k % 2 else BODY_START, f"127.0.1.{k % 8 + 1}")
                for k in range(SLOW)]  # fmt: skip
        for round_ in range(4):
            for client in slow:
                client.sendall(b"a")  # a byte more from each, as a slow client sends every few seconds
            status, made = call("POST", server.base + "/api/games", {"players": ["Ann", "Ben", "Cat"]})
            assert status == 201, made
            status, listed = call("GET", server.base + "/api/games")
            assert status == 200 and len(listed["games"]) == round_ + 1
        # The slow clients were kept, not dropped: one that ends its request gets its answer.
        slow[1].sendall(b"\r\n\r\n")
        assert slow[1].recv(64).startswith(b"HTTP/1.1 200 ")


def test_one_address_holds_so_many_connections_and_no_more(database_url):
    with running_server(database_url, threads=2) as server, ExitStack() as stack:
        held = [slow_client(stack, server.base, HEADER_START, "127.0.2.1") for _ in range(PER_ADDRESS)]
        one_more = slow_client(stack, server.base, b"", "127.0.2.1")
        assert one_more.recv(64) == b""  # closed by the server before it read anything
        status, _ = call("GET", server.base + "/api/games")  # another address is answered beside them
        assert status == 200
        held[0].sendall(b"\r\n\r\n")  # the address's own connections go on
        assert held[0].recv(64).startswith(b"HTTP/1.1 200 ")


class Connection(HTTPChannel):
    """A connection as the server's loop sees it: idle (waiting for its next request) until it has data."""

    def __init__(self, sock):  # none of waitress's own set-up: the loop asks only what follows
        self.sock, self.requests, self.asked, self.accepting, self.read = sock, [], 0, False, b""

    def fileno(self):
        return self.sock.fileno()

    def readable(self):
        self.asked += 1
        return True

    def writable(self):
        return False

    def handle_read_event(self):
        self.read += self.sock.recv(100)


def test_the_servers_loop_looks_only_at_connections_that_had_something_happen(monkeypatch):
    """A thousand phones following games keep a thousand connections open: a turn of the loop (one with every
    request and answer) looks at those that had an event, not at every idle one."""
    monkeypatch.setattr(connections, "LOOK_AT_ALL_EVERY", 600)  # the look at every one, once a second: not in this test
    pairs = [socket.socketpair() for _ in range(200)]
    try:
        sockets = connections.Sockets()
        for ours, _theirs in pairs:
            sockets[ours.fileno()] = Connection(ours)
        loop = connections.Loop(sockets)
        loop.turn(0)  # the first turn looks at every connection
        assert {connection.asked for connection in sockets.values()} == {1}
        pairs[7][1].sendall(b"GET")
        loop.turn(1)  # the system says which connection has data
        loop.turn(0)
        asked = [connection.asked for connection in sockets.values()]
        assert sockets[pairs[7][0].fileno()].read == b"GET"
        assert asked.count(1) == 199 and asked[7] == 2  # looked at again after its event; the others not at all
    finally:
        for pair in pairs:
            for end in pair:
                end.close()
