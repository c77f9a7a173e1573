"""Slow clients beside the phones: the production server reads each request whole before a thread sees it,
and one address holds a few dozen of its connections at most.

How long the phones wait beside them is measured by scripts/bench_slow_clients.py; here, only that
they are answered at all, with fewer threads than slow clients.
"""

import socket
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest

from scorekeeper.serving import PER_ADDRESS

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
