"""Past games, reviews, players' records, export and import, through the test client."""

import csv
import io
import json
import re

import pytest
from sqlalchemy import event, func, select, update

from scorekeeper.service import games
from scorekeeper.service.export import BACKUP_VERSION
from scorekeeper.store.db import db
from scorekeeper.store.models import Game, Hand, Player, PlayerSummary

from conftest import as_host

NIGHT = [([4, 0, 9, 0], 1), ([0, 13, 0, 0], 1, "add"), ([0, 0, 13, 0], 0), ([3, 3, 3, 4], 3)]  # 46,16,51,43


def play(table, hands, players=("Ann", "Ben", "Cat", "Dan"), **rules):
    table.start_game(players=players, **rules)
    for hearts, queen, *option in hands:
        table.record_hand(hearts, queen, **({"moon_option": option[0]} if option else {}))
    return table.game()


def test_past_games_newest_first_with_winner_totals_and_hands(table, client):
    finished = play(table, NIGHT, target=50)
    playing = play(table, [([4, 0, 9], 1)], players=("Eve", "Fay", "Gus"))
    page = client.get("/history").get_data(as_text=True)
    assert page.index("Eve · Fay · Gus") < page.index("Ann · Ben · Cat · Dan")
    assert "♛ Ben won" in page and "Ann 46, Ben 16, Cat 51, Dan 43" in page and "4 hands" in page
    assert "In progress" in page and "Eve 4, Fay 13, Gus 9" in page
    assert f'/games/{playing["id"]}"' in page  # resume
    assert f"/games/{finished['id']}/delete" in page


def test_past_games_are_paginated(table, client):
    for _ in range(23):
        table.start_game()
    first = client.get("/history").get_data(as_text=True)
    assert first.count('class="game-row"') == 20 and "Older games" in first
    link = [part.split('"')[0] for part in first.split('href="') if "before=" in part][0]
    second = client.get(link.replace("&amp;", "&")).get_data(as_text=True)
    assert second.count('class="game-row"') == 3 and "Older games" not in second
    shown = [re.findall(r'href="/games/(\d+)/review"', page) for page in (first, second)]
    assert [int(game) for game in shown[0] + shown[1]] == list(range(23, 0, -1))  # newest first, none twice


def test_past_games_filter_by_player_ignoring_case_and_spaces(table, client):
    play(table, [], players=("Ann", "Ben", "Cat"))
    play(table, [], players=("Dan", "Eve", "ann "))
    play(table, [], players=("Dan", "Eve", "Fay"))
    page = client.get("/history?player=%20ANN").get_data(as_text=True)
    assert page.count('class="game-row"') == 2
    assert "No game with a player called “Zed”." in client.get("/history?player=Zed").get_data(as_text=True)


def test_review_shows_hands_chart_and_summary(table, client):
    game = play(table, NIGHT, target=50)
    page = client.get(f"/games/{game['id']}/review").get_data(as_text=True)
    assert "♛ Ben won</strong>\nafter 4 hands" in page
    assert "Moons: Ben in hand 2 (add)." in page
    assert "Took the Q♠ most often: Ben (2 times)." in page
    assert page.count('<polyline class="series') == 4
    assert '<svg viewBox="0 0 360 220" role="img"' in page
    for name in ("Ann", "Ben", "Cat", "Dan"):
        assert f"</span>{name}</li>" in page
    assert page.count(">0♥ Q♠") == 2 and page.count(">13♥ Q♠") == 1 and page.count(">4♥ Q♠") == 1  # hands 1+3, 2, 4
    assert '☾ <span class="mark">others +26</span>' in page


def test_review_of_a_game_without_hands(table, client):
    table.start_game()
    page = client.get(f"/games/{table.game_id}/review").get_data(as_text=True)
    assert "after 0 hands" in page and page.count("<polyline") == 4


def test_players_are_matched_ignoring_case_and_spaces(table, client):
    play(table, [], players=("Ann", "Ben", "Cat"))
    play(table, [], players=("ANN ", "Ben", "Dan"))
    page = client.get("/players").get_data(as_text=True)
    assert page.count(">Ann<") + page.count(">ANN<") == 1
    assert "2 games" in page


