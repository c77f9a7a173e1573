"""Looking back in German: past games, players, a record, review, delete, import, both score sheets, every view's
flashes and errors, dates in the page's language, and what the command tells a German host."""

import io
import json
import os
import subprocess
import sys
from datetime import UTC, datetime

import pytest
from babel.dates import format_date
from click.testing import CliRunner
from printing import need_poppler, pdf_info, pdf_text

from scorekeeper.cli.lan import banner
from scorekeeper.cli.main import main

GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
NIGHT = [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1, "add"), ([0, 0, 13, 0], 0), ([3, 3, 3, 4], 3)]  # 46, 16, 51, 43
LONG_NAMES = ["Christina", "Christopher", "Alexandra", "Bartholomew", "Maximilian"]


def play(table, hands, players=("Ann", "Ben", "Cat", "Dan"), **rules):
    table.start_game(players=players, **rules)
    for hearts, queen, *option in hands:
        table.record_hand(hearts, queen, **({"moon_option": option[0]} if option else {}))
    return table.game()


def german(client, url, status=200, **more):
    answer = client.get(url, headers=GERMAN, **more)
    assert answer.status_code == status, answer.status_code
    page = answer.get_data(as_text=True)
    assert '<html lang="de">' in page
    return page


def assert_german(page, said, gone):
    for words in said:
        assert words in page, words
    for words in gone:
        assert words not in page, words


def today(form):
    """Today in German, as the server's local time has it (a game started now)."""
    return format_date(datetime.now(UTC).astimezone().date(), form, locale="de")


def test_past_games_and_players_in_german(table, client):
    play(table, NIGHT)
    play(table, [([4, 0, 9, 0], 1)], players=("Eve", "Fay", "Gus", "Hal"))
    page = german(client, "/history")
    said = ["Frühere Spiele", "Spiele mit dem Spieler", "Filtern", ": Ann 46, Ben 16, Cat 51, Dan 43", "4 Runden",
            "Läuft: Eve 4", "Weiterspielen", "Punkteblatt", "Löschen", "Spieler und ihre Statistik",
            "Alle Spiele exportieren (JSON)", "Spiele aus einem JSON-Export importieren"]  # fmt: skip
    assert_german(page, said, ["Past games", "In progress", "Resume", "Score sheet", "hands", "Export all games"])
    short = format_date(datetime.now(UTC).astimezone().date(), "EEE", locale="de")  # "Mo.": the weekday, German
    assert f"{short}, " in page
    assert "Kein Spiel mit einem Spieler namens „Zed“." in german(client, "/history?player=Zed")
    players = german(client, "/players")
    assert_german(players, ["<h1>Spieler</h1>", "1 Spiel<"], ["Players", " game<"])


def test_a_players_record_in_german(table, client):
    play(table, NIGHT, target=50)
    page = german(client, "/players/Ben")
    said = ["Siegquote", "100\u00a0%", "Punkte je Runde", "Mondschüsse", "Pik-Dame genommen", "Bester Endstand",
            "Letzte Spiele", "Alle Spiele mit Ben"]  # fmt: skip
    assert_german(page, said, ["Win rate", "Points a hand", "Recent games", "All games with"])
    assert "4,0" in page  # Ben's 16 points over 4 hands, with a German decimal comma
    assert "Kein Spiel hat einen Spieler namens „Zed“." in german(client, "/players/Zed", 404)


def test_a_review_in_german_with_the_date_in_full(table, client):
    game = play(table, NIGHT, target=50)
    page = german(client, f"/games/{game['id']}/review")
    said = [f"{today('full')} · gespielt bis 50", "</strong>\nnach 4 Runden.",
            "Mondschüsse: Ben in Runde 2 (addieren).", "Am häufigsten die Pik-Dame genommen: Ben (2-mal).",
            "Der Punktestand jedes Spielers nach jeder Runde", "Ziel 50", "Runde für Runde", "Exportieren (JSON)",
            "Dieses Spiel löschen"]  # fmt: skip
    gone = ["Moons:", "Took the Q♠", "Hand by hand", "played to", "target 50", "Delete this game", "Score sheet"]
    assert_german(page, said, gone)
    assert "Mondschüsse: keine." in german(client, f"/games/{play(table, [])['id']}/review")
    shot = play(table, [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1, "subtract")])  # Ben 13, then down to 0
    assert "<small>−13</small>" in german(client, f"/games/{shot['id']}/review")  # a real minus sign


def test_deleting_a_game_in_german(table, client):
    game = play(table, NIGHT, target=50)
    page = german(client, f"/games/{game['id']}/delete")
    said = ["Dieses Spiel löschen?", f"vom {today('full')}, 4 Runden, gewonnen von Ben.",
            "Es lässt sich nicht zurückholen", "Ja, das Spiel von Ann, Ben, Cat, Dan löschen", "Behalten"]  # fmt: skip
    assert_german(page, said, ["Delete this game?", "Keep it", "It cannot be brought back"])
    answer = client.post(f"/games/{game['id']}/delete", headers=GERMAN, follow_redirects=True)
    assert "Das Spiel von Ann, Ben, Cat, Dan wurde gelöscht." in answer.get_data(as_text=True)


