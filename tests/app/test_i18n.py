"""The table's language: chosen from the browser or on the phone, the API's errors in it, and catalogs kept honest."""

import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import click
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorekeeper.i18n import click_words, languages, script_words
from scorekeeper.i18n.request import LANGUAGES, TRANSLATIONS

from conftest import as_host
from server import ROOT, serving

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
TWELVE_HEARTS = {"hearts": [4, 0, 8, 0], "queen": 1}


def page_language(answer) -> str:
    return re.search(r'<html lang="([\w-]+)"', answer.get_data(as_text=True)).group(1)


def test_pages_speak_the_browsers_language_and_english_by_default(client):
    assert page_language(client.get("/games/new", headers=GERMAN)) == "de"
    assert page_language(client.get("/games/new", headers={"Accept-Language": "fr, en;q=0.5"})) == "en"
    assert page_language(client.get("/games/new", headers={"Accept-Language": "fr"})) == "en"
    assert page_language(client.get("/games/new")) == "en"


def test_a_phones_choice_is_remembered_over_its_browsers(client):
    chosen = client.post("/language", data={"language": "de", "next": "/games/new"})
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/games/new"
    assert "Max-Age" in chosen.headers["Set-Cookie"]  # kept on the phone, not for the session alone
    assert page_language(client.get("/", headers={"Accept-Language": "en"})) == "de"
    client.post("/language", data={"language": "en", "next": "/"})
    assert page_language(client.get("/", headers=GERMAN)) == "en"


@pytest.mark.parametrize("given", [{"language": "xx"}, {"language": "de", "next": "//evil.example"}, {}])
def test_a_choice_of_no_language_or_a_way_off_the_site_changes_nothing(client, given):
    chosen = client.post("/language", data=given)
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/"  # never off the site
    assert ("Set-Cookie" in chosen.headers) == (given.get("language") == "de")


def test_every_page_says_its_language_for_caches(client):
    assert {"Accept-Language", "Cookie"} <= set(client.get("/", headers=GERMAN).vary)


def test_the_switch_offers_the_other_languages_in_their_own_words(client):
    english = client.get("/").get_data(as_text=True)
    assert '<button type="submit" name="language" value="de" lang="de">Deutsch</button>' in english
    german = client.get("/", headers=GERMAN).get_data(as_text=True)
    assert 'value="en" lang="en">English</button>' in german and 'value="de"' not in german


def test_the_apis_errors_come_in_the_language_asked_for(table, client):
    table.start_game()
    hand = f"/api/games/{table.game_id}/hands"
    german = client.post(hand, json=TWELVE_HEARTS, headers=GERMAN)
    assert german.status_code == 422
    assert german.json["errors"]["hearts"] == "Die Herzen ergeben 12, nicht 13: Ein Herz fehlt."
    english = client.post(hand, json=TWELVE_HEARTS)
    assert english.json["errors"]["hearts"] == "The hearts add up to 12, not 13: one heart missing."
    assert table.game()["hands"] == []  # and nothing was stored either way


def test_the_apis_http_errors_come_in_the_language_asked_for_too(client):
    """Werkzeug's own words (a 405, a 404 for an address the app does not have) in the JSON as on the pages."""
    assert client.patch("/api/games", headers=GERMAN).json["error"] == (
        "Diese Adresse nimmt diese Art von Anfrage nicht an."
    )
    assert client.patch("/api/games").json["error"] == "The method is not allowed for the requested URL."
    assert "not found" not in client.get("/api/nowhere", headers=GERMAN).json["error"]


def test_a_cards_name_follows_its_grammar_in_german(table, client):
    table.start_game(black_maria=True)
    answer = client.post(f"/api/games/{table.game_id}/hands", json={"hearts": [4, 0, 9, 0], "queen": 1}, headers=GERMAN)
    assert answer.json["errors"] == {
        "king": "Gib an, wer den Pik-König hat (Black Maria gilt).",
        "ace": "Gib an, wer das Pik-Ass hat (Black Maria gilt).",
    }


def test_the_table_page_kept_by_version_is_kept_for_each_language(table, client):
    game = table.start_game(black_maria=True)
    url = f"/games/{game['id']}"
    assert "Wer hat den Pik-König" in client.get(url, headers=GERMAN).get_data(as_text=True)
    assert "Who took the K♠" in client.get(url).get_data(as_text=True)
    assert "Wer hat den Pik-König" in client.get(url, headers=GERMAN).get_data(as_text=True)


