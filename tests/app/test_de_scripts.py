"""German from the page scripts, the offline shell, the error pages, the sign-in page and the manifest.

The scripts' words are gettext messages (static/words.js); each page carries their translations (script_words.py),
so a German phone's Save, Undo, offline banner and conflict speak German, and an English one exactly as before."""

import json
import re
from pathlib import Path

import pytest
from browser import SMALL_PHONE, enter
from playwright.sync_api import Page, expect
from test_i18n import GERMAN

from scorekeeper import create_app
from scorekeeper.i18n import script_words
from scorekeeper.store.db import db

from conftest import as_host
from server import ROOT

STATIC = ROOT / "static"


def words_block(answer) -> dict:
    found = re.search(r'<script type="application/json" id="words">(.*?)</script>', answer.get_data(as_text=True))
    return json.loads(found.group(1))


def test_a_german_page_carries_every_message_of_the_scripts_in_german(client):
    words = words_block(client.get("/games/new", headers=GERMAN))
    messages = words["messages"]
    assert {message if isinstance(message, str) else message[0] for message in script_words.messages(STATIC)} == set(
        messages
    )
    assert messages["Hand %(number)d saved."] == "Runde %(number)d gespeichert."
    assert messages["%(num)d hand sent"] == ["%(num)d Runde gesendet", "%(num)d Runden gesendet"]
    assert words["plural"][:3] == "101"  # 0 Runden, 1 Runde, 2 Runden
    assert words_block(client.get("/games/new")) == {}  # English: the scripts' words as written


def test_the_scripts_hold_no_word_outside_a_message():
    """A sentence glued from English pieces cannot be translated: every quoted text a script shows is a message."""
    shown = re.compile(r"(?:textContent\s*=|say\(|hold\(|element\(\"\w+\",)\s*\"[A-Za-z][^\"]*\"")
    for path in STATIC.glob("*.js"):
        assert not shown.search(path.read_text(encoding="utf-8")), path.name


@pytest.fixture
def german_scripts(page: Page) -> Page:
    """A blank page carrying the German words block, that imports the scripts in static/ as written."""
    origin = "http://scripts.test"
    block = json.dumps(script_words.translated("de", STATIC))
    body = f'<!doctype html><title>scripts</title><script type="application/json" id="words">{block}</script>'
    page.route(f"{origin}/static/*.js", lambda route: route.fulfill(
        path=STATIC / route.request.url.removeprefix(f"{origin}/static/"), content_type="text/javascript"))  # fmt: skip
    page.route(f"{origin}/", lambda route: route.fulfill(body=body, content_type="text/html"))
    page.goto(f"{origin}/")
    return page


@pytest.mark.browser
@pytest.mark.parametrize(
    "module, expression, words",
    [
        ("offline-table", "sentWords(1)", "1 Runde gesendet"),
        ("offline-table", "sentWords(2)", "2 Runden gesendet"),
        ("offline-table", "sentWords(201)", "201 Runden gesendet"),
        ("offline-table", "waitingWords(1, false)", "offline · 1 Runde wartet"),
        ("offline-table", "waitingWords(3, true)", "noch nicht gesendet · 3 Runden warten"),
        ("hand-life", "lineWords({phase: 'saved', saved: 7})", "Runde 7 gespeichert."),
        ("hand-life", "buttonWords({phase: 'saving', hand: {number: 7}})", "Runde 7 wird gespeichert …"),
        ("hand-life", "changedWords(7, 8, 7)",
         "Runde 7 wurde auf einem anderen Handy gespeichert. Deine Runde 7 bleibt im Formular: Beim Speichern wird sie "
         "mit der des Servers verglichen."),
    ],
)  # fmt: skip
def test_the_scripts_speak_the_words_the_page_carries(german_scripts, module, expression, words):
    said = german_scripts.evaluate(f"async () => (await import('/static/{module}.js')).{expression}")
    assert said == words


