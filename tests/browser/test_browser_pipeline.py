"""One path for a hand leaving the table page, on a small phone (360 x 740) with five long, alike names: a double
tap on Save, the next hand after an offline save, two phones on one game, a refused correction, the words of the
connection and of a tie-break."""

import re

import pytest
from browser import ALIKE_NAMES, enter, save_button, tap_hearts, tap_queen
from browser import hearts_row as hearts
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser
NAMES = ALIKE_NAMES  # the `five` fixture (conftest.py) has them play three hands
BEFORE = ["19", "16", "14", "16", "13"]  # the totals after the three hands of `five`
SAVED = ["24", "16", "27", "24", "13"]  # and after 5, 0, 0, 8, 0 hearts, the Q♠ to Christina


def totals(page: Page) -> Locator:
    return page.locator("[data-total]")


def untouched(page: Page) -> None:
    """A fresh form: every row at 0, no card given."""
    for name in NAMES:
        expect(hearts(page, name).get_by_role("radio", name="0", exact=True)).to_be_checked()
    expect(page.locator("#queen input:checked")).to_have_count(0)


@pytest.mark.parametrize("gap", [80, 250], ids=["80ms", "250ms"])
def test_a_second_tap_on_save_undoes_deletes_and_enters_nothing(phone, five, client, gap):
    """Point 1: scrolled down to the Q♠, Save tapped twice at the same spot."""
    url, api = five
    page = phone(url)
    enter(page, [5, 0, 0, 8, 0], 2)
    expect(page.locator("#live-check")).to_have_text(re.compile("^This hand: "))
    button = save_button(page).bounding_box()
    x, y = button["x"] + button["width"] / 2, button["y"] + button["height"] / 2
    scrolled = page.evaluate("scrollY")
    assert scrolled > 0  # the Q♠ is below the first screen
    page.touchscreen.tap(x, y)
    page.wait_for_timeout(gap)  # the gap between the two taps of a double tap: the scenario, not a wait
    page.touchscreen.tap(x, y)
    expect(totals(page)).to_have_text(SAVED)
    expect(page.locator(".next-hand h1")).to_be_in_viewport()  # the next hand's top in view (points 3 and 4)
    untouched(page)  # no stray count in the next hand
    expect(page.locator("details[open]")).to_have_count(0)  # nor the follow panel opened
    expect(save_button(page)).to_have_text("Hand 4 saved ✓")
    expect(page.locator("#live-check")).to_have_text("Hand 4 saved. Undo…")
    hands = client.get(api).json["hands"]
    assert [hand["hearts"] for hand in hands][3:] == [[5, 0, 0, 8, 0]]
    expect(page.locator("#record")).to_have_text("Record hand 5")  # the server's page is in
    save_button(page).click(force=True)  # Save stays inert until the next hand is begun
    expect(page.locator("#live-check")).to_have_text("Hand 4 saved. Undo…")
    # The next hand goes under the server's number
    enter(page, [0, 0, 0, 0, 13], 4)  # a moon: the advice is chosen
    expect(save_button(page)).to_have_text(re.compile("^Save hand · "))
    save_button(page).click()
    expect(save_button(page)).to_have_text("Hand 5 saved ✓")
    assert [hand["number"] for hand in client.get(api).json["hands"]] == [1, 2, 3, 4, 5]


def test_undo_asks_before_it_deletes_and_puts_the_hand_back(phone, five, client):
    url, api = five
    page = phone(url)
    enter(page, [5, 0, 0, 8, 0], 2)
    save_button(page).click()
    undo = page.get_by_role("button", name="Undo hand 4…")
    expect(undo).to_be_visible()
    expect(page.locator("#record")).to_have_text("Record hand 5")  # the server's page is in: nothing moves now
    save_box, undo_box = save_button(page).bounding_box(), undo.bounding_box()
    assert undo_box["y"] + undo_box["height"] <= save_box["y"]  # never where Save was
    undo.click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Undo hand 4?")
    assert len(client.get(api).json["hands"]) == 4  # asked, not done
    dialog.get_by_role("button", name="Keep hand 4").click()
    expect(dialog).to_have_count(0)
    assert len(client.get(api).json["hands"]) == 4
    undo.click()
    page.get_by_role("dialog").get_by_role("button", name="Yes, undo hand 4").click()
    expect(page.locator("#live-check")).to_have_text("Hand 4 undone: change it and save again.")
    assert len(client.get(api).json["hands"]) == 3
    expect(hearts(page, "Christopher").get_by_role("radio", name="8", exact=True)).to_be_checked()
    expect(totals(page)).to_have_text(BEFORE)


