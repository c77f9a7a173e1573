"""The follow board's 304, answered by the server's loop thread (connections.py) as the app would answer it, and
everything else (another group's key, a changed game, any doubt) left to the app."""

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy
from werkzeug.test import Client

from scorekeeper import create_app, serving
from scorekeeper.db import db
from scorekeeper.views import follow

pytestmark = pytest.mark.server

HAND = {"hearts": [4, 0, 9, 0], "queen": 1}


@pytest.fixture
def open_app(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-" + "x" * 40, "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database_url, "GROUPS_OPEN": True})  # fmt: skip
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@contextmanager
def served(app) -> Iterator[tuple[int, list[str]]]:
    """``app`` on the production server in this process, on a free port; the boards its WSGI app was called for.

    The server is closed before the test ends, and with it the loop's own database connection."""
    called: list[str] = []
    inner = app.wsgi_app

    def counting(environ, start_response):
        if environ["PATH_INFO"].endswith("/follow/board"):
            called.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    app.wsgi_app = counting
    server = serving.listening_server(app, serving.server_settings("127.0.0.1:0", 2, None, behind_proxy=False))
    running = threading.Thread(target=server.run)
    running.start()
    try:
        yield serving.addresses(server)[0][1], called
    finally:
        server.close()
        running.join()
        app.wsgi_app = inner


class Phone:
    """One keep-alive connection, speaking raw HTTP/1.1: what the server writes is what it reads."""

    def __init__(self, port: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.waiting = b""

    def ask(self, path: str, *more: str) -> tuple[str, dict[str, str], bytes]:
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *more]
        self.socket.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        while b"\r\n\r\n" not in self.waiting:
            got = self.socket.recv(65536)
            assert got, "the server closed the connection"
            self.waiting += got
        head, self.waiting = self.waiting.split(b"\r\n\r\n", 1)
        status, *fields = head.decode("latin-1").split("\r\n")
        headers = dict(field.split(": ", 1) for field in fields)
        length = int(headers.get("Content-Length", 0))
        while len(self.waiting) < length:
            self.waiting += self.socket.recv(65536)
        body, self.waiting = self.waiting[:length], self.waiting[length:]
        return status, headers, body

    def close(self) -> None:
        self.socket.close()


def new_group(client) -> str:
    answer = client.post("/api/groups", json={"name": "Table"})
    assert answer.status_code == 201
    return "/g/" + answer.headers["Location"].rstrip("/").rsplit("/g/", 1)[1]


