"""The real production server: two phones racing to record the same hand."""

import http.client
import socket
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from scorekeeper.cli import lan
from scorekeeper.server import serving

from server import SERVE, call, running_server
from server import serving as started

pytestmark = pytest.mark.server


@pytest.fixture
def server(database_url):
    with running_server(database_url) as running:
        yield running.base


HANDS_SEEN = [([4, 0, 9, 0], 1), ([0, 4, 0, 9], 2)]  # two views of hand 1 at one table, four phones each


def test_eight_phones_post_hand_one_and_only_one_is_stored(server):
    status, game = call("POST", server + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
    assert status == 201
    hands_url = f"{server}/api/games/{game['id']}/hands"
    start = threading.Barrier(8)

    def post_hand_one(phone):
        hearts, queen = HANDS_SEEN[phone % 2]
        start.wait()
        return call("POST", hands_url, {"number": 1, "hearts": hearts, "queen": queen})

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(post_hand_one, range(8)))
    statuses = sorted(status for status, _ in answers)
    # the first phone stores it; the three that saw the same hand hear "already saved"; the rest, a conflict
    assert statuses == [200] * 3 + [201] + [409] * 4, answers
    status, stored = call("GET", f"{server}/api/games/{game['id']}")
    assert len(stored["hands"]) == 1 and stored["totals"] in ([4, 13, 9, 0], [0, 4, 13, 9])


def test_the_server_plays_a_game_over_http(server):
    status, game = call("POST", server + "/api/games", {"players": ["Ann", "Ben", "Cat"], "rules": {"target": 50}})
    assert status == 201 and game["rules"]["pass_cycle"] == "left-right-hold"
    status, after = call("POST", f"{server}/api/games/{game['id']}/hands", {"hearts": [13, 0, 0], "queen": 0})
    assert status == 422 and "Ann shot the moon" in after["error"]
    status, after = call(
        "POST", f"{server}/api/games/{game['id']}/hands", {"hearts": [13, 0, 0], "queen": 0, "moon_option": "add"}
    )
    assert status == 201 and after["totals"] == [0, 26, 26]


def test_behind_a_proxy_the_banner_gives_the_phones_the_proxys_name_not_loopback(database_url):
    proxied = {"SCOREKEEPER_BEHIND_PROXY": "1", "SCOREKEEPER_HOSTS": "hearts.example.org"}
    with running_server(database_url, extra_env=proxied) as server:
        said = server.said()
    phones = said[said.index("Hearts Scorekeeper is running") :]
    assert "On the phones, open:\n    https://hearts.example.org/\nor scan this code:" in phones
    assert "127.0.0.1" not in phones and "http://" not in phones


def test_a_name_for_two_addresses_is_served_on_both(app, monkeypatch):
    found = socket.getaddrinfo

    def localhost_twice(host, port, *args, **kwargs):  # as most machines name it: ::1 and 127.0.0.1
        if host != "localhost":
            return found(host, port, *args, **kwargs)
        return [*found("::1", port, *args, **kwargs), *found("127.0.0.1", port, *args, **kwargs)]

    monkeypatch.setattr(socket, "getaddrinfo", localhost_twice)
    with socket.socket(socket.AF_INET6) as free:
        free.bind(("::1", 0))
        port = free.getsockname()[1]
    server = serving.listening_server(app, f"localhost:{port}", 2)
    running = threading.Thread(target=server.run)
    running.start()
    try:
        assert server.addresses() == [("::1", port), ("127.0.0.1", port)]
        said = lan.banner(app, server.addresses(), behind_proxy=False)
        assert f"Listening on http://[::1]:{port}/\nListening on http://127.0.0.1:{port}/" in said
        assert "running for this machine only" in said
        for base in (f"http://[::1]:{port}", f"http://127.0.0.1:{port}"):
            with urllib.request.urlopen(base + "/api/games", timeout=30) as answer:
                assert answer.status == 200
    finally:
        server.stop()
        running.join()


def test_a_console_that_cannot_draw_the_qr_code_gets_the_address_alone(app):
    listening = [("0.0.0.0", 5000)]
    drawn = lan.banner(app, listening, behind_proxy=False)
    plain = lan.banner(app, listening, behind_proxy=False, encoding="cp1252")
    assert "or scan this code:\n" in drawn and "█" in drawn
    assert "scan" not in plain and plain.encode("cp1252")
    assert all(f"    {url}\n" in plain for url in lan.phone_urls("0.0.0.0", 5000))


def test_the_server_starts_on_an_output_in_cp1252_as_windows_gives_a_redirected_one(tmp_path):
    """The QR code's blocks and a data folder's name cp1252 has no letter for: no UnicodeEncodeError."""
    data = tmp_path / "Łódź"
    env = {"PYTHONIOENCODING": "cp1252", "SCOREKEEPER_INSTANCE": str(data), "DATABASE_URL": "",
           "SECRET_KEY": "cp1252-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn", "SCOREKEEPER_BEHIND_PROXY": "1",
           "SCOREKEEPER_HOSTS": "hearts.example.org"}  # fmt: skip
    with started(SERVE, env=env) as server:
        server.log.seek(0)
        said = server.log.read().decode("cp1252")
    assert f"Data folder: {tmp_path / '?ód?'}\n" in said  # what cp1252 cannot hold, as "?"
    assert "On the phones, open:\n    https://hearts.example.org/\n" in said and "scan" not in said


def test_a_follower_keeps_its_connection_across_the_boards_304(server):
    """Waitress closes an HTTP/1.1 connection after any answer without Content-Length, which a 304 must not carry:
    every poll of a following phone cost a new connection. An answer without a body keeps it open; a request that
    asks for ``Connection: close`` still closes it."""
    status, game = call("POST", server + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
    assert status == 201
    host, port = server.removeprefix("http://").rsplit(":", 1)
    path = f"/games/{game['id']}/follow/board"
    phone = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        phone.request("GET", path)
        first = phone.getresponse()
        first.read()
        tag, opened = first.getheader("ETag"), phone.sock
        assert first.status == 200 and opened is not None
        for _ in range(3):
            phone.request("GET", path, headers={"If-None-Match": tag})
            unchanged = phone.getresponse()
            unchanged.read()
            assert unchanged.status == 304 and unchanged.getheader("Connection") is None
            assert phone.sock is opened  # the same connection, never closed and opened again
        phone.request("GET", path, headers={"If-None-Match": tag, "Connection": "close"})
        last = phone.getresponse()
        last.read()
        assert last.status == 304 and last.getheader("Connection") == "close" and phone.sock is None
    finally:
        phone.close()
