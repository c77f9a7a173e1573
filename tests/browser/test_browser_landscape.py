"""The follow view turned sideways (740 x 360, issue 26, point 11): the "not updated since" notice covers no
player's name, and with the tie notice the line saying who leads the next hand still fits its card."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
LANDSCAPE = {"viewport": {"width": 740, "height": 360}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SECONDS = 15_000  # ms: a server gone counts as gone after 4 s (follow.js), and the view asks every few
NAMES = ["Alexandra", "Alexander", "Christina", "Christopher", "Christiane"]


@pytest.fixture
def sideways(browser, client, live_server):
    """The follow view of a game whose first hand ended in a tie played on (target 10), sideways."""
    contexts = []

    def open_board(players: int, locale: str, scheme: str = "light") -> Page:
        game = client.post("/api/games", json={"players": NAMES[:players], "rules": {"target": 10}}).json
        hearts = [4, 4, 5] if players == 3 else [2, 2, 3, 3, 3]
        hand = client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": players - 1}).json
        assert hand["next_hand"]["tie_break"]
        context = browser.new_context(**LANDSCAPE, locale=locale, color_scheme=scheme)
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server}/games/{game['id']}/follow")
        return page

    yield open_board
    for context in contexts:
        context.close()


def fits(page: Page) -> None:
    """Every line of the next hand inside its card, who leads included."""
    section = page.locator("#board .next-hand")
    expect(section.locator(".leads")).to_be_visible()
    # One reading of the card as it is drawn: the board is drawn again as the game changes.
    assert section.evaluate("""card => card.scrollHeight <= card.clientHeight
        && card.querySelector('.leads').getBoundingClientRect().bottom <= card.getBoundingClientRect().bottom + 0.5""")


def names_uncovered(page: Page) -> None:
    for name in page.locator("#board .scoreboard .name").all():
        assert name.evaluate(
            """el => { const r = el.getBoundingClientRect();
                       return [0.1, 0.5, 0.9].every(f => el.contains(document.elementFromPoint(r.left + f * r.width,
                                                                                    r.top + r.height / 2))); }"""
        )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-GB", "de-DE"], ids=["english", "german"])
@pytest.mark.parametrize("players", [3, 5])
def test_sideways_the_tie_and_the_stale_notice_leave_every_line_in_sight(sideways, players, locale, scheme):
    page = sideways(players, locale, scheme)
    expect(page.locator("#board .next-hand .banner")).to_be_visible()
    fits(page)
    page.context.set_offline(True)
    expect(page.locator("#stale")).to_be_visible(timeout=SECONDS)
    names_uncovered(page)
    fits(page)
