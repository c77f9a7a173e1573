"""No page on another site (or another port) can write here, through the API or the pages, or touch a session."""

import re

import pytest
from playwright.sync_api import Page
from werkzeug.wrappers import Request, Response

from scorekeeper import create_app
from scorekeeper.store.db import db
from scorekeeper.store.models import Game, Hand

from conftest import as_host

PASSCODE = "queen of spades"
ATTACKER_PAGE = """<!doctype html><title>Free cards</title>
<form id="plain" method="post" enctype="text/plain" action="{target}/api/games">
<input name='{{"players": ["Eve", "Mal", "Oz"], "x": "' value='"}}'>
<button>Win</button></form>"""


@pytest.fixture
def guarded_app(app):
    app.config["PASSCODE"] = PASSCODE
    return app


def stored_games(app):
    with as_host(app):
        count = db.session.query(Game).count()
        db.session.remove()
    return count


def signed_in(app):
    client = app.test_client()
    assert client.post("/sign-in", data={"passcode": PASSCODE}).status_code == 302
    return client


BODY = '{"players": ["Eve", "Mal", "Oz"]}'


@pytest.mark.parametrize(
    "content_type, status",
    [("text/plain", 415), ("application/x-www-form-urlencoded", 415), ("multipart/form-data; boundary=x", 415),
     (None, 415), ("application/json", 201)],
)  # fmt: skip
def test_api_writes_take_only_json(client, app, content_type, status):
    headers = {"Content-Type": content_type} if content_type else {}
    answer = client.post("/api/games", data=BODY, headers=headers)
    assert answer.status_code == status, answer.json
    assert stored_games(app) == (1 if status == 201 else 0)


@pytest.mark.parametrize(
    "headers, status",
    [({"Origin": "http://evil.example"}, 403), ({"Sec-Fetch-Site": "cross-site"}, 403),
     ({"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:9999"}, 403), ({"Origin": "null"}, 403),
     ({"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost"}, 201), ({}, 201)],
)  # fmt: skip
def test_the_session_cookie_writes_only_from_this_site(guarded_app, headers, status):
    client = signed_in(guarded_app)
    answer = client.post("/api/games", data=BODY, content_type="application/json", headers=headers)
    assert answer.status_code == status, answer.json
    assert stored_games(guarded_app) == (1 if status == 201 else 0)
    undo = client.delete("/api/games/1", headers=headers)
    assert undo.status_code == (403 if status == 403 else 204)


def test_a_bearer_token_needs_no_origin_check(guarded_app):
    client = guarded_app.test_client()
    headers = {"Authorization": f"Bearer {PASSCODE}", "Origin": "http://scripts.example"}
    answer = client.post("/api/games", data=BODY, content_type="application/json", headers=headers)
    assert answer.status_code == 201


@pytest.fixture
def attacker_site():
    """A page on another origin of the same host (another port): same-site, so Lax cookies go with its requests."""
    from browser import served

    target = {}

    @Request.application
    def evil(request):
        return Response(ATTACKER_PAGE.format(target=target["url"]), mimetype="text/html")

    with served(evil) as base:
        yield base, target


@pytest.mark.browser
def test_another_origin_stores_nothing_with_text_plain(page: Page, guarded_app, live_server, attacker_site):
    evil, target = attacker_site
    target["url"] = live_server
    page.goto(f"{live_server}/sign-in")
    page.get_by_label("Passcode").fill(PASSCODE)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{live_server}/")
    # The app's own script: same origin, JSON, the session cookie: it works.
    own = page.evaluate(
        """async () => (await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
                         body: JSON.stringify({players: ['Ann', 'Ben', 'Cat']})})).status"""
    )
    assert own == 201 and stored_games(guarded_app) == 1
    page.goto(evil)
    page.evaluate(
        """async (url) => { await fetch(url + '/api/games', {method: 'POST', mode: 'no-cors',
              credentials: 'include', headers: {'Content-Type': 'text/plain'},
              body: '{"players": ["Eve", "Oz", "X"]}'}); }""",
        live_server,
    )
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name="Win").click()
    assert navigation.value.status in (403, 415)
    assert stored_games(guarded_app) == 1


