"""The top of the table page on a small phone, five long and alike names: the totals stay in sight under the
connection banner and say nothing odd past the target, and the next hand says who passes to whom without a tap."""

import pytest
from browser import ALIKE_NAMES, SMALL_PHONE, in_sight, shown_text, shown_texts
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(browser):
    context = browser.new_context(**SMALL_PHONE)
    yield context
    context.close()


@pytest.fixture
def five(table):
    """Five long, alike names, three hands in: Christopher deals hand 4, passing left."""
    table.start_game(players=ALIKE_NAMES)
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]:
        table.record_hand(hearts, queen)
    return table.game_id


def names_in_sight(page: Page) -> None:
    for name in page.locator(".scoreboard .name").all():
        in_sight(name)


def test_the_offline_banner_never_covers_the_names(phone, live_server, five):
    page = phone.new_page()
    page.goto(f"{live_server}/games/{five}")
    expect(page.locator("html[data-offline-ready=yes]")).to_have_count(1)
    phone.set_offline(True)
    expect(page.locator("#connection")).to_be_visible()
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 300  # scrolled down past the last rows, to the hands played
    in_sight(page.locator("#connection"))
    names_in_sight(page)
    phone.set_offline(False)


def test_not_updated_since_never_covers_the_names(phone, live_server, five, table):
    for _ in range(3):
        table.record_hand([2, 2, 2, 2, 5], 4)  # a long enough list of hands to scroll
    page = phone.new_page()
    page.goto(f"{live_server}/games/{five}/follow")
    page.route("**/follow/board", lambda route: route.abort())  # the server stops answering
    expect(page.locator("#stale")).to_contain_text("not updated since")
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 100
    in_sight(page.locator("#stale"))
    names_in_sight(page)


def test_a_total_past_the_target_in_a_tie_says_so_and_not_how_far_it_has_to_go(phone, live_server, table):
    table.start_game(players=ALIKE_NAMES, target=50)
    for _ in range(3):
        table.record_hand([0, 0, 9, 4, 0], 2)  # 0, 0, 66, 12, 0: three tie at the bottom, play goes on
    for path in (f"/games/{table.game_id}", f"/games/{table.game_id}/follow"):
        page = phone.new_page()
        page.goto(live_server + path)
        expect(page.get_by_role("status").filter(has_text="Tie for the lowest total")).to_be_visible()
        tags = page.locator(".scoreboard .tag")
        expect(tags).to_have_text(["♛ lowest", "♛ lowest", "past 50", "", "♛ lowest"])
        page.close()


def test_who_passes_to_whom_shows_without_a_tap_and_the_dealer_whole(phone, live_server, five):
    page = phone.new_page()
    page.goto(f"{live_server}/games/{five}")
    heading = page.locator(".next-hand h1")
    assert shown_text(heading) == "Hand 4 · Christopher deals pass ← left"  # the way to pass on its own line
    expect(heading).to_have_accessible_name("Hand 4 · Christopher deals · pass left")
    in_sight(page.locator(".next-hand"))
    # Heard as one list; seen beside each row's name, whole (issue 40, point 4)
    expect(page.get_by_role("list", name="Pass 3 cards to the left").get_by_role("listitem")).to_have_count(5)
    passes = page.locator(".hearts .pass-to")
    assert shown_texts(passes) == [f"passes to {name}" for name in ["Alexander", "Christina", "Christopher",
                                                                    "Maximilian", "Alexandra"]]  # fmt: skip
    for seat in range(3):  # three rows of hearts on the first screen, each with its pass
        in_sight(page.locator(f"#hearts-{seat} .pass-to"))
        in_sight(page.locator(f"#hearts-{seat} .chip-row"))
