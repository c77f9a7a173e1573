"""Other tables' rules, played through the phone pages on a small phone (360 x 740), then printed:
Black Maria for three from its preset, and five long names passing two seats away."""

import re

import pytest
from browser import SMALL_PHONE, live_form, shown_texts, tap_hearts
from playwright.sync_api import Page, expect
from printing import need_poppler, pdf_info, pdf_text, print_pdf

pytestmark = pytest.mark.browser

FIVE = ["Christina", "Christopher", "Alexandra", "Alexander", "Maximilian"]


@pytest.fixture
def phone(browser):
    context = browser.new_context(**SMALL_PHONE)
    yield context.new_page()
    context.close()


def tap_card(page: Page, question: str, name: str) -> None:
    live_form(page).get_by_role("group", name=question).get_by_role("radio", name=name, exact=True).locator(
        "xpath=.."
    ).click()


def totals(page: Page, *expected: int) -> None:
    for seat, total in enumerate(expected):
        expect(page.locator(f'[data-total="{seat}"]')).to_have_text(str(total))


def start(page: Page, base: str, names: list[str]) -> None:
    for seat, name in enumerate(names):
        page.get_by_role("textbox", name=f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Start the game").click()


def printed_on_one_page(page: Page, url: str, tmp_path) -> str:
    need_poppler()
    pdf = print_pdf(page, url, tmp_path / "sheet.pdf")
    assert pdf_info(pdf)["Pages"] == "1"
    return " ".join(pdf_text(pdf).split())


def test_a_black_maria_game_for_three_from_its_preset(phone: Page, live_server: str, client, tmp_path):
    page = phone
    page.goto(live_server + "/games/new")
    page.get_by_role("link", name="Black Maria").click()  # fills the form in place: no page load
    expect(
        page.get_by_role("status").filter(has_text="Black Maria: the house rules below are filled in")
    ).to_be_visible()
    expect(page.get_by_role("checkbox", name=re.compile("^Black Maria: the K♠ scores 10 and the A♠ 7"))).to_be_checked()
    expect(page.get_by_role("radio", name="Always pass right")).to_be_checked()
    start(page, live_server, ["Ann", "Ben", "Cat"])
    expect(page.get_by_role("heading", name=re.compile(r"^Hand 1 · Ann deals · pass right"))).to_be_visible()

    # Worked example 19: the K♠ and the A♠ score too, and the live check asks for each card
    tap_hearts(page, "Ann", 4)
    tap_hearts(page, "Ben", 0)
    expect(page.locator("#live-check")).to_have_text("13 of 13 hearts · who took the Q♠?")
    tap_card(page, "Who took the Q♠", "Ben")
    expect(page.locator("#live-check")).to_have_text("13 of 13 hearts · who took the K♠?")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#live-check")).to_have_text("Who took the K♠?")
    tap_card(page, "Who took the K♠ (+10)", "Cat")
    tap_card(page, "Who took the A♠ (+7)", "Ann")
    expect(page.locator("#live-check")).to_have_text("This hand: Ann +11, Ben +13, Cat +19")
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved")).to_be_visible()
    totals(page, 11, 13, 19)

    # Worked example 21: every heart and the Q♠ without both spades is no moon
    tap_hearts(page, "Ann", 13)
    tap_card(page, "Who took the Q♠", "Ann")
    tap_card(page, "Who took the K♠ (+10)", "Ben")
    tap_card(page, "Who took the A♠ (+7)", "Ann")
    expect(page.locator("#live-check")).to_have_text("This hand: Ann +33, Ben +10, Cat 0")
    expect(page.locator("#moon-panel")).to_be_hidden()
    page.get_by_role("button", name="Save hand").click()
    totals(page, 44, 23, 19)

    # A moon takes the spades too, and is worth 43
    tap_hearts(page, "Cat", 13)
    for question in ("Who took the Q♠", "Who took the K♠ (+10)", "Who took the A♠ (+7)"):
        tap_card(page, question, "Cat")
    panel = page.locator("#moon-panel")
    expect(panel).to_contain_text("Cat shot the moon!")
    expect(panel.locator('[data-moon-totals="add"]')).to_have_text("Ann 87, Ben 66, Cat 19")
    expect(panel.locator('[data-moon-totals="subtract"]')).to_have_text("Ann 44, Ben 23, Cat 0")
    panel.get_by_text("Everyone else +43").click()
    page.get_by_role("button", name="Save hand · others +43").click()
    totals(page, 87, 66, 19)
    expect(page.locator(".hands")).to_contain_text("☾ others +43")

    game = client.get("/api/games").json["games"][0]["id"]
    first = client.get(f"/api/games/{game}").json["hands"][0]
    assert (first["queen"], first["king"], first["ace"], first["jack"]) == (1, 2, 0, None)
    text = printed_on_one_page(page, f"{live_server}/games/{game}/sheet", tmp_path)
    assert "10 for the K♠ and 7 for the A♠: 43 points in every hand" in text
    assert "Passing: right, every hand." in text and "☾ others +43" in text


def test_five_long_names_passing_two_seats_away(phone: Page, live_server: str, client, tmp_path):
    page = phone
    page.goto(live_server + "/games/new")
    page.get_by_role("radio", name="Left, right, 2 left, 2 right, hold (5 players only)").check()
    start(page, live_server, FIVE)
    # Alexandra and Alexander whole on the scoreboard (issue 40, point 3)
    expect(page.locator(".scoreboard .name")).to_have_text(FIVE)

    for hearts, queen in [([4, 0, 9, 0, 0], "Christopher"), ([2, 3, 4, 4, 0], "Maximilian")]:
        for name, count in zip(FIVE, hearts, strict=True):
            tap_hearts(page, name, count)
        tap_card(page, "Who took the Q♠", queen)
        page.get_by_role("button", name="Save hand").click()
    totals(page, 6, 16, 13, 4, 13)

    line = page.get_by_role("heading", name=re.compile(r"^Hand 3 · Alexandra deals · pass 2 left$"))
    expect(line).to_be_visible()
    passes = page.get_by_role("list", name="Pass 3 cards two seats to the left").get_by_role("listitem")
    assert shown_texts(passes) == [
        "Christi… → Alex…dra", "Christo… → Alex…der", "Alex…dra → Maximi…", "Alex…der → Christi…",
        "Maximi… → Christo…",
    ]  # fmt: skip
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    for hearts, queen in [([0, 0, 1, 12, 0], "Christina"), ([1, 2, 3, 4, 3], "Alexandra")]:
        for name, count in zip(FIVE, hearts, strict=True):
            tap_hearts(page, name, count)
        tap_card(page, "Who took the Q♠", queen)
        page.get_by_role("button", name="Save hand").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Hand 5 · Maximilian deals · hold: no passing"))
    ).to_be_visible()

    game = client.get("/api/games").json["games"][0]
    assert [hand["pass"] for hand in client.get(f"/api/games/{game['id']}").json["hands"]] == [
        "left", "right", "left2", "right2"
    ]  # fmt: skip
    assert (game["totals"], game["places"]) == ([20, 18, 30, 20, 16], [3, 2, 5, 3, 1])  # equal totals share a place
    text = printed_on_one_page(page, f"{live_server}/games/{game['id']}/sheet", tmp_path)
    assert "Passing: left, right, 2 left, 2 right, hold, again." in text
    assert re.search(r"\b3 2 left Alexandra\b", text) and re.search(r"\b4 2 right Alexander\b", text)


def test_with_no_moon_every_point_taken_is_scored_and_nothing_is_asked(phone: Page, live_server: str, table):
    table.start_game(players=["Ann", "Ben", "Cat"], moon="off")
    page = phone
    page.goto(f"{live_server}/games/{table.game_id}")
    tap_hearts(page, "Ann", 13)
    tap_card(page, "Who took the Q♠", "Ann")
    expect(page.locator("#live-check")).to_have_text("This hand: Ann +26, Ben 0, Cat 0")  # worked example 18
    expect(page.locator("#moon-panel")).to_have_count(0)
    page.get_by_role("button", name="Save hand").click()
    totals(page, 26, 0, 0)
