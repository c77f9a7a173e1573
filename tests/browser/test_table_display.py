"""The follow view turned sideways is a big-digit table display: a card a player, the next hand beside them."""

import re

import pytest
from browser import ALIKE_NAMES, shown_text, shown_texts, with_wake_lock
from playwright.sync_api import Browser, expect


def boxes(page):
    """The box around the scoreboard's cards, and the next hand's, read at once: the board is swapped in as it polls."""
    return page.evaluate(
        """() => ["#board .scoreboard li", "#board .next-hand"].map((selector) => {
            const parts = [...document.querySelectorAll(selector)].map(part => part.getBoundingClientRect());
            const x = Math.min(...parts.map(box => box.left)), y = Math.min(...parts.map(box => box.top));
            return { x, y, width: Math.max(...parts.map(box => box.right)) - x,
                     height: Math.max(...parts.map(box => box.bottom)) - y };
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


CARDS = """() => [...document.querySelectorAll("#board .scoreboard li")].map(card => {
    const total = card.querySelector(".total"), digits = document.createRange();
    digits.selectNodeContents(total);
    const box = card.getBoundingClientRect(), text = digits.getBoundingClientRect();
    return { left: box.left, right: box.right, top: box.top, bottom: box.bottom, digitsLeft: text.left,
             digitsRight: text.right, digitsTop: text.top, digitsBottom: text.bottom,
             size: parseFloat(getComputedStyle(total).fontSize) };
})"""


def apart(one, other) -> bool:
    return (one["right"] <= other["left"] or other["right"] <= one["left"] or one["bottom"] <= other["top"]
            or other["bottom"] <= one["top"])  # fmt: skip


@pytest.mark.browser
@pytest.mark.parametrize("width, height", [(740, 360), (1180, 820)], ids=["phone", "tablet"])
def test_five_players_read_from_across_the_table(browser: Browser, live_server, table, width, height):
    table.start_game(players=ALIKE_NAMES)
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]:
        table.record_hand(hearts, queen)  # 19, 16, 14, 16, 13; Christopher deals hand 4, passing left
    context, page = open_display(browser, f"{live_server}/games/{table.game_id}/follow", width, height)
    try:
        expect(page.locator('[data-total="4"]')).to_have_text("13")
        cards = page.evaluate(CARDS)
        for card in cards:  # each total inside its own card, big: digits never run into the next card's
            assert card["left"] < card["digitsLeft"] and card["digitsRight"] < card["right"]
            assert card["top"] < card["digitsTop"] and card["digitsBottom"] < card["bottom"] <= height
            assert card["size"] >= height / 6
        assert all(apart(one, other) for at, one in enumerate(cards) for other in cards[at + 1 :])
        assert page.evaluate("document.documentElement.scrollHeight") <= height  # no scrolling
        passes = shown_texts(page.locator("#board .scoreboard .to"))
        assert passes == [f"passes to {name}" for name in ALIKE_NAMES[1:] + ALIKE_NAMES[:1]]
        upcoming = shown_text(page.locator("#board .next-hand"))
        assert re.match(r"Hand 4 ?Christopher deals ?pass ← left", upcoming) and "·" not in upcoming
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("lock", ["present", "absent"])
def test_the_follow_page_keeps_the_screen_on_where_it_can(browser: Browser, live_server, table, lock):
    table.start_game()
    context = browser.new_context(viewport={"width": 1180, "height": 820})
    page = context.new_page()
    errors = with_wake_lock(page, lock == "present")
    page.goto(f"{live_server}/games/{table.game_id}/follow")
    expect(page.locator('[data-total="0"]')).to_have_text("0")
    assert page.evaluate("window.asked") == (["screen"] if lock == "present" else [])
    assert errors == []
    context.close()


@pytest.mark.browser
def test_a_deleted_games_follow_page_says_so_and_asks_no_more(page, live_server, table, client):
    """Issue 41, fifth probe: a follow page left open on a deleted game asked every second all night, each a 404,
    and on an open server its address went past its wrong keys (answered 429, and slowed) for the hour."""
    table.start_game()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/board" in request.url else None)
    page.clock.install()
    page.goto(f"{live_server}/games/{table.game_id}/follow")
    expect(page.locator('[data-total="0"]')).to_have_text("0")
    assert client.post(f"/games/{table.game_id}/delete").status_code == 302
    page.clock.run_for(2000)  # the page's next ask, on its own clock (or the stream's news sooner)
    expect(page.locator("#board")).to_have_text("This game was deleted.")
    seen = len(asked)
    page.clock.run_for(60_000)  # a minute of the page's timers: sixty asks, before
    assert len(asked) == seen