def test_a_players_record(table, client):
    play(table, NIGHT, target=50)  # Ben wins alone: 16; Ann 46
    play(table, [([13, 0, 0, 0], 1)], players=("Ann", "Ben", "Cat", "Dan"), target=13, tie="share")  # Cat, Dan share
    play(table, [([0, 13, 0], 1, "subtract")], players=("Ben", "Ann", "Eve"))  # in progress, Ann shot the moon
    record = client.get("/players/ann").get_data(as_text=True)
    numbers = {
        "Games": 3, "Finished": 2, "Wins": 0, "Shared wins": 0, "Win rate": "0%",
        "Moons shot": 1, "Q♠ taken": 2, "Best final": 13, "Worst final": 46,
    }  # fmt: skip
    for label, value in numbers.items():
        assert f"<dt>{label}</dt><dd>{value}</dd>" in record
    assert "<dt>Points a hand</dt><dd>9.8</dd>" in record  # (46 + 13 + 0) / (4 + 1 + 1)
    cat = client.get("/players/Cat").get_data(as_text=True)
    assert "<dt>Wins</dt><dd>0</dd>" in cat and "<dt>Shared wins</dt><dd>1</dd>" in cat
    ben = client.get("/players/ben").get_data(as_text=True)
    assert "<dt>Wins</dt><dd>1</dd>" in ben and "<dt>Win rate</dt><dd>50%</dd>" in ben
    assert client.get("/players/Nobody").status_code == 404


def test_undo_and_correct_keep_the_records_in_step(table, client):
    play(table, NIGHT, target=50)
    table.undo(4)
    assert "<dt>Finished</dt><dd>0</dd>" in client.get("/players/Ben").get_data(as_text=True)
    table.correct(1, [0, 4, 9, 0], 1)
    assert "<dt>Q♠ taken</dt><dd>2</dd>" in client.get("/players/Ben").get_data(as_text=True)


def test_rebuild_records_replays_every_game(app, table, client):
    play(table, NIGHT, target=50)
    with as_host(app):
        db.session.query(Player).update({"total": 0, "won": False, "queens": 0})
        db.session.query(PlayerSummary).update({"wins": 0, "queens": 0})
        db.session.commit()
    assert "<dt>Wins</dt><dd>0</dd>" in client.get("/players/Ben").get_data(as_text=True)
    with as_host(app):
        assert games.rebuild_records() == (1, [])
    assert "<dt>Wins</dt><dd>1</dd>" in client.get("/players/Ben").get_data(as_text=True)


def test_export_one_game_as_json_and_csv(table, client):
    game = play(table, NIGHT, target=50)
    answer = client.get(f"/games/{game['id']}/export.json")
    assert answer.headers["Content-Disposition"] == f'attachment; filename="hearts-game-{game["id"]}.json"'
    assert answer.json == {"format": "hearts-scorekeeper", "version": 1, "games": [game]}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/games/{game['id']}/export.csv").get_data(as_text=True))))
    assert len(rows) == 4 * 4
    ben_moon = rows[4 + 1]
    assert (ben_moon["hand"], ben_moon["player"], ben_moon["hearts"], ben_moon["queen"]) == ("2", "Ben", "13", "1")
    assert (ben_moon["moon"], ben_moon["score"], ben_moon["total"]) == ("add", "0", "13")
    assert [row["total"] for row in rows[-4:]] == ["46", "16", "51", "43"]
    assert [row["place"] for row in rows[-4:]] == ["3", "1", "4", "2"]
    assert [row["king"] for row in rows[-4:]] == ["0", "0", "0", "0"]  # a column for every penalty card
    assert client.get(f"/games/{game['id']}/export.xml").status_code == 404


def upload(client, content, name="games.json"):
    data = {"export": (io.BytesIO(content if isinstance(content, bytes) else content.encode()), name)}
    return client.post("/history/import", data=data, content_type="multipart/form-data")


def test_a_game_twice_in_one_file_is_stored_once(table, client):
    play(table, NIGHT[:2])
    document = client.get("/history/export.json").json
    client.delete(f"/api/games/{table.game_id}")
    document["games"] *= 2
    answer = upload(client, json.dumps(document), name="merged.json")
    assert answer.status_code == 302
    assert [game["hands"] for game in client.get("/api/games").json["games"]] == [2]


