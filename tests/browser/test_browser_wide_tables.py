"""Tables wider than a small phone (issue 26, point 13): the review's hand by hand scrolls in its own box, says so,
and takes the keyboard (the rule book: tests/browser/test_fourth_evening.py)."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
HINT = {"en-GB": "The table scrolls sideways", "de-DE": "Die Tabelle lässt sich seitlich"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"], ids=["english", "german"])
def test_the_reviews_hand_by_hand_scrolls_in_its_box_with_a_hint(phone, alike, locale, scheme):
    url, _ = alike(3)
    page = phone(url + "/review", scheme, locale=locale)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the page itself never scrolls sideways
    box = page.locator(".review .scroll")
    assert box.evaluate("box => box.scrollWidth > box.clientWidth")  # five players: it scrolls
    expect(page.locator(".review .swipe")).to_be_visible()
    expect(page.locator(".review .swipe")).to_contain_text(HINT[locale])
    box.focus()
    expect(box).to_be_focused()
    page.keyboard.press("ArrowRight")
    scrolled = """box => new Promise(done => {
        const look = () => box.scrollLeft > 0 ? done(true) : requestAnimationFrame(look); look(); })"""
    assert box.evaluate(scrolled)  # the keys scroll it
    violations = Axe().run(page).response["violations"]
    assert [v["id"] for v in violations if v["impact"] in ("serious", "critical")] == []