def test_the_offline_page_sign_in_and_manifest_speak_german(client, app):
    offline = client.get("/offline", headers=GERMAN).get_data(as_text=True)
    assert "Keine Verbindung zum Server" in offline and "No connection" not in offline
    manifest = client.get("/manifest.webmanifest", headers=GERMAN).json
    assert manifest["description"] == "Zählt die Punkte beim Hearts mit echten Karten." and manifest["lang"] == "de"
    assert client.get("/manifest.webmanifest").json["description"] == "Keeps score for Hearts played with real cards."
    app.config["PASSCODE"] = "queen of spades"
    sign_in = client.get("/sign-in", headers=GERMAN).get_data(as_text=True)
    assert "Zugangscode, bitte" in sign_in and "Anmelden" in sign_in and "Passcode" not in sign_in
    wrong = client.post("/sign-in", data={"passcode": "jack"}, headers=GERMAN).get_data(as_text=True)
    assert "Das ist nicht der Zugangscode." in wrong


def test_the_worker_is_new_for_each_language_so_its_offline_page_is_fetched_again(client):
    english, german = client.get("/sw.js").get_data(as_text=True), client.get("/sw.js", headers=GERMAN).get_data(True)
    assert english != german and '"de"' in german and '"de"' not in english
    assert {"Accept-Language", "Cookie"} <= set(client.get("/sw.js").vary)


