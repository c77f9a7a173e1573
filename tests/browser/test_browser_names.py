"""Two players never look alike, whatever the width: every name on every page, read as it is drawn.

The pages are read the way a player sees them: each text that shows (not what is only read aloud),
and whether any box around it cuts it. A name may be cut by the server, with a "…", to a form that
stands for one player alone; never by the stylesheet.
"""

import re

import pytest
from browser import ALIKE_NAMES, shown_text
from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

# Every text node that shows one of the prefixes, with the box that cuts it, if one does. A text inside
# a box of a pixel (visually hidden, read aloud) does not show; one inside a scrolling box can be reached.
SHOWN_TEXTS = """prefixes => {
  const shown = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!prefixes.some(prefix => node.textContent.includes(prefix))) continue;
    if (!node.parentElement.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = range.getBoundingClientRect();
    if (text.width < 1 || text.height < 1) continue;
    let hidden = false, cutBy = null, block = null;
    for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
      const frame = box.getBoundingClientRect(), style = getComputedStyle(box);
      if (style.display === "contents") continue;  // no box of its own
      if (frame.width <= 1 || frame.height <= 1) { hidden = true; break; }
      const left = frame.left + box.clientLeft, top = frame.top + box.clientTop;
      const outX = text.left < left - 0.5 || text.right > left + box.clientWidth + 0.5;
      const outY = text.top < top - 0.5 || text.bottom > top + box.clientHeight + 0.5;
      const cutsX = ["hidden", "clip"].includes(style.overflowX), cutsY = ["hidden", "clip"].includes(style.overflowY);
      const where = box.tagName.toLowerCase() + "." + [...box.classList].join(".");
      if ((cutsX && outX) || (cutsY && outY)) cutBy = cutBy || where;
      // A text wider than the first box around it that is not a line of text spills over what is beside it.
      if (!block && !style.display.startsWith("inline")) {
        block = box;
        if (outX) cutBy = cutBy || "spilling out of " + where;
      }
    }
    if (!hidden) shown.push({ text: node.textContent.trim(), cutBy });
  }
  return shown;
}"""
NAME_END = re.compile(r"[\s,.;:()→]|’s\b|'s\b")


def players_shown(text: str, names: list[str]) -> list[tuple[str, list[str]]]:
    """Each name-like word in a text, with the players it could stand for.

    >>> players_shown("Alex…dra → Alexander, Alex…", ["Alexandra", "Alexander"])
    [('Alex…dra', ['Alexandra']), ('Alexander', ['Alexander']), ('Alex…', ['Alexandra', 'Alexander'])]
    """
    found = []
    for start in sorted({match.start() for name in names for match in re.finditer(re.escape(name[:4]), text)}):
        end = NAME_END.search(text, start)
        word = text[start : end.start() if end else len(text)]
        found.append((word, [name for name in names if stands_for(word, name)]))
    return found


def stands_for(word: str, name: str) -> bool:
    """A word shows a name in full, or cut by a "…" to its start and end."""
    if "…" not in word:
        return word == name
    head, tail = word.split("…", 1)
    return name.startswith(head) and name.endswith(tail) and len(head) + len(tail) < len(name)


def alike_or_cut(page, names: list[str]) -> list[str]:
    """What a player could not tell apart on the page: a name cut by its box, or a form that fits two players."""
    problems = []
    for shown in page.evaluate(SHOWN_TEXTS, [name[:4] for name in names]):
        if shown["cutBy"]:
            problems.append(f"{shown['text']!r} is cut by {shown['cutBy']}")
        for word, players in players_shown(shown["text"], names):
            if len(players) != 1:
                problems.append(f"{word!r} (in {shown['text']!r}) stands for {players or 'nobody'}")
    return problems


@pytest.fixture
def evening(table):
    """Five long, alike names, sun and Omnibus on, six hands in, a moon among them."""
    table.start_game(players=ALIKE_NAMES, sun=True, omnibus=True)
    hands = [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0), ([3, 3, 3, 3, 1], 2)]
    for hearts, queen in hands:
        table.record_hand(hearts, queen, jack=3)
    table.record_hand([13, 0, 0, 0, 0], 0, jack=1, moon_option="add")
    return table.game_id


