"""The passcode, its slow-down, and the security headers."""

import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from sqlalchemy import event, insert

from scorekeeper import create_app
from scorekeeper.config import StartupError
from scorekeeper.security import guard
from scorekeeper.store.db import db
from scorekeeper.store.models import Group, SignIn, SignInAttempt, utcnow

from conftest import as_host


@pytest.fixture
def guarded(database_url):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database_url,
         "PASSCODE": "queen of spades"}
    )  # fmt: skip
    yield app
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def let_time_pass(app, passed=timedelta(minutes=10)):
    with as_host(app):
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


def test_signing_in_remembers_the_phone_for_a_month_renewed_on_each_visit(guarded):
    client = guarded.test_client()
    answer = client.post("/sign-in", data={"passcode": "queen of spades", "next": "/history"})
    assert answer.status_code == 302 and answer.headers["Location"] == "/history"
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert timedelta(days=29) < days_left(cookie) <= timedelta(days=30)
    visit = client.get("/history")
    assert visit.status_code == 200 and timedelta(days=29) < days_left(visit.headers["Set-Cookie"])
    assert client.get("/api/games").status_code == 200  # the page's own scripts call the API with the cookie


def days_left(cookie):
    expires = parsedate_to_datetime(re.search(r"Expires=([^;]+)", cookie).group(1))
    return expires - datetime.now(UTC)


def test_the_cookie_has_a_name_of_its_own_beside_other_apps_on_this_host(guarded):
    client = guarded.test_client()
    answer = client.post("/sign-in", data={"passcode": "queen of spades"})
    assert answer.headers["Set-Cookie"].startswith("scorekeeper=")
    client.set_cookie("session", "another app on this host, another port", domain="localhost")
    assert client.get("/history").status_code == 200


def test_over_https_the_cookie_is_secure_and_kept_to_this_host(guarded):
    client = guarded.test_client()
    answer = client.post("/sign-in", data={"passcode": "queen of spades"}, base_url="https://localhost")
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith("__Host-scorekeeper=") and "Secure" in cookie and "Path=/" in cookie
    assert "Domain" not in cookie
    assert client.get("/history", base_url="https://localhost").status_code == 200


def test_signing_out_forgets_the_phone(guarded):
    client = guarded.test_client()
    assert "Sign out" not in client.get("/sign-in").get_data(as_text=True)
    client.post("/sign-in", data={"passcode": "queen of spades"})
    page = client.get("/").get_data(as_text=True)
    assert '<form method="post" action="/sign-out">' in page and "Sign out</button>" in page
    answer = client.post("/sign-out")
    assert answer.status_code == 302 and answer.headers["Location"] == "/sign-in"
    assert "Signed out." in client.get("/sign-in").get_data(as_text=True)
    assert client.get("/").status_code == 302
    assert client.get("/api/games").status_code == 401


def copy_of_the_cookie(client):
    """Another browser holding the same session cookie: copied off the phone, or kept from before."""
    copy = client.application.test_client()
    copy.set_cookie("scorekeeper", client.get_cookie("scorekeeper").value, domain="localhost")
    return copy


def test_signing_out_ends_every_copy_of_the_session(guarded):
    phone = guarded.test_client()
    phone.post("/sign-in", data={"passcode": "queen of spades"})
    copy = copy_of_the_cookie(phone)
    assert copy.get("/").status_code == 200
    phone.post("/sign-out")
    assert copy.get("/").status_code == 302 and copy.get("/api/games").status_code == 401
    assert copy.get("/history/export.json").status_code == 302
    with as_host(guarded):
        assert db.session.query(SignIn).count() == 0


def test_a_lock_keeps_its_latest_sign_ins_and_ends_the_one_unused_longest(guarded, monkeypatch):
    """Thirtieth probe: one group signed in 1,965 times in 30 s, a row each, kept a month (about 1.2 GB a day). A lock
    keeps SIGN_INS_KEPT at most; a new one past them ends the one unused longest."""
    monkeypatch.setattr(guard, "SIGN_INS_KEPT", 3)
    phones = [guarded.test_client() for _ in range(4)]
    for number, phone in enumerate(phones[:3]):
        phone.post("/sign-in", data={"passcode": "queen of spades"})
        with as_host(guarded):  # each seen a day later than the one before, the first longest ago
            db.session.query(SignIn).filter(SignIn.last_seen > utcnow() - timedelta(minutes=1)).update(
                {"last_seen": utcnow() - timedelta(days=10 - number)}
            )
            db.session.commit()
    phones[3].post("/sign-in", data={"passcode": "queen of spades"})
    with as_host(guarded):
        assert db.session.query(SignIn).count() == 3
    assert [phone.get("/").status_code for phone in phones] == [302, 200, 200, 200]


