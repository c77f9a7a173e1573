"""No English on a German page: every page of a real evening, read as a German phone gets it.

The first check reads each page's HTML (every text a player sees or hears: the words, the labels read aloud,
the text the scripts show later) for English words that are never German. The second plays a German game in
Chromium at 360 × 740, looking at every page for overflow and asking axe about it.
"""

import re
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

import pages
import pytest
from axe_playwright_python.sync_playwright import Axe
from browser import LONG_NAMES, SMALL_PHONE, live_form, tap_count
from flask_babel import gettext
from playwright.sync_api import Page, expect

from scorekeeper.rules.cards import PENALTY_CARDS

THREE = pages.THREE

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}

# English words a German page never shows: not German words too (Name, Last, still, Deal, Trick), nor names (Hearts,
# Black Maria, Omnibus). Hand, pass, total and import are German words, but not the ones these pages use (Runde,
# weitergeben, Punktestand, importieren): on a German page they are English left over. Matched whole, any case.
ENGLISH = """the and or of with from for to by at on off is are be not no yes you your this that these those it its
who which what when where how here there then than if only more less all every each one two three four five first
next hands heart save saved player players names game games deals dealer dealt pass passes passing left
right across hold hearts total totals undo correct correction corrected target score scores sheet sheets new back delete
deleted import imported exported follow following leads lead won wins win winner lost takes taken took moon shoot
shot shooter sun queen jack king ace spades diamonds clubs rules house preset classic choose chosen add subtract
everyone else nobody somebody wait waiting sent send sending open close print share tie play plays played playing
started finished over history past missing points point place places phone phones screen table card cards
sign passcode page error found sorry please try again yet before after down up goes""".split()
# "Hand" alone is German too ("von Hand eingegeben"); a hand with its number is English ("Hand 4 saved").
PHRASES = [r"to go", r"sign in", r"sign out", r"game over", r"not found", r"save hand", r"hand \d+", r"\d+ hands?"]
NAMES_AND_TITLES = ["Black Maria", "Hearts Scorekeeper", "Hearts", "Omnibus"]  # the same in German

