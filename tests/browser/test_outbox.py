"""Recording with no network: hands wait on the phone, then reach the server once, in order; conflicts are shown."""

import json
import re
import time

import pytest
from browser import tap_count
from playwright.sync_api import BrowserContext, Page, expect

pytestmark = pytest.mark.browser
PLAYERS = ["Ann", "Ben", "Cat", "Dan"]


def open_offline(page: Page, context: BrowserContext, url: str) -> None:
    """Open the table page while online (the worker keeps it), then cut the network."""
    page.goto(url)
    expect(page.locator("html[data-offline-ready=yes]")).to_have_count(1)
    context.set_offline(True)
    expect(page.locator("#connection")).to_have_text("offline")  # the page has seen it: Save now queues


def enter_hand(page: Page, hearts: list[int], queen: int, moon: str | None = None) -> None:
    for name, count in zip(PLAYERS, hearts, strict=True):
        tap_count(page.get_by_role("group", name=f"Hearts taken by {name}"), count)
    page.get_by_role("group", name="Who took the Q♠").get_by_text(PLAYERS[queen], exact=True).click()
    if moon:
        page.get_by_text(moon).click()
    page.get_by_role("button", name="Save hand").click()


def facts(hand: dict) -> tuple:
    return hand["number"], hand["hearts"], hand["queen"]


def test_hands_saved_offline_survive_a_reload_and_reach_the_server_once_in_order(page, context, live_server, table):
    table.start_game()
    open_offline(page, context, f"{live_server}/games/{table.game_id}")
    enter_hand(page, [4, 0, 9, 0], 1)
    expect(page.locator("#connection")).to_have_text("offline · 1 hand waiting")
    enter_hand(page, [0, 2, 3, 8], 3)
    expect(page.locator("#connection")).to_have_text("offline · 2 hands waiting")
    page.reload()  # no network: the worker's copy of the page, and the queue from this phone's storage
    expect(page.locator("tr.waiting")).to_have_count(2)
    expect(page.locator("tr.waiting-note").first).to_have_text("Hand 2: waiting to be sent")
    expect(page.locator('[data-total="1"]')).to_have_text("15")  # last known totals + the waiting hands' points
    expect(page.locator('[data-total="3"]')).to_have_text("21")
    next_hand = page.locator(".next-hand")  # hand 3 from the hands worked out while online
    # in the online page's layout and words (issue 40, point 12: offline it had full names and longer words)
    expect(next_hand.locator("h1 .deal")).to_have_text(re.compile(r"· Cat deals · pass ↑ across$"))
    expect(next_hand.locator(".passes li").first).to_have_text("Ann → Cat")
    expect(next_hand.locator(".leads")).to_have_text("The 2♣ leads.")
    context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0)
    expect(page.locator("#connection")).to_have_text("2 hands sent")  # back online, it says so
    expect(page.locator("#connection")).to_be_hidden()
    expect(page.locator(".next-hand h1")).to_have_text(re.compile(r"^Hand 3\b"))
    stored = table.game()["hands"]
    assert [facts(hand) for hand in stored] == [(1, [4, 0, 9, 0], 1), (2, [0, 2, 3, 8], 3)]
    assert table.game()["totals"] == [4, 15, 12, 21]


def test_a_moon_recorded_offline_is_scored_as_the_server_said_while_online(page, context, live_server, table):
    table.start_game()
    open_offline(page, context, f"{live_server}/games/{table.game_id}")
    enter_hand(page, [0, 13, 0, 0], 1, moon="Everyone else +26")  # the option the table chose
    expect(page.locator("tr.waiting td")).to_have_text(["+26", "0", "+26", "+26", ""])
    expect(page.locator('[data-total="0"]')).to_have_text("26")
    expect(page.locator('[data-total="1"]')).to_have_text("0")
    context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0)
    assert table.game()["hands"][0]["moon"] == {"shooter": 1, "option": "add"}
    assert table.game()["totals"] == [26, 0, 26, 26]


def test_black_maria_offline_counts_the_spades_and_knows_their_moon(page, context, live_server, table):
    table.start_game(black_maria=True)
    open_offline(page, context, f"{live_server}/games/{table.game_id}")
    for question, name in [("Who took the K♠ (+10)", "Cat"), ("Who took the A♠ (+7)", "Ann")]:
        page.get_by_role("group", name=question).get_by_text(name, exact=True).click()
    enter_hand(page, [4, 0, 9, 0], 1)  # worked example 19, at four: 11, 13, 19, 0
    expect(page.locator("tr.waiting")).to_have_count(1)
    expect(page.locator('[data-total="0"]')).to_have_text("11")
    expect(page.locator('[data-total="2"]')).to_have_text("19")
    for question in ("Who took the K♠ (+10)", "Who took the A♠ (+7)"):
        page.get_by_role("group", name=question).get_by_text("Dan", exact=True).click()
    enter_hand(page, [0, 0, 0, 13], 3, moon="Everyone else +43")  # every heart and spade: a moon of 43
    expect(page.locator("tr.waiting-note").first).to_contain_text("moon: scored when back online")
    context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0)
    assert table.game()["totals"] == [54, 56, 62, 0]