def test_a_sign_in_does_as_much_work_however_many_sign_ins_other_groups_keep(tmp_path):
    """Thirty-first probe: a new sign-in looked for its lock's sign-ins past SIGN_INS_KEPT among every group's, a scan
    of the whole table under SQLite's write lock: at 320,000 rows, another group's taps waited up to 17 s. Now its
    own alone, by an index: SQLite's steps for it (counted, not a time) are the same at 40,000 others' as at none."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'sign-ins.sqlite'}", "SECRET_KEY": "t"})
    steps = [0]

    def count_steps(connection, _record) -> None:
        connection.set_progress_handler(lambda: steps.__setitem__(0, steps[0] + 1), 100)  # None: go on

    with as_host(app):
        db.engine.dispose()  # every connection from now on is counted
        event.listen(db.engine, "connect", count_steps)
        others = [{"id": number, "key": f"key-{number}", "key_digest": f"{number:064x}"} for number in range(2, 202)]
        db.session.execute(insert(Group), others)  # beside the server's first group, 1
        db.session.execute(insert(SignIn), [{"id": f"own-{n}", "group_id": 1} for n in range(guard.SIGN_INS_KEPT)])
        db.session.commit()

    def sign_in_steps() -> int:
        with as_host(app):
            steps[0] = 0
            guard.new_sign_in(1)  # the group has all it keeps: one more ends the one unused longest
            return steps[0]

    few = sign_in_steps()
    with as_host(app):
        theirs = [{"id": f"other-{n}", "group_id": 2 + n % 200} for n in range(40_000)]
        db.session.execute(insert(SignIn), theirs)
        db.session.commit()
    many = sign_in_steps()
    with as_host(app):
        assert db.session.query(SignIn).filter(SignIn.group_id == 1).count() == guard.SIGN_INS_KEPT
        db.engine.dispose()
    assert many <= 1.5 * few, (few, many)


def test_a_session_unused_for_a_month_has_ended_on_the_server_too(guarded):
    phone = guarded.test_client()
    phone.post("/sign-in", data={"passcode": "queen of spades"})
    with as_host(guarded):
        db.session.query(SignIn).update({"last_seen": utcnow() - timedelta(days=20)})
        db.session.commit()
    assert phone.get("/").status_code == 200  # used within the month: kept, and noted as used now
    with as_host(guarded):
        assert utcnow() - db.session.query(SignIn).one().last_seen < timedelta(hours=1)
        db.session.query(SignIn).update({"last_seen": utcnow() - timedelta(days=31)})
        db.session.commit()
    assert phone.get("/").status_code == 302  # however long the cookie itself was kept


def test_an_open_server_has_no_sign_out_button(client):
    assert "Sign out" not in client.get("/").get_data(as_text=True)


WEAK = ["1234", "271828", "spades", "0000 0000 0000", "qqqqqqqqqqqqqqqq", "abcabcabcabc", "password1234",
        "qwertyuiop12", "Passwort2024!", "asdfghjkl;'#", "iloveyou1234", "1qaz 9876 zyxw", "Sommer2025!!!",
        "correct horse battery staple", "Hearts Scorekeeper 1"]  # fmt: skip


@pytest.mark.parametrize("weak", WEAK)
def test_a_passcode_easy_to_guess_stops_the_app_with_what_a_strong_one_is(database_url, weak, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_PASSCODE", weak)
    with pytest.raises(StartupError) as refused:
        create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url})
    message = str(refused.value)
    assert "\n" not in message and "SCOREKEEPER_PASSCODE" in message
    assert "at least 12 characters, not only digits, with 6 different ones or more, and no common password" in message
    assert "four words the table will remember" in message


@pytest.mark.parametrize("strong", ["four words nobody guesses", "Pique ♠ José", "amber kettle orbit walrus",
                                    "quiet lamp 7 oranges"])  # fmt: skip
def test_a_strong_passcode_starts_the_app(database_url, strong, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_PASSCODE", strong)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url})
    assert app.config["PASSCODE"] == strong


def test_the_guard_learns_the_open_pages_from_the_views_not_by_importing_them(app):
    source = Path(guard.__file__).read_text()
    assert "views" not in source.split('"""', 2)[2]  # below the module's docstring
    with as_host(app):
        opened = {endpoint for endpoint in app.view_functions if guard.is_public(endpoint)}
    assert opened == {"static", "signing.sign_in", "language.choose", "app_shell.manifest", "app_shell.service_worker",
                      "app_shell.favicon", "app_shell.apple_touch_icon", "app_shell.offline"}  # fmt: skip


def test_wrong_passcodes_are_slowed_down(guarded):
    client = guarded.test_client()
    wrong = client.post("/sign-in", data={"passcode": "jack"})
    assert wrong.status_code == 401 and "That is not the passcode." in wrong.get_data(as_text=True)
    stop_the_clock(guarded)
    again = client.post("/sign-in", data={"passcode": "queen of spades"})
    assert again.status_code == 429
    assert "Too many wrong passcodes were tried: wait 1 second, then" in again.get_data(as_text=True)
    let_time_pass(guarded)
    assert client.post("/sign-in", data={"passcode": "queen of spades"}).status_code == 302
    with as_host(guarded):
        assert db.session.get(SignInAttempt, "127.0.0.1") is None  # forgiven


def test_each_wrong_passcode_doubles_the_wait(guarded):
    client = guarded.test_client()
    for failures in range(1, 5):
        client.post("/sign-in", data={"passcode": "jack"})
        with as_host(guarded):
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
