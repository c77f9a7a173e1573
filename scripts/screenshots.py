"""Take phone-size screenshots of the main pages, light and dark, for a person to look at; with five long,
alike names, the table page's first screen, the table display sideways (phone and tablet) and the new-game form.

python scripts/screenshots.py out/screens [--language de]

With --language, a phone that asks for that language: the main pages and the alike names' first screen and
table display, named with the language (`table-de-light.png`); the shots that tap through English words are
left out.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from browser import ALIKE_NAMES, CHROMIUM, CHROMIUM_ARGS, LONG_NAMES, SMALL_PHONE, served, tap_count, tap_hand  # noqa: E402

from scorekeeper import create_app  # noqa: E402


def seed(client):
    """A game in progress with a moon, and a finished game."""
    game = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}).json
    hands = [([4, 0, 9, 0], 1, None), ([0, 13, 0, 0], 1, "add"), ([2, 3, 4, 4], 0, None)]
    for hearts, queen, option in hands:
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": queen, "moon_option": option})
    over = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat"], "rules": {"target": 30}}).json
    for hearts, queen in [([4, 0, 9], 1), ([1, 2, 10], 2)]:
        client.post(f"/api/games/{over['id']}/hands", json={"hearts": hearts, "queen": queen})
    return game["id"], over["id"]


def seed_long_names(client):
    """Five long names, two of them alike, a few hands in: the table page's hardest first screen."""
    game = client.post("/api/games", json={"players": LONG_NAMES}).json
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]:
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": queen})
    return game["id"]


def seed_variants(client):
    """A Black Maria game for three, and five long names passing two seats away: the tables of docs/rules.md."""
    maria = client.post(
        "/api/games", json={"players": ["Ann", "Ben", "Cat"], "rules": {"black_maria": True, "pass_cycle": "right"}}
    ).json
    for hand in [{"hearts": [4, 0, 9], "queen": 1, "king": 2, "ace": 0},
                 {"hearts": [13, 0, 0], "queen": 0, "king": 0, "ace": 0, "moon_option": "add"}]:  # fmt: skip
        client.post(f"/api/games/{maria['id']}/hands", json=hand)
    cycle = {"pass_cycle": "left-right-left2-right2-hold"}
    five = client.post("/api/games", json={"players": FIVE_NAMES, "rules": cycle}).json
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4)]:
        client.post(f"/api/games/{five['id']}/hands", json={"hearts": hearts, "queen": queen})
    return maria["id"], five["id"]


FIVE_NAMES = ["Christina", "Christopher", "Alexandra", "Alexander", "Maximilian"]


def variant_shots(browser, base, maria, five, out, scheme):
    """The new-game form with its presets, the table pages and the sheets of the two tables, on a small phone."""
    context = browser.new_context(**SMALL_PHONE, color_scheme=scheme)
    page = context.new_page()
    pages = {
        "new-black-maria": "/games/new?preset=black-maria",
        "maria-table": f"/games/{maria}",
        "maria-sheet": f"/games/{maria}/sheet",
        "maria-blank": "/sheets/blank?players=3&black_maria=y&pass_cycle=right",
        "two-seat-table": f"/games/{five}",
        "two-seat-sheet": f"/games/{five}/sheet",
        "two-seat-review": f"/games/{five}/review",
    }
    for name, path in pages.items():
        page.goto(base + path)
        page.screenshot(path=str(out / f"{name}-{scheme}.png"), full_page=True)
    page.goto(f"{base}/games/{maria}")
    tap_count(page.get_by_role("group", name="Hearts taken by Ben"), 13)
    for card in ("Q♠", "K♠ (+10)", "A♠ (+7)"):
        page.get_by_role("group", name=f"Who took the {card}").get_by_text("Ben", exact=True).click()
    page.locator("[data-advised]:not([hidden])").wait_for()
    page.screenshot(path=str(out / f"maria-moon-{scheme}.png"))
    context.close()