def test_totals_show_at_once_and_are_put_back_when_the_server_refuses(phone, five, client):
    """Totals at once: the preview's totals the moment Save is tapped, marked as saving; undone on a refusal."""
    url, api = five
    page = phone(url)
    enter(page, [5, 0, 0, 8, 0], 2)
    expect(page.locator("#live-check")).to_have_text(re.compile("^This hand: "))
    held = []
    page.route("**/api/games/*/hands", lambda route: held.append(route))  # the answer waits
    save_button(page).click()
    expect(totals(page)).to_have_text(SAVED)  # before any answer
    expect(page.locator(".scoreboard")).to_have_class(re.compile("saving"))
    expect(save_button(page)).to_have_text("Saving hand 4…")
    client.post(api + "/hands", json={"hearts": [0, 13, 0, 0, 0], "queen": 0})  # meanwhile, another phone
    held[0].fulfill(status=422, json={"error": "Say who took the Q♠.", "errors": {"queen": "Say who took the Q♠."}})
    expect(totals(page)).to_have_text(BEFORE)  # put back
    expect(page.locator(".scoreboard")).not_to_have_class(re.compile("saving"))
    expect(page.locator("#live-check")).to_have_text("Say who took the Q♠.")
    expect(page.locator("#queen")).to_have_class(re.compile("missing"))


def test_after_an_offline_save_the_next_hand_starts_clean(phone, five, client):
    """Point 4: no row of the next hand fills itself in from the last one."""
    url, api = five
    page = phone(url, offline_ready=True)
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_have_text("offline")
    for name, count in zip(NAMES[:4], [4, 0, 0, 0], strict=True):
        tap_hearts(page, name, count)
    expect(hearts(page, "Maximilian").get_by_role("radio", name="9", exact=True)).to_be_checked()  # filled in
    tap_queen(page, 1)
    save_button(page).click()
    expect(page.locator("#connection")).to_have_text("offline · 1 hand waiting")
    untouched(page)
    expect(save_button(page)).to_have_text("Hand 4 kept ✓")
    expect(page.locator("#live-check")).to_have_text(re.compile("^Hand 4 is kept on this phone"))
    tap_hearts(page, "Alexandra", 5)
    expect(page.locator("#live-check")).to_have_text("5 of 13 hearts: 8 missing")
    expect(page.locator(".chip-row input[value='13']:checked")).to_have_count(0)
    expect(save_button(page)).to_have_text("Save hand")
    # Back online, the table hears how many hands went
    enter(page, [5, 0, 0, 0, 8], 3)
    save_button(page).click()
    expect(page.locator("#connection")).to_have_text("offline · 2 hands waiting")
    page.context.set_offline(False)
    expect(page.locator("#connection")).to_have_text("2 hands sent")
    expect(totals(page)).to_have_text(["28", "29", "14", "29", "30"])
    assert [hand["number"] for hand in client.get(api).json["hands"]] == [1, 2, 3, 4, 5]


def test_every_open_table_page_learns_that_the_game_changed_elsewhere(phone, five, client):
    """Point 6: a second phone's save shows on the first within seconds, without a reload."""
    url, api = five
    first, second = phone(url), phone(url)
    first.evaluate("window.stillTheSamePage = true")
    enter(second, [5, 0, 0, 8, 0], 2)
    save_button(second).click()
    expect(totals(second)).to_have_text(SAVED)
    expect(totals(first)).to_have_text(SAVED)
    expect(first.locator("#live-check")).to_have_text("Hand 4 was saved on another phone.")
    expect(first.locator(".next-hand h1")).to_have_text(re.compile(r"^Hand 5\b"))
    assert first.evaluate("window.stillTheSamePage") is True


