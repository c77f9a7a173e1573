"""The page scripts load in Chromium as they are, with no server: the page's requests are answered from the files in
static/. What the pure modules do is tested under Node's own runner (tests/js/, `node --test tests/js/`)."""

import pytest
from playwright.sync_api import Page

from server import ROOT

pytestmark = pytest.mark.browser
ORIGIN = "http://scripts.test"
PURE = (
    "hand-life.js",
    "hand-entry.js",
    "draft.js",
    "words.js",
    "outbox.js",
    "conflict.js",
    "offline-table.js",
    "offline-hands.js",
    "hand-form.js",
)


@pytest.fixture
def scripts(page: Page) -> Page:
    """A blank page that can import the scripts in static/, each as written."""

    def answer(route):
        name = route.request.url.removeprefix(f"{ORIGIN}/static/")
        route.fulfill(path=ROOT / "static" / name, content_type="text/javascript")

    page.route(f"{ORIGIN}/static/*.js", answer)
    page.route(f"{ORIGIN}/", lambda route: route.fulfill(body="<!doctype html><title>scripts</title>"))
    page.goto(f"{ORIGIN}/")
    return page


def test_the_modules_node_tests_load_in_the_browser(scripts):
    """Node runs what they do; the browser must still import each, with what it imports."""
    loaded = scripts.evaluate(
        "async (names) => { const out = []; for (const name of names) {"
        " out.push(Object.keys(await import('/static/' + name)).length > 0); } return out; }",
        list(PURE),
    )
    assert loaded == [True] * len(PURE)
    life = "async () => { const life = await import('/static/hand-life.js');"
    life += " return life.save(life.entering(7), {}, null, true); }"
    assert scripts.evaluate(life)["effect"] == "queue"