def catalog(language: str):
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as source:
        return read_po(source)


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_catalog_translates_every_message_without_a_guess(language):
    messages = [message for message in catalog(language) if message.id]
    untranslated = [message.id for message in messages if not all(message.string if message.pluralizable
                                                                  else [message.string])]  # fmt: skip
    fuzzy = [message.id for message in messages if message.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated: {untranslated[:5]}"
    assert not fuzzy, f"fuzzy (a guess, or stale): {fuzzy[:5]}"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_translation_keeps_its_messages_values(language):
    """A translation with a value missing, misspelt or of another kind would fail when it is shown."""
    problems = [(message.id, errors) for message, errors in catalog(language).check() if errors]
    assert not problems, problems[:5]


def test_the_catalogs_hold_every_message_of_the_code(tmp_path):
    """A new message in a module or template is in each catalog (`make messages`), and translated (above)."""
    template = tmp_path / "messages.pot"
    keywords = re.search(r"^KEYWORDS := (.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE).group(1).split()
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-F", "babel.cfg", *keywords,
         "-o", str(template), "."],
        cwd=ROOT, check=True,
    )  # fmt: skip
    with template.open("rb") as source:
        wanted = {(message.context, message.id) for message in read_po(source) if message.id}
    for language in (code for code in LANGUAGES if code != "en"):
        held = {(message.context, message.id) for message in catalog(language) if message.id}
        missing = wanted - held
        assert not missing, (
            f"{language}: {len(missing)} messages not in the catalog (make messages): {list(missing)[:5]}"
        )


def test_the_app_reads_the_compiled_catalogs_the_build_makes():
    for language in (code for code in LANGUAGES if code != "en"):
        compiled = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
        source = compiled.with_suffix(".po")
        assert compiled.is_file() and compiled.stat().st_mtime >= source.stat().st_mtime, "make compiles the catalogs"


