"""What the hostile probe of the server found (issue 23, point 8): exports that could stop the server, bodies read
whole before their limit applied, an import held whole in memory, CSV cells a spreadsheet runs as formulas."""

import csv
import io
import json
import socket
import threading
import tracemalloc
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest

from scorekeeper import rules
from scorekeeper.service import every_game, export, reader, restore
from scorekeeper.service import games as games_service
from scorekeeper.store import scope
from scorekeeper.store.db import db
from scorekeeper.web.views.history import EXPORTS_AT_ONCE

from server import running_server


def test_exports_are_written_a_few_at_a_time(table, client):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    started, go_on = threading.Barrier(EXPORTS_AT_ONCE + 1), threading.Event()

    def held_export() -> list[int]:  # a phone's export, streamed, not read until told (each its own thread)
        answer = client.get("/history/export.json")
        started.wait()
        go_on.wait()
        return json.loads(answer.get_data())["games"][0]["totals"]

    with ThreadPoolExecutor(EXPORTS_AT_ONCE) as phones:
        held = [phones.submit(held_export) for _ in range(EXPORTS_AT_ONCE)]
        started.wait()
        busy = client.get("/history/export.json")
        assert busy.status_code == 503 and busy.headers["Retry-After"] and "Other exports" in busy.get_data(True)
        assert client.get(f"/games/{table.game_id}/export.csv").status_code == 503
        assert client.get(f"/games/{table.game_id}").status_code == 200  # the table's pages go on
        go_on.set()
        assert [export.result() for export in held] == [[4, 13, 9, 0]] * EXPORTS_AT_ONCE
    assert client.get("/history/export.json").status_code == 200  # read to their end: their turns are given back
    client.get("/history/export.csv").close()  # a phone that went away before reading it gives its turn back too
    assert [client.get("/history/export.csv").status_code for _ in range(EXPORTS_AT_ONCE + 1)] == [200] * 3


