"""Slow clients beside the phones: the production server reads each request whole before a thread sees it, and
an address holding many connections (a household's phones, a club's Wi-Fi behind one router) is cut off from none.

How long the phones wait beside them is measured by scripts/bench_slow_clients.py; here, only that
they are answered at all, with fewer threads than slow clients.
"""

import contextlib
import select
import socket
import time
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest
from test_follow_streams import HAND, PLAYERS

from scorekeeper.server import connections, serving, streams, watched

from server import call, running_here, running_server, served_here, status_from

pytestmark = pytest.mark.server

SLOW = 64
HEADER_START = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
BODY_START = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 4096\r\n\r\n{")  # fmt: skip


ANNOUNCED = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 4096\r\n\r\n"


def under_way(stack: ExitStack, base: str, source: str) -> socket.socket:
    """A connection from ``source`` whose request the app has, under way: asked for its body, which never comes."""
    client = slow_client(stack, base, ANNOUNCED, source)
    assert client.recv(64) == b"HTTP/1.1 100 Continue\r\n\r\n"
    return client


def limits(monkeypatch, **small: int) -> None:
    """The server's limits on connections made small for a test: ``share`` (each address's), ``most`` (in all),
    ``kept`` (the last, for addresses holding fewer than ``few``) and ``grace`` (seconds a new connection is kept)."""
    for name, value in small.items():
        owner = serving if name == "most" else connections
        monkeypatch.setattr(owner, {"share": "PER_ADDRESS", "most": "CONNECTIONS", "kept": "KEPT", "few": "FEW",
                                    "grace": "GRACE_SECONDS"}[name], value)  # fmt: skip


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


def closed_by_server(client: socket.socket, trickle: bytes = b"") -> int:
    """Once the server closes ``client``: the bytes of ``trickle`` it sent meanwhile, one each time the server kept
    silent for a tenth of a second (a failure past 200: a connection never closed)."""
    client.settimeout(0.1)
    for sent in range(200):
        try:
            got = client.recv(65536)
        except TimeoutError:
            if trickle:
                client.sendall(trickle[sent % len(trickle) : sent % len(trickle) + 1])
            continue
        except ConnectionResetError:
            return sent
        if not got:
            return sent
    raise AssertionError("the server kept the connection")


def test_a_connection_that_does_not_finish_its_headers_in_time_is_closed(app, monkeypatch):
    """Issue 41, third probe, point 3: headers trickled a byte every 10 s were never timed out (uvicorn starts its
    timer again at each byte), nor a new connection that sends nothing. Now a request's headers come whole within
    HEADERS_SECONDS of its connection, or NEXT_HEADERS_SECONDS of the answer before; a request under way is not cut."""
    monkeypatch.setattr(watched, "HEADERS_SECONDS", 0.5)
    monkeypatch.setattr(watched, "NEXT_HEADERS_SECONDS", 1)
    with served_here(app) as base, ExitStack() as stack:
        silent = slow_client(stack, base, b"")
        trickling = slow_client(stack, base, HEADER_START)
        kept_alive = slow_client(stack, base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_answer(kept_alive).startswith(b"HTTP/1.1 200 ")
        kept_alive.sendall(HEADER_START)  # its next request, never finished
        posting = slow_client(stack, base, BODY_START)  # its headers whole: its body may take its time
        assert closed_by_server(trickling, trickle=b"-abcdefgh") < 100  # well within 200 bytes: not every byte's
        assert closed_by_server(silent) < 100 and closed_by_server(kept_alive) < 100
        posting.sendall(b'"players": ["Ann", "Ben", "Cat"]}'.ljust(4095))  # past the deadline, and served
        assert read_answer(posting).startswith(b"HTTP/1.1 201 ")


def test_a_connection_in_steady_use_is_never_cut(app, monkeypatch):
    """Issue 41, fourth probe, H1: the deadline for a request's headers, set as an answer ended, was lost when the next
    request had begun first; it then closed the connection in use, and nginx, finding its server gone, answered 502 to
    every group for 10 s. Requests one after another on one connection, for twice NEXT_HEADERS_SECONDS."""
    monkeypatch.setattr(watched, "HEADERS_SECONDS", 0.5)
    monkeypatch.setattr(watched, "NEXT_HEADERS_SECONDS", 1)
    request = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with served_here(app) as base, ExitStack() as stack:
        phone = slow_client(stack, base, b"")
        until = time.monotonic() + 2.5  # the scenario's length, not a wait: the phone asks all along
        answered = 0
        while time.monotonic() < until:
            phone.sendall(request)
            assert read_answer(phone).startswith(b"HTTP/1.1 200 "), answered
            answered += 1
        phone.sendall(request * 2)  # and two at once: the second may begin before the first's end is told
        both = b""
        while both.count(b"HTTP/1.1 200 ") < 2:
            got = phone.recv(65536)
            assert got, "the server closed the connection"
            both += got


def test_headers_past_their_most_are_refused_and_the_connection_closed(app):
    """Issue 41, fourth probe, H2: headers had no limit of size: one connection sending 300 MB of them took the
    server from 207 MB to 1,408 MB. Now past HEADERS_MOST they are refused (400), and what came is dropped."""
    with served_here(app) as base, ExitStack() as stack:
        usual = slow_client(stack, base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 8000
                            + b"\r\n\r\n")  # fmt: skip
        assert read_answer(usual).startswith(b"HTTP/1.1 200 ")
        endless = slow_client(stack, base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ")
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            for _ in range(64):  # a megabyte of one header, never ended
                endless.sendall(b"a" * 16384)
        assert endless.recv(65536).startswith(b"HTTP/1.1 400 ")
        assert closed_by_server(endless) < 100


def test_one_address_holds_its_share_of_the_connections_and_the_others_are_served(app, monkeypatch):
    """Issue 41, third probe, point 3: one address took all 4,000 connections, and every other phone got 503. Now an
    address holds its share of them at most; past it, its new connections are answered 503 at once."""
    monkeypatch.setattr(connections, "PER_ADDRESS", 10)
    share = 10
    with served_here(app) as base, ExitStack() as stack:
        leaving = slow_client(stack, base, b"", "127.0.4.1")
        for _ in range(share - 1):
            slow_client(stack, base, HEADER_START, "127.0.4.1")
        refused = slow_client(stack, base, b"", "127.0.4.1")
        assert refused.recv(65536).startswith(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\n")
        other = slow_client(stack, base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "127.0.4.2")
        assert read_answer(other).startswith(b"HTTP/1.1 200 ")
        leaving.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        while leaving.recv(65536):  # answered, then closed by the server, which has given its place back first
            pass
        again = slow_client(stack, base, b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "127.0.4.1")
        assert read_answer(again).startswith(b"HTTP/1.1 200 ")


def test_a_body_coded_other_than_chunked_is_refused_unread(app):
    """Issue 41, third probe, a low: ``Transfer-Encoding: gzip, chunked`` was read as chunked, its body handed on to
    the app still coded. Now the server's parser (h11) refuses it, and nothing is stored."""
    body = b'{"players": ["Ann", "Ben", "Cat"]}'
    with served_here(app) as base, ExitStack() as stack:
        coded = slow_client(stack, base, b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                         b"application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                                         + b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))  # fmt: skip
        assert coded.recv(65536).startswith(b"HTTP/1.1 400 ")
        status, listed = call("GET", base + "/api/games")
        assert status == 200 and listed["games"] == []


def test_thirty_two_addresses_each_holding_its_share_leave_room_for_every_other_phone():
    """Twenty-first and twenty-second probes: 16 addresses x 256 connections each sending a slow body, or waiting
    for their turn in the app, or 32 x 110 beside a club of 150 streams, filled the 4,000 connections, and a club's
    new connections were refused for as long as they lasted. Now 32 addresses, each holding its share, leave the
    last KEPT and more."""
    assert 32 * connections.PER_ADDRESS + connections.KEPT + 150 < serving.CONNECTIONS


def test_the_last_connections_are_kept_for_addresses_holding_few(monkeypatch):
    """Eighteenth probe, N2: sixteen addresses, each holding its share of 256 connections, held all 4,000 of the
    server's, and another group's phone was refused 16 times in a row. Now the last KEPT connections are for
    addresses holding fewer than FEW."""
    monkeypatch.setattr(connections, "KEPT", 3)
    monkeypatch.setattr(connections, "FEW", 2)
    held, connection = connections.Connections(4, most=6), object()

    def busy(address: str, port: int) -> bool:  # a connection admitted, its request under way: none waits
        admitted = held.admit((address, port), connection)
        if admitted:
            held.waits((address, port), None)
        return admitted

    for port in range(3):  # one address, three: the server's first three
        assert busy("192.0.2.1", port)
    assert not busy("192.0.2.1", 3)  # within its share, but only the kept ones are left
    assert busy("192.0.2.2", 1) and busy("192.0.2.2", 2)  # a phone's few
    assert not busy("192.0.2.2", 3)
    assert busy("192.0.2.3", 1)  # another phone: the last
    held.leave(("192.0.2.1", 0))
    held.leave(("192.0.2.1", 1))
    assert busy("192.0.2.1", 4)  # it holds fewer than FEW again


def kept(base: str, source: str, path: str) -> socket.socket | None:
    """A connection from ``source`` that asked for ``path`` and was answered (a page: kept alive after it; a follow
    stream: open, waiting for news); None when the server refused it (503, closed)."""
    address = urlsplit(base)
    client = socket.create_connection((address.hostname, address.port), 10, (source, 0))
    client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head and (more := client.recv(4096)):
        head += more
    if not head.startswith(b"HTTP/1.1 200 "):
        client.close()
        return None
    length = next(
        (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), None
    )
    body = head.partition(b"\r\n\r\n")[2]
    while length is not None and len(body) < length:
        body += client.recv(4096)
    while b"text/event-stream" in head and b"event: version" not in body:  # a stream: its first event, whole
        body += client.recv(4096)
    return client


def told_a_version(stream: socket.socket) -> bool:
    """Whether ``stream`` (a follow stream, open) is told a version of its game next (the first as it opens)."""
    heard = b""
    with contextlib.suppress(OSError):  # closed by the server: reset
        while b"event: version" not in heard and (more := stream.recv(4096)):
            heard += more
    return b"event: version" in heard


def test_connections_waiting_for_a_request_are_closed_before_any_follow_stream(app, monkeypatch):
    """Twentieth probe, E: 32 addresses held about 110 kept-alive connections each, and a club's address, its 150
    phones following games, was the address holding the most: its streams were closed for theirs down to about 106,
    and the other phones' every poll refused. Now a connection waiting for a request is closed first (its phone's
    next request opens another); a follow stream only when none waits; and a connection whose request is under way,
    never."""
    limits(monkeypatch, share=6, most=12, kept=4, few=2, grace=0)
    with served_here(app) as base, ExitStack() as stack:
        status, game = call("POST", base + "/api/games", PLAYERS)
        assert status == 201
        follow = f"/games/{game['id']}/follow/events"
        club = [stack.enter_context(kept(base, "127.0.3.1", follow)) for _ in range(4)]
        busy = under_way(stack, base, "127.0.3.4")
        crowd = {}
        for attacker in ("127.0.3.2", "127.0.3.3"):  # their share each: past 8 in all, each in the place of its own
            crowd[attacker] = [kept(base, attacker, "/api/games") for _ in range(connections.PER_ADDRESS)]
            for connection in filter(None, crowd[attacker]):
                stack.enter_context(connection)
        assert all(crowd["127.0.3.2"] + crowd["127.0.3.3"])
        everyone = crowd["127.0.3.2"] + crowd["127.0.3.3"]
        assert len(everyone) - len(select.select(everyone, [], [], 0)[0]) == 5  # 10 open in all: theirs closed theirs
        assert (tap := kept(base, "127.0.3.1", "/api/games")) is not None  # a tap: in the place of a crowd's
        stack.enter_context(tap)
        assert len(everyone) - len(select.select(everyone, [], [], 0)[0]) == 4
        assert call("POST", f"{base}/api/games/{game['id']}/hands", HAND)[0] == 201
        assert all(told_a_version(stream) for stream in club)  # every phone of the club is still told
        assert not select.select([busy], [], [], 0)[0]  # and the request under way still waits for its body


def test_a_connection_waiting_is_closed_for_a_club_though_the_address_holding_the_most_has_none(app, monkeypatch):
    """Twentieth probe, B′: only the address holding the most gave a connection up; one that kept every connection
    under way (slow bodies) kept a club out, though another address holding more than the club had connections
    waiting."""
    limits(monkeypatch, share=6, most=12, kept=2, few=2, grace=0)
    with served_here(app) as base, ExitStack() as stack:
        status, game = call("POST", base + "/api/games", PLAYERS)
        follow = f"/games/{game['id']}/follow/events"
        busy = [under_way(stack, base, "127.0.5.1") for _ in range(connections.PER_ADDRESS)]
        crowd = [stack.enter_context(kept(base, "127.0.5.2", "/api/games")) for _ in range(4)]  # 10: the kept are left
        club = [stack.enter_context(kept(base, "127.0.5.3", follow)) for _ in range(2)]
        club.append(stack.enter_context(kept(base, "127.0.5.3", follow)))  # in the crowd's place
        assert all(club) and select.select(crowd, [], [], 0)[0] and not select.select(busy, [], [], 0)[0]


def test_a_new_connection_takes_the_place_of_its_own_address_waiting_one_first(app, monkeypatch):
    """Past the connections, an address's new connection closes one of its own that waits for a request, before
    another's, though another holds more waiting: a crowd opening connections churns its own, never the rest."""
    limits(monkeypatch, most=6, kept=0, few=1, grace=0)
    with served_here(app) as base, ExitStack() as stack:
        own = [stack.enter_context(kept(base, "127.0.10.1", "/api/games")) for _ in range(2)]
        most = [stack.enter_context(kept(base, "127.0.10.2", "/api/games")) for _ in range(4)]
        stack.enter_context(kept(base, "127.0.10.1", "/api/games"))
        assert select.select(own, [], [], 0)[0] == own[:1]  # its oldest closed
        assert not select.select(most, [], [], 0)[0]


def test_an_address_holding_the_most_sending_bodies_slowly_gives_one_up_for_a_club(app, monkeypatch):
    """Twenty-first probe, B'': sixteen addresses held 256 connections each, every one sending a request's body
    slowly, so that none waited, and a club's new connections were refused 56 times in 62. Now a connection whose
    body has been on its way GRACE_SECONDS (nothing of it stored yet) gives way as a follow stream does: the
    address holding the most, while it holds more than one more."""
    limits(monkeypatch, share=6, most=8, kept=2, few=2, grace=0)
    with served_here(app) as base, ExitStack() as stack:
        status, game = call("POST", base + "/api/games", PLAYERS)
        follow = f"/games/{game['id']}/follow/events"
        crowd = [under_way(stack, base, "127.0.9.1") for _ in range(connections.PER_ADDRESS)]
        club = [stack.enter_context(kept(base, "127.0.9.2", follow)) for _ in range(2)]  # the last two
        for _ in range(2):  # each in the place of the crowd's oldest body
            club.append(stack.enter_context(kept(base, "127.0.9.2", follow)))
        assert kept(base, "127.0.9.2", follow) is None  # four each: its share
        closed = [connection for connection in crowd if select.select([connection], [], [], 0)[0]]
        assert closed == crowd[:2]


def test_a_connection_of_an_address_holding_few_is_never_closed_for_one_holding_more(app, monkeypatch):
    """A phone's connection waiting between two requests is never closed for an address holding FEW or more: past
    the connections, that one is refused instead (a phone, a household, holds few; a crowd, many)."""
    limits(monkeypatch, most=5, kept=0, few=2, grace=0)
    with served_here(app) as base, ExitStack() as stack:
        phone = stack.enter_context(kept(base, "127.0.7.1", "/api/games"))
        for _ in range(4):
            under_way(stack, base, "127.0.7.2")
        assert slow_client(stack, base, b"", "127.0.7.2").recv(65536) == watched.REFUSED
        phone.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_answer(phone).startswith(b"HTTP/1.1 200 ")  # still open, and answered


def test_a_connection_opened_a_moment_ago_is_not_closed_for_another(app, monkeypatch):
    """A connection just opened (its request on its way) is not closed for another's: the browser would not send
    its request again on a new one. Past GRACE_SECONDS, one that sent nothing may be."""
    limits(monkeypatch, most=3, kept=0, few=1)
    monkeypatch.setattr(connections, "GRACE_SECONDS", 60)  # longer than the test: each of them is new
    with served_here(app) as base, ExitStack() as stack:
        fresh = [slow_client(stack, base, b"", "127.0.8.1") for _ in range(3)]
        assert slow_client(stack, base, b"", "127.0.8.2").recv(65536) == watched.REFUSED
        for connection in fresh:  # each still open: its request, sent now, is answered
            connection.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert read_answer(connection).startswith(b"HTTP/1.1 200 ")


def test_past_the_connections_a_club_takes_the_place_of_a_stream_of_an_address_holding_more(app, monkeypatch):
    """Nineteenth probe: sixteen addresses held 256 connections each, and a club's address, holding 12 (its phones
    following games), was refused every new connection while they did (the last KEPT are for addresses holding
    fewer than FEW). When no connection waits for a request, a follow stream of the address that holds the most is
    closed for it, while that address holds more."""
    limits(monkeypatch, grace=0, share=6, most=12, kept=4, few=2)
    with served_here(app) as base, ExitStack() as stack:
        status, game = call("POST", base + "/api/games", PLAYERS)
        assert status == 201
        path = f"/games/{game['id']}/follow/events"
        club = [stack.enter_context(kept(base, "127.0.3.1", path)) for _ in range(2)]
        held = {}
        for attacker in ("127.0.3.2", "127.0.3.3"):  # each opens streams until it is refused
            held[attacker] = []
            while (connection := kept(base, attacker, path)) is not None:
                held[attacker].append(stack.enter_context(connection))
        assert len(held["127.0.3.2"]) == connections.PER_ADDRESS  # the server was nearly empty
        club.append(stack.enter_context(kept(base, "127.0.3.1", path)))  # it holds 2, they 4 each
        assert all(club)
        assert kept(base, "127.0.3.1", path) is None  # it holds 3, they 4 and 3: its share
        assert call("POST", f"{base}/api/games/{game['id']}/hands", HAND)[0] == 201
        told = [told_a_version(stream) for stream in held["127.0.3.2"] + held["127.0.3.3"]]
        assert told[:2] == [False] * 2 and told.count(False) == 3  # the first's oldest two for the second's, and one


def test_with_every_connection_under_way_a_new_one_is_answered_503_at_once(app, monkeypatch):
    """Past the server's connections, with none waiting that could be closed for it (each one's request under way),
    a new connection is answered 503 at once, by the server's own count: without a proxy, uvicorn's limit is not
    the one that answers (it would answer every request 503 once reached)."""
    monkeypatch.setattr(serving, "CONNECTIONS", 4)
    monkeypatch.setattr(connections, "KEPT", 0)
    with served_here(app) as base, ExitStack() as stack:
        for n in range(1, 5):
            under_way(stack, base, f"127.0.6.{n}")
        refused = slow_client(stack, base, b"", "127.0.6.5")
        assert refused.recv(65536) == watched.REFUSED


def test_past_the_streams_a_process_keeps_an_address_takes_the_place_of_one_that_holds_more(app, monkeypatch):
    """Nineteenth probe: 32 addresses held 256 follow streams each through the proxy, about 4,000 on each process,
    and every other request was refused (503: uvicorn's limit on connections). Now a process keeps STREAMS_MOST at
    most: past them, a new stream takes the place of the oldest of the address holding the most, while that holds
    more; else it is answered 204 (before the app), and its page asks every five seconds instead."""
    monkeypatch.setattr(streams, "STREAMS_MOST", 4)
    with served_here(app) as base, ExitStack() as stack:
        status, game = call("POST", base + "/api/games", {"players": ["Ann", "Ben", "Cat"]})
        path = f"/games/{game['id']}/follow/events"
        club = [stack.enter_context(kept(base, "127.0.4.1", path))]
        crowd = []
        while (stream := kept(base, "127.0.4.2", path)) is not None:  # until it is answered 204
            crowd.append(stack.enter_context(stream))
        assert len(crowd) == 3
        club.append(stack.enter_context(kept(base, "127.0.4.1", path)))  # the crowd's oldest ends for it
        ended = b""
        while not ended.endswith(b"0\r\n\r\n") and (more := crowd[0].recv(4096)):
            ended += more
        assert ended.endswith(b"0\r\n\r\n")  # the stream's last chunk: its page opens it again
        assert kept(base, "127.0.4.1", path) is None  # two each: the club has its share
        assert status_from(base, "127.0.4.1", "GET", "/games/404/follow/events") == streams.NO_STREAM  # app unasked
        assert call("GET", base + "/api/games")[0] == 200


def test_an_ipv6_hosts_addresses_share_one_share_of_the_connections():
    """Issue 41, fifth probe, M3: the share was by exact address, and an IPv6 host has a /64 of them to open
    connections from. Now a /64 is one address, as it is for every limit of the app."""
    held, connection = connections.Connections(2), object()  # what watches each connection: none needed here
    assert held.admit(("2001:db8:1:2::1", 1), connection) and held.admit(("2001:db8:1:2::2", 2), connection)
    assert not held.admit(("2001:db8:1:2::3", 3), connection)
    assert held.admit(("2001:db8:1:3::1", 4), connection)  # another /64
    held.leave(("2001:db8:1:2::1", 1))
    assert held.admit(("2001:db8:1:2::4", 5), watched)


def test_a_request_still_waiting_when_the_server_stops_is_answered_503(app, monkeypatch, caplog):
    """Twenty-fifth probe, F5: a process stopped while thousands of a crowd's requests waited logged a traceback
    and answered 500 for each, once its seconds for what is under way were over. Now each is answered 503 (try
    again, on a process that runs), and nothing is logged for it."""
    monkeypatch.setattr(serving, "STOPPING_SECONDS", 0.2)
    with ExitStack() as stack:
        server = stack.enter_context(running_here(app))
        base = f"http://127.0.0.1:{server.addresses()[0][1]}"
        waiting = under_way(stack, base, "127.0.11.1")  # its body never comes
        server.stop()
        assert read_answer(waiting).startswith(b"HTTP/1.1 503 ")
    assert not [record for record in caplog.records if record.levelname == "ERROR" and "ASGI" in record.getMessage()]
