"""The follow view turned sideways is a big-digit table display: scores left, the next hand right."""

import re

import pytest
from playwright.sync_api import Browser, expect


def boxes(page):
    """The scoreboard's and the next hand's boxes, read at once: the board is swapped in as it polls."""
    return page.evaluate(
        """() => ["#board .scoreboard", "#board .next-hand"].map((selector) => {
            const box = document.querySelector(selector).getBoundingClientRect();
            return { x: box.x, y: box.y, width: box.width, height: box.height };
        })"""
    )


def open_display(browser: Browser, url: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(url)
    return context, page


@pytest.mark.browser
@pytest.mark.parametrize("width, height", [(844, 390), (1024, 768)])
def test_sideways_the_scores_are_big_and_the_next_hand_beside_them(browser: Browser, live_server, table, width, height):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    context, page = open_display(browser, f"{live_server}/games/{table.game_id}/follow", width, height)
    try:
        total = page.locator('[data-total="1"]')
        expect(total).to_have_text("13")
        size = "() => getComputedStyle(document.querySelector('[data-total=\"1\"]')).fontSize"  # the one shown now
        digits = float(page.evaluate(size).removesuffix("px"))
        assert digits >= height / 6  # readable from across the table
        expect(page.locator("#board .hands")).to_be_hidden()
        scores, upcoming = boxes(page)
        assert upcoming["x"] >= scores["x"] + scores["width"]  # beside, not below
        assert scores["y"] + scores["height"] <= height  # the whole board fits without scrolling
        expect(page.locator(".next-hand h1")).to_have_text(re.compile(r"^Hand 2\b"))
    finally:
        context.close()


@pytest.mark.browser
def test_upright_on_a_phone_the_follow_view_stays_a_list(page, live_server, table):
    table.start_game()
    page.goto(f"{live_server}/games/{table.game_id}/follow")
    expect(page.locator("#board .scoreboard")).to_be_visible()
    scores, upcoming = boxes(page)
    assert upcoming["y"] >= scores["y"] + scores["height"]