def test_a_streamed_export_is_the_export(table, client):
    for players in (("Ann", "Ben", "Cat"), ("Ann", "Ben", "Cat", "Dan")):
        table.start_game(players=players)
        table.record_hand([4, 0, 9, 0][: len(players)], 1)
    document = client.get("/history/export.json").json
    assert document["format"] == "hearts-scorekeeper" and document["version"] == export.EXPORT_VERSION
    assert [game["players"] for game in document["games"]] == [["Ann", "Ben", "Cat"], ["Ann", "Ben", "Cat", "Dan"]]
    rows = list(csv.DictReader(io.StringIO(client.get("/history/export.csv").get_data(as_text=True))))
    assert len(rows) == 3 + 4 and rows[-1]["total"] == "0"


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_another_site_cannot_make_a_browser_export(table, client, site):
    table.start_game()
    for path in ("/history/export.json", f"/games/{table.game_id}/export.csv"):
        refused = client.get(path, headers={"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "no-cors"})
        assert refused.status_code == 403 and "another site" in refused.get_data(as_text=True)
        assert client.get(path, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200
        assert client.get(path, headers={"Sec-Fetch-Site": "none"}).status_code == 200  # the address typed


def test_a_name_stays_one_cell_in_a_spreadsheet_that_splits_on_semicolons(table, client):
    table.start_game(players=("a;=1+1;", "b,@SUM(A1)", 'c";=2', "Dan"))
    table.record_hand([4, 0, 9, 0], 1)
    text = client.get(f"/games/{table.game_id}/export.csv").get_data(as_text=True)
    for delimiter in (";", ","):  # German Excel splits on ";"
        cells = [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]
        assert not [cell for cell in cells if cell.startswith(export.FORMULA_STARTS)]
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["player"] for row in rows] == ["a;'=1+1;", "b,'@SUM(A1)", "c\";'=2", "Dan"]


def read(data):
    """The games of an export file, read as an import reads it."""
    return list(reader.ExportFile(io.BytesIO(data)).games())


def test_an_import_of_empty_objects_is_refused_at_the_first(app):
    data = b'{"format": "hearts-scorekeeper", "version": 1, "games": [' + b"{}," * 2_000_000 + b"{}]}"
    with app.test_request_context():
        with pytest.raises(rules.RuleError, match="Game 1 in the file"):
            read(data[:100] + b"]}")  # the catalogs loaded, before the count begins
        tracemalloc.start()
        with pytest.raises(rules.RuleError, match="Game 1 in the file"):
            read(data)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    # One game at a time, and the parser's events of one piece of the file (json.loads took 1.4 GB for 63 MB).
    assert peak < 4 * 1024 * 1024


def test_an_import_holds_at_most_so_many_games(app, monkeypatch):
    assert reader.IMPORT_GAMES_MAX == 20_000
    monkeypatch.setattr(reader, "IMPORT_GAMES_MAX", 50)  # the same check, without reading 20000 games
    game = b'{"players": ["A", "B", "C"]}'
    data = b'{"format": "hearts-scorekeeper", "games": [' + b",".join([game] * 51) + b"]}"
    with app.test_request_context(), pytest.raises(rules.RuleError, match="more than 50 games"):
        read(data)
    with app.test_request_context():
        assert len(read(data.replace(b"," + game + b"]", b"]"))) == 50


@pytest.mark.parametrize(
    "document, message",
    [
        (b'{"format": "hearts-scorekeeper", "games": [] "x": 1}', "not JSON"),
        (b'{"format": "hearts-scorekeeper", "games": []} []', "not JSON"),
        (b'{1: 2, "games": []}', "not JSON"),
        (b'{"games": [{"players": ["A", "B", "C"]}], "format": "other"}', "not a Hearts Scorekeeper export"),
        (b'["hearts-scorekeeper"]', "not a Hearts Scorekeeper export"),
        (b'{"format": "hearts-scorekeeper", "games": [{"players": ["A", "B", "C"]},]}', "not JSON"),
        (b'{"format": "hearts-scorekeeper", "games": [{"players": ["A", "B", "C"]}', "not JSON"),
        (b'{"format": "hearts-scorekeeper", "games": {}}', "no list of games"),
        (b"\xff\xfe\x00", "not JSON"),
    ],
)
def test_a_file_read_game_by_game_is_still_read_as_json(app, document, message):
    with app.test_request_context(), pytest.raises(rules.RuleError, match=message):
        read(document)


@pytest.mark.server
def test_a_body_too_large_for_its_page_is_refused_before_it_is_sent(database_url):
    """The server answers 413 as soon as it has the headers: a client that never sends the body still hears it."""
    with running_server(database_url) as server:
        address = urlsplit(server.base)
        for path, length, said in [
            ("/api/games", 64 * 1024 + 1, b'"error"'),  # the API's own JSON error
            ("/games/new", 500 * 1024 + 1, b"<!doctype html>"),
        ]:
            with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
                connection.sendall(f"POST {path} HTTP/1.1\r\nHost: {address.netloc}\r\nContent-Type: "
                                   f"application/json\r\nContent-Length: {length}\r\n\r\n{{".encode())  # fmt: skip
                answer = b""
                while chunk := connection.recv(65536):  # the server closes the connection after its answer
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 413 ") and said in answer and b"connection: close" in answer.lower()


def test_an_export_holds_a_batch_of_hands_at_a_time(app, monkeypatch):
    """Issue 41, fifth probe, H1: an export loaded 500 games at once with every hand, and one of a group of 1,475
    long games took the server from 78 MB to 451 MB. Now a walk through the games loads about BATCH_HANDS hands at
    a time: four times the hands, not four times the memory."""
    monkeypatch.setattr(every_game, "BATCH_HANDS", 500)
    moon = {"hearts": [13, 0, 0, 0], "queen": 0, "moon": {"shooter": 0, "option": "subtract"}}
    peaks = []
    with app.test_request_context():
        scope.limit_to(1)
        for count in (20, 60):  # games of 50 hands, more each round
            games = [{"players": ["A", "B", "C", "D"], "uid": uuid.uuid4().hex, "hands": [moon] * 50}
                     for _ in range(count)]  # fmt: skip
            restore.import_games(io.BytesIO(json.dumps({"format": "hearts-scorekeeper", "games": games}).encode()))
            db.session.expunge_all()
            tracemalloc.start()
            written = sum(len(part) for part in export.json_parts(games_service.all_games()))
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            db.session.expunge_all()
            assert written > count * 50 * 40
    assert peaks[1] < 1.5 * peaks[0], [f"{peak / 1e6:.1f} MB" for peak in peaks]  # 4,000 hands against 1,000


def test_an_export_holds_no_database_connection_while_it_writes(app, monkeypatch):
    """Issue 41, sixth probe, H1b: an export held its database connection for as long as it was written, so 16
    exports read slowly took the pool's 15 and every group's pages answered 500 after 30 s. Now each batch is let go
    once read: between batches, while the games go out to the phone, the export holds no connection."""
    monkeypatch.setattr(every_game, "BATCH_HANDS", 50)
    moon = {"hearts": [13, 0, 0, 0], "queen": 0, "moon": {"shooter": 0, "option": "subtract"}}
    with app.test_request_context():
        scope.limit_to(1)
        games = [{"players": ["A", "B", "C", "D"], "uid": uuid.uuid4().hex, "hands": [moon] * 50} for _ in range(3)]
        restore.import_games(io.BytesIO(json.dumps({"format": "hearts-scorekeeper", "games": games}).encode()))
        db.session.remove()
        written = export.json_parts(games_service.all_games())
        parts = [next(written)]
        while len(parts) < 1 + 3:  # each game, a batch of its own
            parts.append(next(written))
            assert not db.session().in_transaction() and db.engine.pool.checkedout() == 0
        assert json.loads("".join([*parts, *written]))["games"][2]["players"] == ["A", "B", "C", "D"]
