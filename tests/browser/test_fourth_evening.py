"""The fourth evening's table (issue 40): what still bothered players with cards in one hand and a phone in the
other, each read at 360 x 740 and sideways, light and dark, in English and German."""

import re

import pytest
import test_browser_groups
from browser import SMALL_PHONE, tap_count
from playwright.sync_api import Browser, Page, expect
from test_browser_groups import start_a_group

pytestmark = pytest.mark.browser
open_server = test_browser_groups.open_server  # a fixture: an open server's base address

LANDSCAPE = {**SMALL_PHONE, "viewport": {"width": 740, "height": 360}}
# Each case a phone: its shape, its scheme, its language (English light upright, German dark sideways, ...).
PHONES = [
    pytest.param(SMALL_PHONE, "light", "en-US", id="360-light-en"),
    pytest.param(SMALL_PHONE, "dark", "de-DE", id="360-dark-de"),
    pytest.param(LANDSCAPE, "dark", "en-US", id="landscape-dark-en"),
    pytest.param(LANDSCAPE, "light", "de-DE", id="landscape-light-de"),
]


def group_game(browser: Browser, base: str, players: list[str]) -> str:
    """A group started as a phone starts one, and a game in it: the game's table page."""
    context = browser.new_context(**SMALL_PHONE)
    page = context.new_page()
    group = start_a_group(page, base, "Thursday")
    answer = page.request.post(group + "api/games", data={"players": players})
    assert answer.status == 201, answer.text()
    game = answer.json()["id"]
    context.close()
    return f"{group}games/{game}"


def page_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_the_follow_address_of_a_group_wraps_and_save_stays_on_screen(browser, open_server, shape, scheme, locale):
    """Point 1: a group's follow address (…/g/<key>/f/1) is longer than a phone is wide."""
    table = group_game(browser, open_server, ["Ann", "Ben", "Cat", "Dan"])
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(table)
    page.locator(".share summary").click()
    address = page.locator(".share p a")
    expect(address).to_be_visible()
    assert re.search(r"/g/[A-Za-z0-9_-]{24}/f/\d+$", address.inner_text())
    width = shape["viewport"]["width"]
    assert page_width(page) <= width
    box = address.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    save = page.locator(".save-bar button[type=submit]").first
    save_box = save.bounding_box()
    assert save_box is not None and save_box["y"] + save_box["height"] <= shape["viewport"]["height"]
    context.close()


CROWN = {"en-US": ("♛ lowest", "♛ wins"), "de-DE": ("♛ vorn", "♛ gewinnt")}


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_the_crown_says_lowest_while_playing_and_wins_once_over(browser, client, live_server, shape, scheme, locale):
    """Point 6: "♛ leads" beside "The 2♣ leads." read as who leads the first trick, and it stayed under the winner
    once the game was over."""
    lowest, wins = CROWN[locale]
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 20}}).json
    hands = f"/api/games/{made['id']}/hands"
    client.post(hands, json={"hearts": [0, 0, 9, 4], "queen": 2})  # 0, 0, 22, 4: Ann and Ben lowest
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    tags = page.locator(".scoreboard .tag")
    expect(tags).to_have_text([lowest, lowest, re.compile(r"20"), ""])
    expect(page.locator(".scoreboard")).not_to_contain_text(re.compile("leads|führt"))
    follower = context.new_page()
    follower.goto(f"{live_server}/games/{made['id']}/follow")
    expect(follower.locator(".scoreboard .tag")).to_have_text([lowest, lowest, re.compile(r"20"), ""])
    client.post(hands, json={"hearts": [0, 1, 9, 3], "queen": 0})  # 13, 1, 31, 7: Ben wins
    expect(follower.locator(".scoreboard .tag")).to_have_text(["", wins, re.compile(r"20"), ""])  # told
    expect(follower.locator(".scoreboard li.leader")).to_have_count(1)
    expect(follower.locator(".scoreboard")).not_to_contain_text(lowest)
    context.close()


