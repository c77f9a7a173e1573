"""With the floor on, a moon's subtract says what really comes off the shooter: the option, Save and the hands."""

import re

import pytest
from browser import SMALL_PHONE, tap_hand
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cat", "Dan"]


@pytest.fixture
def page(browser):
    context = browser.new_context(**SMALL_PHONE)
    yield context.new_page()
    context.close()


def test_subtracting_says_what_the_floor_really_takes_off(page, live_server, table):
    table.start_game(players=NAMES)
    table.record_hand([6, 0, 7, 0], 0)  # Ann 19
    page.goto(f"{live_server}/games/{table.game_id}")
    tap_hand(page, NAMES, [13, 0, 0, 0], 0)
    subtract = page.get_by_role("radio", name=re.compile("^Shooter"))
    option = page.locator("label.moon-choice").filter(has=subtract)
    expect(option).to_contain_text("Shooter −19")  # not −26: Ann has 19
    option.click()
    save = page.get_by_role("button", name="Save hand · Ann −19")
    expect(save).to_be_visible()
    save.click()
    expect(page.get_by_role("status").filter(has_text="Hand 2 saved")).to_be_visible()
    expect(page.locator(".hands .moon")).to_have_text("☾ −19")
    assert table.game()["hands"][1]["scores"][0] == -19