def test_a_game_imported_again_with_other_hands_shows_its_own_hands(table, client):
    play(table, NIGHT[:1])
    document = client.get("/history/export.json").json
    for hearts, totals in [([4, 0, 9, 0], [4, 13, 9, 0]), ([0, 4, 9, 0], [0, 17, 9, 0])]:
        client.delete(f"/api/games/{client.get('/api/games').json['games'][0]['id']}")
        document["games"][0]["hands"][0]["hearts"] = hearts  # the same uid and updated_at each time
        assert upload(client, json.dumps(document)).status_code == 302
        imported = client.get("/api/games").json["games"][0]
        assert client.get(f"/api/games/{imported['id']}").json["totals"] == imported["totals"] == totals


def test_an_export_from_before_black_maria_imports_with_the_rules_it_was_played_by(table, client):
    play(table, [([4, 0, 9, 0], 1), ([13, 0, 0, 0], 0, "subtract")])  # Ann's 4 points: the moon stops at 0
    document = client.get("/history/export.json").json
    client.delete(f"/api/games/{table.game_id}")
    old = document["games"][0]
    for key in ("subtract_floor", "black_maria"):
        del old["rules"][key]
    del old["places"]
    assert upload(client, json.dumps(document)).status_code == 302
    imported = client.get(f"/api/games/{client.get('/api/games').json['games'][0]['id']}").json
    assert imported["totals"] == [0, 13, 9, 0] and imported["uid"] == old["uid"]
    assert (imported["rules"]["subtract_floor"], imported["rules"]["black_maria"]) == (True, False)


@pytest.mark.parametrize(
    "moment", ["9999-12-31T23:59:59.999999Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"]
)
def test_an_impossible_date_imports_as_undated(client, moment):
    game = {"players": ["Ann", "Ben", "Cat"], "created_at": moment, "updated_at": moment}
    answer = upload(client, json.dumps({"format": "hearts-scorekeeper", "version": 1, "games": [game]}))
    assert answer.status_code == 302
    stored = client.get("/api/games").json["games"][0]
    assert stored["created_at"][:4] not in ("0001", "9999") and stored["updated_at"][:4] not in ("0001", "9999")
    assert client.get("/").status_code == 200


def without_ids(document):
    return [{k: v for k, v in game.items() if k not in ("id", "updated_at")} for game in document["games"]]


def test_a_backup_restores_the_same_games_and_a_second_restore_changes_nothing(table, client):
    play(table, NIGHT, target=50)
    play(table, [([13, 0, 0], 0, "add"), ([0, 0, 13], 2, "subtract")], players=("Eve", "Fay", "Gus"), moon="choose")
    play(table, [([13, 0, 0, 0], 0), ([0, 13, 0, 0], 1)], sun=True, moon="add", omnibus=False)
    play(table, [([12, 0, 1, 0], 0)] * 2, target=50, exact_reset=True)  # Ann 25, then 50: back to 0
    backup = client.get("/history/export.json").json
    assert backup["games"][-1]["rules"]["exact_reset"] and backup["games"][-1]["totals"] == [0, 0, 2, 0]
    for game in backup["games"]:
        assert client.delete(f"/api/games/{game['id']}").status_code == 204
    answer = upload(client, json.dumps(backup))
    assert answer.status_code == 302
    assert "Imported 4 games." in client.get(answer.headers["Location"]).get_data(as_text=True)
    restored = client.get("/history/export.json").json
    assert without_ids(restored) == without_ids(backup)  # the same games, their uids included
    assert {game["id"] for game in restored["games"]}.isdisjoint(game["id"] for game in backup["games"])
    again = upload(client, json.dumps(backup))
    assert "Imported 0 games; 4 were already here." in client.get(again.headers["Location"]).get_data(as_text=True)
    assert client.get("/history/export.json").json == restored


BAD_FILES = [
    (b"\x89PNG not json", "This file is not JSON"),
    ('{"games": []}', "This file is not a Hearts Scorekeeper export."),
    ('{"format": "hearts-scorekeeper", "games": 3}', "This export has no list of games."),
    ('{"format": "hearts-scorekeeper", "games": [{"players": ["Ann"]}]}', "Game 1 in the file: Hearts needs 3 to 5"),
    (
        json.dumps(
            {"format": "hearts-scorekeeper", "version": BACKUP_VERSION + 1, "games": [{"players": ["A", "B", "C"]}]}
        ),
        f"This export is in version {BACKUP_VERSION + 1} of the format, newer than this app reads (version "
        f"{BACKUP_VERSION} and older): update the app to one that reads version {BACKUP_VERSION + 1}, then import "
        "the file again.",
    ),
]