@pytest.fixture
def checked(database_url):
    """An app that checks form tokens, as a real server does, with a passcode and one game of one hand."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url,
                      "PASSCODE": PASSCODE})  # fmt: skip
    bearer = {"Authorization": f"Bearer {PASSCODE}"}
    app.test_client().post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}, headers=bearer)
    app.test_client().post("/api/games/1/hands", json={"hearts": [4, 0, 9, 0], "queen": 1}, headers=bearer)
    yield app
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def phone(app):
    """A signed-in phone with the table page open: its session, and the page's form token."""
    client = app.test_client()
    sign_in = client.get("/sign-in").get_data(as_text=True)
    client.post("/sign-in", data={"passcode": PASSCODE, "csrf_token": token_of(sign_in)})
    return client, token_of(client.get("/games/1").get_data(as_text=True))


def token_of(page):
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)


def hands(app):
    with as_host(app):
        found = [(hand.number, list(hand.hearts)) for hand in db.session.query(Hand).order_by(Hand.number)]
        db.session.remove()
    return found


EVIL_HAND = {"hearts-0": "13", "hearts-1": "0", "hearts-2": "0", "hearts-3": "0", "queen": "1", "number": "2"}
FORMS = [
    ("/games/1/hands", EVIL_HAND), ("/games/1/hands/1", {**EVIL_HAND, "number": ""}),
    ("/games/new", {"players-0": "Eve", "players-1": "Mal", "players-2": "Oz"}), ("/games/1/undo", {"number": "1"}),
    ("/games/1/delete", {}), ("/games/1/rematch", {}), ("/sign-in", {"passcode": "guess"}), ("/sign-out", {}),
]  # fmt: skip
FOREIGN = [{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"},
           {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:8080"}]  # fmt: skip


@pytest.mark.parametrize("headers", FOREIGN)
@pytest.mark.parametrize("path, form", FORMS)
def test_a_form_sent_from_another_site_gets_a_plain_refusal(checked, path, form, headers):
    client, token = phone(checked)
    answer = client.post(path, data={**form, "csrf_token": token}, headers=headers)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 403 and "sent from another site" in page
    assert "Save" not in page and "csrf_token" not in page and "Set-Cookie" not in answer.headers
    assert hands(checked) == [(1, [4, 0, 9, 0])] and stored_games(checked) == 1
    assert client.get("/games/1").status_code == 200  # still signed in


def test_a_refused_token_keeps_what_this_phone_entered(checked):
    client, _ = phone(checked)
    own = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    answer = client.post("/games/1/hands", data={**EVIL_HAND, "csrf_token": "expired"}, headers=own)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "Your hand is kept: tap Save again." in page
    assert 'checked name="hearts-0" type="radio" value="13"' in page
    retry = client.post("/games/1/hands", data={**EVIL_HAND, "csrf_token": token_of(page)}, headers=own)
    assert retry.status_code == 302 and hands(checked) == [(1, [4, 0, 9, 0]), (2, [13, 0, 0, 0])]


@pytest.mark.parametrize(
    "method, path, form",
    [("post", "/games/new", {"players-0": "Eve"}), ("post", "/games/1/hands", EVIL_HAND),
     ("get", "/no-such-page", None), ("post", "/sign-in", {"passcode": "guess"}),
     ("post", "/games/1/undo", {"number": "1"}), ("post", "/games/new", {"players-0": "x" * (600 * 1024)})],
)  # fmt: skip
def test_an_answer_to_a_request_without_the_cookie_never_sets_one(checked, method, path, form):
    """SameSite=Lax keeps the phone's cookie off another site's POST: a cookie set in the answer would replace it."""
    stranger = checked.test_client()
    answer = getattr(stranger, method)(path, data=form)
    assert answer.status_code in (302, 400, 404, 413) and "Set-Cookie" not in answer.headers
    assert hands(checked) == [(1, [4, 0, 9, 0])]
