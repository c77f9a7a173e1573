"""DNS rebinding: the server answers to its own names only, so a page on a name pointed here reads nothing."""

import socket

import pytest

from scorekeeper import create_app
from scorekeeper.cli.lan import phone_urls
from scorekeeper.store.db import db
from scorekeeper.store.models import Game

from conftest import as_host

GAME = {"players": ["Eve", "Mal", "Oz"]}
MACHINE = socket.gethostname().split(".")[0]


def stored_games(app):
    with as_host(app):
        count = db.session.query(Game).count()
        db.session.remove()
    return count


@pytest.fixture
def app_with(database_url, monkeypatch):
    """An app built with these settings in the environment, as a host sets them."""
    made = []

    def build(**environment):
        for name, value in environment.items():
            monkeypatch.setenv(name, value)
        app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url})
        made.append(app)
        return app

    yield build
    for app in made:
        with as_host(app):
            db.session.remove()
            db.engine.dispose()


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:5000", "localhost.evil.example", "192.168.1.20.nip.io", "[::1].evil",
             "scores.local", "a b", "::1", ".", "a..b", "-", "[", "localhost:x"],
)  # fmt: skip
def test_a_request_for_another_name_gets_a_plain_refusal(table, client, app, host):
    table.start_game()
    origin = {"Origin": f"http://{host}"}  # to the browser the rebinding page is same-origin: it says so
    for answer in [client.get("/", headers={"Host": host}), client.get("/api/games", headers={"Host": host}),
                   client.post("/api/games", json=GAME, headers={"Host": host, **origin}),
                   client.delete(f"/api/games/{table.game_id}", headers={"Host": host, **origin})]:  # fmt: skip
        assert answer.status_code == 400, (host, answer.status_code)
        assert "does not answer to the name" in answer.get_data(as_text=True) and "Ann" not in answer.get_data(True)
    assert stored_games(app) == 1


@pytest.mark.parametrize(
    "host", ["localhost", "localhost:5000", "LocalHost.", "127.0.0.1:5000", "192.168.1.20", "10.0.0.7:8080",
             "[::1]:5000", "[fe80::1]", "[2001:db8::7]:5000", MACHINE, f"{MACHINE}.local:5000", socket.gethostname()],
)  # fmt: skip
def test_the_servers_own_names_and_addresses_are_answered(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200
    created = client.post("/api/games", json=GAME, headers={"Host": host, "Origin": f"http://{host}"})
    assert created.status_code == 201 and created.headers["Location"] == "/api/games/1"


def test_the_addresses_printed_for_the_phones_are_answered(client):
    printed = phone_urls("0.0.0.0", 5000) + phone_urls("127.0.0.1", 5000) + phone_urls("::1", 5000)
    for url in printed:
        assert client.get(url).status_code == 200, url


def test_the_follow_link_and_its_qr_code_use_the_name_the_phone_opened(client, table):
    table.start_game()
    page = client.get(f"/games/{table.game_id}", headers={"Host": f"{MACHINE}.local:5000"}).get_data(as_text=True)
    assert f'<a href="http://{MACHINE}.local:5000/f/{table.game_id}">' in page


@pytest.mark.parametrize("setting", ["hearts.example.org", "scores.lan, Hearts.Example.org."])
def test_a_host_names_the_server_in_scorekeeper_hosts(app_with, setting):
    client = app_with(SCOREKEEPER_HOSTS=setting).test_client()
    assert client.get("/", headers={"Host": "hearts.example.org"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_behind_a_proxy_its_forwarded_host_is_not_taken_on_trust(app_with):
    app = app_with(SCOREKEEPER_BEHIND_PROXY="1", SCOREKEEPER_HOSTS="hearts.example.org")
    client = app.test_client()
    forged = {"Host": "hearts.example.org", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https"}
    created = client.post("/api/games", json=GAME, headers={**forged, "Origin": "https://evil.example"})
    assert created.status_code == 403 and stored_games(app) == 0
    page = client.get("/games/new", headers=forged)
    assert page.status_code == 200 and "evil.example" not in page.get_data(as_text=True)


def test_a_host_may_trust_the_proxys_forwarded_host(app_with):
    app = app_with(SCOREKEEPER_BEHIND_PROXY="1", SCOREKEEPER_FORWARDED_HOST="1", SCOREKEEPER_HOSTS="hearts.example.org")
    client = app.test_client()
    proxied = {"Host": "127.0.0.1:5000", "X-Forwarded-Proto": "https"}
    good = client.post("/api/games", json=GAME, headers={**proxied, "X-Forwarded-Host": "hearts.example.org",
                                                         "Origin": "https://hearts.example.org"})  # fmt: skip
    assert good.status_code == 201
    page = client.get("/games/1", headers={**proxied, "X-Forwarded-Host": "hearts.example.org"})
    assert '<a href="https://hearts.example.org/f/1">' in page.get_data(as_text=True)
    assert client.get("/", headers={**proxied, "X-Forwarded-Host": "evil.example"}).status_code == 400
