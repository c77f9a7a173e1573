"""A game night in a real Chromium at phone size: new game, hands, a moon, undo, a fix, game over."""

import re

import pytest
from browser import live_form, tap_hearts
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def totals(page: Page, *expected: int) -> None:
    for seat, total in enumerate(expected):
        expect(page.locator(f'[data-total="{seat}"]')).to_have_text(str(total))


def tap_queen(page: Page, name: str) -> None:
    live_form(page).get_by_role("group", name="Who took the Q♠").get_by_text(name, exact=True).click()


def save(page: Page) -> None:
    page.get_by_role("button", name="Save hand").click()


def test_a_game_night(page: Page, live_server: str):
    page.goto(live_server + "/")
    page.get_by_role("link", name="Start a new game").click()
    for seat, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_role("group", name="Play to").get_by_text("50", exact=True).click()
    page.get_by_role("button", name="Start the game").click()

    expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 · Ann deals · pass left"))).to_be_visible()
    expect(page.get_by_text("Ann → Ben")).to_be_visible()  # no tap needed
    # Hand 1, worked example 1: the last row left is filled in (Cat: 9)
    tap_hearts(page, "Ann", 4)
    tap_hearts(page, "Ben", 0)
    tap_hearts(page, "Dan", 0)
    expect(
        page.get_by_role("group", name="Hearts taken by Cat").get_by_role("radio", name="9", exact=True)
    ).to_be_checked()
    expect(page.locator("#live-check")).to_have_text("13 of 13 hearts · who took the Q♠?")
    tap_queen(page, "Ben")
    expect(page.locator("#live-check")).to_have_text("This hand: Ann +4, Ben +13, Cat +9, Dan 0")
    save(page)
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved")).to_be_visible()
    totals(page, 4, 13, 9, 0)
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 2 · Ben deals · pass right"))).to_be_visible()

    # Hand 2: Ben shoots the moon; the app advises adding, the table subtracts
    tap_hearts(page, "Ben", 13)
    tap_queen(page, "Ben")
    panel = page.locator("#moon-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("Ben shot the moon!")
    expect(panel.locator('[data-moon-totals="add"]')).to_have_text("Ann 30, Ben 13, Cat 35, Dan 26")
    expect(panel.locator('[data-moon-totals="subtract"]')).to_have_text("Ann 4, Ben 0, Cat 9, Dan 0")
    expect(panel.locator('[data-advised="add"]')).to_be_visible()
    expect(panel.locator('[data-advised="subtract"]')).to_be_hidden()
    expect(panel.get_by_role("radio", name=re.compile("Everyone else"))).to_be_checked()
    expect(page.get_by_role("button", name="Save hand · others +26")).to_be_visible()
    panel.get_by_text("Shooter −13").click()  # Ben has 13: the floor takes 13 off, not 26
    page.get_by_role("button", name="Save hand · Ben −13").click()

    # Undo it from the line that says it was saved, once asked: the hand comes back on the form
    page.get_by_role("button", name="Undo hand 2…").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, undo hand 2").click()
    expect(page.get_by_role("status").filter(has_text="Hand 2 undone")).to_be_visible()
    totals(page, 4, 13, 9, 0)
    expect(
        page.get_by_role("group", name="Hearts taken by Ben").get_by_role("radio", name="13", exact=True)
    ).to_be_checked()
    expect(page.get_by_role("radio", name=re.compile("Shooter"))).to_be_checked()
    page.get_by_role("button", name="Save hand · Ben −13").click()  # saved again, as it was
    totals(page, 4, 0, 9, 0)
    expect(page.locator(".hands")).to_contain_text("☾ −13")

    # Undo hand 2 from the hands list, with a confirmation
    page.get_by_text("Undo hand 2", exact=True).click()
    page.get_by_role("button", name="Yes, undo hand 2").click()
    expect(page.get_by_text("Hand 2 was undone.")).to_be_visible()
    totals(page, 4, 13, 9, 0)

    # A hand the page knows is incomplete is not sent: the bar says what is missing and where
    tap_hearts(page, "Ann", 4)
    tap_hearts(page, "Cat", 8)
    tap_queen(page, "Ben")
    save(page)
    expect(page.locator("#live-check")).to_have_text("12 of 13 hearts: 1 missing · check Ben’s row")
    expect(page.locator("#hearts-1")).to_have_class(re.compile("missing"))
    tap_hearts(page, "Cat", 9)
    save(page)
    totals(page, 8, 26, 18, 0)

    # Correct hand 1: Ann took 5 and Cat 8
    page.get_by_role("link", name="Correct hand 1").click()
    expect(
        page.get_by_role("group", name="Hearts taken by Ann").get_by_role("radio", name="4", exact=True)
    ).to_be_checked()
    tap_hearts(page, "Ann", 5)
    tap_hearts(page, "Cat", 8)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Hand 1 corrected")).to_be_visible()
    totals(page, 9, 26, 17, 0)

    # Hand 3 (across), then Cat shoots the moon and adding ends the game with Cat the winner
    expect(page.get_by_text("Ann → Cat")).to_be_visible()
    tap_hearts(page, "Ann", 13)
    tap_queen(page, "Dan")
    save(page)
    totals(page, 22, 26, 17, 13)
    tap_hearts(page, "Cat", 13)
    tap_queen(page, "Cat")
    expect(page.locator('[data-moon-outcome="add"]')).to_have_text("ends the game: the shooter wins")
    expect(page.locator('[data-advised="add"]')).to_be_visible()
    save(page)  # the advice, chosen already

    expect(page.get_by_role("heading", name="Cat wins!")).to_be_visible()
    expect(page.get_by_role("list", name="Final totals")).to_have_text(
        re.compile(r"1\.\s*Cat\s*17\s*2\.\s*Dan\s*39\s*3\.\s*Ann\s*48\s*4\.\s*Ben\s*52")
    )


def test_the_page_fits_a_phone_without_sideways_scrolling(page: Page, live_server: str, client):
    game = client.post("/api/games", json={"players": ["Anneliese", "Bartholomew", "Cat", "Dan", "Eve"]}).json
    page.goto(f"{live_server}/games/{game['id']}")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    small = page.evaluate(
        """() => [...document.querySelectorAll('.chip-row > label > span, button, .fix')]
              .map(e => e.getBoundingClientRect()).filter(r => r.width > 0)  // a row's other half of counts: not shown
              .filter(r => r.height < 44 || r.width < 40).length"""
    )
    assert small == 0
    cut_at_the_start = page.evaluate(  # a long name may end in "…", but its start always shows
        """() => [...document.querySelectorAll('.chip-row > label span')].filter(span => {
              const text = document.createRange(); text.selectNodeContents(span);
              return text.getBoundingClientRect().left < span.getBoundingClientRect().left; }).length"""
    )
    assert cut_at_the_start == 0


@pytest.mark.browser
def test_a_double_tap_on_start_starts_one_game(page: Page, live_server: str, client):
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(["Ann", "Ben", "Cat"]):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").dblclick()
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 · "))).to_be_visible()
    page.get_by_role("link", name="♥ Scorekeeper").click()  # a page the server answers after both taps
    expect(page.get_by_role("link", name="Start a new game")).to_be_visible()
    assert len(client.get("/api/games").json["games"]) == 1