def long_names_shots(browser, base, game, out, scheme):
    """The first screen at 360 x 740, a refused save, and a moon, as a new player would see them."""
    context = browser.new_context(**SMALL_PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{base}/games/{game}")
    page.screenshot(path=str(out / f"five-first-screen-{scheme}.png"))
    page.get_by_role("group", name="Hearts taken by Christina").get_by_text("5", exact=True).click()
    page.get_by_role("button", name="Save hand").click()
    page.screenshot(path=str(out / f"five-missing-{scheme}.png"))
    page.goto(f"{base}/games/{game}")
    tap_count(page.get_by_role("group", name="Hearts taken by Christopher"), 13)
    page.get_by_role("group", name="Who took the Q♠").get_by_role("radio", name="Christopher").click(force=True)
    page.locator("[data-advised]:not([hidden])").wait_for()
    page.screenshot(path=str(out / f"five-moon-{scheme}.png"))
    page.goto(f"{base}/games/{game}")
    page.screenshot(path=str(out / f"five-table-{scheme}.png"), full_page=True)
    context.close()


def pipeline_shots(browser, base, client, out, scheme):
    """A hand leaving the page, on a small phone: the screen just after Save, a conflict with another phone's
    hand, and a correction the server refuses."""
    played = [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]
    game = client.post("/api/games", json={"players": FIVE_NAMES}).json
    for hearts, queen in played:
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": queen})
    context = browser.new_context(**SMALL_PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{base}/games/{game['id']}")
    tap_hand(page, FIVE_NAMES, [5, 0, 0, 8, 0], 2)
    page.locator(".save-bar [type=submit]").click()
    page.get_by_text("Hand 4 saved ✓").wait_for()
    page.screenshot(path=str(out / f"five-after-save-{scheme}.png"))
    tap_hand(page, FIVE_NAMES, [0, 6, 7, 0, 0], 3)  # hand 5 here, while another phone saves its own hand 5
    client.post(f"/api/games/{game['id']}/hands", json={"number": 5, "hearts": [0, 6, 7, 0, 0], "queen": 4})
    page.get_by_text("Hand 5 was saved on another phone.").wait_for()
    page.locator(".save-bar [type=submit]").click()
    page.get_by_role("button", name="Keep this phone's hand 5").wait_for()
    page.screenshot(path=str(out / f"five-conflict-{scheme}.png"))
    over = client.post("/api/games", json={"players": FIVE_NAMES, "rules": {"target": 13}}).json
    for hearts, queen in [([0, 6, 7, 0, 0], 2), ([0, 1, 12, 0, 0], 2)]:
        client.post(f"/api/games/{over['id']}/hands", json={"hearts": hearts, "queen": queen})
    page.goto(f"{base}/games/{over['id']}/hands/1")
    tap_hand(page, FIVE_NAMES, [1, 6, 5, 1, 0], 2)
    page.get_by_text("This would end the game at hand 1").wait_for()
    page.screenshot(path=str(out / f"five-refused-correction-{scheme}.png"))
    context.close()


def seed_alike_names(client):
    """Five long names in two alike pairs, sun on, three hands in: what the second evening was played with."""
    game = client.post("/api/games", json={"players": ALIKE_NAMES, "rules": {"sun": True}}).json
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]:
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": queen})
    return game["id"]


def alike_names_shots(browser, base, game, out, scheme, language=None):
    """The table page's first screen on a small phone, the table display on a phone and a tablet standing
    sideways, and (in English) the new-game form (the last players in one tap; a name given twice), with alike
    names."""
    sizes = {"first-screen": (360, 740), "display-phone": (740, 360), "display-tablet": (1180, 820)}
    for name, (width, height) in sizes.items():
        context = browser.new_context(**{**SMALL_PHONE, "viewport": {"width": width, "height": height}},
                                      color_scheme=scheme, **speaking(language))  # fmt: skip
        page = context.new_page()
        page.goto(f"{base}/games/{game}" + ("" if name == "first-screen" else "/follow"))
        page.screenshot(path=str(out / f"alike-{name}{suffix(language)}-{scheme}.png"))
        context.close()
    if language:
        return
    context = browser.new_context(**SMALL_PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{base}/games/new")
    page.screenshot(path=str(out / f"alike-new-game-{scheme}.png"))
    page.get_by_role("link", name="Same players as last time").click()
    page.get_by_role("textbox", name="Player 5", exact=True).fill("alexander")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("alert").wait_for()  # the form again, its focus on the name given twice
    page.screenshot(path=str(out / f"alike-new-game-twice-{scheme}.png"))
    context.close()


def shoot_a_moon(page, url, path):
    """The hand form with Ben's moon entered: both options, their totals and the advice."""
    page.goto(url)
    tap_count(page.get_by_role("group", name="Hearts taken by Ben"), 13)
    page.get_by_role("group", name="Who took the Q♠").get_by_text("Ben", exact=True).click()
    page.locator("[data-advised]:not([hidden])").wait_for()
    page.locator("#moon-panel").scroll_into_view_if_needed()
    page.screenshot(path=str(path))


def shoot_the_table_display(browser, url, out: Path, scheme: str) -> None:
    """The follow view standing sideways in the middle of the table: a phone and a tablet."""
    for name, size in {"phone": (844, 390), "tablet": (1024, 768)}.items():
        context = browser.new_context(viewport=dict(zip(("width", "height"), size, strict=True)), color_scheme=scheme)
        page = context.new_page()
        page.goto(url)
        page.screenshot(path=str(out / f"display-{name}-{scheme}.png"))
        context.close()


def speaking(language: str | None) -> dict[str, str]:
    """A browser context's settings for a phone that asks for ``language`` (its Accept-Language)."""
    return {"locale": language} if language else {}


def suffix(language: str | None) -> str:
    return f"-{language}" if language else ""


def main(out: Path, language: str | None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/shots.sqlite", "SECRET_KEY": "shots"})
        playing, over = seed(app.test_client())
        five = seed_long_names(app.test_client())
        maria, two_seat = seed_variants(app.test_client())
        alike = seed_alike_names(app.test_client())
        pages = {
            "home": "/",
            "new": "/games/new",
            "table": f"/games/{playing}",
            "over": f"/games/{over}",
            "correct": f"/games/{playing}/hands/2",
            "sheet": f"/games/{over}/sheet",
            "blank": "/sheets/blank?players=4&names=Ann,Ben,Cat,Dan",
            "history": "/history",
            "review": f"/games/{playing}/review",
            "player": "/players/Ann",
        }
        with served(app) as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for scheme in ("light", "dark"):
                context = browser.new_context(**pw.devices["iPhone 13"], color_scheme=scheme, **speaking(language))
                page = context.new_page()
                for name, path in pages.items():
                    page.goto(base + path)
                    page.screenshot(path=str(out / f"{name}{suffix(language)}-{scheme}.png"), full_page=True)
                if language:
                    context.close()
                    alike_names_shots(browser, base, alike, out, scheme, language)
                    continue
                shoot_a_moon(page, base + pages["table"], out / f"moon-{scheme}.png")
                shoot_the_table_display(browser, f"{base}/games/{playing}/follow", out, scheme)
                context.close()
                long_names_shots(browser, base, five, out, scheme)
                pipeline_shots(browser, base, app.test_client(), out, scheme)
                variant_shots(browser, base, maria, two_seat, out, scheme)
                alike_names_shots(browser, base, alike, out, scheme)
            browser.close()


if __name__ == "__main__":
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("out", type=Path, nargs="?", default=Path("out/screens"))
    options.add_argument("--language", help="a language the phone asks for, e.g. de")
    given = options.parse_args()
    main(given.out, given.language)
