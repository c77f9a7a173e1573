"""Score sheets: the pages, and the PDFs Chromium prints from them."""

import re

import pytest
from playwright.sync_api import expect
from printing import need_poppler, pdf_info, pdf_text, print_pdf


def play(table, hands):
    for hearts, queen, *option in hands:
        table.record_hand(hearts, queen, **({"moon_option": option[0]} if option else {}))


def test_blank_sheet_has_a_row_per_hand_with_pass_and_dealer(client):
    page = client.get("/sheets/blank?players=4&names=Ann,Ben,Cat,Dan&first_dealer=1").get_data(as_text=True)
    assert page.count("<tr>") == 2 + 20
    assert '<td>1</td><td class="pass">left</td><td class="dealer"><div class="fit">Ben</div></td>' in page
    assert '<td>4</td><td class="pass">hold</td><td class="dealer"><div class="fit">Ann</div></td>' in page
    assert "13 cards each; the holder of the 2♣ leads" in page


@pytest.mark.parametrize(
    "query, words",
    [
        ("players=3", "3 players: remove the 2♦; 17 cards each; the holder of the 2♣ leads."),
        ("players=5", "5 players: remove the 2♣ and 2♦; 10 cards each; the holder of the 3♣ leads."),
        ("moon=add", "everyone else +26."),
        ("moon=subtract&target=50", "the shooter −26 (not below 0)."),
        ("target=50", "reaches 50"),
        ("tie=share", "the tied players share the win"),
        ("omnibus=on", "the J♦ scores −10"),
        ("sun=on", "everyone else +52"),
        ("exact_reset=y&target=50", "A total landing exactly on 50 goes back to 0."),
        ("pass_cycle=left-across-right-hold", "Passing: left, across, right, hold, again."),
        ("players=5", "Passing: left, right, hold, again."),
        ("moon=off", "No shooting the moon: whoever takes every point scores them like any hand."),
        ("moon=subtract&subtract_floor=False", "the shooter −26 (below 0 if need be)."),
        ("players=4&moon=subtract", "the shooter −26 (not below 0)."),  # an address from before the choice
        ("players=3&black_maria=y", "13 for the Q♠, 10 for the K♠ and 7 for the A♠: 43 points in every hand."),
        ("black_maria=y&sun=on", "(all 13 hearts, the Q♠, the K♠ and the A♠)"),
        ("black_maria=y&sun=on", "everyone else +86."),
        ("players=5&pass_cycle=left-left2-right2-right-hold", "Passing: left, 2 left, 2 right, right, hold, again."),
        ("pass_cycle=right", "Passing: right, every hand."),
    ],
)
def test_blank_sheet_footer_states_the_chosen_rules(client, query, words):
    answer = client.get(f"/sheets/blank?{query}")
    assert answer.status_code == 200 and words in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    "query, message",
    [
        ("players=3&pass_cycle=left-right-across-hold", "Passing across needs exactly 4 players, not 3."),
        ("target=5", "The target must be a whole number from 10 to 1000."),
        ("names=Ann,ann,Cat", "Two players are called “ann”"),
        ("players=9", "Not a valid choice"),
        ("pass_cycle=left-right-left2-right2-hold", "Passing two seats to the left needs exactly 5 players, not 4."),
        ("sun=on&moon=off", "Shooting the sun needs the moon"),
    ],
)
def test_blank_sheet_explains_bad_choices(client, query, message):
    answer = client.get(f"/sheets/blank?{query}")
    assert answer.status_code == 422 and message in answer.get_data(as_text=True)


def test_filled_sheet_shows_hands_moons_and_totals(table, client):
    table.start_game()
    play(table, [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1, "subtract")])
    page = client.get(f"/games/{table.game_id}/sheet").get_data(as_text=True)
    assert '<td>4</td><td class="total">4</td>' in page
    # Ben had 13: the floor takes 13 off, not 26
    assert '<span class="moon" title="shot the moon">☾ <span class="mark">−13</span></span>' in page
    assert "In progress after 2 hands" in page
    assert page.count("<tr>") == 2 + 20  # the hands still to play are blank rows


def test_filled_sheet_is_reachable_from_the_game_pages(table, client):
    table.start_game(target=13)
    assert f"/games/{table.game_id}/sheet" in client.get(f"/games/{table.game_id}").get_data(as_text=True)
    play(table, [([4, 0, 9, 0], 1)])
    assert f"/games/{table.game_id}/sheet" in client.get(f"/games/{table.game_id}").get_data(as_text=True)
    assert client.get("/games/999/sheet").status_code == 404


@pytest.fixture
def printer(browser):
    need_poppler()
    page = browser.new_page()
    yield page
    page.close()


@pytest.mark.browser
@pytest.mark.parametrize("paper, size", [("a4", "(A4)"), ("letter", "(letter)")])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_blank_sheet_prints_on_one_page(printer, live_server, tmp_path, players, paper, size):
    names = ",".join(["Anneliese", "Bartholomew", "Cat", "Dan", "Eve"][:players])
    url = f"{live_server}/sheets/blank?players={players}&paper={paper}&names={names}&sun=on&omnibus=on"
    pdf = print_pdf(printer, url, tmp_path / "blank.pdf")
    info = pdf_info(pdf)
    assert info["Pages"] == "1"
    assert size in info["Page size"]
    text = pdf_text(pdf)
    assert "Hearts score sheet" in text and "Bartholomew" in text
    assert "Print" not in text and "Update the sheet" not in text  # no app furniture on paper