# Each name chip and scoreboard name: its text, whether a box cuts it, its type size against the body's.
NAMES_SHOWN = """selector => [...document.querySelectorAll(selector)].map(box => ({
  text: box.innerText.replace(/\\s+/g, " ").trim(),
  cut: box.scrollWidth > box.clientWidth + 0.5 || box.scrollHeight > box.clientHeight + 0.5,
  size: parseFloat(getComputedStyle(box).fontSize) / parseFloat(getComputedStyle(document.body).fontSize),
  inside: box.getBoundingClientRect().right <= box.parentElement.getBoundingClientRect().right + 0.5,
}))"""


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_card_chips_and_the_scoreboard_show_alike_names_whole(browser, client, live_server, shape, scheme, locale):
    """Point 3: five long, alike names showed as "Alex…dra / Alex…der / Christi… / Christo…" on the Q♠ and J♦
    chips (the evening's one slip: the J♦ given to Christina, not Christopher), and 11.4 px on the scoreboard."""
    names = ["Alexandra", "Alexander", "Christina", "Christopher", "Maximilian"]
    made = client.post("/api/games", json={"players": names, "rules": {"omnibus": True}}).json
    client.post(f"/api/games/{made['id']}/hands", json={"hearts": [4, 0, 9, 0, 0], "queen": 1, "jack": 3})
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    for card in ("#queen", "#jack"):
        chips = page.evaluate(NAMES_SHOWN, f"{card} .chip-row > label > span")
        assert [chip["text"] for chip in chips] == names, card
        assert not any(chip["cut"] for chip in chips), chips
    board = page.evaluate(NAMES_SHOWN, ".scoreboard .name")
    assert [name["text"].replace(" ", "") for name in board] == names
    assert all(name["size"] >= 1 and name["inside"] and not name["cut"] for name in board), board
    context.close()


FILLED = {"en-US": ("filled in", "12 of 13 hearts: 1 missing"), "de-DE": ("ergänzt", "12 von 13 Herzen: 1 fehlt")}


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_a_row_filled_in_says_so_and_a_later_tap_does_not_move_it(browser, client, live_server, shape, scheme, locale):
    """Point 2: 4, 5, 3, 1 tapped for four of five players filled the fifth with 0; the first changed to 3, the
    fifth became 1 off screen while the line still said "13 of 13 hearts"."""
    note, short = FILLED[locale]
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}).json
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    expect(page.locator("#hand-form[data-live=yes]")).to_have_count(1)

    def tap(seat: int, count: int) -> None:
        page.locator(f"#hearts-{seat} .chip-row > label").nth(count).click()

    for seat, count in enumerate([4, 5, 3, 1]):
        tap(seat, count)
    fifth = page.locator("#hearts-4")
    expect(fifth.locator("input[value='0']")).to_be_checked()
    expect(fifth.locator("legend .filled-note")).to_have_text(note)
    tap(0, 3)
    expect(fifth.locator("input[value='0']")).to_be_checked()  # not moved to 1 out of sight
    expect(page.locator("#live-check")).to_have_text(short)
    expect(fifth.locator(".filled-note")).to_be_visible()
    tap(4, 1)  # the player's own now
    expect(fifth.locator(".filled-note")).to_have_count(0)
    expect(page.locator("#live-check")).to_contain_text("13")
    context.close()


UPRIGHT = [param for param in PHONES if param.values[0] is SMALL_PHONE]  # a whole hand on one screen: upright
# Where the save bar begins, where the pinned totals end, and the bottom of the hand's last field, in the page.
SCREEN = """() => { const bottom = s => document.querySelector(s).getBoundingClientRect().bottom + scrollY;
  const fields = [...document.querySelectorAll('#hand-form fieldset')].filter(f => f.checkVisibility());
  return { save: document.querySelector('.save-bar').getBoundingClientRect().top + scrollY,
           pinned: bottom('.pinned'), last: Math.max(...fields.map(f => f.getBoundingClientRect().bottom + scrollY)),
           height: innerHeight, scrolled: scrollY }; }"""


