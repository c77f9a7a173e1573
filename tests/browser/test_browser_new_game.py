"""The new-game form on a small phone: the last game's players offered in one tap, never typed onto; Enter
goes on to the next name; a refused form puts the focus on the box at fault, its message in sight."""

import re

import pytest
from browser import ALIKE_NAMES, SMALL_PHONE, in_sight
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser):
    """A small phone; ``script=False`` for a browser with JavaScript off."""
    contexts = []

    def open_page(script=True) -> Page:
        context = browser.new_context(**SMALL_PHONE, java_script_enabled=script)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def box(page: Page, seat: int):
    return page.get_by_role("textbox", name=f"Player {seat}", exact=True)


def test_the_last_games_players_are_offered_in_one_tap_and_a_tap_on_a_name_replaces_it(phone, live_server, table):
    table.start_game(players=ALIKE_NAMES)
    page = phone()
    page.goto(f"{live_server}/games/new")
    for seat in range(1, 6):
        expect(box(page, seat)).to_have_value("")  # nothing filled in unasked
    same = page.get_by_role("link", name=re.compile("^Same players as last time"))
    expect(same).to_contain_text(", ".join(ALIKE_NAMES))
    same.tap()
    for seat, name in enumerate(ALIKE_NAMES, start=1):
        expect(box(page, seat)).to_have_value(name)
    expect(page.get_by_role("group", name="Who deals first").get_by_text("Christina", exact=True)).to_be_visible()
    box(page, 3).tap()
    page.keyboard.type("Eve")
    expect(box(page, 3)).to_have_value("Eve")  # not "ChristinaEve"
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 · Alexandra deals"))).to_be_visible()
    assert table.client.get("/api/games").json["games"][0]["players"] == ["Alexandra", "Alexander", "Eve",
                                                                          "Christopher", "Maximilian"]  # fmt: skip


def test_without_the_script_the_same_players_come_with_the_form(phone, live_server, table):
    table.start_game(players=ALIKE_NAMES)
    page = phone(script=False)
    page.goto(f"{live_server}/games/new")
    page.get_by_role("link", name=re.compile("^Same players as last time")).click()
    for seat, name in enumerate(ALIKE_NAMES, start=1):
        expect(box(page, seat)).to_have_value(name)


def test_enter_goes_to_the_next_name_and_never_starts_the_game(phone, live_server, client):
    page = phone()
    page.goto(f"{live_server}/games/new")
    for seat, name in enumerate(["Ann", "Ben", "Cat", ""], start=1):
        expect(box(page, seat)).to_have_attribute("enterkeyhint", "next")
        box(page, seat).press_sequentially(name)
        box(page, seat).press("Enter")
        expect(box(page, seat + 1)).to_be_focused()
    expect(box(page, 5)).to_have_attribute("enterkeyhint", "done")
    box(page, 5).press("Enter")  # the last box: the keyboard goes away, the form stays
    expect(box(page, 5)).not_to_be_focused()
    expect(page).to_have_url(f"{live_server}/games/new")
    assert client.get("/api/games").json["games"] == []


def test_without_the_script_enter_in_a_name_starts_nothing(phone, live_server, client):
    page = phone(script=False)
    page.goto(f"{live_server}/games/new")
    for seat, name in enumerate(["Ann", "Ben", "Cat"], start=1):
        box(page, seat).fill(name)
    box(page, 3).press("Enter")
    expect(box(page, 3)).to_have_value("Cat")  # still the same page, as typed
    assert client.get("/api/games").json["games"] == []


@pytest.mark.parametrize(
    "names, at_fault, message",
    [
        ([], [1, 2, 3], "Hearts needs 3 to 5 players, not 0."),
        (["Ann", "Ben"], [3], "Hearts needs 3 to 5 players, not 2."),
        (["Ann", "Ben", "Ann"], [3], "Two players are called “Ann”: make the names different."),
        (ALIKE_NAMES[:4] + ["alexander"], [5], "Two players are called “alexander”: make the names different."),
    ],
    ids=["empty", "two", "twice", "last-twice"],
)
@pytest.mark.parametrize("script", [True, False], ids=["script", "no-script"])
def test_a_refused_form_puts_the_focus_on_the_box_at_fault_and_its_message_in_sight(
    phone, live_server, names, at_fault, message, script
):
    page = phone(script=script)
    page.goto(f"{live_server}/games/new")
    for seat, name in enumerate(names, start=1):
        box(page, seat).fill(name)
    page.get_by_role("button", name="Start the game").click()
    alert = page.get_by_role("alert").filter(has_text=message)
    expect(box(page, at_fault[0])).to_be_focused()
    in_sight(alert)  # not under the sticky button
    for seat in range(1, 6):
        if seat in at_fault:
            expect(box(page, seat)).to_have_attribute("aria-invalid", "true")
            expect(box(page, seat)).to_have_accessible_description(message)
        else:
            expect(box(page, seat)).not_to_have_attribute("aria-invalid", "true")
