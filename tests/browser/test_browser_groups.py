"""An open server in a real Chromium at phone size: a group started on the home page, a game played in it by taps,
and a second group that sees none of it."""

import re
import time

import pytest
from browser import SMALL_PHONE, serious_in_both_schemes, served, tap_hand
from pages import OPEN_SERVER_PAGES, addresses
from playwright.sync_api import expect

from scorekeeper import create_app
from scorekeeper.store.db import db

from conftest import as_host

pytestmark = pytest.mark.browser


@pytest.fixture
def open_server(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-" + "g" * 40, "SQLALCHEMY_DATABASE_URI": database_url,
                      "GROUPS_OPEN": True})  # fmt: skip
    with served(app) as base:
        yield base
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def start_a_group(page, base: str, name: str) -> str:
    """From the home page, as a phone does: the group's name, one tap; the group's address."""
    page.goto(base + "/")
    page.get_by_role("textbox", name="The group's name (if you like)").fill(name)
    page.get_by_role("button", name="Start a group").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Your group is ready")
    link = page.locator("a.group-link")
    expect(page.get_by_role("img", name=re.compile("^QR code of "))).to_be_visible()
    return link.get_attribute("href") or ""


def test_a_group_is_started_played_in_by_taps_and_another_group_sees_none_of_it(phone, open_server):
    page = phone(open_server + "/")
    expect(page.get_by_role("button", name="Start a group")).to_be_visible()
    thursday = start_a_group(page, open_server, "Thursday")
    assert re.fullmatch(re.escape(open_server) + r"/g/[A-Za-z0-9_-]{24}/", thursday)

    page.get_by_role("link", name="Start a new game").click()
    for seat, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 · Ann deals"))).to_be_visible()
    assert page.url.startswith(thursday + "games/")
    tap_hand(page, ["Ann", "Ben", "Cat", "Dan"], [4, 0, 9, 0], queen=1)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved")).to_be_visible()
    expect(page.locator('[data-total="1"]')).to_have_text("13")
    game_page = page.url

    other = phone(open_server + "/")
    friday = start_a_group(other, open_server, "Friday")
    assert friday != thursday
    other.goto(friday)
    expect(other.get_by_text("No game in progress.")).to_be_visible()
    other.goto(friday + "history")
    expect(other.get_by_text("Ann")).to_have_count(0)
    answer = other.goto(game_page.replace(thursday, friday))  # Thursday's game through Friday's address
    assert answer is not None and answer.status == 404
    page.goto(thursday)  # the first phone still has its group
    expect(page.locator(".game-card")).to_contain_text("Ann · Ben · Cat · Dan")


@pytest.mark.parametrize("language", ["en-US", "de-DE"])
def test_every_page_of_an_open_server_passes_axe_at_360_px_light_and_dark(browser, open_server, language):
    context = browser.new_context(**SMALL_PHONE, locale=language)
    page = context.new_page()
    page.goto(open_server + "/")
    page.get_by_role("button", name=re.compile("Start a group|Gruppe anlegen")).click()
    key = re.search(r"/g/([A-Za-z0-9_-]{24})/", page.url).group(1)
    found = {}
    for name, path in addresses(OPEN_SERVER_PAGES, key=key).items():
        assert page.goto(open_server + path).ok, path
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        for scheme, serious in serious_in_both_schemes(page).items():
            if serious:
                found[f"{name} ({scheme})"] = serious
    context.close()
    assert found == {}


KEPT = "caches.open('pages').then(c => c.keys()).then(keys => keys.map(k => new URL(k.url).pathname).sort())"


def kept_pages(page, expected: list[str]) -> list[str]:
    """The pages the service worker keeps, once they are ``expected`` (it writes and forgets them as it answers)."""
    deadline = time.monotonic() + 10
    while (found := page.evaluate(KEPT)) != expected and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return found


def test_a_locked_groups_sign_in_forgets_that_groups_pages_alone(phone, database_url):
    """Opening a locked group's link wiped the pages every group on the phone had kept for offline use."""
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-" + "g" * 40, "SQLALCHEMY_DATABASE_URI": database_url,
                      "GROUPS_OPEN": True, "WTF_CSRF_ENABLED": False})  # fmt: skip
    host = app.test_client()
    a, b = (host.post("/api/groups").json["key"] for _ in range(2))
    games = {
        key: host.post(f"/g/{key}/api/games", json={"players": ["Ann", "Ben", "Cat"]}).json["id"] for key in (a, b)
    }
    host.post(f"/g/{b}/group/passcode", data={"code-passcode": "queen of spades"})
    mine, theirs = f"/g/{a}/games/{games[a]}", f"/g/{b}/games/{games[b]}"
    with served(app) as base:
        page = phone(base + mine, offline_ready=True)
        page.goto(base + theirs)  # group b asks for its passcode
        expect(page.get_by_role("heading", name="Passcode, please")).to_be_visible()
        assert kept_pages(page, [mine]) == [mine]
        page.get_by_label("Passcode").fill("queen of spades")
        page.get_by_role("button", name="Sign in").click()
        expect(page.locator("html[data-offline-ready=yes]")).to_have_count(1)
        assert kept_pages(page, sorted([mine, theirs])) == sorted([mine, theirs])
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("heading", name="Passcode, please")).to_be_visible()
        assert kept_pages(page, [mine]) == [mine]  # b's game is forgotten, a's kept
        page.context.set_offline(True)
        page.goto(base + mine)
        expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 · Ann deals"))).to_be_visible()
        page.context.set_offline(False)
    with as_host(app):
        db.session.remove()
        db.engine.dispose()