@pytest.mark.parametrize(("shape", "scheme", "locale"), UPRIGHT)
def test_a_hand_of_four_fits_the_first_screen_and_five_one_scroll(browser, client, live_server, shape, scheme, locale):
    """Point 4: every hand needed one or two scrolls to reach the Q♠ row (four players: 1; five with the J♦: 2).
    A row of hearts is one line now ("7+" turns it to 7–13), and who passes to whom is said beside each name."""
    four = ["Alexandra", "Alexander", "Christina", "Christopher"]
    made = client.post("/api/games", json={"players": four}).json
    client.post(f"/api/games/{made['id']}/hands", json={"hearts": [4, 9, 0, 0], "queen": 1})
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    expect(page.locator("#hand-form[data-live=yes]")).to_have_count(1)
    screen = page.evaluate(SCREEN)
    assert screen["scrolled"] == 0 and screen["last"] <= screen["save"] <= screen["height"], screen
    # Beside each name, to whom that player passes this hand (the second: to the right)
    expect(page.locator("#hearts-0 .pass-to")).to_contain_text("Christopher")
    # A hand by taps alone, without a scroll: 0 (the chip already shown), 8 (7+, then 8), 5, the last filled in
    tap_count(page.locator("#hearts-0"), 0)
    tap_count(page.locator("#hearts-1"), 8)
    tap_count(page.locator("#hearts-2"), 5)
    expect(page.locator("#hearts-1 .turn")).to_contain_text("0–6")  # turned: 7 to 13 in sight, "0–6" to go back
    expect(page.locator("#hearts-3 input[value='0']")).to_be_checked()
    expect(page.locator("#hearts-3 .filled-note")).to_be_visible()
    page.locator("#queen .chip-row > label").nth(3).click()
    assert page.evaluate("scrollY") == 0
    page.locator(".save-bar button[type=submit]").click()
    expect(page.locator('[data-total="1"]')).to_have_text("30")
    expect(page.locator('[data-total="3"]')).to_have_text("13")
    # The row the form fills in with 7 or more turns to show it
    for seat, count in enumerate([4, 0, 0]):
        tap_count(page.locator(f"#hearts-{seat}"), count)
    expect(page.locator("#hearts-3 input[value='9']")).to_be_visible()
    context.close()
    # Five players with the J♦: the last field at most one screen (between the totals and the save bar) below
    five = [*four, "Maximilian"]
    made = client.post("/api/games", json={"players": five, "rules": {"omnibus": True}}).json
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    screen = page.evaluate(SCREEN)
    assert screen["last"] - screen["save"] <= screen["save"] - screen["pinned"], screen
    context.close()


def test_a_row_turns_to_its_higher_counts_without_the_script(browser, client, live_server):
    """Point 4: the turn chip is the page's own (a checkbox and a stylesheet), so a phone without the script
    enters 7 to 13 all the same, and sends nothing of it."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat"]}).json
    context = browser.new_context(**SMALL_PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    expect(page.locator("#hearts-0 input[value='11']")).to_be_hidden()
    tap_count(page.locator("#hearts-0"), 11)
    tap_count(page.locator("#hearts-1"), 2)
    page.locator("#queen .chip-row > label").nth(2).click()
    page.locator(".save-bar button[type=submit]").click()
    expect(page.locator('[data-total="0"]')).to_have_text("11")
    assert client.get(f"/api/games/{made['id']}").json["hands"][0]["hearts"] == [11, 2, 0]
    context.close()


def test_a_double_tap_on_the_turn_chip_picks_no_count_and_a_count_turned_away_stays_in_sight(
    browser, client, live_server
):
    """Point 4, from a review: the turn chip moved to the row's start once turned, so a double tap on "7+" picked
    13 (a moon); and a row turned away from its count showed a filled "7+", not which count."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}).json
    page = browser.new_context(**SMALL_PHONE).new_page()  # a phone: touch
    page.goto(f"{live_server}/games/{made['id']}")
    expect(page.locator("#hand-form[data-live=yes]")).to_have_count(1)
    turn = page.locator("#hearts-0 .turn")
    box = turn.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#hearts-0 input[value='13']")).to_be_visible()
    turned = turn.bounding_box()
    assert abs(turned["x"] - box["x"]) < 1 and abs(turned["y"] - box["y"]) < 2  # in the same place, turned
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # a double tap's second
    expect(page.locator("#hearts-0 input[value='0']")).to_be_checked()  # nothing picked: the row turned back
    expect(page.locator("#live-check")).to_have_text("0 of 13 hearts")
    tap_count(page.locator("#hearts-1"), 9)
    page.locator("#hearts-1 .turn").click()  # turned back to 0–6: its 9 out of sight
    expect(page.locator("#hearts-1 .turn .held")).to_have_text("9")  # shown where "7+" was; still named "7+"
    expect(page.locator("#hearts-1 .turn .held")).to_be_visible()
    expect(page.locator("#hearts-1 .turn input")).to_have_accessible_name("7+")
    expect(page.locator("#hearts-1 input[value='9']")).to_be_checked()
    page.context.close()


