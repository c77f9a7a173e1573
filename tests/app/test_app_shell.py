"""Installable and opening offline: the manifest, the icons, the service worker and its versioned cache."""

import html
import json
import re
import struct

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, Page, expect

from scorekeeper import create_app
from scorekeeper.web.views.app_shell import shell_version

PASSCODE = "queen of spades"
ICON_URLS = ["/favicon.ico", "/apple-touch-icon.png"]
# Fetch this page again from its script, then wait until the worker says its copy is written.
KEEP_AFTER_FETCH = """async () => {
  await (await fetch(location.pathname)).text();
  const worker = (await navigator.serviceWorker.ready).active;
  const kept = new Promise((done) => navigator.serviceWorker.addEventListener("message", done, { once: true }));
  worker.postMessage({ keep: location.pathname });
  await kept;
}"""

# Watch the caches until the worker's kept pages are gone (wait_for_function takes no promise).
FORGOTTEN = """() => { (function look() {
  caches.open("pages").then((cache) => cache.keys())
    .then((kept) => kept.length ? setTimeout(look, 50) : (window.pagesForgotten = true));
})(); }"""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def fetched(client, url):
    """A file response, read and closed (send_file keeps the file open until then)."""
    answer = client.get(url)
    answer.get_data()
    answer.close()
    return answer


def test_the_manifest_says_what_an_installed_app_needs(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer.mimetype == "application/manifest+json"
    manifest = answer.json
    assert manifest["name"] == "Hearts Scorekeeper" and manifest["short_name"] == "Hearts"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_every_icon_answers_with_its_type_and_size(client):
    for icon in client.get("/manifest.webmanifest").json["icons"]:
        answer = fetched(client, icon["src"])
        assert answer.status_code == 200 and answer.mimetype == icon["type"], icon
        width, height = png_size(answer.data)
        assert f"{width}x{height}" == icon["sizes"], icon
    touch = fetched(client, "/apple-touch-icon.png")
    assert touch.status_code == 200 and touch.mimetype == "image/png" and png_size(touch.data) == (180, 180)
    favicon = fetched(client, "/favicon.ico")
    assert favicon.status_code == 200 and favicon.mimetype in ("image/vnd.microsoft.icon", "image/x-icon")
    reserved, kind, count = struct.unpack("<HHH", favicon.data[:6])
    assert (reserved, kind) == (0, 1) and count >= 2
    sizes = [favicon.data[6 + 16 * i] for i in range(count)]
    assert 16 in sizes and 32 in sizes


def test_every_page_links_the_manifest_and_both_theme_colours(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'media="(prefers-color-scheme: light)"' in page and 'media="(prefers-color-scheme: dark)"' in page
    assert '<link rel="apple-touch-icon" href="/apple-touch-icon.png">' in page


def test_the_worker_is_served_from_the_root_with_this_deploys_version(app, client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    body = answer.get_data(as_text=True)
    version = app.extensions["app_shell_version"]
    assert re.search(rf'var VERSION = "{version}";', body)
    assert '"/static/app.css"' in body and '"/offline"' in body
    assert client.get("/offline").status_code == 200


def test_the_version_changes_with_any_static_file(tmp_path):
    (tmp_path / "static").mkdir()
    (tmp_path / "templates" / "app_shell").mkdir(parents=True)
    (tmp_path / "templates" / "app_shell" / "sw.js").write_text("// worker")
    (tmp_path / "static" / "app.css").write_text("body {}")
    app = Flask("x", static_folder=str(tmp_path / "static"), template_folder=str(tmp_path / "templates"))
    before = shell_version(app)
    assert shell_version(app) == before
    (tmp_path / "static" / "app.css").write_text("body { color: red }")
    assert shell_version(app) != before
    changed = shell_version(app)
    (tmp_path / "templates" / "app_shell" / "sw.js").write_text("// worker, new")
    assert shell_version(app) != changed


def test_a_passcode_does_not_hide_the_shell(database_url):
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url, "PASSCODE": PASSCODE}
    )
    client = app.test_client()
    assert client.get("/").status_code == 302
    for url in ["/manifest.webmanifest", "/sw.js", "/offline", *ICON_URLS]:
        assert fetched(client, url).status_code == 200, url


def open_and_keep(page: Page, url: str) -> None:
    """Open a page and wait until the service worker has it in its cache."""
    page.goto(url)
    expect(page.locator("html[data-offline-ready=yes]")).to_have_count(1)


@pytest.mark.browser
def test_chromium_judges_the_app_installable(playwright, browser_type_launch_args, live_server: str, tmp_path):
    # A persistent profile: Chromium never offers to install from an incognito one (Playwright's default).
    context = playwright.chromium.launch_persistent_context(tmp_path / "profile", **browser_type_launch_args)
    try:
        page = context.new_page()
        open_and_keep(page, live_server + "/")
        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


@pytest.mark.browser
def test_a_game_reopens_with_no_network_and_never_stale_with_it(
    page: Page, context: BrowserContext, live_server, table
):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    open_and_keep(page, f"{live_server}/games/{table.game_id}")
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")  # cut off before the reload asks
    page.reload()
    expect(page.locator(".next-hand h1")).to_have_text(re.compile(r"^Hand 2\b"))
    expect(page.locator('[data-total="2"]')).to_have_text("9")
    expect(page.locator("#connection")).to_have_text("offline")
    expect(page.locator("#connection")).to_be_visible()
    page.goto(f"{live_server}/games/{table.game_id}/sheet")  # never opened here: the offline page
    expect(page.get_by_role("heading", name="No connection to the server")).to_be_visible()
    context.set_offline(False)
    table.record_hand([0, 13, 0, 0], 2)
    page.goto(f"{live_server}/games/{table.game_id}")
    next_hand = page.locator(".next-hand h1")
    expect(next_hand).to_have_text(re.compile(r"^Hand 3\b"))  # the network answered: its page, not the cache
    expect(page.locator("#connection")).to_be_hidden()


def offline_facts(client, game_id):
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    found = re.search(
        r'<script type="application/json" id="offline-facts" data-outbox="outbox:\d+">(.*?)</script>', page
    )
    assert found, "the table page carries its offline facts"
    return json.loads(found.group(1))


def test_the_table_page_carries_the_next_eight_hands_from_the_rules_core(table, client):
    table.start_game(players=("Ann", "Ben", "Cat", "Dan", "Eve"), first_dealer=3, pass_cycle="left-right-hold")
    table.record_hand([4, 0, 9, 0, 0], 1)
    facts = offline_facts(client, table.game_id)
    assert facts["players"] == ["Ann", "Ben", "Cat", "Dan", "Eve"] and facts["totals"] == [4, 13, 9, 0, 0]
    assert facts["leads"] == "3♣" and facts["removed"] == ["2♣", "2♦"]
    ahead = facts["ahead"]
    assert [hand["number"] for hand in ahead] == list(range(2, 10))
    assert [hand["dealer"] for hand in ahead] == [4, 0, 1, 2, 3, 4, 0, 1]
    passes = ["Pass 3 cards to the right", "Hold: no passing", "Pass 3 cards to the left"]
    assert [hand["pass"] for hand in ahead] == passes * 2 + passes[:2]
    assert ahead[1]["passes"] == [] and ahead[2]["passes"] == [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]]
    api = table.game()["next_hand"]
    assert (ahead[0]["dealer"], api["pass"]) == (api["dealer"], "right")
    assert ahead[0]["passes"] == [[step["from"], step["to"]] for step in api["passes"]]
    assert facts["record"] == f"/api/games/{table.game_id}/hands"


