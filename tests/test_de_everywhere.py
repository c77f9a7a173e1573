"""No English on a German page: every page of a real evening, read as a German phone gets it.

The first check reads each page's HTML (every text a player sees or hears: the words, the labels read aloud,
the text the scripts show later) for English words that are never German. The second plays a German game in
Chromium at 360 × 740, looking at every page for overflow and asking axe about it.
"""

import re
from html.parser import HTMLParser

import pytest
from browser import LONG_NAMES

from scorekeeper import create_app
from scorekeeper.db import db

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}

# English words no German sentence has: neither German words too (Name, Link, Trick, offline) nor names (Hearts,
# Black Maria, Omnibus). Matched as whole words, any case.
ENGLISH = """the and or of with from for to by at on off is are be not no yes you your this that these those it its
who which what when where how here there then than if only more less all every each one two three four five first last
next hand hands heart save saved player players names game games deal deals dealer dealt pass passes passing left
right across hold hearts total totals undo correct correction corrected target score scores sheet sheets new back delete
deleted import imported exported follow following leads lead won wins win winner lost takes taken took moon shoot
shot shooter sun queen jack king ace spades diamonds clubs rules house preset classic choose chosen add subtract
everyone else nobody somebody wait waiting sent send sending open close print share tie play plays played playing
started finished over history past missing points point place places phone phones screen table card cards
sign passcode page error found sorry please try again still yet before after down up goes""".split()
PHRASES = ["to go", "sign in", "sign out", "game over", "not found"]
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
    return found + [phrase for phrase in PHRASES if re.search(rf"\b{phrase}\b", text, re.IGNORECASE)]


THREE = ["Anna", "Bernd", "Carla"]
NAMES = LONG_NAMES + THREE


@pytest.fixture
def evening(client):
    """A realistic data set: a game of five in progress, a finished game, a Black Maria game."""
    five = client.post("/api/games", json={"players": LONG_NAMES}).json["id"]
    for hand in [
        {"hearts": [4, 0, 9, 0, 0], "queen": 1},
        {"hearts": [0, 13, 0, 0, 0], "queen": 1, "moon_option": "add"},
        {"hearts": [2, 3, 4, 4, 0], "queen": 4},
    ]:
        assert client.post(f"/api/games/{five}/hands", json=hand).status_code == 201
    over = client.post("/api/games", json={"players": THREE, "rules": {"target": 20}}).json["id"]
    assert client.post(f"/api/games/{over}/hands", json={"hearts": [4, 0, 9], "queen": 1}).status_code == 201
    maria = client.post("/api/games", json={"players": THREE, "rules": {"black_maria": True}}).json["id"]
    hand = {"hearts": [4, 0, 9], "queen": 1, "king": 2, "ace": 0}
    assert client.post(f"/api/games/{maria}/hands", json=hand).status_code == 201
    return {"five": five, "over": over, "maria": maria}


def pages_of(evening: dict[str, int]) -> dict[str, str]:
    five, over, maria = evening["five"], evening["over"], evening["maria"]
    return {
        "home": "/",
        "new game": "/games/new",
        "game in progress": f"/games/{five}",
        "correct a hand": f"/games/{five}/hands/2",
        "finished game": f"/games/{over}",
        "Black Maria game": f"/games/{maria}",
        "past games": "/history",
        "review": f"/games/{five}/review",
        "delete": f"/games/{five}/delete",
        "import": "/history/import",
        "players": "/players",
        "a player": f"/players/{LONG_NAMES[0]}",
        "blank sheet": "/sheets/blank?players=5",
        "filled sheet": f"/games/{five}/sheet",
        "follow": f"/games/{five}/follow",
        "table display": f"/games/{five}/follow/board",
        "offline": "/offline",
        "rules": "/rules",
    }


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


@pytest.fixture
def guarded(database_url):
    """The app as a host runs it with a passcode set."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "SQLALCHEMY_DATABASE_URI": database_url,
         "PASSCODE": "queen of spades"}
    )  # fmt: skip
    yield app.test_client()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_every_page_of_an_evening_is_german_for_a_german_browser(client, evening, guarded):
    answers = {name: client.get(path, headers=GERMAN) for name, path in pages_of(evening).items()}
    answers |= refused_forms(client, evening)
    answers["sign-in"] = guarded.get("/sign-in", headers=GERMAN)
    answers["a wrong passcode"] = guarded.post("/sign-in", data={"passcode": "jack"}, headers=GERMAN)
    problems = []
    for name, answer in answers.items():
        language, text = read(answer.get_data(as_text=True), NAMES)
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
    assert english_in(text) == ["hand", "save", "saved", "to", "undo", "’s", "to go"]
    assert english_in(read('<html lang="de"><p>Alle Herzen und die Pik-Dame</p></html>', [])[1]) == []