def upload(client, content):
    data = {"export": (io.BytesIO(content.encode()), "games.json")}
    return client.post("/history/import", data=data, content_type="multipart/form-data", headers=GERMAN,
                       follow_redirects=True)  # fmt: skip


def test_importing_in_german(table, client):
    page = german(client, "/history/import")
    said = ["Spiele importieren", "„Alle Spiele exportieren“", "Wähle die Exportdatei", "Importieren"]
    assert_german(page, said[:2] + said[3:], ["Import games", "Choose a JSON export", ">Import<"])
    play(table, NIGHT)
    backup = client.get("/history/export.json").get_data(as_text=True)
    assert "0 Spiele importiert; 1 war schon da." in upload(client, backup).get_data(as_text=True)
    client.delete("/api/games/1")
    assert "1 Spiel importiert." in upload(client, backup).get_data(as_text=True)
    broken = json.loads(backup)
    broken["games"][0]["hands"][0]["hearts"] = [4, 0, 8, 0]
    refused = upload(client, json.dumps(broken)).get_data(as_text=True)
    assert "Nichts wurde importiert. Spiel 1 der Datei: Runde 1: Die Herzen ergeben 12, nicht 13" in refused
    assert "Diese Datei ist kein Export des Hearts Scorekeepers." in upload(client, "{}").get_data(as_text=True)


def test_the_table_pages_flashes_and_errors_in_german(table, client):
    game = table.start_game()
    hand = {"number": "1", "hearts-0": "4", "hearts-1": "0", "hearts-2": "9", "hearts-3": "0", "queen": "1"}
    saved = client.post(f"/games/{game['id']}/hands", data=hand, headers=GERMAN, follow_redirects=True)
    assert "Runde 1 gespeichert." in saved.get_data(as_text=True)
    undone = client.post(f"/games/{game['id']}/undo", data={"number": "1"}, headers=GERMAN, follow_redirects=True)
    assert "Runde 1 wurde rückgängig gemacht." in undone.get_data(as_text=True)
    missing = german(client, f"/games/{game['id']}/hands/7", 404)
    assert f"Spiel {game['id']} hat keine Runde 7." in missing
    assert_german(
        german(client, "/games/999/review", 404), ["Nicht gefunden", "Es gibt kein Spiel 999."], ["Not found"]
    )
    home = german(client, "/")
    since = f"Seit {format_date(datetime.now(UTC).astimezone(), 'EEE', locale='de')}"
    assert_german(home, ["Noch nicht begonnen: noch keine Runde gespielt", since], ["Not begun", "Started"])


def test_the_apis_own_errors_in_german(table, client):
    answer = client.get("/api/games?limit=0", headers=GERMAN)
    assert answer.status_code == 422
    assert answer.json["error"] == "„limit“ muss eine ganze Zahl von 1 bis 100 sein."
    not_json = client.post("/api/games", data="x", headers=GERMAN)
    assert not_json.json["error"] == "Schicke den Inhalt als JSON, mit Content-Type: application/json."
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    table.record_hand([4, 0, 9, 0], 1)
    undo = client.delete(f"/api/games/{table.game_id}/hands/1", headers=GERMAN)
    assert undo.json["error"] == "Nur die letzte Runde (Runde 2) lässt sich rückgängig machen, nicht Runde 1."
    missing = client.delete(f"/api/games/{table.game_id}/hands/5", headers=GERMAN)
    assert missing.status_code == 404 and missing.json["error"] == f"Spiel {table.game_id} hat keine Runde 5."


def test_a_blank_sheet_in_german(client):
    page = german(client, "/sheets/blank?players=5&names=Ann,Ben,Cat,Dan,Eve")
    said = [
        "Leeres Punkteblatt",
        "Hearts-Punkteblatt",
        "Datum:",
        "Ort:",
        ">Runde</th>",
        ">Gibt</th>",
        ">Stand<",
        'data-short="St."',
        "Wertung",
        "Hausregeln ▾",
        "Blatt aktualisieren",
        "Drucken",
        "/sheets/de/pages.css",
    ]
    gone = ["Blank score sheet", "Hearts score sheet", "Date:", ">Deals<", ">total<", "Scoring", "Update the sheet"]
    assert_german(page, said, gone)
    margins = client.get("/sheets/de/pages.css").get_data(as_text=True)
    assert '"Seite " counter(page) " von " counter(pages) ""' in margins and "Fortsetzung" in margins
    assert '"page " counter(page) " of "' in client.get("/sheets/en/pages.css").get_data(as_text=True)
    assert client.get("/sheets/xx/pages.css").status_code == 404


def test_a_filled_sheet_in_german_with_the_date_in_words(table, client):
    game = play(table, NIGHT[:2])
    page = german(client, f"/games/{game['id']}/sheet")
    said = [f"Datum: {today('long')}", "Läuft nach 2 Runden", "Zurück zum Spiel", "Punkteblatt · Ann, Ben, Cat, Dan"]
    assert_german(page, said, ["In progress after", "Back to the game", "Score sheet"])


def german_host(monkeypatch):
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")


