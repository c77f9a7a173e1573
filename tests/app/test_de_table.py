"""The table's pages in German: the new-game form, home, the table page, a correction, game over, the follow view."""

import re
from html import unescape

import pytest
from browser import ALIKE_NAMES, SMALL_PHONE, tap_count
from playwright.sync_api import Browser, expect
from test_browser_names import SHOWN_TEXTS
from test_i18n import GERMAN

FIVE = tuple(ALIKE_NAMES)  # the longest German words meet the longest names alike


def shown(answer) -> str:
    """What a page says, to eyes or to a screen reader: its text and its labels, tags and scripts left out."""
    page = re.sub(r"<script.*?</script>|<style.*?</style>", " ", answer.get_data(as_text=True), flags=re.DOTALL)
    labels = re.findall(r'(?:aria-label|alt|title|data-label)="([^"]*)"', page)
    return re.sub(r"\s+", " ", unescape(" ".join([re.sub(r"<[^>]+>", "", page), *labels])))


def says(answer, german: str, english: str) -> None:
    """The page shows every German phrase and none of the English ones (each list split at " | ")."""
    words = shown(answer)
    assert [phrase for phrase in german.split(" | ") if phrase not in words] == []
    assert [phrase for phrase in english.split(" | ") if phrase in words] == []


def test_the_new_game_form_is_german(client):
    says(
        client.get("/games/new", headers=GERMAN),
        "Neues Spiel | Spieler im Uhrzeigersinn | 3 bis 5 Spieler. Für weniger lass die letzten Felder"
        " leer. | Spieler 5 | Wer gibt zuerst | Hausregeln | Was jede Hausregel bedeutet | Vorlagen | Spielen bis"
        " | Das Spiel endet, sobald jemand diese Punktzahl erreicht | Anderes Ziel (10 bis 1000) | Weitergeben"
        " | Mondschuss | Gleichstand bei den wenigsten Punkten am Ende | Extras | Spiel starten",
        "New game | Players, in clockwise | Player 1 | Who deals first | House rules | What each | Start from"
        " | Play to | The game ends | Other | Passing | Shooting the moon | A tie for | Start the game | players.",
    )


def test_a_refused_new_game_form_stays_german(client, table):
    table.start_game()  # a last game: its players offered, its rules filled in
    answer = client.post("/games/new", data={"players-0": "Ann", "target": "100"}, headers=GERMAN)
    assert answer.status_code == 422
    says(answer, "Wieder dieselben Spieler | Hearts braucht 3 bis 5 Spieler, nicht 1.", "Same players")
    filled = client.get("/games/new", headers=GERMAN)
    says(filled, "Unten schon eingetragen: die Hausregeln des letzten Spiels.", "Filled in below")


def test_home_is_german(client, table):
    says(client.get("/", headers=GERMAN), "Gerade läuft kein Spiel.", "No game in progress")
    table.start_game(("Ann", "Ben", "Cat"), target=20)
    table.record_hand([5, 4, 4], 2)
    table.record_hand([5, 4, 4], 2)
    table.start_game()
    says(
        client.get("/", headers=GERMAN),
        "Neues Spiel starten | Laufende Spiele | als Nächstes Runde 1 | Zuletzt beendet | Sieg: Ben | Frühere Spiele"
        " | Leeres Punkteblatt drucken | Die Regeln, nach denen die App zählt",
        "Start a new game | Games in progress | next | Recently finished | Won by | Past games | Print a blank"
        " | The rules the app keeps",
    )


def test_the_table_page_is_german(client, table):
    table.start_game(FIVE, black_maria=True, omnibus=True, sun=True)
    table.record_hand([13, 0, 0, 0, 0], 0, jack=1, king=0, ace=0, moon_option="add")
    table.record_hand([3, 3, 3, 3, 1], 1, jack=2, king=3, ace=4)
    says(
        client.get(f"/games/{table.game_id}", headers=GERMAN),
        "Runde 3 · Alexandra, Alexander | Punkteblatt | Punktestand | ♛ vorn | noch 44 | Nächste Runde | Runde 3"
        " | Christina gibt | behalten: kein Weitergeben | Runde 3 eintragen | Herzen genommen von Alexandra"
        " | Wer hat alle Stiche gemacht (Sonnenschuss) | Niemand | Mondschuss von"
        " | Wähle die Wertung | ★ empfohlen | Punktestand: | Runde speichern"
        " | Auf anderen Handys mitverfolgen | Scanne diesen Code oder öffne http://localhost/f/"
        " | QR-Code für http://localhost/f/ | Bisherige Runden | Runde 2 rückgängig machen"
        " | Runde 2 mit ihren Punkten löschen? Das lässt sich nicht rückgängig machen. | Ja, Runde 2 löschen"
        " | Korrigieren | ✎ | Runde 1 korrigieren | hat den Mond geschossen",
        "Hand 3 | Score sheet | Totals | leads | to go | Next hand | deals | pass | Record hand | Hearts taken by"
        " | every trick | Nobody | shot the | Choose the moon | advised | Save hand | Follow on | scan this code"
        " | QR code | so far | Undo | undo | Delete | Fix | Correct",
    )