# The texts of a page a player reads or hears, besides its words: labels read aloud, hints, a button's value.
READ_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "aria-description", "aria-roledescription"}
SKIPPED = {"script", "style", "code", "svg"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Reader(HTMLParser):
    """The page's language and its readable text: no script, style or code, nothing marked as another language."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.language = ""
        self.texts: list[str] = []
        self.open: list[tuple[str, bool]] = []  # each open element, and whether its text is left out

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if tag == "html":
            self.language = given.get("lang") or ""
            return
        foreign = given.get("lang") not in (None, self.language)  # "English" on the switch, a doc kept in English
        skipped = tag in SKIPPED or foreign or self.skipping()
        if not skipped:
            self.texts += [value or "" for name, value in attrs if name in READ_ATTRIBUTES]
            if tag == "input" and given.get("type") in ("submit", "button", "reset"):
                self.texts.append(given.get("value") or "")
        if tag not in VOID:
            self.open.append((tag, skipped))

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.skipping():
            self.texts.append(data)

    def skipping(self) -> bool:
        return bool(self.open) and self.open[-1][1]


def read(html: str, names: list[str]) -> tuple[str, str]:
    """A page's language and its readable text, the players' names and the game's own names taken out."""
    reader = Reader()
    reader.feed(html)
    text = " ".join(reader.texts)
    for name in sorted(names + NAMES_AND_TITLES, key=len, reverse=True):
        text = text.replace(name, " ")
    return reader.language, re.sub(r"\s+", " ", text)


def english_in(text: str) -> list[str]:
    found = sorted({word for word in re.findall(r"[^\W\d_]+", text.lower()) if word in ENGLISH})
    if re.search(r"(?:^|\s)['’]s\b", text):  # a player's name with an English possessive ("Anna’s hand")
        found.append("’s")
    phrases = (match.lower() for phrase in PHRASES for match in re.findall(rf"\b{phrase}\b", text, re.IGNORECASE))
    return found + list(dict.fromkeys(phrases))


NAMES = LONG_NAMES + THREE


@pytest.fixture
def evening(client):
    return pages.evening(client)


BOARD = "the follow board"  # a part of the follow page, fetched as the game changes: no <html> of its own


def pages_of(evening: dict[str, int]) -> dict[str, str]:
    return {**pages.addresses(pages.PAGES, **evening), BOARD: f"/games/{evening['five']}/follow/board"}


def refused_forms(client, evening: dict[str, int]) -> dict[str, object]:
    five = evening["five"]
    twelve_hearts = {f"hearts-{seat}": str(count) for seat, count in enumerate([4, 0, 8, 0, 0])}
    return {
        "a 404": client.get("/games/9999", headers=GERMAN),
        "a refused new game": client.post(
            "/games/new", data={"players-0": "Anna", "players-1": "Anna"}, headers=GERMAN
        ),
        "a refused hand": client.post(
            f"/games/{five}/hands", data={**twelve_hearts, "queen": "1", "number": "4"}, headers=GERMAN
        ),  # fmt: skip
        "a refused import": client.post(
            "/history/import", data={}, content_type="multipart/form-data", headers=GERMAN
        ),  # fmt: skip
    }


def test_every_page_of_an_evening_is_german_for_a_german_browser(app, client, evening, monkeypatch):
    answers = {name: client.get(path, headers=GERMAN) for name, path in pages_of(evening).items()}
    answers |= refused_forms(client, evening)
    monkeypatch.setitem(app.config, "PASSCODE", "queen of spades")  # as a host sets it: every page asks for it
    answers["sign-in"] = client.get("/sign-in", headers=GERMAN)
    answers["a wrong passcode"] = client.post("/sign-in", data={"passcode": "jack"}, headers=GERMAN)
    problems = []
    for name, answer in answers.items():
        language, text = read(answer.get_data(as_text=True), NAMES)
        words = english_in(text)
        if (language != "de" and name != BOARD) or words:
            problems.append(f"{name} ({answer.status_code}): lang={language!r}, English: {', '.join(words) or '-'}")
    assert not problems, "German pages with English on them:\n" + "\n".join(problems)


def test_every_page_of_an_open_server_is_german_for_a_german_browser(database_url):
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "de-" + "g" * 40, "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database_url, "GROUPS_OPEN": True})  # fmt: skip
    client = app.test_client()
    key = client.post("/api/groups", json={"name": "Donnerstag"}).json["key"]
    client.post(f"/g/{key}/api/games", json={"players": THREE})
    addresses = {**pages.addresses(pages.OPEN_SERVER_PAGES, key=key), "an unknown key": "/g/" + "x" * 24 + "/"}
    answers = {name: client.get(path, headers=GERMAN) for name, path in addresses.items()}
    answers["a weak passcode"] = client.post(f"/g/{key}/group/passcode", data={"code-passcode": "1234"}, headers=GERMAN)
    answers["a name that cannot be"] = client.post("/groups", data={"name": "\u202e"}, headers=GERMAN)
    problems = []
    for name, answer in answers.items():
        # The group's key is random (its link is on the page): "…9to9…" holds no English word.
        language, text = read(answer.get_data(as_text=True), [*NAMES, "Donnerstag", key])
        words = english_in(text)
        if language != "de" or words:
            problems.append(f"{name} ({answer.status_code}): lang={language!r}, English: {', '.join(words) or '-'}")
    assert not problems, "German pages with English on them:\n" + "\n".join(problems)


def test_the_reader_finds_the_english_a_german_page_would_show():
    page = """<html lang="de"><head><title>Runde 4 · Hearts Scorekeeper</title><style>.left{}</style></head><body>
      <h1>Runde 4 · Christina gibt</h1><button aria-label="Save hand">Speichern</button><code>pass_cycle</code>
      <input type="submit" value="Undo"><p hidden>Hand 5 saved.</p><script>const left = 1;</script>
      <button lang="en">English</button><p>Christina’s Punkte · Black Maria</p><p>noch 12 to go</p></body></html>"""
    language, text = read(page, LONG_NAMES)
    assert language == "de"
    assert english_in(text) == ["save", "saved", "to", "undo", "’s", "to go", "save hand", "hand 5"]
    german = '<html lang="de"><p>Alle Herzen und die Pik-Dame, von Hand eingegeben: Runde 5</p></html>'
    assert english_in(read(german, [])[1]) == []


# A German game through the pages, on a small phone, as a player taps it.

GERMAN_NAMES = ["Friederike", "Maximilian", "Konstantin", "Hannelore", "Bartholomäus"]

# What does not fit: the page wider than the phone, or a text cut by its box or spilling out of it. A text in a
# box that scrolls sideways (a wide table of the rules) can be reached, and one of a pixel is only read aloud.
OVERFLOW = """() => {
  const problems = [];
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) problems.push(`the page is ${width} px wide`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || !node.parentElement.checkVisibility({ checkVisibilityCSS: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = range.getBoundingClientRect();
    if (text.width < 1 || text.height < 1) continue;
    let block = null;
    for (let box = node.parentElement; box && box !== document.body; box = box.parentElement) {
      const frame = box.getBoundingClientRect(), style = getComputedStyle(box);
      if (style.display === "contents") continue;
      if (frame.width <= 1 || frame.height <= 1) break;
      if (["auto", "scroll"].includes(style.overflowX)) break;
      const left = frame.left + box.clientLeft, top = frame.top + box.clientTop;
      const outX = text.left < left - 0.5 || text.right > left + box.clientWidth + 0.5;
      const outY = text.top < top - 0.5 || text.bottom > top + box.clientHeight + 0.5;
      const where = box.tagName.toLowerCase() + [...box.classList].map(c => "." + c).join("");
      const cutting = axis => ["hidden", "clip"].includes(axis);
      const cuts = (cutting(style.overflowX) && outX) || (cutting(style.overflowY) && outY);
      if (cuts) { problems.push(`“${node.textContent.trim()}” is cut by ${where}`); break; }
      if (!block && !style.display.startsWith("inline")) {
        block = box;
        if (outX) { problems.push(`“${node.textContent.trim()}” spills out of ${where}`); break; }
      }
    }
  }
  return problems;
}"""


class Walk:
    """A German phone going through the pages: on each, what overflows, any English (the scripts' words too) and what
    axe finds; a screenshot of each page with a problem."""

    def __init__(self, page: Page, app, folder: Path) -> None:
        self.page, self.app, self.folder = page, app, folder
        self.problems: dict[str, list[str]] = {}

    def say(self, words: Callable[[], str]) -> str:
        """Words as the German catalog says them on the pages; English words would make the test check nothing."""
        with self.app.test_request_context(headers=GERMAN):
            german = re.sub(r"<[^>]+>", "", words())
        with self.app.test_request_context(headers={"Accept-Language": "en"}):
            english = re.sub(r"<[^>]+>", "", words())
        assert german != english, f"not in German yet: {english!r}"
        return german

    def look(self, name: str) -> None:
        page = self.page
        expect(page.locator("html")).to_have_attribute("lang", "de")
        found = page.evaluate(OVERFLOW)
        english = english_in(read(page.content(), GERMAN_NAMES)[1])  # the page as its scripts left it too
        found += [f"English: {', '.join(english)}"] if english else []
        found += [
            f"axe {violation['id']}: {[node['target'] for node in violation['nodes']][:3]}"
            for violation in Axe().run(page).response["violations"]
            if violation["impact"] in ("serious", "critical")
        ]
        if found:  # to look at, beside the failure's words
            page.screenshot(path=self.folder / f"{len(self.problems):02d}-{name}.png", full_page=True)
        self.problems[name] = found

    def hearts(self, name: str, count: int) -> None:
        label = self.say(lambda: gettext("<span class='vh'>Hearts taken by </span>%(name)s", name=name))
        tap_count(live_form(self.page).get_by_role("group", name=label, exact=True), count, touch=True)

    def queen(self, name: str) -> None:
        label = self.say(lambda: PENALTY_CARDS[0].question)
        group = live_form(self.page).get_by_role("group", name=label, exact=True)
        chip = group.get_by_role("radio", name=name, exact=True)
        chip.locator("xpath=ancestor::label").tap()

    def save(self) -> None:
        save = self.say(lambda: gettext("Save hand"))
        self.page.get_by_role("button", name=re.compile("^" + re.escape(save))).tap()

    def totals(self, *expected: int) -> None:
        for seat, total in enumerate(expected):
            expect(self.page.locator(f'[data-total="{seat}"]')).to_have_text(str(total))


@pytest.fixture
def walk(browser, app, live_server, tmp_path):
    context = browser.new_context(**SMALL_PHONE, locale="de-DE", extra_http_headers=GERMAN)
    page = context.new_page()
    page.goto(live_server + "/")
    yield Walk(page, app, tmp_path)
    context.close()


@pytest.mark.browser
@pytest.mark.long
def test_a_german_game_on_a_small_phone_fits_every_page_and_passes_axe(walk, client):
    page, say = walk.page, walk.say
    walk.look("home")
    page.get_by_role("link", name=say(lambda: gettext("Start a new game"))).tap()
    walk.look("new game")
    page.get_by_role("textbox", name=say(lambda: gettext("Player %(number)d", number=1)), exact=True).tap()
    for name in GERMAN_NAMES:
        page.keyboard.type(name)
        page.keyboard.press("Enter")  # on to the next name, as the phone's keyboard says
    page.get_by_role("group", name=say(lambda: gettext("Play to"))).get_by_text("50", exact=True).tap()
    walk.look("new game filled in")
    page.get_by_role("button", name=say(lambda: gettext("Start the game"))).tap()
    first = say(lambda: gettext("Hand %(number)d", number=1))
    expect(page.get_by_role("heading", level=1, name=re.compile(f"^{first} "))).to_be_visible()
    walk.look("hand 1")

    for seat, count in enumerate([4, 0, 9, 0, 0]):
        walk.hearts(GERMAN_NAMES[seat], count)
    walk.queen(GERMAN_NAMES[1])
    walk.look("hand 1 entered")
    walk.save()
    walk.totals(4, 13, 9, 0, 0)

    walk.hearts(GERMAN_NAMES[2], 13)  # Konstantin shoots the moon: the app advises adding
    walk.queen(GERMAN_NAMES[2])
    expect(page.locator("[data-advised]:not([hidden])")).to_be_visible()
    walk.look("a moon")
    walk.save()
    walk.totals(30, 39, 9, 26, 26)
    walk.look("after the moon")

    page.get_by_role("link", name=say(lambda: gettext("Correct hand %(number)d", number=1))).tap()
    walk.hearts(GERMAN_NAMES[0], 5)
    walk.hearts(GERMAN_NAMES[2], 8)
    walk.look("correcting hand 1")
    page.get_by_role("button", name=say(lambda: gettext("Save the correction"))).tap()
    walk.totals(31, 39, 8, 26, 26)
    walk.look("after the correction")

    for seat, count in enumerate([3, 10, 0, 0, 0]):
        walk.hearts(GERMAN_NAMES[seat], count)
    walk.queen(GERMAN_NAMES[1])
    walk.save()
    final = page.get_by_role("list", name=say(lambda: gettext("Final totals")))
    expect(final.get_by_role("listitem").first).to_have_text(re.compile(f"^1\\. {GERMAN_NAMES[2]} 8$"))
    walk.look("game over")
    assert client.get("/api/games/1").json["status"] == "finished"

    page.goto(page.url.split("/games/")[0] + "/")
    page.get_by_role("link", name=say(lambda: gettext("The rules the app keeps"))).tap()
    expect(page.get_by_role("heading", name="Durchgerechnete Beispiele")).to_be_visible()
    walk.look("rules")
    problems = [f"{name}: {'; '.join(found)}" for name, found in walk.problems.items() if found]
    assert not problems, f"Pages of a German game that do not fit, show English or fail axe (see {walk.folder}):\n" + (
        "\n".join(problems)
    )
