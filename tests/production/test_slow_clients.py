"""Slow clients beside the phones: the production server reads each request whole before a thread sees it, and
an address holding many connections (a household's phones, a club's Wi-Fi behind one router) is cut off from none.

How long the phones wait beside them is measured by scripts/bench_slow_clients.py; here, only that
they are answered at all, with fewer threads than slow clients.
"""

import socket
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest

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


ONE_ROUTER = 150


def test_150_kept_alive_connections_from_one_address_are_all_answered(database_url):
    """As a club's Wi-Fi in front of an open server, or a family's tablets: one address, every connection served."""
    with running_server(database_url, threads=2) as server, ExitStack() as stack:
        phones = [slow_client(stack, server.base, b"", "127.0.2.1") for _ in range(ONE_ROUTER)]
        for phone in phones:
            phone.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        for phone in phones:  # each answered, and its connection kept for its next request
            assert read_answer(phone).startswith(b"HTTP/1.1 200 ")
        for phone in phones[::10]:
            phone.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_answer(phone).startswith(b"HTTP/1.1 200 ")


def read_answer(phone: socket.socket) -> bytes:
    """One whole answer with a Content-Length, read from a kept-alive connection."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        got = phone.recv(65536)
        assert got, "the server closed the connection"
        answer += got
    head, _, body = answer.partition(b"\r\n\r\n")
    length = int(
        next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    )
    while len(body) < length:
        body += phone.recv(65536)
    return head


def large_upload(stack: ExitStack, base: str, source: str, length: int = 60 * 1024 * 1024) -> socket.socket:
    """An import's body announced (``Expect: 100-continue``), none of it sent yet."""
    return slow_client(stack, base, b"POST /history/import HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
                                    b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % length,
                       source)  # fmt: skip


def test_one_address_keeps_two_large_bodies_on_disk_at_once_and_is_answered_503_past_them(database_url):
    """Issue 41, third probe, point 2: bodies trickled from one address filled the server's temporary disk. Now an
    address keeps two of the largest on disk at once: a third is refused before any of it is sent, and another
    address is not. (The server asks for a body, "100 Continue", once it has taken its room on disk.)"""
    with running_server(database_url, threads=2) as server, ExitStack() as stack:
        for _ in range(2):
            assert large_upload(stack, server.base, "127.0.3.1").recv(64) == b"HTTP/1.1 100 Continue\r\n\r\n"
        third = large_upload(stack, server.base, "127.0.3.1")
        answer = b""
        while got := third.recv(65536):  # the whole answer: the server closes the connection after it
            answer += got
        head, _, page = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503 ") and b"\r\nretry-after: 30\r\n" in head.lower()
        assert b"Other large files from your address are still on their way to the server" in page
        assert large_upload(stack, server.base, "127.0.3.2").recv(64) == b"HTTP/1.1 100 Continue\r\n\r\n"