def test_a_save_from_a_stale_page_is_a_conflict_that_shows_both_versions(phone, five, client):
    """Point 6: the one difference, the totals each choice leads to, neither choice the default."""
    url, api = five
    first, second = phone(url), phone(url)
    enter(first, [5, 0, 0, 8, 0], 2)  # entered here while the other phone saves its own hand 4
    enter(second, [5, 0, 0, 8, 0], 3)
    save_button(second).click()
    expect(totals(second)).to_have_text(["24", "16", "14", "37", "13"])
    expect(first.locator("#live-check")).to_have_text(
        "Hand 4 was saved on another phone. Your hand 4 stays on the form: Save checks it against the server's.",
    )
    expect(totals(first)).to_have_text(["24", "16", "14", "37", "13"])  # the other phone's hand, in the totals
    save_button(first).click()
    box = first.locator("#conflict")
    expect(box).to_be_visible()
    expect(box.get_by_role("heading")).to_have_text("Hand 4: two versions")
    rows = box.get_by_role("table").get_by_role("row")
    expect(rows).to_have_count(2)  # the heading, and the one difference: who took the Q♠
    expect(rows.nth(1)).to_have_text(re.compile(r"^Q♠\s*Christi\S*\s*Christo\S*$"))
    choices = box.get_by_role("button")
    expect(choices).to_have_text(["Keep the other phone's hand 4", "Keep this phone's hand 4"])
    assert (
        choices.evaluate_all(
            "buttons => new Set(buttons.map(b => b.className + getComputedStyle(b).backgroundColor)).size"
        )
        == 1
    )
    assert choices.evaluate_all("buttons => buttons.some(b => b === document.activeElement)") is False
    expect(box).to_contain_text(re.compile(r"Totals then: \D*24\D*16\D*14\D*37\D*13\s*Keep this"))  # theirs
    expect(box).to_contain_text(re.compile(r"Totals then: \D*24\D*16\D*27\D*24\D*13$"))  # this phone's
    in_sight(box)
    choices.nth(1).click()
    expect(save_button(first)).to_have_text("Hand 4 saved ✓")
    expect(first.locator("#live-check")).to_have_text("Hand 4: this phone's kept.")
    assert client.get(api).json["hands"][3]["queen"] == 2
    expect(totals(first)).to_have_text(SAVED)
    expect(second.locator("#live-check")).to_have_text("A hand was corrected on another phone.")
    expect(totals(second)).to_have_text(SAVED)


def in_sight(locator: Locator) -> None:
    """At least partly inside the viewport, its top not under the sticky totals."""
    expect(locator).to_be_in_viewport()


def test_a_refused_correction_is_said_above_save_with_what_to_do(phone, client, live_server):
    """Point 7: the page is scrolled down to Save; the refusal is there, not at the top."""
    game = client.post("/api/games", json={"players": NAMES, "rules": {"target": 13}}).json
    for counts, queen in [([0, 6, 7, 0, 0], 2), ([0, 1, 12, 0, 0], 2)]:  # past 13, the lowest tied: play goes on
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": counts, "queen": queen})
    page = phone(f"{live_server}/games/{game['id']}/hands/1")
    tap_hearts(page, "Alexandra", 1)
    tap_hearts(page, "Christina", 5)
    tap_hearts(page, "Christopher", 1)  # 1, 6, 18, 1, 0: Maximilian alone lowest, the game would end at hand 1
    line = page.locator("#live-check")
    words = (
        "This would end the game at hand 1, but hands up to 2 are recorded. "
        "Check the hand again; if it is right, undo the hands after hand 1 first, the last one first."
    )
    expect(line).to_have_text(words)
    expect(line).to_have_class(re.compile("problem"))
    expect(line).to_be_in_viewport(ratio=1)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_role("alert").filter(has_text="This would end the game")).to_be_in_viewport(ratio=1)
    expect(line).to_have_text(words)  # the live check leaves it there
    expect(line).to_have_class(re.compile("problem"))


def test_a_hand_that_causes_a_tie_break_says_so_before_save(phone, client, live_server):
    """Point 11."""
    game = client.post("/api/games", json={"players": NAMES, "rules": {"target": 13}}).json
    page = phone(f"{live_server}/games/{game['id']}")
    enter(page, [13, 0, 0, 0, 0], 1)  # 13, 13, 0, 0, 0: three tie for the lowest total
    expect(page.locator("#live-check")).to_contain_text(
        "· Tie for the lowest total: play goes on until one player alone is lowest."
    )
    expect(page.locator("#live-check")).to_be_in_viewport(ratio=1)
