"""The small things of the third evening at 360 x 740 (issue 26, point 14): Undo inside the save bar beside its
words, heart chips clear of the screen's edge, the home page's words for a game not begun, an on-screen score sheet
that is read at a glance."""

import re

import pytest
from browser import enter, save_button
from playwright.sync_api import expect

pytestmark = pytest.mark.browser
EDGE = 8  # px a chip keeps from the screen's edge


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_undo_sits_in_the_save_bar_beside_its_words(phone, alike, scheme):
    url, _ = alike(3)
    page = phone(url, scheme)
    enter(page, [5, 0, 0, 8, 0], 2)
    save_button(page).click()
    undo = page.get_by_role("button", name="Undo hand 4…")
    expect(undo).to_be_visible()
    expect(page.locator("#record")).to_have_text("Record hand 5")
    # Measured in one go: a refresh that swaps the page in between would leave some boxes measured on the old one.
    bar, save, box, words = page.evaluate(
        """() => ['.save-bar', '.save-bar [type=submit]', '#live-check button', '#live-check']
                   .map(selector => document.querySelector(selector).getBoundingClientRect().toJSON())"""
    )
    assert save["x"] <= box["x"] and box["x"] + box["width"] <= save["x"] + save["width"]  # never sticks out
    assert bar["x"] <= box["x"] and box["x"] + box["width"] <= bar["x"] + bar["width"]
    assert box["width"] < save["width"] / 2  # a button beside the words, not a second Save
    assert box["y"] >= words["y"] and box["y"] + box["height"] <= save["y"]  # on the words' line, above Save
    assert abs(box["x"] + box["width"] - (save["x"] + save["width"])) < 1  # its right edge lined up with Save's


def test_heart_chips_keep_clear_of_the_screens_edge(phone, alike):
    url, _ = alike(0)
    page = phone(url)
    for row in page.locator(".hearts .chip-row").all():
        box = row.bounding_box()
        assert box["x"] >= EDGE and box["x"] + box["width"] <= 360 - EDGE
    chip = page.locator(".hearts .chip-row > label").first.bounding_box()
    assert chip["width"] >= 40 and chip["height"] >= 44  # eight to a row, on one line (issue 40, point 4)


@pytest.mark.parametrize(
    "locale, words", [("en-GB", "Not begun: no hand played yet"), ("de-DE", "Noch nicht begonnen")]
)
def test_home_says_a_game_without_a_hand_is_not_begun(phone, client, live_server, locale, words):
    client.post("/api/games", json={"players": ["Ann", "Ben", "Cat"]})
    page = phone(live_server + "/", locale=locale)
    card = page.locator(".game-card")
    expect(card.locator(".leads")).to_have_text(re.compile(f"^{words}"))
    expect(card).not_to_contain_text("♛")
    expect(card).not_to_contain_text("0 / 0 / 0")


@pytest.mark.parametrize("played", [3], ids=["five-players"])
def test_the_on_screen_score_sheet_is_read_at_a_glance(phone, alike, played):
    url, _ = alike(played)
    page = phone(url + "/sheet")
    cells = page.locator(".scores tbody td:not(.pass):not(.dealer)")
    expect(cells.first).to_be_visible()
    sizes = cells.evaluate_all("cells => cells.map(cell => parseFloat(getComputedStyle(cell).fontSize))")
    assert min(sizes) >= 12  # px: the digits of a score, not a footnote
    overflowing = cells.evaluate_all("cells => cells.filter(cell => cell.scrollWidth > cell.clientWidth).length")
    assert overflowing == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # no sideways scrolling


def test_rows_tapped_before_the_page_script_ran_still_fill_the_last_row(browser, five):
    """A slow first load: the form is in sight, and tapped, before its script has come. The plain form takes those
    taps; once the script runs it counts the rows as tapped, and the last row fills itself in."""
    from browser import ALIKE_NAMES, SMALL_PHONE, live_form, tap_hearts

    url, _ = five
    context = browser.new_context(**SMALL_PHONE)
    page = context.new_page()
    held = []
    page.route("**/static/hand-form.js*", lambda route: held.append(route))  # answered below, after the taps
    with page.expect_request("**/static/hand-form.js*"):  # table.js has come and asks for the form's script
        page.goto(url, wait_until="commit")
    for name, count in zip(ALIKE_NAMES[:4], [4, 3, 1, 2], strict=True):  # four rows tapped, the fifth left
        tap_hearts(page, name, count, script=False)
    assert held and page.locator("#hand-form[data-live]").count() == 0  # the taps were the plain form's
    held[0].continue_()
    last = live_form(page).locator("#hearts-4")
    expect(last.locator("input:checked")).to_have_value("3")  # 13 − 4 − 3 − 1 − 2
    context.close()


# The point where the save bar, stuck to the bottom of the hand's form, meets the pinned totals as the form scrolls
# away: the element drawn there, scrolled a step at a time down to the played hands.
OVERLAP = """() => {
  for (let y = 0; y < document.documentElement.scrollHeight; y += 20) {
    window.scrollTo({top: y, behavior: 'instant'});  // also ends a smooth scroll of the page's own
    const pinned = document.querySelector('.pinned'), bar = document.querySelector('.save-bar');
    const top = pinned.getBoundingClientRect(), bottom = bar.getBoundingClientRect();
    if (bottom.top < top.bottom && bottom.bottom > top.top) {
      const at = (Math.max(top.top, bottom.top) + Math.min(top.bottom, bottom.bottom)) / 2;
      return pinned.contains(document.elementFromPoint(top.left + top.width / 2, at));
    }
  }
  return null;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_save_bar_slides_under_the_pinned_totals_never_over_them(phone, alike, scheme):
    """Issue 40, point 8: scrolled down to the played hands after a save, the save bar (its words and Undo) went over
    the totals pinned at the top, both on one layer."""
    url, _ = alike(3)
    page = phone(url, scheme)
    enter(page, [5, 0, 0, 8, 0], 2)
    save_button(page).click()
    expect(page.get_by_role("button", name="Undo hand 4…")).to_be_visible()
    expect(page.locator("#record")).to_have_text("Record hand 5")  # the next hand's form is in: the page is still
    page.wait_for_function(f"() => ({OVERLAP})() !== null")  # the two meet somewhere (the page laid out whole)
    assert page.evaluate(OVERLAP) is True