@pytest.mark.browser
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(
    "query",
    [
        "players=3&names=Christina,Christopher,Alexandra&black_maria=y&pass_cycle=right&sun=on&omnibus=on",
        "players=5&names=Christina,Christopher,Alexandra,Alexander,Maximilian&pass_cycle=left-right-left2-right2-hold",
    ],
    ids=["black-maria", "two-seats"],
)
def test_a_blank_sheet_of_other_tables_prints_on_one_page(printer, live_server, tmp_path, query, paper):
    pdf = print_pdf(printer, f"{live_server}/sheets/blank?{query}&paper={paper}", tmp_path / "blank.pdf")
    assert pdf_info(pdf)["Pages"] == "1"
    text = " ".join(pdf_text(pdf).split())
    assert "Scoring" in text and ("43 points in every hand" in text or "2 left" in text)


@pytest.mark.browser
def test_a_filled_sheet_prints_names_totals_and_winner(printer, live_server, table, tmp_path):
    table.start_game(players=["Ann", "Ben", "Cat", "Dan"], target=50)
    play(table, [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1, "add"), ([0, 0, 13, 0], 0), ([3, 3, 3, 4], 3)])
    assert table.game()["totals"] == [46, 16, 51, 43]
    text = pdf_text(print_pdf(printer, f"{live_server}/games/{table.game_id}/sheet", tmp_path / "game.pdf"))
    words = " ".join(text.split())
    for name, total in [("Ann", 46), ("Ben", 16), ("Cat", 51), ("Dan", 43)]:
        assert f"{name} {total}" in words
    assert "Ben wins" in words and "☾ others" in words and "+26" in words, words  # the moon's mark on two lines


@pytest.mark.browser
def test_a_long_game_continues_on_a_second_page_with_the_header(printer, live_server, table, tmp_path):
    table.start_game(target=1000)
    play(table, [([4, 0, 9, 0], 1), ([2, 3, 4, 4], 0), ([0, 6, 6, 1], 3)] * 10)
    pdf = print_pdf(printer, f"{live_server}/games/{table.game_id}/sheet?paper=letter", tmp_path / "long.pdf")
    assert pdf_info(pdf)["Pages"] == "2"
    second = pdf_text(pdf, page=2)
    for header in ("Ann", "Ben", "Cat", "Dan", "hand", "total", "Hearts score sheet (continued)", "page 2 of 2"):
        assert header in second
    assert "In progress after 30 hands" in second
    assert "page 1 of 2" in pdf_text(pdf, page=1) and "(continued)" not in pdf_text(pdf, page=1)


@pytest.mark.browser
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_five_long_names_in_progress_print_on_one_page_with_whole_dealers(printer, live_server, table, tmp_path, paper):
    table.start_game(players=["Christina", "Christopher", "Alexandra", "Bartholomew", "Maximilian"])
    play(table, [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)])
    pdf = print_pdf(printer, f"{live_server}/games/{table.game_id}/sheet?paper={paper}", tmp_path / "five.pdf")
    assert pdf_info(pdf)["Pages"] == "1"  # the rules box too
    text = pdf_text(pdf)
    assert "Scoring" in text and "…" not in text
    dealers = re.findall(r"^\s*\d+\s+(?:left|right|hold)\s+(\w+)", text, re.M)
    assert set(dealers) == {"Christina", "Christopher", "Alexandra", "Bartholomew", "Maximilian"}


@pytest.mark.browser
def test_a_five_player_sheet_fits_a_small_phone_screen(browser, live_server, table):
    table.start_game(players=["Annabelle", "Benedict", "Catherine", "Daniel", "Eve"], target=1000)
    play(table, [([0, 13, 0, 0, 0], 1, "subtract")] + [([9, 4, 0, 0, 0], 2), ([0, 0, 9, 4, 0], 4)] * 7)
    page = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True)
    page.goto(f"{live_server}/games/{table.game_id}/sheet")
    sheet = page.locator(".sheet")
    assert sheet.evaluate("e => e.scrollWidth <= e.clientWidth")  # nothing hidden to the side
    clipped = page.evaluate(  # the dealer's name may end in "…"; no score, total, moon or header is cut
        "[...document.querySelectorAll('.scores td:not(.dealer), .scores th, .scores .moon')]"
        ".filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"
    )
    assert clipped == []
    page.close()


@pytest.mark.browser
def test_blank_sheet_choices_redraw_the_sheet_at_once_so_print_prints_them(printer, live_server, tmp_path):
    printer.goto(f"{live_server}/sheets/blank")
    printer.get_by_role("group", name="Players").get_by_text("5", exact=True).click()
    printer.get_by_role("group", name="Paper").get_by_text("US Letter", exact=True).click()
    printer.get_by_role("textbox", name="Names").fill("Ann,Ben,Cat,Dan,Eve")
    expect(printer.locator(".sheet.players-5")).to_have_count(1)
    expect(printer.locator(".sheet th.player").last).to_have_text("Eve")
    expect(printer).to_have_url(re.compile(r"players=5.*paper=letter"))
    printer.pdf(path=str(tmp_path / "chosen.pdf"), prefer_css_page_size=True)
    assert "(letter)" in pdf_info(tmp_path / "chosen.pdf")["Page size"]
    assert "Eve" in pdf_text(tmp_path / "chosen.pdf")