# What a template may show outside a message: the app's name, the same in every language.
NAME = {"Hearts", "Scorekeeper"}
JINJA = re.compile(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", re.S)


def words_outside_messages(template: str) -> set[str]:
    """The words a template shows that no message holds: its text and the attributes read aloud or shown
    (title, aria-label, placeholder, alt), once its tags, Jinja's parts and its trans blocks are taken out.

    >>> sorted(words_outside_messages('<p title="Totals">{{ _("Hand") }} of {% trans %}a b{% endtrans %}</p>'))
    ['Totals', 'of']
    """
    text = re.sub(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", " ", template, flags=re.S)
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", JINJA.sub(" ", text), flags=re.S)
    shown = re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', text)
    return set(re.findall(r"[^\W\d_]{2,}", " ".join([re.sub(r"<[^>]*>", " ", text), *shown])))


@pytest.mark.parametrize(
    "template", sorted(path.relative_to(ROOT / "templates") for path in (ROOT / "templates").rglob("*.html"))
)
def test_a_template_shows_no_word_outside_a_message(template):
    assert words_outside_messages((ROOT / "templates" / template).read_text(encoding="utf-8")) <= NAME


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """The catalogs as a copy of the clone holds them (their .po, not compiled), read afresh by the app."""
    copy = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, copy, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(languages, "TRANSLATIONS", copy)
    languages.catalog.cache_clear()
    yield copy / "de" / "LC_MESSAGES"
    languages.catalog.cache_clear()
    script_words.translated.cache_clear()  # the page scripts' words, kept from the catalog read here


def test_a_catalog_nothing_compiled_is_read_as_it_is(catalogs):
    assert not (catalogs / "messages.mo").exists()
    assert languages.catalog("de").gettext("Players") == "Spieler"


def test_a_po_edited_after_it_was_compiled_is_read_rather_than_its_old_mo(catalogs):
    source = catalogs / "messages.po"
    with source.open("rb") as po, (catalogs / "messages.mo").open("wb") as mo:
        write_mo(mo, read_po(po))
    players = 'msgid "Players"\nmsgstr "Spieler"'
    edited = source.read_text(encoding="utf-8").replace(players, 'msgid "Players"\nmsgstr "Mitspieler"')
    source.write_text(edited, encoding="utf-8")
    later = (catalogs / "messages.mo").stat().st_mtime + 2
    os.utime(source, (later, later))
    assert languages.catalog("de").gettext("Players") == "Mitspieler"


def test_a_catalog_that_cannot_be_read_is_one_line_and_english_words(catalogs, request, caplog, monkeypatch):
    (catalogs / "messages.po").write_text('msgid "Players"\nmsgstr "Spieler"\nnot a line of a catalog\n')
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # the host's language is the one that cannot be read: said in English
    page = request.getfixturevalue("client").get("/games/new", headers=GERMAN)  # the app, made once the file broke
    assert page.status_code == 200 and "Players" in page.text  # English words, English plurals for the scripts
    said = [record.getMessage() for record in caplog.records if record.name == "scorekeeper.i18n.languages"]
    assert len(said) == 1 and "\n" not in said[0], said
    assert said[0].startswith(f"Cannot read the German catalog {catalogs / 'messages.po'} (") and "English" in said[0]


@pytest.mark.server
def test_a_copy_of_the_clone_nothing_compiled_serves_german(tmp_path):
    """As `pip install -e .` then `scorekeeper serve` leaves it: the catalogs as .po files only."""
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "scorekeeper", clone / "scorekeeper",
                    ignore=shutil.ignore_patterns("*.mo", "__pycache__"))  # fmt: skip
    for name in ("templates", "static", "docs"):
        shutil.copytree(ROOT / name, clone / name)
    shutil.copy(ROOT / "pyproject.toml", clone)
    env = {"PYTHONPATH": str(clone), "SCOREKEEPER_INSTANCE": str(tmp_path / "data"), "DATABASE_URL": "",
           "SECRET_KEY": "catalogs-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn"}  # fmt: skip
    with serving([sys.executable, "-m", "scorekeeper", "serve"], cwd=clone, env=env) as server:
        request = urllib.request.Request(server.base + "/games/new", headers=GERMAN)
        with urllib.request.urlopen(request, timeout=30) as answer:
            page = answer.read().decode()
        said = server.said()
    assert '<html lang="de"' in page and "<h1>Neues Spiel</h1>" in page and "New game" not in page
    assert f"Database: {tmp_path / 'data'}" in said and "Cannot read" not in said


def test_clicks_own_words_are_in_the_hosts_language_too():
    """Usage, options, commands and errors: what click says, beside the command's own German."""
    host = {**os.environ, "LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    helped = subprocess.run([sys.executable, "-m", "scorekeeper", "--help"], env=host, capture_output=True, text=True,
                            check=True).stdout  # fmt: skip
    assert helped.startswith("Aufruf: python -m scorekeeper [OPTIONS] COMMAND [ARGS]...\n")
    assert "\nOptionen:\n" in helped and "\nBefehle:\n" in helped and "Diese Hilfe zeigen und beenden." in helped
    refused = subprocess.run([sys.executable, "-m", "scorekeeper", "restore"], env=host, capture_output=True,
                             text=True)  # fmt: skip
    assert refused.returncode == 2 and refused.stderr.splitlines() == [
        "Aufruf: python -m scorekeeper restore [OPTIONS] FILE",
        "Mehr dazu: 'python -m scorekeeper restore --help'.",
        "",
        "Fehler: Es fehlt das Argument 'FILE'.",
    ]
    missing = subprocess.run([sys.executable, "-m", "scorekeeper", "restore", "/no/such/hearts.json"], env=host,
                             capture_output=True, text=True)  # fmt: skip
    assert "Fehler: Ungültiger Wert für 'FILE': Datei '/no/such/hearts.json' gibt es nicht." in missing.stderr


def test_the_catalogs_words_of_click_are_words_click_says():
    """A click that rewords a message would leave its translation unused: click_words.py follows click."""
    said = set()
    for _file, _line, message, _comments, _context in extract_from_dir(Path(click.__file__).parent):
        said.add(message)
    assert {message[0] if len(message) == 1 else message for message in click_words.MESSAGES} <= said


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_translation_keeps_the_fields_of_a_message_in_braces(language):
    """click's messages fill {name} fields (str.format): a translation that drops or renames one fails there."""

    def fields(text: str) -> set[str]:
        return set(re.findall(r"\{[^{}]*\}", text))

    for message in catalog(language):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for index, form in enumerate(forms):
            assert fields(form) == fields(ids[min(index, len(ids) - 1)]), (message.id, form)


def test_the_words_of_the_moment_follow_the_request_and_a_forced_language(app):
    """i18n.translations, which the rules and the templates ask at each word, answers as Flask-Babel's own."""
    from flask_babel import force_locale, get_translations

    from scorekeeper import rules
    from scorekeeper.i18n.request import translations

    with as_host(app):
        assert translations() is get_translations()
        assert rules.i18n.gettext("%(name)s deals", name="Ann") == "Ann deals"
    with app.test_request_context("/", headers=GERMAN):
        first = translations()  # before Flask-Babel chose the language: its own answer, which chooses it
        assert first is get_translations() and translations() is first
        german = rules.i18n.gettext("%(name)s deals", name="Ann")
        assert german != "Ann deals" and "Ann" in german
        with force_locale("en"):
            assert translations() is get_translations()
            assert rules.i18n.gettext("%(name)s deals", name="Ann") == "Ann deals"
        assert rules.i18n.gettext("%(name)s deals", name="Ann") == german
