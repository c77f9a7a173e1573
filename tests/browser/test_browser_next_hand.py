"""After Save, on a small phone (360 x 740) with five long, alike names: the next hand's top comes into view, and a
stray second tap where Save was enters nothing (issue 26, points 3 and 4)."""

import re

import pytest
from browser import ALIKE_LONG, enter, in_sight, keep_a_hand_offline, save_button
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser
NAMES = ALIKE_LONG


def hearts(page: Page, name: str) -> Locator:
    """A player's row of hearts, in any language."""
    return page.locator(f"#hearts-{NAMES.index(name)}")


def next_hand_in_sight(page: Page, number: int) -> None:
    """The next hand's top: its number, dealer and way to pass, the first row of hearts (to whom its player passes
    said beside the name)."""
    expect(page.locator(".next-hand h1")).to_have_text(re.compile(f"^Hand {number}( ·|$)"))
    top = [
        page.locator(".next-hand"),
        hearts(page, NAMES[0]).locator("legend"),
        hearts(page, NAMES[0]).locator(".chip-row"),
    ]
    for part in top:
        expect(part).to_be_in_viewport(ratio=1)
    expect(page.locator("fieldset[inert]")).to_have_count(0)  # once the form takes taps again: nothing covers it
    for part in top:
        in_sight(part)


def untouched(page: Page) -> None:
    for name in NAMES:
        expect(hearts(page, name).get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(page.locator("#queen input:checked")).to_have_count(0)


@pytest.mark.parametrize("played", [0, 3], ids=["hand-1", "hand-4"])
@pytest.mark.parametrize("gap", [80, 250], ids=["80ms", "250ms"])
def test_after_save_the_next_hand_is_in_view_and_a_stray_tap_enters_nothing(phone, alike, client, played, gap):
    url, api = alike(played)
    page = phone(url)
    number = played + 1
    enter(page, [5, 0, 0, 8, 0], 2)
    expect(page.locator("#live-check")).to_have_text(re.compile("^This hand: "))
    # Scrolled to the end of the page (the follow link, the hands so far): Save is not at the screen's foot, and the
    # next hand's form comes where it is
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 0
    box = save_button(page).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap)  # the gap between the two taps of a double tap: the scenario, not a wait
    page.touchscreen.tap(x, y)
    expect(save_button(page)).to_have_text(f"Hand {number} saved ✓")
    expect(page.locator(".next-hand h1")).to_be_in_viewport(ratio=1)
    page.touchscreen.tap(x, y)  # and one more as the page settles: still nothing
    next_hand_in_sight(page, number + 1)
    untouched(page)
    expect(page.locator("details[open]")).to_have_count(0)
    expect(save_button(page)).to_have_text(f"Hand {number} saved ✓")
    assert len(client.get(api).json["hands"]) == number
    # A moment later the next hand takes taps
    hearts(page, NAMES[0]).get_by_text("3", exact=True).click()
    expect(hearts(page, NAMES[0]).get_by_role("radio", name="3", exact=True)).to_be_checked()


def test_after_an_offline_save_the_next_hand_is_in_view(phone, alike):
    url, _ = alike(3)
    page = phone(url, offline_ready=True)
    keep_a_hand_offline(page)
    next_hand_in_sight(page, 5)
    untouched(page)
