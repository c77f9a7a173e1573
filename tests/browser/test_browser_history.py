"""The review page in a real Chromium at phone size."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_the_review_page_on_a_phone(page: Page, live_server: str, client):
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}).json
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([1, 2, 3, 4, 3], 4), ([0, 0, 0, 13, 0], 2)]:
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": queen})
    page.goto(f"{live_server}/games/{game['id']}/review")
    chart = page.get_by_role("img", name="Each player's total after every hand")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(5)
    box = chart.bounding_box()
    assert box["width"] >= 300 and box["height"] >= 150  # readable on a 390 px phone
    for name in ["Ann", "Ben", "Cat", "Dan", "Eve"]:
        expect(page.locator(".legend").get_by_text(name, exact=True)).to_be_visible()
    colours = page.eval_on_selector_all(".totals-chart polyline", "lines => lines.map(l => getComputedStyle(l).stroke)")
    assert len(set(colours)) == 5
    expect(page.get_by_text("Took the Q♠ most often: Ben, Cat and Eve (1 time).")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