def test_hands_waiting_show_however_late_the_pages_own_script_comes(page, live_server, table):
    table.start_game()
    hand = {"number": 1, "hearts": [4, 0, 9, 0], "queen": 1, "jack": None, "all_tricks": None}
    page.add_init_script(f"localStorage.setItem('outbox:{table.game_id}', JSON.stringify([{json.dumps(hand)}]))")
    page.route("**/api/games/*/hands", lambda route: route.abort())  # the hand stays waiting
    # The outbox's scripts come at once, the page's own table.js (which reads the rules for them) late.
    page.route("**/static/table.js", lambda route: (time.sleep(1), route.continue_()))
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{live_server}/games/{table.game_id}")
    expect(page.locator("tr.waiting")).to_have_count(1)
    expect(page.locator('[data-total="1"]')).to_have_text("13")
    assert errors == []


def test_an_identical_hand_already_on_the_server_is_not_a_conflict(page, context, live_server, table):
    table.start_game()
    open_offline(page, context, f"{live_server}/games/{table.game_id}")
    enter_hand(page, [4, 0, 9, 0], 1)
    table.record_hand([4, 0, 9, 0], 1, number=1)  # as if the phone's first send arrived and its answer was lost
    context.set_offline(False)
    expect(page.locator("tr.waiting")).to_have_count(0)
    expect(page.locator("#conflict")).to_be_hidden()
    assert len(table.game()["hands"]) == 1


@pytest.mark.parametrize(
    "choice, kept", [("Keep the other phone's hand 1", [0, 4, 0, 9]), ("Keep this phone's hand 1", [4, 0, 9, 0])]
)
def test_a_hand_recorded_elsewhere_meanwhile_is_shown_with_both_versions(
    page, context, live_server, table, choice, kept
):
    table.start_game()
    open_offline(page, context, f"{live_server}/games/{table.game_id}")
    enter_hand(page, [4, 0, 9, 0], 1)
    table.record_hand([0, 4, 0, 9], 3, number=1)  # another phone, while this one is offline
    context.set_offline(False)
    conflict = page.locator("#conflict")
    expect(conflict).to_be_visible()
    expect(conflict).to_contain_text("Another phone recorded hand 1 while this one was offline.")
    versions = conflict.get_by_role("table")  # the facts that differ: this phone's, then the other's
    rows = ["This phone Other phone", "♥ Ann 4 0", "♥ Ben 0 4", "♥ Cat 9 0", "♥ Dan 0 9", "Q♠ Ben Dan"]
    expect(versions.get_by_role("row")).to_have_text([re.compile(row.replace(" ", r"\s*")) for row in rows])
    expect(conflict).to_contain_text("Totals then: Ann 0 · Ben 4 · Cat 0 · Dan 22")  # keeping the other phone's
    expect(conflict).to_contain_text("Totals then: Ann 4 · Ben 13 · Cat 9 · Dan 0")  # keeping this phone's
    expect(page.locator("tr.waiting")).to_have_count(1)  # nothing dropped until the person chooses
    page.get_by_role("button", name=choice).click()
    expect(page.locator("tr.waiting")).to_have_count(0)
    expect(conflict).to_be_hidden()
    hands = table.game()["hands"]
    assert len(hands) == 1 and hands[0]["hearts"] == kept


def test_with_no_service_worker_save_still_queues_and_sends(browser, live_server, table):
    """As on plain http:// over the LAN, where browsers refuse service workers."""
    table.start_game()
    context = browser.new_context()
    try:
        context.add_init_script("delete Navigator.prototype.serviceWorker")  # what an insecure page sees
        page = context.new_page()
        with page.expect_response("**/static/offline-table.js"):  # loaded at once, not when offline
            page.goto(f"{live_server}/games/{table.game_id}")
        expect(page.locator("html[data-offline-ready]")).to_have_count(0)
        context.set_offline(True)
        expect(page.locator("#connection")).to_have_text("offline")
        enter_hand(page, [4, 0, 9, 0], 1)
        expect(page.locator("#connection")).to_have_text("offline · 1 hand waiting")
        context.set_offline(False)
        expect(page.locator("tr.waiting")).to_have_count(0)
        assert [facts(hand) for hand in table.game()["hands"]] == [(1, [4, 0, 9, 0], 1)]
    finally:
        context.close()


def test_a_save_the_server_does_not_answer_waits_in_the_queue(browser, live_server, table):
    """The Wi-Fi is up but the server is away: the in-place save hands the hand to the queue."""
    table.start_game()
    context = browser.new_context(service_workers="block")  # so the page's own requests can be cut off
    try:
        page = context.new_page()
        page.goto(f"{live_server}/games/{table.game_id}")
        page.route("**/api/games/*/hands", lambda route: route.abort("connectionrefused"))
        enter_hand(page, [4, 0, 9, 0], 1)
        expect(page.locator("#connection")).to_have_text("not sent yet · 1 hand waiting")
        expect(page.locator("tr.waiting")).to_have_count(1)
        assert table.game()["hands"] == []
        page.unroute("**/api/games/*/hands")
        expect(page.locator("tr.waiting")).to_have_count(0)  # it asks again every 5 s
        assert [facts(hand) for hand in table.game()["hands"]] == [(1, [4, 0, 9, 0], 1)]
    finally:
        context.close()