def test_the_way_to_pass_and_who_passes_to_whom_are_german(client, table):
    table.start_game()
    answer = client.get(f"/games/{table.game_id}", headers=GERMAN)
    assert '<span aria-hidden="true">←</span> links weitergeben' in answer.get_data(as_text=True)
    says(answer, "Ann gibt | 3 Karten nach links weitergeben", "pass | deals")
    board = client.get(f"/games/{table.game_id}/follow/board", headers=GERMAN)
    says(board, "Karten an Ben | Karten an Ann", "passes to")  # the table display's cards


def test_a_fixed_moon_rule_is_said_in_german(client, table):
    table.start_game(moon="subtract")
    says(client.get(f"/games/{table.game_id}", headers=GERMAN), "Hausregel: der Schütze", "House rule")


def test_a_correction_is_german(client, table):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    says(
        client.get(f"/games/{table.game_id}/hands/1", headers=GERMAN),
        "Runde 1 korrigieren | Ändere, wer was genommen hat; jeder Punktestand ab dieser Runde wird neu berechnet."
        " | Korrektur speichern | Vorher und nachher | Spieler | Stand jetzt | Neuen Punktestand zeigen | Abbrechen",
        "Correct hand | Change what | Save | Before and after | Player | Total now | Show the new totals | Cancel",
    )
    facts = {"number": "1", "hearts-0": "4", "hearts-1": "1", "hearts-2": "8", "hearts-3": "0", "queen": "1"}
    preview = client.post(f"/games/{table.game_id}/hands/1", data={**facts, "preview": "1"}, headers=GERMAN)
    says(preview, "Vorher und nachher | Korrektur speichern", "Before and after")


@pytest.mark.parametrize(
    ("rules", "hands", "winners"),
    [
        ({"target": 20}, [([5, 4, 4], 2), ([5, 4, 4], 2)], "Ben gewinnt!"),
        ({"target": 20, "tie": "share"}, [([5, 4, 4], 1), ([3, 6, 4], 1)], "Ann und Cat teilen sich den Sieg!"),
    ],
)
def test_game_over_is_german(client, table, rules, hands, winners):
    table.start_game(("Ann", "Ben", "Cat"), **rules)
    for hearts, queen in hands:
        table.record_hand(hearts, queen)
    says(
        client.get(f"/games/{table.game_id}", headers=GERMAN),
        f"{winners} | Spiel vorbei · Ann, Ben, Cat | Ergebnis | Spiel vorbei nach 2 Runden (gespielt bis 20)."
        " | Endstand | Punkteblatt drucken | Revanche: gleiche Spieler und Regeln | Startseite",
        "Game over | Result | wins | share the win | Final totals | Print | Rematch | Home | hands",
    )
    says(client.get(f"/games/{table.game_id}/follow", headers=GERMAN), winners, "wins | share")


def test_one_hand_is_said_in_the_singular(client, table):
    table.start_game(("Ann", "Ben", "Cat"), target=10)
    table.record_hand([0, 0, 13], 0)
    says(
        client.get(f"/games/{table.game_id}", headers=GERMAN),
        "Spiel vorbei nach 1 Runde (gespielt bis 10).",
        "1 Runden",
    )


def test_the_follow_view_is_german(client, table):
    table.start_game(FIVE)
    table.record_hand([4, 0, 9, 0, 0], 1)
    says(
        client.get(f"/games/{table.game_id}/follow", headers=GERMAN),
        "Mitverfolgen · Alexandra | Du verfolgst dieses Spiel mit: Die Punkte kommen von selbst. Halte das Handy"
        " quer für die große Tischanzeige. | Punktestand | Runde 2 | Alexander gibt | Bisherige Runden | weitergeben",
        "Following | Turn the screen | Totals | Hand 2 | deals | so far | pass | Fix",
    )


