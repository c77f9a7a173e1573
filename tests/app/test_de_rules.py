"""The rule book in German: /rules in the table's language, every section and every number of the English one."""

import re
from collections import Counter

import pytest

from scorekeeper.i18n.languages import LANGUAGES
from scorekeeper.web.views import docs

from server import ROOT

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
ENGLISH_BOOK = ROOT / "docs" / "rules.md"
GERMAN_BOOK = ROOT / "docs" / "rules.de.md"

SECTIONS = {
    "The rules the scorekeeper keeps": "Die Regeln, nach denen die App zählt",
    "Players and the deck": "Spieler und Karten",
    "House rules": "Hausregeln",
    "Passing and dealing": "Weitergeben und Geben",
    "Recording a hand": "Eine Runde eintragen",
    "Scoring a hand": "Eine Runde werten",
    "Which moon option the app suggests": "Was die App beim Mondschuss vorschlägt",
    "The end of the game": "Das Ende des Spiels",
    "Fixing mistakes": "Fehler beheben",
    "Worked examples": "Durchgerechnete Beispiele",
    "Where the rule books say nothing": "Wo die Regelbücher nichts sagen",
}


def sections(book: str) -> dict[str, str]:
    """Each heading of a rule book with the text under it (the text above the first ## under the title)."""
    parts = re.split(r"^#{1,2} (.+)$", book, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def numbers(text: str) -> Counter[str]:
    """Every number a reader sees, as a multiset: −26 and -26 alike, 2,5 as 2.5; a card's rank (2♣) is its name."""
    text = re.sub(r"\d+(?=[♣♦♠♥])", "", text)
    found = re.findall(r"[−-]?\d+(?:[.,]\d+)?", text)
    return Counter(number.replace("−", "-").replace(",", ".") for number in found)


def examples(section: str) -> dict[str, str]:
    return {row.split("|")[1].strip(): row for row in section.splitlines() if re.match(r"\| \d+ \|", row)}


@pytest.fixture(scope="module")
def books():
    return sections(ENGLISH_BOOK.read_text()), sections(GERMAN_BOOK.read_text())


def test_the_german_rule_book_has_every_section_of_the_english_one_in_its_order(books):
    english, german = books
    assert list(english) == list(SECTIONS)  # a new English section needs its German one too
    assert list(german) == list(SECTIONS.values())


def test_each_section_keeps_every_number_of_the_english_one(books):
    english, german = books
    for (heading, text), german_text in zip(english.items(), german.values(), strict=True):
        assert numbers(german_text) == numbers(text), heading


def test_each_worked_example_keeps_its_numbers(books):
    english = examples(books[0]["Worked examples"])
    german = examples(books[1]["Durchgerechnete Beispiele"])
    assert list(german) == list(english) == [str(number) for number in range(1, 23)]
    for number, row in english.items():
        assert numbers(german[number]) == numbers(row), f"worked example {number}"


def test_the_german_rule_book_names_the_cards_as_german_tables_do(books):
    german = GERMAN_BOOK.read_text()
    for card in ("Pik-Dame", "Karo-Buben", "Pik-König", "Pik-Ass", "Kreuz-Zwei", "Karo-Zwei", "Kreuz-Drei"):
        assert card in german
    assert "Den Mond schießen" in german and "Die Sonne schießen" in german
    outside_code = re.sub(r"`[^`]*`", "", german)
    assert not re.search(r"Q♠|J♦|2♣|\bseat\b|\bhearts\b|\bhand\b", outside_code)


def test_rules_shows_the_german_rule_book_to_a_german_browser(client):
    page = client.get("/rules", headers=GERMAN).text
    assert '<html lang="de">' in page and "<title>Hausregeln · Hearts Scorekeeper</title>" in page
    assert '<h1 id="the-rules-the-scorekeeper-keeps">Die Regeln, nach denen die App zählt</h1>' in page
    assert '<h2 id="recording-a-hand">Eine Runde eintragen</h2>' in page  # the English anchors: links still land
    assert "<td>Herzen 4, 0, 9, 0; D♠ Sitz 1</td>" in page and "<code>exact_reset</code>" in page
    assert 'href="/docs/api"' in page
    for english in ("The rules the scorekeeper keeps", "Worked examples", "Recording a hand", "House rules"):
        assert english not in page
    assert '<article class="doc">' in page  # all of it German: nothing marked as another language


def test_rules_stays_english_for_everyone_else(client):
    for headers in ({}, {"Accept-Language": "en-GB"}, {"Accept-Language": "fr"}):
        page = client.get("/rules", headers=headers).text
        assert '<h2 id="recording-a-hand">Recording a hand</h2>' in page and "Eine Runde eintragen" not in page
        assert "<title>House rules · Hearts Scorekeeper</title>" in page


def test_a_phone_that_chose_german_reads_the_german_rules(client):
    client.post("/language", data={"language": "de", "next": "/rules"})
    assert "Durchgerechnete Beispiele" in client.get("/rules", headers={"Accept-Language": "en"}).text


def test_a_doc_not_written_in_the_pages_language_is_english_and_says_so(client):
    page = client.get("/docs/api", headers=GERMAN).text
    assert "<title>Die JSON-API · Hearts Scorekeeper</title>" in page
    assert '<article class="doc" lang="en">' in page  # screen readers read it as English
    assert 'href="/rules#recording-a-hand"' in page


@pytest.fixture
def third_language(monkeypatch, tmp_path):
    """French as a third language whose rule book is written: its catalog aside, a folder of docs with rules.fr.md."""
    for name in ("rules.md", "api.md"):
        (tmp_path / name).write_text((ROOT / "docs" / name).read_text())
    monkeypatch.setitem(LANGUAGES, "fr", "Français")
    monkeypatch.setattr(docs, "bundled", lambda name: tmp_path)
    docs.rendered.cache_clear()
    yield tmp_path
    docs.rendered.cache_clear()


def test_a_third_languages_rule_book_is_just_its_file(client, third_language):
    french = {"Accept-Language": "fr"}
    page = client.get("/rules", headers=french).text
    assert '<html lang="fr">' in page and '<article class="doc" lang="en">' in page  # no rules.fr.md yet: English
    assert "Recording a hand" in page
    (third_language / "rules.fr.md").write_text("# Les règles\n\n## Les joueurs\n\nTrois, quatre ou cinq.\n")
    page = client.get("/rules", headers=french).text
    assert '<article class="doc">' in page and '<h2 id="players-and-the-deck">Les joueurs</h2>' in page
    assert "Recording a hand" not in page