def test_a_follower_keeps_the_board_it_opened_with_until_the_game_changes(browser, client, live_server):
    """Point 7: a follow page fetched its board again as it opened and swapped it in whole, the same board; a
    display read at that moment read nothing. It now asks with the version it shows, and is answered 304."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}).json
    page = browser.new_context(**LANDSCAPE, service_workers="block").new_page()
    with page.expect_response(lambda answer: answer.url.endswith("/follow/board")) as first:
        page.goto(f"{live_server}/games/{made['id']}/follow")
    card = page.locator(".scoreboard li").first.element_handle()
    assert first.value.status == 304
    with page.expect_response(lambda answer: answer.url.endswith("/follow/board")) as changed:
        client.post(f"/api/games/{made['id']}/hands", json={"hearts": [4, 0, 9, 0], "queen": 1})
    assert changed.value.status == 200
    expect(page.locator('[data-total="1"]')).to_have_text("13")
    assert not card.evaluate("card => card.isConnected")  # swapped once the game changed
    page.context.close()


def test_a_row_turned_while_the_next_hand_comes_stays_turned(browser, client, live_server):
    """Point 4: "7+" tapped just as the server's page comes in (another phone saved a hand). The row must still
    show 7 to 13 once that page is in, or the player's next tap, meant for 9, would land on 2."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}).json
    page = browser.new_context(**SMALL_PHONE, service_workers="block").new_page()  # every fetch the page's own
    address = f"{live_server}/games/{made['id']}"
    page.goto(address)
    expect(page.locator("#hand-form[data-live=yes]")).to_have_count(1)
    held = []
    page.route(address, lambda route: held.append(route))  # the page the news asks for waits
    page.locator("#hearts-1 .turn").click()
    before = page.locator("#hand-form").element_handle()
    with page.expect_request(address):  # another phone saves hand 1: this one is told, and asks for its page
        client.post(f"/api/games/{made['id']}/hands", json={"hearts": [4, 0, 9, 0], "queen": 1})
    expect(page.locator("#hearts-1 input[value='9']")).to_be_visible()
    held[0].continue_()
    page.wait_for_function("form => !form.isConnected", arg=before)  # the server's form in its place
    expect(page.locator("#record")).to_have_text("Record hand 2")
    chip = page.locator("#hearts-1 .chip-row > label:has(> input[value='9'])")
    expect(chip).to_be_visible()
    chip.click()
    expect(page.locator("#hearts-1 input[value='9']")).to_be_checked()
    page.context.close()


MOON = {
    "en-US": ("House rule: the shooter gets −10.", "the shooter −26 (not below 0)", "others +26"),
    "de-DE": ("Hausregel: der Schütze bekommt −10.", "der Schütze −26 (nicht unter 0)", "andere +26"),
}


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_the_moon_is_said_with_the_floor_and_its_mark_says_whose(browser, client, live_server, shape, scheme, locale):
    """Point 10: with the floor on, a shooter at 10 who subtracts loses 10, not 26, but the hand's note said −26
    and the house rules line said "−26 (−43 with Black Maria)" in a game without it; "☾ +26" in the shooter's own
    column read as the shooter's score."""
    note, house, mark = MOON[locale]
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"moon": "subtract"}}).json
    client.post(f"/api/games/{made['id']}/hands", json={"hearts": [10, 0, 3, 0], "queen": 3})  # Ann at 10
    other = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat", "Dan"]}).json
    client.post(f"/api/games/{other['id']}/hands", json={"hearts": [0, 13, 0, 0], "queen": 1, "moon_option": "add"})
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}")
    expect(page.locator("#rules-in-play")).to_contain_text(house)
    expect(page.locator("#rules-in-play")).not_to_contain_text("43")
    expect(page.locator("#hand-form[data-live=yes]")).to_have_count(1)
    tap_count(page.locator("#hearts-0"), 13)
    page.locator("#queen .chip-row > label").nth(0).click()
    expect(page.locator("#moon-panel")).to_be_visible()
    expect(page.locator("#moon-panel p")).to_have_text(note)
    page.goto(f"{live_server}/games/{other['id']}")
    shooter = page.locator(".hands tbody tr").last.locator("td").nth(1)
    expect(shooter.locator(".moon")).to_have_text(f"☾ {mark}")
    context.close()