@pytest.fixture
def strict_app(database_url):
    """The app as a server runs it: CSRF checked, errors answered with a page rather than raised."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "t", "PROPAGATE_EXCEPTIONS": False})
    app.add_url_rule("/broken", "broken", lambda: 1 / 0)
    yield app
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def test_the_error_pages_speak_german(strict_app):
    client = strict_app.test_client()
    cases = [
        (client.get("/no-such-page", headers=GERMAN), 404, "Nicht gefunden", "Not Found"),
        (client.get("/sign-out", headers=GERMAN), 405, "Methode nicht erlaubt", "Method Not Allowed"),
        (client.post("/games/new", data={"x": "y" * 600_000}, headers=GERMAN), 413, "Anfrage zu groß", "Too Large"),
        (client.post("/games/new", data={}, headers=GERMAN), 400, "Sicherheitstoken", "CSRF token is missing"),
        (client.get("/broken", headers=GERMAN), 500, "Interner Serverfehler", "Internal Server Error"),
        (client.post("/games/new", headers={"Origin": "http://evil.example", **GERMAN}), 403,
         "Das kam von einer anderen Website", "another site"),
        (client.get("/", headers={"Host": "evil.example", **GERMAN}), 400, "hört nicht auf den Namen", "answer to"),
    ]  # fmt: skip
    for answer, status, german, english in cases:
        page = answer.get_data(as_text=True)
        assert answer.status_code == status and german in page and english not in page, (status, page[:300])
    english = client.get("/no-such-page").get_data(as_text=True)
    assert "<h1>Not Found</h1>" in english and "Back to the games" in english


def fits(page: Page, shot: Path) -> None:
    """Nothing wider than the phone: no German word pushes the page sideways."""
    page.screenshot(path=shot)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= SMALL_PHONE["viewport"]["width"]


@pytest.mark.browser
def test_a_phone_saves_a_hand_and_asks_before_undoing_it(phone, five, tmp_path):
    page = phone(five[0], locale="de-DE")
    enter(page, [5, 0, 0, 8, 0], 2)
    save = page.locator(".save-bar [type=submit]")
    save.click()
    expect(save).to_have_text("Runde 4 gespeichert ✓")
    expect(page.locator("#live-check")).to_contain_text("Runde 4 gespeichert.")
    fits(page, tmp_path / "saved.png")
    page.get_by_role("button", name="Runde 4 rückgängig machen …").click()
    dialog = page.locator("dialog.ask")
    expect(dialog).to_contain_text("Runde 4 rückgängig machen? Ihre Punkte gehen vom Punktestand ab")
    expect(dialog.get_by_role("button")).to_have_text(["Runde 4 behalten", "Ja, Runde 4 rückgängig machen"])
    fits(page, tmp_path / "undo.png")
    dialog.get_by_role("button").nth(1).click()
    expect(page.locator("#live-check")).to_have_text("Runde 4 rückgängig gemacht: Ändere sie und speichere neu.")


@pytest.mark.browser
def test_a_phone_offline_says_how_many_hands_wait_and_went(phone, five, client, tmp_path):
    url, api = five
    page = phone(url, offline_ready=True, locale="de-DE")
    page.context.set_offline(True)
    banner = page.locator("#connection")
    expect(banner).to_have_text("offline")
    save = page.locator(".save-bar [type=submit]")
    enter(page, [4, 0, 0, 0, 9], 1)
    save.click()
    expect(banner).to_have_text("offline · 1 Runde wartet")
    expect(save).to_have_text("Runde 4 gemerkt ✓")
    expect(page.locator(".waiting-note")).to_have_text("Runde 4: wartet aufs Senden")
    enter(page, [5, 0, 0, 0, 8], 3)
    save.click()
    expect(banner).to_have_text("offline · 2 Runden warten")
    fits(page, tmp_path / "offline.png")
    page.context.set_offline(False)
    expect(banner).to_have_text("2 Runden gesendet")
    fits(page, tmp_path / "sent.png")
    assert [hand["number"] for hand in client.get(api).json["hands"]] == [1, 2, 3, 4, 5]


@pytest.mark.browser
def test_a_phone_shows_a_conflict_in_german(phone, five, client, tmp_path):
    url, api = five
    first, second = phone(url, locale="de-DE"), phone(url, locale="de-DE")
    enter(first, [5, 0, 0, 8, 0], 2)
    enter(second, [5, 0, 0, 8, 0], 3)
    second.locator(".save-bar [type=submit]").click()
    expect(first.locator("#live-check")).to_contain_text(
        "Runde 4 wurde auf einem anderen Handy gespeichert. Deine Runde 4 bleibt im Formular", timeout=15_000
    )
    first.locator(".save-bar [type=submit]").click()
    box = first.locator("#conflict")
    expect(box.get_by_role("heading")).to_have_text("Runde 4: zwei Fassungen")
    expect(box.get_by_role("button")).to_have_text(
        ["Runde 4 vom anderen Handy behalten", "Runde 4 von diesem Handy behalten"]
    )
    expect(box).to_contain_text("Punktestand dann:")
    expect(box.get_by_role("columnheader")).to_have_text(["", "Dieses Handy", "Anderes Handy"])
    fits(first, tmp_path / "conflict.png")
    box.get_by_role("button").nth(1).click()
    expect(first.locator("#live-check")).to_have_text("Runde 4: Die von diesem Handy gilt.")
    assert client.get(api).json["hands"][3]["queen"] == 2


# Marks the page (html[data-switched]) once the new language's worker took over: its cache in, the old one gone.
NEW_WORKER = """() => { (async () => {
  const changed = new Promise(done => navigator.serviceWorker.addEventListener("controllerchange", done, {once: true}));
  const names = await caches.keys();
  if (!(names.some(name => name.endsWith("-de")) && !names.some(name => name.endsWith("-en")))) await changed;
  document.documentElement.dataset.switched = "yes";
})(); }"""


@pytest.mark.browser
def test_a_phone_switched_to_german_gets_the_offline_page_in_german(phone, live_server):
    """The worker kept the English offline page; the switch brings a new worker, and with it the German page."""
    page = phone(f"{live_server}/", offline_ready=True, locale="en-US")
    page.get_by_role("button", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.evaluate(NEW_WORKER)
    expect(page.locator("html[data-switched=yes]")).to_have_count(1)
    page.context.set_offline(True)
    page.goto(f"{live_server}/history")
    expect(page.get_by_role("heading", level=1)).to_have_text("Keine Verbindung zum Server")