PAGES = ["/games/{game}", "/games/{game}/follow", "/games/{game}/review", "/games/{game}/sheet",
         "/games/{game}/hands/2", "/sheets/blank?players=5&names=" + ",".join(ALIKE_NAMES)]  # fmt: skip
SIZES = [(360, 740), (740, 360), (1180, 820), (320, 640), (900, 1000)]


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{width}x{height}" for width, height in SIZES])
def test_no_two_players_look_alike_on_any_page(browser: Browser, live_server, evening, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 600, has_touch=True)
    page = context.new_page()
    problems = {}
    for path in PAGES:
        page.goto(live_server + path.format(game=evening))
        problems[path] = alike_or_cut(page, ALIKE_NAMES)
    context.close()
    assert problems == dict.fromkeys(PAGES, [])


def test_a_finished_game_names_everyone_apart(browser: Browser, live_server, table):
    table.start_game(players=ALIKE_NAMES, target=30)
    table.record_hand([4, 0, 9, 0, 0], 1)
    table.record_hand([0, 9, 3, 1, 0], 1)  # 4, 35, 12, 1, 0: Maximilian wins
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = {}
    for path in ("/games/{game}", "/games/{game}/follow", "/games/{game}/sheet", "/"):
        page.goto(live_server + path.format(game=table.game_id))
        problems[path] = alike_or_cut(page, ALIKE_NAMES)
    context.close()
    assert problems == dict.fromkeys(problems, [])


THREE = ["Anneliese", "Christopher", "Maximilian"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_three_players_names_that_fit_are_not_cut(phone, client, live_server, scheme):
    """Issue 26, point 12: with three players a 360 px phone has room for "Anneliese", and shows it whole, each
    name chip on one line. Since issue 40, point 3, the scoreboard and the card chips show every name whole."""
    game = client.post("/api/games", json={"players": THREE}).json
    client.post(f"/api/games/{game['id']}/hands", json={"hearts": [5, 4, 4], "queen": 1})
    page = phone(f"{live_server}/games/{game['id']}", scheme)
    names = page.locator(".scoreboard .name")
    assert [shown_text(name) for name in names.all()] == THREE
    chips = page.locator("#queen .chip-row > label > span")
    assert [shown_text(chip) for chip in chips.all()] == THREE
    for chip in chips.all():
        assert chip.bounding_box()["height"] < 50  # one line of a 44 px chip, not two
    assert shown_text(page.locator(".hands thead th").nth(1)) == "Anneliese"


PASS_LINES = """() => [...document.querySelectorAll('.passes li')].map(li => ({
  text: li.innerText, over: li.scrollWidth > li.clientWidth + 0.5 || li.getBoundingClientRect().right > innerWidth}))"""


@pytest.mark.parametrize("names", [["Alexandra", "Alexander", "Christina", "Christopher", "Christiane"],
                                   ["Anneliese", "Bartholomew", "Maximiliane"]])  # fmt: skip
def test_each_pass_is_one_line_that_fits_at_360_px(phone, client, live_server, names):
    """A short name is never split at its "…" ("Chri…" above "ane"), nor pushed past the screen's edge."""
    game = client.post("/api/games", json={"players": names}).json["id"]
    for _hand in range(2):  # the passes of hand 1 (left) and hand 2 (right)
        page = phone(f"{live_server}/games/{game}")
        passes = page.evaluate(PASS_LINES)
        assert len(passes) == len(names)
        assert [p["text"] for p in passes if p["over"]] == []
        heights = page.eval_on_selector_all(".passes li", "items => items.map(li => li.offsetHeight)")
        assert len(set(heights)) == 1  # one line each
        hand = {"hearts": [0] * (len(names) - 1) + [13], "queen": 0}
        assert client.post(f"/api/games/{game}/hands", json=hand).status_code == 201
