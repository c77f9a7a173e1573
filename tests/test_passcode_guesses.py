"""Point 2 of the security review: the passcode's slow-down holds against parallel and odd guesses."""

import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.models import SignInAttempt, utcnow

PASSCODE = "Pique ♠ José"  # composed é


@pytest.fixture
def guarded(app):
    app.config["PASSCODE"] = PASSCODE
    return app


def attempts(app):
    with app.app_context():
        found = {row.address: row.failures for row in db.session.query(SignInAttempt)}
        db.session.remove()
    return found


def guess(url, code, barrier):
    request = urllib.request.Request(f"{url}/api/games", headers={"Authorization": f"Bearer {code}"})
    barrier.wait()
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_sixteen_parallel_wrong_guesses_are_judged_at_most_twice(guarded, live_server):
    barrier = threading.Barrier(16)
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda n: guess(live_server, f"jack {n}", barrier), range(16)))
    assert set(statuses) <= {401, 429} and 401 in statuses, statuses
    assert 1 <= attempts(guarded)["127.0.0.1"] <= 2  # each judged wrong guess counts once


def test_the_wait_stops_growing_at_five_minutes(guarded):
    with guarded.app_context():
        long_ago = utcnow() - timedelta(days=1)
        db.session.add(SignInAttempt(address="127.0.0.1", failures=60, last_failure=long_ago))
        db.session.commit()
    client = guarded.test_client()
    assert client.get("/api/games", headers={"Authorization": "Bearer jack"}).status_code == 401
    soon = client.get("/api/games", headers={"Authorization": "Bearer jack"})
    assert soon.status_code == 429 and soon.headers["Retry-After"] == "300"


@pytest.mark.parametrize("header", ["xyz", "Bearer", "Bearer   ", "Basic cXVlZW4=", "bearer"])
def test_an_authorization_without_a_bearer_token_is_no_guess(guarded, header):
    answer = guarded.test_client().get("/api/games", headers={"Authorization": header})
    assert answer.status_code == 401 and attempts(guarded) == {}


def header_bytes(text):
    """What a client sending UTF-8 puts on the wire, as WSGI hands it over (latin-1)."""
    return text.encode().decode("latin-1")


@pytest.mark.parametrize("typed", [PASSCODE, "Pique ♠ Jose\u0301"])
def test_a_non_ascii_passcode_works_over_the_api_and_the_sign_in_page(guarded, typed):
    client = guarded.test_client()
    assert client.get("/api/games", headers={"Authorization": f"Bearer {header_bytes(typed)}"}).status_code == 200
    assert client.post("/sign-in", data={"passcode": typed}).status_code == 302


def test_a_long_forwarded_for_behind_a_proxy_is_cut_not_a_500(database_url, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "1")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url, "PASSCODE": "x"})
    client = app.test_client()
    address = "2001:db8::" + "f" * 200
    answer = client.get("/api/games", headers={"Authorization": "Bearer y", "X-Forwarded-For": address})
    assert answer.status_code == 401
    assert list(attempts(app)) == [address[:64]]
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