def new_game(client) -> tuple[str, int, str]:
    """A game of four in a new group: the group's prefix, the game's id, the address of its follow board."""
    ours = new_group(client)
    game = client.post(f"{ours}/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}).json["id"]
    return ours, game, f"{ours}/games/{game}/follow/board"


def test_the_loop_answers_an_unchanged_board_as_the_app_does_and_leaves_the_rest_to_the_app(open_app):
    client = open_app.test_client()
    ours, game, board = new_game(client)
    theirs = new_group(client)
    with served(open_app) as (port, called):
        phone = Phone(port)
        try:
            status, headers, _body = phone.ask(board)
            assert status == "HTTP/1.1 200 OK" and called == [f"{ours}/games/{game}/follow/board"]
            tag = headers["Etag"]
            called.clear()
            for _ in range(3):
                status, quick, body = phone.ask(board, f"If-None-Match: {tag}")
                assert status == "HTTP/1.1 304 Not Modified" and body == b""
            assert called == []  # never the WSGI app: the loop answered
            by_the_app = Client(open_app.wsgi_app).get(board, headers={"If-None-Match": tag, "Host": "127.0.0.1"})
            assert by_the_app.status_code == 304
            called.clear()
            expected = {name.lower(): value for name, value in by_the_app.headers.items()}
            assert {name.lower(): value for name, value in quick.items() if name not in ("Server", "Date")} == expected
            assert quick["Server"] == "scorekeeper" and "Connection" not in quick

            # Another group's key, the same game and tag: the app's to answer, and never a 304.
            status, _headers, _body = phone.ask(f"{theirs}/games/{game}/follow/board", f"If-None-Match: {tag}")
            assert status == "HTTP/1.1 404 NOT FOUND" and len(called) == 1
            # A host not of this server's, a request that closes its connection: the app's too.
            status, _headers, _body = phone.ask(board, f"If-None-Match: {tag}", "Host: elsewhere.example")
            assert not status.endswith("304 Not Modified") and len(called) == 2
            client.post(f"{ours}/api/games/{game}/hands", json=HAND)
            status, _headers, body = phone.ask(board, f"If-None-Match: {tag}")  # a hand later: the new board
            assert status == "HTTP/1.1 200 OK" and b'data-total="1">13<' in body and len(called) == 3
            status, _headers, _body = phone.ask(board, f"If-None-Match: {tag}", "Connection: close")
            assert status == "HTTP/1.1 200 OK" and len(called) == 4
        finally:
            phone.close()


def test_the_loop_leaves_a_board_the_passcode_locks_to_the_app(open_app):
    client = open_app.test_client()
    ours, game, board = new_game(client)
    with served(open_app) as (port, called):
        phone = Phone(port)
        try:
            tag = phone.ask(board)[1]["Etag"]
            assert phone.ask(board, f"If-None-Match: {tag}")[0] == "HTTP/1.1 304 Not Modified"
            with open_app.app_context():
                db.session.execute(db.text("UPDATE groups SET passcode_hash = 'locked'"))
                db.session.commit()
            called.clear()
            status, _headers, _body = phone.ask(board, f"If-None-Match: {tag}")
            assert status != "HTTP/1.1 304 Not Modified" and called == [f"{ours}/games/{game}/follow/board"]
        finally:
            phone.close()


def test_without_its_own_connection_the_loop_leaves_the_304_to_the_app(open_app, monkeypatch):
    """A database the loop cannot reach on its connection (restarted, say): the app answers, through its pool."""

    def unreachable(_engine):
        raise OSError("connection refused")

    monkeypatch.setattr(follow.OwnConnection, "connect", staticmethod(unreachable))
    client = open_app.test_client()
    ours, game, board = new_game(client)
    with served(open_app) as (port, called):
        phone = Phone(port)
        try:
            tag = phone.ask(board)[1]["Etag"]
            called.clear()
            assert phone.ask(board, f"If-None-Match: {tag}")[0] == "HTTP/1.1 304 Not Modified"
            assert called == [board]  # by the app's own middleware, as before the loop answered
        finally:
            phone.close()


def test_the_loop_leaves_to_the_app_what_the_app_would_refuse_or_close(open_app):
    """A Connection header naming close among other tokens, a Host the app cannot read, a list of tags far longer
    than a phone sends: the app answers each (and closes the connection when asked to)."""
    client = open_app.test_client()
    ours, game, board = new_game(client)
    with served(open_app) as (port, called):
        phone = Phone(port)
        try:
            tag = phone.ask(board)[1]["Etag"]
            called.clear()
            status, _headers, _body = phone.ask(board, f"If-None-Match: {tag}", "Host: [127.0.0.1]")
            assert status == "HTTP/1.1 400 BAD REQUEST" and len(called) == 1
            many = ", ".join([f'"{number}"' for number in range(300)] + [tag])
            status, _headers, _body = phone.ask(board, f"If-None-Match: {many}")
            assert status.upper() == "HTTP/1.1 304 NOT MODIFIED" and len(called) == 2  # the WSGI app's 304
            status, _headers, _body = phone.ask(board, f"If-None-Match: {tag}", "Connection: keep-alive, close")
            assert status.upper() == "HTTP/1.1 304 NOT MODIFIED" and len(called) == 3
            assert phone.socket.recv(1) == b""  # closed after it, as asked
        finally:
            phone.close()


def test_a_read_that_fails_leaves_the_boards_to_the_app_for_a_while(open_app, monkeypatch):
    """The loop serves every connection: after a read that failed (a connection lost, a lock held too long) it
    does not try again at each poll, but leaves the boards to the app for REST_SECONDS."""
    client = open_app.test_client()
    ours, game, _board = new_game(client)
    boards = open_app.extensions["unchanged_boards"]
    with open_app.app_context():
        group = db.session.scalar(db.text("SELECT group_id FROM games WHERE id = :game"), {"game": game})
    now, tries, connect = [1000.0], [], follow.OwnConnection.connect

    def failing_once(own, engine):
        tries.append(engine)
        if len(tries) == 1:
            raise OSError("connection refused")
        return connect(own, engine)

    monkeypatch.setattr(follow.OwnConnection, "connect", failing_once)
    own = follow.OwnConnection(boards, clock=lambda: now[0])
    values = {"game": game, "group": group}
    try:
        assert own.read(boards.in_first, values) is None and len(tries) == 1
        now[0] += follow.OwnConnection.REST_SECONDS - 0.5
        assert own.read(boards.in_first, values) is None and len(tries) == 1  # resting: not even a try
        now[0] += 1
        assert own.read(boards.in_first, values) is not None and len(tries) == 2
    finally:
        own.close()


def test_a_lock_held_on_the_games_ends_the_loops_read_at_once(open_app, server_url):
    """Another process's migration holds the games' table: the loop's read gives up (the app answers) instead of
    waiting with every connection of the server behind it."""
    if server_url is None:
        pytest.skip("a reader waits for no lock in SQLite's WAL: this run is on SQLite")
    client = open_app.test_client()
    ours, game, _board = new_game(client)
    boards = open_app.extensions["unchanged_boards"]
    with open_app.app_context():
        group = db.session.scalar(db.text("SELECT group_id FROM games WHERE id = :game"), {"game": game})
        db.session.remove()
    own = follow.OwnConnection(boards)
    values = {"game": game, "group": group}
    assert own.read(boards.in_first, values) is not None
    locker = sqlalchemy.create_engine(server_url)
    try:
        with locker.begin() as connection:
            connection.exec_driver_sql("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            assert own.read(boards.in_first, values) is None
    finally:
        own.close()
        locker.dispose()