def test_the_offline_facts_cannot_break_out_of_their_script(table, client):
    table.start_game(players=("</script><b>x", "Ben", "Cat"), omnibus=True)
    facts = offline_facts(client, table.game_id)
    assert facts["players"][0] == "</script><b>x"


@pytest.mark.browser
def test_a_page_its_script_fetches_again_is_the_copy_kept_for_offline(
    page: Page, context: BrowserContext, live_server, table
):
    table.start_game()
    open_and_keep(page, f"{live_server}/games/{table.game_id}")
    table.record_hand([4, 0, 9, 0], 1)
    page.evaluate(KEEP_AFTER_FETCH)  # as an in-place save refreshes the page it shows
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    page.reload()
    expect(page.locator('[data-total="2"]')).to_have_text("9")


def test_names_reach_the_page_script_intact_from_single_quoted_attributes(client):
    players = ["O'Neil", 'Al "Ace"', "<b>Bo</b> & co", "Dan"]
    game = client.post("/api/games", json={"players": players}).json
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    attribute = re.search(r"data-players='([^']*)'", page)
    assert attribute and "<b>" not in attribute.group(1)
    assert json.loads(html.unescape(attribute.group(1))) == players


@pytest.fixture
def guarded_game(app, table):
    """A game of one hand, on a server whose passcode is set once the game is there."""
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    app.config["PASSCODE"] = PASSCODE
    return f"/games/{table.game_id}"


@pytest.mark.browser
@pytest.mark.parametrize("leaving", ["signs out", "loses its cookie"])
def test_a_phone_no_longer_signed_in_keeps_no_page_for_offline(
    page: Page, context: BrowserContext, guarded_game, live_server, leaving
):
    page.goto(live_server + guarded_game)
    page.get_by_label("Passcode").fill(PASSCODE)
    page.get_by_role("button", name="Sign in").click()
    open_and_keep(page, live_server + guarded_game)
    if leaving == "signs out":
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_text("Signed out.")).to_be_visible()
    else:  # the session ended (a month unused, or a new passcode): the server asks for the passcode again
        context.clear_cookies()
        page.goto(live_server + "/")
        expect(page.get_by_role("heading", name="Passcode, please")).to_be_visible()
    page.evaluate(FORGOTTEN)
    page.wait_for_function("() => window.pagesForgotten === true")
    context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    page.goto(live_server + guarded_game)
    expect(page.get_by_role("heading", name="No connection to the server")).to_be_visible()
    expect(page.locator('[data-total="2"]')).to_have_count(0)