def test_the_english_pages_keep_their_words(client, table):
    table.start_game()
    page = shown(client.get(f"/games/{table.game_id}"))
    assert all(phrase in page for phrase in ["Hand 1", "Ann deals", "pass", "left", "Save hand", "Hearts taken by Ann"])
    assert "Runde" not in page


def test_a_moon_waiting_for_its_option_is_german(client, table):
    table.start_game()
    facts = {"number": "1", "hearts-0": "0", "hearts-1": "13", "hearts-2": "0", "hearts-3": "0", "queen": "1"}
    answer = client.post(f"/games/{table.game_id}/hands", data=facts, headers=GERMAN)
    assert answer.status_code == 422
    says(
        answer,
        "Mondschuss von Ben! | Wähle die Wertung | Alle anderen +26 | ★ empfohlen | Punktestand: Ann 26, Ben 0",
        "shot the moon | Choose | advised | Totals",
    )


def test_the_forms_own_words_are_german_where_other_pages_show_them(client):
    """The blank sheet's choices and the import's message are the form's (forms.py), on pages of their own."""
    refused = client.post("/history/import", data={}, content_type="multipart/form-data", headers=GERMAN)
    assert refused.status_code == 422
    says(refused, "Wähle die Exportdatei, die du importieren willst.", "Choose the export file")
    blank = client.get("/sheets/blank", headers=GERMAN)
    says(blank, "Papier | US-Letter | Namen im Uhrzeigersinn, durch Kommas getrennt", "Paper | US Letter | Names,")


# A German phone: its browser asks for German, as a phone set to German does.
GERMAN_PHONE = {**SMALL_PHONE, "locale": "de-DE", "extra_http_headers": GERMAN}
PHONE_PAGES = [("/games/{game}", 360, 740), ("/games/{game}/follow", 740, 360), ("/games/{game}/follow", 360, 740),
               ("/games/{game}/hands/2", 360, 740), ("/games/{over}", 360, 740), ("/games/new", 360, 740),
               ("/", 360, 740)]  # fmt: skip


@pytest.fixture
def evening(table):
    """Five long, alike names, sun, Omnibus and Black Maria on, three hands in; and a game over beside it."""
    table.start_game(("Ann", "Ben", "Cat"), target=20, tie="share")
    table.record_hand([5, 4, 4], 1)
    table.record_hand([3, 6, 4], 1)
    over = table.game_id
    table.start_game(FIVE, sun=True, omnibus=True, black_maria=True)
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]:
        table.record_hand(hearts, queen, jack=2, king=3, ace=1)
    return {"game": table.game_id, "over": over}


@pytest.mark.browser
@pytest.mark.parametrize(("path", "width", "height"), PHONE_PAGES, ids=[f"{p}-{w}x{h}" for p, w, h in PHONE_PAGES])
def test_german_fits_the_phone_upright_and_sideways(browser: Browser, live_server, evening, path, width, height):
    context = browser.new_context(**{**GERMAN_PHONE, "viewport": {"width": width, "height": height}})
    page = context.new_page()
    page.goto(live_server + path.format(**evening))
    expect(page.locator("html")).to_have_attribute("lang", "de")
    cut = [f"{shown['text']!r} cut by {shown['cutBy']}" for shown in page.evaluate(SHOWN_TEXTS, [""]) if shown["cutBy"]]
    wider = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    board = page.evaluate("() => [...document.querySelectorAll('#board .scoreboard li, #board .next-hand')]"
                          ".map(box => box.getBoundingClientRect().bottom)")  # fmt: skip
    context.close()
    assert cut == [] and wider == 0
    if width > height:  # the table display: every card and the next hand on one screen, no scrolling
        assert board and max(board) <= height


@pytest.mark.browser
def test_a_german_moon_takes_the_same_four_taps(browser: Browser, live_server, table):
    table.start_game(FIVE[:4])
    context = browser.new_context(**GERMAN_PHONE)
    page = context.new_page()
    page.goto(f"{live_server}/games/{table.game_id}")
    tap_count(page.get_by_role("group", name="Herzen genommen von Alexander"), 13)  # "7+", then 13
    page.locator("#queen .chip-row > label").nth(1).click()  # Alexander, his name cut to the room: the second chip
    panel = page.locator("#moon-panel")
    expect(panel).to_contain_text("Mondschuss von Alexander!")
    expect(panel.locator('[data-advised="add"]')).to_have_text("★ empfohlen")
    page.get_by_role("button", name="Runde speichern · andere +26").click()
    expect(page.locator(".next-hand h1")).to_contain_text("Runde 2")
    expect(page.locator('[data-total="0"]')).to_have_text("26")
    context.close()