# The codes inside the rule book's house rules, and each table's width beside the width it has.
RULE_BOOK = """() => {
  const heading = document.getElementById("house-rules");
  let codes = 0;
  for (let next = heading.nextElementSibling; next && next.tagName !== "H2"; next = next.nextElementSibling) {
    codes += next.querySelectorAll("code").length + (next.tagName === "TABLE" ? 1 : 0);
  }
  return { codes, tables: [...document.querySelectorAll(".doc table")].map(t => [t.scrollWidth, t.clientWidth]) };
}"""


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_the_rule_book_speaks_the_forms_words_and_every_table_fits(browser, live_server, shape, scheme, locale):
    """Point 11: the German rule book showed 28 API codes in its house rules (`pass_cycle`, `left-right-across-hold`,
    `subtract_floor`, …) and a table 413 px wide on a 360 px screen."""
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/rules")
    read = page.evaluate(RULE_BOOK)
    assert read["codes"] == 0
    assert read["tables"] and all(wide <= room for wide, room in read["tables"]), read["tables"]
    assert page_width(page) <= shape["viewport"]["width"]
    context.close()


CUT_CELLS = """selector => [...document.querySelectorAll(selector)]
  .filter(cell => cell.scrollWidth > cell.clientWidth + 0.5).map(cell => cell.textContent.trim())"""
# Where the row's number is, against the left edge of the box it scrolls in.
NUMBER_AT = """box => box.querySelector("tbody th").getBoundingClientRect().left - box.getBoundingClientRect().left"""


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_the_sheet_preview_and_the_review_fit_a_phone(browser, client, live_server, shape, scheme, locale):
    """Point 9: the sheet's preview with five players cut its last column ("−10" as "−1("); the review's hand by
    hand was 384 px wide for four players on a 360 px phone, and its first column scrolled away."""
    five = ["Alexandra", "Alexander", "Christina", "Christopher", "Maximilian"]
    made = client.post("/api/games", json={"players": five, "rules": {"omnibus": True}}).json
    for hearts, queen, option in [([4, 0, 9, 0, 0], 1, None), ([0, 13, 0, 0, 0], 1, "add"), ([2, 3, 4, 4, 0], 0, None)]:
        client.post(f"/api/games/{made['id']}/hands", json={"hearts": hearts, "queen": queen, "jack": 4,
                                                           "moon_option": option})  # fmt: skip
    four = client.post("/api/games", json={"players": five[:4]}).json
    for hearts, queen in [([4, 0, 9, 0], 1), ([2, 3, 4, 4], 0), ([0, 0, 1, 12], 3)]:
        client.post(f"/api/games/{four['id']}/hands", json={"hearts": hearts, "queen": queen})
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}/sheet")
    assert page.evaluate(CUT_CELLS, ".sheet td, .sheet th") == []
    assert page_width(page) <= shape["viewport"]["width"]
    page.goto(f"{live_server}/games/{four['id']}/review")
    box = page.locator(".review .scroll")
    assert box.evaluate("box => box.scrollWidth <= box.clientWidth")  # four players: every column in sight
    expect(page.locator(".review .swipe")).to_have_count(0)
    page.goto(f"{live_server}/games/{made['id']}/review")
    box.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    assert abs(box.evaluate(NUMBER_AT)) < 1  # the hand's number stays at the left edge
    context.close()


