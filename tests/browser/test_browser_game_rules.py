"""A game's house rules in sight on a small phone: beside Start (every one that differs from Classic), on the
table page, and changed with the players' names until the first hand is recorded; a refusal said beside Start;
only the pass cycles that fit the players named offered."""

import re

import pytest
from browser import SMALL_PHONE, in_sight
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser):
    context = browser.new_context(**SMALL_PHONE)
    yield context.new_page()
    context.close()


def name_box(page: Page, seat: int):
    return page.get_by_role("textbox", name=f"Player {seat}", exact=True)


def test_the_last_games_unusual_rules_are_in_sight_beside_start(page, live_server, table):
    table.start_game(players=["Ann", "Ben", "Cat"], black_maria=True, pass_cycle="right", target=50)
    page.goto(f"{live_server}/games/new")
    summary = page.locator("#rules-summary")
    in_sight(summary)  # beside the sticky Start, however far up the page is
    expect(summary).to_have_text(
        "House rules: Play to: 50 · Passing: Always pass right · Black Maria: the K♠ scores 10 and the A♠ 7"
    )
    page.get_by_role("link", name="Classic").tap()
    expect(summary).to_have_text("House rules: Classic")
    page.get_by_text("Exact reset: a total landing exactly on the target goes back to 0").tap()
    expect(summary).to_have_text("House rules: Exact reset: a total landing exactly on the target goes back to 0")


def test_a_refusal_is_said_beside_start(page, live_server):
    page.goto(f"{live_server}/games/new")
    for seat, name in enumerate(["Ann", "Ben", "Cat"], start=1):
        name_box(page, seat).fill(name)
    page.get_by_text("No moon: whoever takes every point scores them").tap()
    page.get_by_text(re.compile("^Shooting the sun: taking every trick")).tap()
    page.get_by_role("button", name="Start the game").tap()
    refusal = page.locator(".save-bar #refusal")
    expect(refusal).to_contain_text("Shooting the sun needs the moon")
    in_sight(refusal)


def test_only_the_pass_cycles_of_the_players_named_are_offered(page, live_server):
    page.goto(f"{live_server}/games/new")
    passing = page.get_by_role("group", name="Passing")
    four = passing.get_by_text(re.compile(r"^Left, right, across, hold \(4 players only\)"))
    five = passing.get_by_text(re.compile(r"^Left, 2 left, 2 right, right, hold \(5 players only\)"))
    for seat, name in enumerate(["Ann", "Ben", "Cat"], start=1):
        name_box(page, seat).fill(name)
    expect(four).to_be_hidden()
    expect(five).to_be_hidden()
    name_box(page, 4).fill("Dan")
    expect(four).to_be_visible()
    expect(five).to_be_hidden()


def test_rules_and_names_change_until_the_first_hand(page, live_server, table):
    table.start_game(players=["Ann", "Bne", "Cat"], black_maria=True)
    page.goto(f"{live_server}/games/{table.game_id}")
    rules = page.locator("#rules-in-play")
    expect(rules).to_contain_text("Black Maria: the K♠ scores 10 and the A♠ 7")
    rules.get_by_role("link", name="Change the rules or names").tap()
    name_box(page, 2).fill("Ben")
    page.get_by_text(re.compile("^Black Maria: the K♠ scores")).tap()
    page.get_by_role("button", name="Save the changes").tap()
    expect(rules).to_have_text(re.compile(r"^House rules: Classic"))
    assert table.game()["players"] == ["Ann", "Ben", "Cat"]
    assert table.game()["rules"]["black_maria"] is False
    table.record_hand([4, 0, 9], 1)
    page.reload()
    expect(rules).to_have_text("House rules: Classic")
    expect(page.get_by_role("link", name="Change the rules or names")).to_have_count(0)
