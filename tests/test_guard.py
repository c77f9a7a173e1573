"""The passcode, its slow-down, and the security headers."""

from datetime import timedelta

import pytest

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.models import SignInAttempt, utcnow


@pytest.fixture
def guarded(database_url):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database_url,
         "PASSCODE": "queen of spades"}
    )  # fmt: skip
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def let_time_pass(app, passed=timedelta(minutes=10)):
    with app.app_context():
        db.session.query(SignInAttempt).update({"last_failure": utcnow() - passed})
        db.session.commit()


def stop_the_clock(app):
    """The last wrong passcode happened just now, whatever a slow machine took since: the wait is whole."""
    let_time_pass(app, passed=timedelta(0))


def test_without_a_passcode_everything_is_open(client):
    assert client.get("/").status_code == 200
    assert client.get("/api/games").status_code == 200


@pytest.mark.parametrize("path", ["/", "/games/new", "/history", "/sheets/blank", "/players"])
def test_pages_send_strangers_to_sign_in(guarded, path):
    answer = guarded.test_client().get(path)
    assert answer.status_code == 302 and answer.headers["Location"].startswith("/sign-in?next=")


def test_signing_in_remembers_the_phone_for_a_long_time(guarded):
    client = guarded.test_client()
    answer = client.post("/sign-in", data={"passcode": "queen of spades", "next": "/history"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/history"
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Expires=" in cookie and "Secure" not in cookie
    assert client.get("/history").status_code == 200
    assert client.get("/api/games").status_code == 200  # the page's own scripts call the API with the cookie


def test_the_session_cookie_is_secure_over_https(guarded):
    answer = guarded.test_client().post(
        "/sign-in", data={"passcode": "queen of spades"}, base_url="https://scores.example"
    )
    assert "Secure" in answer.headers["Set-Cookie"]


def test_wrong_passcodes_are_slowed_down(guarded):
    client = guarded.test_client()
    wrong = client.post("/sign-in", data={"passcode": "jack"})
    assert wrong.status_code == 401 and "That is not the passcode." in wrong.get_data(as_text=True)
    stop_the_clock(guarded)
    again = client.post("/sign-in", data={"passcode": "queen of spades"})
    assert again.status_code == 429 and "Too many wrong passcodes: wait 1 seconds" in again.get_data(as_text=True)
    let_time_pass(guarded)
    assert client.post("/sign-in", data={"passcode": "queen of spades"}).status_code == 302
    with guarded.app_context():
        assert db.session.query(SignInAttempt).count() == 0  # forgiven


def test_each_wrong_passcode_doubles_the_wait(guarded):
    client = guarded.test_client()
    for failures in range(1, 5):
        client.post("/sign-in", data={"passcode": "jack"})
        with guarded.app_context():
            assert db.session.get(SignInAttempt, "127.0.0.1").failures == failures
        let_time_pass(guarded)
    client.post("/sign-in", data={"passcode": "jack"})
    stop_the_clock(guarded)
    assert "wait 16 seconds" in client.post("/sign-in", data={"passcode": "x"}).get_data(as_text=True)


def test_sign_in_only_sends_back_to_this_site(guarded):
    answer = guarded.test_client().post("/sign-in", data={"passcode": "queen of spades", "next": "//evil.example/"})
    assert answer.headers["Location"] == "/"


def test_a_new_passcode_signs_every_phone_out(guarded, database_url):
    client = guarded.test_client()
    client.post("/sign-in", data={"passcode": "queen of spades"})
    guarded.config["PASSCODE"] = "two of clubs"
    assert client.get("/").status_code == 302


def test_the_api_takes_the_passcode_as_a_bearer_token(guarded):
    client = guarded.test_client()
    refused = client.get("/api/games")
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert "passcode" in refused.json["error"]
    wrong = client.get("/api/games", headers={"Authorization": "Bearer jack"})
    assert wrong.status_code == 401
    soon = client.get("/api/games", headers={"Authorization": "Bearer queen of spades"})
    assert soon.status_code == 429 and soon.headers["Retry-After"] == "1"
    let_time_pass(guarded)
    right = client.post(
        "/api/games", json={"players": ["Ann", "Ben", "Cat"]}, headers={"Authorization": "Bearer queen of spades"}
    )
    assert right.status_code == 201


@pytest.mark.parametrize("path", ["/", "/api/games", "/static/app.css", "/sheets/blank"])
def test_security_headers(client, path):
    answer = client.get(path)
    headers = answer.headers
    answer.close()
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"


def test_pages_have_no_inline_script_or_style(table, client):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    for path in ["/", "/games/new", f"/games/{table.game_id}", f"/games/{table.game_id}/review", "/sheets/blank"]:
        page = client.get(path).get_data(as_text=True)
        assert "<script>" not in page and " style=" not in page and "onclick" not in page