def test_a_german_hosts_commands_speak_german(table, client, tmp_path, monkeypatch):
    german_host(monkeypatch)
    play(table, NIGHT)
    instance = tmp_path / "night"
    env = {
        "SCOREKEEPER_INSTANCE": str(instance),
        "DATABASE_URL": "",
        "SECRET_KEY": "test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc",
        "LANG": "de_DE.UTF-8",
    }
    checked = CliRunner().invoke(main, ["check"], env=env)
    assert checked.exit_code == 1 and "Unter " in checked.output and "gibt es keine Datenbank" in checked.output
    backup = tmp_path / "export.json"
    backup.write_text(client.get("/history/export.json").get_data(as_text=True))
    restored = CliRunner().invoke(main, ["restore", str(backup)], env=env)
    assert restored.exit_code == 0 and "1 Spiel aus" in restored.output and "wiederhergestellt." in restored.output
    assert "Datenordner:" in restored.output
    checked = CliRunner().invoke(main, ["check"], env=env)
    assert checked.exit_code == 0 and "1 Spiel geprüft: Es lässt sich nachspielen" in checked.output
    written = CliRunner().invoke(main, ["backup", str(tmp_path / "copy.sqlite")], env=env)
    assert written.exit_code == 0 and "SQLite-Datenbank nach" in written.output


def test_the_serve_banner_in_the_hosts_language(app, monkeypatch):
    german_host(monkeypatch)
    said = banner(app, [("127.0.0.1", 5000)], behind_proxy=False)
    assert "Datenordner:" in said and "Lauscht auf http://127.0.0.1:5000/" in said and "(Strg+C beendet" in said
    assert "Hearts Scorekeeper läuft nur für diesen Rechner" in said and "Listening" not in said


def test_the_follow_board_is_kept_for_each_language(table, client):
    game = play(table, NIGHT[:1])
    board = f"/games/{game['id']}/follow/board"
    english = client.get(board).get_data(as_text=True)
    assert client.get(board, headers=GERMAN).get_data(as_text=True) != english
    assert client.get(board).get_data(as_text=True) == english


@pytest.fixture
def german_printer(browser):
    need_poppler()
    context = browser.new_context(locale="de-DE", extra_http_headers=GERMAN)
    yield context.new_page()
    context.close()


@pytest.mark.browser
def test_a_german_five_player_game_prints_german_on_one_a4_page(german_printer, live_server, table, tmp_path):
    table.start_game(players=LONG_NAMES, moon="choose", black_maria=True)
    for hearts, queen, king, ace, *option in [
        ([4, 0, 9, 0, 0], 1, 2, 3), ([2, 3, 4, 4, 0], 4, 0, 1), ([0, 0, 13, 0, 0], 2, 2, 2, "subtract"),
        ([0, 0, 1, 12, 0], 0, 1, 4), ([5, 2, 2, 2, 2], 3, 3, 3),
    ]:  # fmt: skip
        table.record_hand(hearts, queen, king=king, ace=ace, **({"moon_option": option[0]} if option else {}))
    pdf = tmp_path / "deutsch.pdf"
    german_printer.goto(f"{live_server}/games/{table.game_id}/sheet?paper=a4")
    german_printer.pdf(path=str(pdf), prefer_css_page_size=True)
    info = pdf_info(pdf)
    assert info["Pages"] == "1" and "(A4)" in info["Page size"]
    text = " ".join(pdf_text(pdf).split())
    said = ["Hearts-Punkteblatt", f"Datum: {today('long')}", "Runde", "Gibt", "Läuft nach 5 Runden", "Wertung",
            "Seite 1 von 1", *LONG_NAMES]  # fmt: skip
    assert_german(text, said, ["score sheet", "Scoring", "In progress", "page 1", "Deals", "Date:", "…", "English"])


def test_the_commands_help_in_the_hosts_language():
    """The help is said when the command starts: in a process of its own, as a host runs it."""
    host = {**os.environ, "LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    said = subprocess.run([sys.executable, "-m", "scorekeeper", "backup", "--help"], env=host, capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    assert "Eine stimmige Kopie aller Spiele nach FILE schreiben" in said and "consistent copy" not in said


@pytest.mark.browser
@pytest.mark.parametrize("paper, size", [("a4", "(A4)"), ("letter", "(letter)")])
def test_a_german_blank_sheet_for_five_prints_german_on_one_page(german_printer, live_server, tmp_path, paper, size):
    names = ",".join(LONG_NAMES)
    german_printer.goto(f"{live_server}/sheets/blank?players=5&paper={paper}&names={names}&sun=on&omnibus=on")
    pdf = tmp_path / "leer.pdf"
    german_printer.pdf(path=str(pdf), prefer_css_page_size=True)
    info = pdf_info(pdf)
    assert info["Pages"] == "1" and size in info["Page size"]
    text = " ".join(pdf_text(pdf).split())
    said = ["Hearts-Punkteblatt", "Datum:", "Ort:", "Gibt", "Stand", "Wertung", "Seite 1 von 1", *LONG_NAMES]
    assert_german(text, said, ["score sheet", "Scoring", "Date:", "Place:", "page 1", "English", "Drucken"])