YOUR_GROUPS = {"en-US": "Your groups on this phone", "de-DE": "Deine Gruppen auf diesem Handy"}


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_a_group_page_names_the_group_follows_new_games_and_is_offered_again(
    browser,
    open_server,
    shape,
    scheme,
    locale,
):
    """Point 5: the page a shared link opens did not say which group it is; a second phone's list did not show a
    game the first started until reloaded; at the server's root (a bookmark) the phone could only start a second
    group."""
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    starter = context.new_page()
    starter.goto(open_server + "/")
    starter.locator("form.start-group input[name=name]").fill("Thursday")
    starter.locator("form.start-group button[type=submit]").click()
    expect(starter.locator("h1")).to_have_text("Thursday")
    link = starter.locator("a.group-link").get_attribute("href") or ""
    other = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    phone = other.new_page()
    phone.goto(link)  # the shared link: the group's games
    expect(phone.locator("h1")).to_have_text("Thursday")
    answer = starter.request.post(link + "api/games", data={"players": ["Ann", "Ben", "Cat", "Dan"]})
    assert answer.status == 201
    expect(phone.locator("#games .game-card")).to_contain_text("Ann · Ben · Cat · Dan", timeout=25000)  # unreloaded
    phone.goto(open_server + "/")
    offered = phone.locator("#your-groups")
    expect(offered.locator("h2")).to_have_text(YOUR_GROUPS[locale])
    offered.get_by_role("link", name="Thursday").click()
    expect(phone.locator("h1")).to_have_text("Thursday")
    assert phone.url == link
    other.close()
    context.close()


# The banner at least 14 px and as large as who deals, and the card still holding who leads.
READ_ACROSS = """() => {
  const card = document.querySelector("#board .next-hand"), size = e => parseFloat(getComputedStyle(e).fontSize);
  const banner = card && card.querySelector(".banner"), deal = card && card.querySelector(".deal");
  return banner && deal && size(banner) >= 14 && size(banner) >= size(deal) - 0.5
    && card.scrollHeight <= card.clientHeight;
}"""


@pytest.mark.parametrize(("scheme", "locale"), [("light", "en-US"), ("dark", "de-DE")])
def test_the_tie_break_banner_reads_across_the_table(browser, client, live_server, scheme, locale):
    """Point 12: on the table display turned sideways, the tie-break banner was small text (10 px), hard to read
    across a table; in the words it had, a larger type would push who leads out of its card."""
    five = ["Alexandra", "Alexander", "Christina", "Christopher", "Maximilian"]
    made = client.post("/api/games", json={"players": five, "rules": {"target": 20}}).json
    for hearts, queen in [([0, 0, 9, 4, 0], 2), ([0, 0, 3, 10, 0], 3)]:  # three at 0 past 20: play goes on
        client.post(f"/api/games/{made['id']}/hands", json={"hearts": hearts, "queen": queen})
    context = browser.new_context(**LANDSCAPE, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/games/{made['id']}/follow")
    expect(page.locator("#board .next-hand .banner")).to_be_visible()
    page.wait_for_function(READ_ACROSS)  # the board may be drawn again as the stream tells it: the page's own check
    context.close()


@pytest.mark.parametrize(("shape", "scheme", "locale"), PHONES)
def test_delete_sits_apart_from_the_score_sheet_in_past_games(browser, client, live_server, shape, scheme, locale):
    """Point 12: in past games, "Delete" sat right beside "Score sheet"."""
    made = client.post("/api/games", json={"players": ["Ann", "Ben", "Cat"]}).json
    client.post(f"/api/games/{made['id']}/hands", json={"hearts": [4, 0, 9], "queen": 1})
    context = browser.new_context(**shape, color_scheme=scheme, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server}/history")
    sheet = page.locator(".row-actions a").nth(1).bounding_box()
    delete = page.locator(".row-actions a.warn").bounding_box()
    assert sheet is not None and delete is not None
    assert delete["x"] - (sheet["x"] + sheet["width"]) >= 28  # was 17 px: the gap between two links
    context.close()
