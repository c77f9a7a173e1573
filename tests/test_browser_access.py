"""Every page at 360 px, light and dark: no serious or critical axe violation, and no control under 44 px."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser import LONG_NAMES, SMALL_PHONE
from playwright.sync_api import Page

pytestmark = pytest.mark.browser

# Inline links in a sentence are exempt from target size (WCAG 2.5.8); every other control is measured.
SMALL_CONTROLS = """() => {
  const controls = [...document.querySelectorAll('a, button, summary, input, select, textarea')];
  return controls.filter(el => el.type !== 'hidden' && !el.closest('p, .sheet, .vh'))
    .map(el => ['radio', 'checkbox'].includes(el.type) && el.closest('label') ? el.closest('label') : el)
    .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect()])
    .filter(([, box]) => box.width < 44 || box.height < 44)
    .map(([html, box]) => `${html} ${Math.round(box.width)}x${Math.round(box.height)}`);
}"""
TIGHT_CHIPS = """() => [...document.querySelectorAll('.chip-row')].map(row => getComputedStyle(row))
  .filter(style => parseFloat(style.columnGap) < 8 || parseFloat(style.rowGap) < 8).length"""


@pytest.fixture
def pages(client):
    """A game in progress with five long names, a finished game, and every page that shows them."""
    game = client.post("/api/games", json={"players": LONG_NAMES}).json["id"]
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([0, 13, 0, 0, 0], 1)]:
        client.post(f"/api/games/{game}/hands", json={"hearts": hearts, "queen": queen, "moon_option": "add"})
    over = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat"], "rules": {"target": 20}}).json["id"]
    client.post(f"/api/games/{over}/hands", json={"hearts": [4, 0, 9], "queen": 1})
    fresh = client.post("/api/games", json={"players": LONG_NAMES, "rules": {"black_maria": True}}).json["id"]
    return {
        "change": f"/games/{fresh}/change",
        "fresh": f"/games/{fresh}",
        "home": "/",
        "new": "/games/new",
        "table": f"/games/{game}",
        "correct": f"/games/{game}/hands/1",
        "follow": f"/games/{game}/follow",
        "over": f"/games/{over}",
        "sheet": f"/games/{game}/sheet",
        "blank": "/sheets/blank?players=5",
        "history": "/history",
        "review": f"/games/{game}/review",
        "players": "/players",
        "player": "/players/Christina",
        "import": "/history/import",
        "rules": "/rules",
        "api": "/docs/api",
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe_at_360_px(browser, live_server, pages, scheme):
    context = browser.new_context(**SMALL_PHONE, color_scheme=scheme)
    page = context.new_page()
    found = {}
    for name, path in pages.items():
        open_everything(page, live_server + path)
        serious = [
            f"{violation['id']}: {[node['target'] for node in violation['nodes']][:3]}"
            for violation in Axe().run(page).response["violations"]
            if violation["impact"] in ("serious", "critical")
        ]
        if serious:
            found[name] = serious
    context.close()
    assert found == {}


def test_the_moon_panel_passes_axe_in_the_dark(browser, live_server, pages):
    context = browser.new_context(**SMALL_PHONE, color_scheme="dark")
    page = context.new_page()
    page.goto(live_server + pages["table"])
    page.get_by_role("group", name="Hearts taken by Alexandra").get_by_text("13", exact=True).click()
    page.get_by_role("group", name="Who took the Q♠").get_by_text("Alexan…").click()
    page.locator("[data-advised]:not([hidden])").wait_for()
    violations = Axe().run(page).response["violations"]
    assert [v["id"] for v in violations if v["impact"] in ("serious", "critical")] == []
    context.close()


def test_every_control_is_at_least_44_px_with_8_px_between_chips(browser, live_server, pages):
    context = browser.new_context(**SMALL_PHONE)
    page = context.new_page()
    small, tight = {}, {}
    for name, path in pages.items():
        open_everything(page, live_server + path)
        small[name] = page.evaluate(SMALL_CONTROLS)
        tight[name] = page.evaluate(TIGHT_CHIPS)
    context.close()
    assert {name: found for name, found in small.items() if found} == {}
    assert {name: count for name, count in tight.items() if count} == {}


def open_everything(page: Page, url: str) -> None:
    """Axe and the ruler judge only what shows: open every folded part first."""
    assert page.goto(url).ok, url
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