@pytest.mark.parametrize("content, message", BAD_FILES)
def test_bad_files_are_refused_with_a_clear_message(client, content, message):
    answer = upload(client, content)
    assert answer.status_code == 422 and message in answer.get_data(as_text=True)
    assert client.get("/api/games").json["games"] == []


def test_a_broken_hand_imports_nothing(table, client):
    play(table, NIGHT[:2])
    document = client.get("/history/export.json").json
    second = json.loads(json.dumps(document["games"][0]))
    second["hands"][1]["hearts"] = [0, 12, 0, 0]
    document["games"].append(second)
    answer = upload(client, json.dumps(document))
    page = answer.get_data(as_text=True)
    assert "Nothing was imported. Game 2 in the file: hand 2: The hearts add up to 12, not 13" in page
    assert len(client.get("/api/games").json["games"]) == 1


def test_import_needs_a_file(client):
    answer = client.post("/history/import", data={}, content_type="multipart/form-data")
    assert answer.status_code == 422 and "Choose the export file to import." in answer.get_data(as_text=True)


def test_delete_asks_first_and_names_the_game(table, client):
    game = play(table, NIGHT[:1])
    page = client.get(f"/games/{game['id']}/delete").get_data(as_text=True)
    assert "Yes, delete the game of Ann, Ben, Cat, Dan" in page
    assert client.get(f"/api/games/{game['id']}").status_code == 200
    answer = client.post(f"/games/{game['id']}/delete", follow_redirects=True)
    assert "The game of Ann, Ben, Cat, Dan was deleted." in answer.get_data(as_text=True)
    assert client.get(f"/api/games/{game['id']}").status_code == 404


def test_a_hand_adds_to_its_four_players_records_in_one_statement(app, table):
    table.start_game()
    statements = []
    with as_host(app):
        engine = db.engine

    def note(_connection, _cursor, statement, *_rest):
        if "player_summaries" in statement and not statement.lstrip().upper().startswith("SELECT"):
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        table.record_hand([4, 0, 9, 0], 1)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert len(statements) == 1
    with as_host(app):
        assert sorted(db.session.scalars(select(PlayerSummary.points))) == [0, 4, 9, 13]
        db.session.remove()


def test_a_list_of_games_reads_no_hand_and_says_what_the_replay_says(app, table, client):
    """Seventh and eighth probes: a group's phones asking for lists of 100 long games, each at a page of its own,
    replayed every hand of each game each time (up to 18 s a list beside others). A list now reads what the rows
    keep of each game's replay (each seat's total, hands and win), and no hand; it says what the game's replay says."""
    over = play(table, NIGHT, target=50)
    shared = play(table, [([13, 0, 0, 0], 1)], target=13, tie="share")  # 13, 13, 0, 0: two share the win
    playing = play(table, [([4, 0, 9, 0], 1)], players=("Eve", "Fay", "Gus", "Hal"))
    fresh = table.start_game(players=("Ivy", "Jo", "Kai"))
    with as_host(app):  # each game changed by another process: none is kept here at its version
        db.session.execute(update(Game).values(updated_at=func.now()))
        db.session.commit()
        db.session.remove()
    hands_read = []

    def note(hand, _context):
        hands_read.append(hand.game_id)

    event.listen(Hand, "load", note)
    try:
        listed = client.get("/api/games").json["games"]
        home, history = client.get("/").get_data(as_text=True), client.get("/history").get_data(as_text=True)
    finally:
        event.remove(Hand, "load", note)
    assert hands_read == []
    assert [game["id"] for game in listed] == [fresh["id"], playing["id"], shared["id"], over["id"]]
    for summary in listed:
        whole = client.get(f"/api/games/{summary['id']}").json  # the game replayed
        assert summary == {**{key: whole[key] for key in summary}, "hands": len(whole["hands"])}
    assert [summary["winners"] for summary in listed] == [[], [], [2, 3], [1]]
    assert "Hal leads with 0" in home and "hand 2 next" in home
    assert "Ann 46, Ben 16, Cat 51, Dan 43" in history
