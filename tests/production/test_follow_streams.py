"""A phone that follows a game is told each new version (Server-Sent Events) instead of asking every second: by the
production server in this process on one database, and across two processes sharing PostgreSQL (LISTEN/NOTIFY)."""

import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

from scorekeeper import create_app
from scorekeeper.server import reading, serving
from scorekeeper.store.db import db
from scorekeeper.web.views.follow import FOLLOWS

from server import call, running_server

HAND = {"hearts": [4, 0, 9, 0], "queen": 1}
PLAYERS = {"players": ["Ann", "Ben", "Cat", "Dan"]}


@contextmanager
def running(app) -> Iterator[tuple[str, serving.Server, threading.Thread]]:
    """``app`` on the production server, in a thread of this process, on a port the system picks: its address, the
    server and its thread."""
    server = serving.listening_server(app, "127.0.0.1:0", 2)
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        while not server.server.started:  # uvicorn's own flag, set once its loop takes connections
            assert thread.is_alive(), "the server stopped"
            thread.join(0.01)
        yield f"http://127.0.0.1:{server.addresses()[0][1]}", server, thread
    finally:
        server.stop()
        thread.join()


@contextmanager
def served(app) -> Iterator[str]:
    with running(app) as (base, _server, _thread):
        yield base


class Stream:
    """A follower's stream of a game, read event by event."""

    def __init__(self, base: str, game: int) -> None:
        self.answer = urllib.request.urlopen(f"{base}/games/{game}/follow/events", timeout=10)

    def next_version(self) -> str:
        """The next version told (the stream's "alive" events passed over); a read waits 10 s at most."""
        name, data = None, None
        for raw in self.answer:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: "):
                data = line.removeprefix("data: ")
            elif line == "" and name == "version":
                return str(data)
        raise AssertionError("the stream ended")

    def close(self) -> None:
        self.answer.close()


def board_tag(base: str, game: int) -> str:
    with urllib.request.urlopen(f"{base}/games/{game}/follow/board", timeout=30) as answer:
        return str(answer.headers["ETag"]).strip('"')


def test_a_follower_is_told_the_next_version_without_asking(app):
    with served(app) as base:
        _, game = call("POST", base + "/api/games", PLAYERS)
        stream = Stream(base, game["id"])
        try:
            assert stream.answer.headers["Content-Type"].startswith("text/event-stream")
            assert FOLLOWS not in stream.answer.headers  # the app's word to the server, not the phone's
            first = stream.next_version()
            assert first == board_tag(base, game["id"])
            status, _ = call("POST", f"{base}/api/games/{game['id']}/hands", HAND)
            assert status == 201
            told = stream.next_version()
            assert told != first and told == board_tag(base, game["id"])
            call("DELETE", f"{base}/api/games/{game['id']}/hands/1")
            assert stream.next_version() == board_tag(base, game["id"])
            call("DELETE", f"{base}/api/games/{game['id']}")
            assert stream.next_version() == "deleted"
        finally:
            stream.close()


def test_a_stream_is_behind_every_check_a_page_of_the_game_passes(app):
    """No stream of a game that is not there, nor of another host's; the stream's body refused by its length."""
    with served(app) as base:
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{base}/games/99/follow/events", timeout=10)
        missing.value.close()
        assert missing.value.code == 404
        _, game = call("POST", base + "/api/games", PLAYERS)
        elsewhere = urllib.request.Request(f"{base}/games/{game['id']}/follow/events", headers={"Host": "evil.test"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(elsewhere, timeout=10)
        refused.value.close()
        assert refused.value.code == 400


def test_under_any_other_server_the_stream_is_one_event_and_a_pace_to_ask_again(table, client):
    """Under flask's own server (`make dev`) the stream ends after the version of now: the browser opens it again
    after its retry, a slow poll."""
    table.start_game()
    answer = client.get(f"/games/{table.game_id}/follow/events")
    tag = client.get(f"/games/{table.game_id}/follow/board").headers["ETag"].strip('"')
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    assert answer.get_data(as_text=True) == f"retry: 3000\nevent: version\ndata: {tag}\n\n"
    assert answer.headers[FOLLOWS] == str(table.game_id)


def test_two_processes_on_one_postgresql_tell_each_others_followers(database_url):
    """A hand saved through one process: the phone following the game through the other is told it (NOTIFY)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("several processes share a PostgreSQL database (DATABASE_URL); a SQLite one is one process's")
    with running_server(database_url) as first, running_server(database_url) as second:
        _, game = call("POST", first.base + "/api/games", PLAYERS)
        stream = Stream(first.base, game["id"])
        try:
            before = stream.next_version()
            status, _ = call("POST", f"{second.base}/api/games/{game['id']}/hands", HAND)
            assert status == 201
            told = stream.next_version()
            assert told != before and told == board_tag(second.base, game["id"])
        finally:
            stream.close()


def test_a_stream_ends_as_the_server_stops_and_the_server_does_not_wait_for_it(app):
    """A stopping server ends its follow streams (the pages open them again on the next server) rather than
    waiting out its grace for them and cutting them off."""
    with running(app) as (base, server, thread):
        _, game = call("POST", base + "/api/games", PLAYERS)
        stream = Stream(base, game["id"])
        try:
            stream.next_version()
            server.stop()
            with pytest.raises(AssertionError, match="the stream ended"):
                stream.next_version()
            thread.join(serving.STOPPING_SECONDS - 1)  # within less than the grace a save under way is given
            assert not thread.is_alive()
        finally:
            stream.close()


def test_a_body_that_stops_coming_is_given_up(app, monkeypatch):
    """A client that sends part of a body and waits holds its connection for BODY_WAIT_SECONDS, not for ever."""
    monkeypatch.setattr(reading, "BODY_WAIT_SECONDS", 0.5)
    with served(app) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100\r\n\r\n{")  # fmt: skip
            answer = b""
            while chunk := client.recv(65536):  # the server answers, then closes the connection
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert call("GET", base + "/api/games")[1]["games"] == []  # nothing stored


def test_deleting_a_group_tells_the_phones_following_its_games(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-" + "x" * 40, "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database_url, "GROUPS_OPEN": True})  # fmt: skip
    try:
        with served(app) as base:
            status, group = call("POST", base + "/api/groups", {"name": "Thursday"})
            assert status == 201
            inside = base + urlsplit(group["url"]).path.rstrip("/")
            _, game = call("POST", inside + "/api/games", PLAYERS)
            stream = Stream(inside, game["id"])
            try:
                stream.next_version()
                assert call("DELETE", inside + "/api/group")[0] == 204
                assert stream.next_version() == "deleted"
            finally:
                stream.close()
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
