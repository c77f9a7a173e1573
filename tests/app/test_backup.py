"""`scorekeeper backup` of a server at work, `restore` into an empty instance, and the records' upkeep."""

import io
import json
import os
import sqlite3
import stat
import threading
from contextlib import closing
from datetime import datetime

import pytest
from click.testing import CliRunner
from sqlalchemy import update

from scorekeeper.cli.data import export_of_sqlite
from scorekeeper.cli.main import main
from scorekeeper.service.export import BACKUP_VERSION
from scorekeeper.store import models
from scorekeeper.store.db import db

from conftest import as_host
from server import call, running_server

# Eight hands that bring every total back to 0, so that a game never ends however long the posting
# runs: each seat takes 26 points over the first four, then shoots the moon and subtracts them.
HANDS = [
    {"hearts": [0, 4, 5, 4], "queen": 0},
    {"hearts": [4, 0, 4, 5], "queen": 1},
    {"hearts": [5, 4, 0, 4], "queen": 2},
    {"hearts": [4, 5, 4, 0], "queen": 3},
    *(
        {"hearts": [13 * (seat == shooter) for seat in range(4)], "queen": shooter, "moon_option": "subtract"}
        for shooter in range(4)
    ),
]


def scorekeeper(*arguments, instance, database_url=None):
    """The `scorekeeper` command on an instance folder (and its SQLite database unless one is named)."""
    env = {
        "SCOREKEEPER_INSTANCE": str(instance),
        "DATABASE_URL": database_url,
        "SECRET_KEY": "backup-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc",
    }
    return CliRunner().invoke(main, list(arguments), env=env, catch_exceptions=False)


def exported(instance, database_url=None):
    instance.mkdir(parents=True, exist_ok=True)
    answer = scorekeeper("backup", str(instance / "export.json"), instance=instance, database_url=database_url)
    assert answer.exit_code == 0, answer.output
    return json.loads((instance / "export.json").read_text())


class Posting(threading.Thread):
    """A table night: hands posted to a few games, one after another, until told to stop."""

    def __init__(self, base, games):
        super().__init__()
        self.base, self.games, self.posted = base, games, 0
        self.enough, self.stop = threading.Event(), threading.Event()
        self.failures = []

    def run(self):
        while not self.stop.is_set():
            game = self.games[self.posted % len(self.games)]
            hand = HANDS[(self.posted // len(self.games)) % len(HANDS)]
            status, answer = call("POST", f"{self.base}/api/games/{game}/hands", hand)
            if status != 201:
                self.failures.append(answer)
                return
            self.posted += 1
            if self.posted >= 12:
                self.enough.set()


@pytest.fixture
def backed_up(database_url, tmp_path):
    """A backup taken while hands were being posted, and the server's export once posting stopped."""
    source = tmp_path / "source"
    target = tmp_path / ("backup.sqlite" if database_url.startswith("sqlite") else "backup.json")
    with running_server(database_url) as server:
        ids = [call("POST", server.base + "/api/games", {"players": names})[1]["id"] for names in PLAYERS]
        posting = Posting(server.base, ids)
        posting.start()
        try:
            assert posting.enough.wait(60), posting.failures
            answer = scorekeeper("backup", str(target), instance=source, database_url=database_url)
            after_backup = posting.posted
            # Some hands are posted after the backup too, so that it is known to miss them.
            while posting.posted < after_backup + 4 and posting.is_alive():
                posting.enough.clear()
                posting.enough.wait(1)
        finally:
            posting.stop.set()
            posting.join()
    assert answer.exit_code == 0 and not posting.failures, (answer.output, posting.failures)
    return target, exported(source, database_url)


PLAYERS = [["Ann", "Ben", "Cat", "Dan"], ["Eve", "Fay", "Gus", "Hal"], ["Ivy", "Jo", "Kit", "Lou"]]


def games_of(target):
    return json.loads(target.read_text()) if target.suffix == ".json" else export_of_sqlite(target)


def test_a_backup_taken_while_hands_are_posted_restores_to_the_same_games(backed_up, tmp_path):
    target, server_at_the_end = backed_up
    backup = games_of(target)
    # Each game in the backup is whole: the hands the server had when it was taken, none half-written.
    for kept, final in zip(backup["games"], server_at_the_end["games"], strict=True):
        assert kept["hands"] == final["hands"][: len(kept["hands"])]
    assert sum(len(game["hands"]) for game in backup["games"]) < sum(
        len(game["hands"]) for game in server_at_the_end["games"]
    )
    empty = tmp_path / "empty"
    answer = scorekeeper("restore", str(target), instance=empty)
    assert answer.exit_code == 0 and "Restored 3 games" in answer.output, answer.output
    assert exported(empty) == backup
    assert scorekeeper("check", instance=empty).exit_code == 0


def test_restoring_twice_changes_nothing(backed_up, tmp_path):
    target, _ = backed_up
    empty = tmp_path / "empty"
    assert scorekeeper("restore", str(target), instance=empty).exit_code == 0
    once = exported(empty)
    assert scorekeeper("restore", str(target), instance=empty).exit_code == 0
    assert exported(empty) == once


def test_a_file_that_is_no_backup_is_refused_and_nothing_stored(tmp_path):
    (tmp_path / "notes.txt").write_text("hearts night: Ann 40, Ben 12")
    answer = scorekeeper("restore", str(tmp_path / "notes.txt"), instance=tmp_path)
    assert answer.exit_code == 1
    assert "Nothing was restored" in answer.output and "This file is not JSON: choose a .json export" in answer.output
    assert exported(tmp_path)["games"] == []


def test_a_backup_into_a_missing_folder_says_so(tmp_path):
    answer = scorekeeper("backup", str(tmp_path / "nowhere" / "hearts.sqlite"), instance=tmp_path)
    assert answer.exit_code == 1 and f"There is no folder {tmp_path / 'nowhere'}" in answer.output, answer.output


def test_a_damaged_sqlite_file_is_refused(tmp_path):
    (tmp_path / "torn.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    answer = scorekeeper("restore", str(tmp_path / "torn.sqlite"), instance=tmp_path)
    assert answer.exit_code == 1 and "is a damaged SQLite database" in answer.output, answer.output


def test_check_finds_a_stored_record_that_differs_and_rebuild_records_mends_it(app, table, database_url, tmp_path):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    with as_host(app):
        db.session.execute(update(models.Player).where(models.Player.seat == 1).values(total=99))
        db.session.commit()
    found = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert found.exit_code == 1 and "the stored record of Ben differs from the replay" in found.output
    assert "Replayed 1 game." in scorekeeper("rebuild-records", instance=tmp_path, database_url=database_url).output
    fine = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert fine.exit_code == 0 and "Checked 1 game:" in fine.output


def test_check_finds_a_players_summary_that_differs_and_rebuild_records_mends_it(app, table, database_url, tmp_path):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    with as_host(app):
        db.session.execute(update(models.PlayerSummary).where(models.PlayerSummary.name_key == "cat").values(wins=7))
        db.session.commit()
    found = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert found.exit_code == 1 and "The summary of the player “cat” differs" in found.output
    scorekeeper("rebuild-records", instance=tmp_path, database_url=database_url)
    assert scorekeeper("check", instance=tmp_path, database_url=database_url).exit_code == 0


def test_a_restored_export_keeps_the_games_dates(app, table, database_url, tmp_path):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    long_ago = {"created_at": datetime(2020, 2, 29, 20, 15), "updated_at": datetime(2020, 2, 29, 21, 40)}
    with as_host(app):
        db.session.execute(update(models.Game).values(**long_ago))
        db.session.commit()
    source = exported(tmp_path / "source", database_url)
    assert source["games"][0]["updated_at"] == "2020-02-29T21:40:00Z"
    assert scorekeeper("restore", str(tmp_path / "source" / "export.json"), instance=tmp_path / "empty").exit_code == 0
    assert exported(tmp_path / "empty") == source


def test_check_finds_a_game_that_does_not_replay_and_a_wrong_status(app, table, database_url, tmp_path):
    table.start_game()
    table.record_hand([4, 0, 9, 0], 1)
    broken = table.start_game()["id"]
    table.record_hand([4, 0, 9, 0], 1)
    with as_host(app):
        db.session.execute(update(models.Game).where(models.Game.id != broken).values(finished=True))
        db.session.execute(update(models.Hand).where(models.Hand.game_id == broken).values(hearts=[4, 0, 8, 0]))
        db.session.commit()
    found = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert found.exit_code == 1
    assert f"Game {broken} does not replay: hand 1: The hearts add up to 12" in found.output
    assert f"Game {broken - 1} is stored as finished." in found.output


def test_a_new_data_folder_and_the_backups_are_private(tmp_path):
    answer = scorekeeper("restore", str(write_export(tmp_path / "export.json")), instance=tmp_path / "new")
    assert answer.exit_code == 0 and "Restored 1 game" in answer.output
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    for name in ("hearts.sqlite", "hearts.json"):
        assert scorekeeper("backup", str(tmp_path / name), instance=tmp_path / "new").exit_code == 0
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


def write_export(path, document=None):
    game = {"players": ["Ann", "Ben", "Cat"], "hands": [{"hearts": [4, 0, 9], "queen": 1}]}
    path.write_text(json.dumps(document or {"format": "hearts-scorekeeper", "version": 1, "games": [game]}))
    return path


def test_another_programs_sqlite_file_is_refused_and_nothing_stored(tmp_path):
    with closing(sqlite3.connect(tmp_path / "recipes.sqlite")) as other:
        other.execute("CREATE TABLE recipes (name TEXT, hearts INTEGER)")
        other.execute("INSERT INTO recipes VALUES ('tart', 4)")
        other.commit()
    answer = scorekeeper("restore", str(tmp_path / "recipes.sqlite"), instance=tmp_path / "data")
    assert answer.exit_code == 1
    assert (
        f"Nothing was restored. {tmp_path / 'recipes.sqlite'} is a SQLite database, but not a backup" in answer.output
    )
    assert exported(tmp_path / "data")["games"] == []


def test_a_json_file_of_something_else_is_refused(tmp_path):
    path = write_export(tmp_path / "games.json", {"games": [{"name": "chess", "players": ["Ann", "Ben"]}]})
    answer = scorekeeper("restore", str(path), instance=tmp_path / "data")
    assert (
        answer.exit_code == 1 and "Nothing was restored. This file is not a Hearts Scorekeeper export." in answer.output
    )


def test_an_export_in_a_newer_format_is_refused_saying_which_version_it_needs(tmp_path):
    path = write_export(tmp_path / "newer.json")
    document = json.loads(path.read_text())
    path.write_text(json.dumps({**document, "version": BACKUP_VERSION + 1}))
    answer = scorekeeper("restore", str(path), instance=tmp_path / "data")
    assert answer.exit_code == 1 and answer.output.endswith(
        f"Error: Nothing was restored. This export is in version {BACKUP_VERSION + 1} of the format, newer than this "
        f"app reads (version {BACKUP_VERSION} and older): update the app to one that reads version "
        f"{BACKUP_VERSION + 1}, then import the file again.\n"
    )
    path.write_text(json.dumps({**document, "version": BACKUP_VERSION}))
    assert scorekeeper("restore", str(path), instance=tmp_path / "data").exit_code == 0


def test_a_backup_from_a_newer_version_is_refused(tmp_path):
    assert scorekeeper("restore", str(write_export(tmp_path / "x.json")), instance=tmp_path / "new").exit_code == 0
    assert scorekeeper("backup", str(tmp_path / "newer.sqlite"), instance=tmp_path / "new").exit_code == 0
    with closing(sqlite3.connect(tmp_path / "newer.sqlite")) as newer:
        newer.execute("UPDATE alembic_version SET version_num = '0099'")
        newer.commit()
    answer = scorekeeper("restore", str(tmp_path / "newer.sqlite"), instance=tmp_path / "data")
    assert answer.exit_code == 1 and "is a backup from a newer version of the app (schema 0099)" in answer.output


def test_a_postgresql_backup_is_a_json_file_and_named_so(database_url, tmp_path):
    if database_url.startswith("sqlite"):
        pytest.skip("backing up PostgreSQL: this run is on SQLite")
    create = scorekeeper(
        "restore", str(write_export(tmp_path / "x.json")), instance=tmp_path, database_url=database_url
    )
    assert create.exit_code == 0
    answer = scorekeeper("backup", str(tmp_path / "hearts.sqlite"), instance=tmp_path, database_url=database_url)
    assert answer.exit_code == 1 and f"backup is a JSON export, so name it {tmp_path / 'hearts.json'}" in answer.output
    assert not (tmp_path / "hearts.sqlite").exists()


def damaged(instance):
    """A data folder whose SQLite database has four games, three of them damaged outside the app."""
    export = {"format": "hearts-scorekeeper", "version": 1, "games": [
        {"players": ["Ann", "Ben", "Cat"], "hands": [{"hearts": [4, 0, 9], "queen": 1}],
         "created_at": f"2025-03-0{day}T20:00:00Z"} for day in range(1, 5)
    ]}  # fmt: skip
    instance.mkdir()
    assert scorekeeper("restore", str(write_export(instance / "x.json", export)), instance=instance).exit_code == 0
    with closing(sqlite3.connect(instance / "scorekeeper.sqlite")) as database:
        database.execute("UPDATE games SET pass_cycle = 'sideways' WHERE id = 1")
        database.execute("UPDATE hands SET hearts = 'four, none, nine' WHERE game_id = 2")
        database.execute("UPDATE games SET created_at = 'last Tuesday' WHERE id = 3")
        database.commit()
    return instance


def test_check_names_each_game_it_cannot_read_and_goes_on(tmp_path):
    found = scorekeeper("check", instance=damaged(tmp_path / "data"))
    assert found.exit_code == 1 and "Traceback" not in found.output
    assert "Game 1 does not replay: The pass cycle must be one of" in found.output
    assert "Game 2 cannot be read: a hand's row holds a value the app never writes" in found.output
    assert "Game 3 cannot be read: its row holds a value the app never writes (Invalid isoformat string" in found.output
    assert (
        "Game 4" not in found.output and "3 problems (games checked: 4). The games that cannot be read" in found.output
    )
    rebuilt = scorekeeper("rebuild-records", instance=tmp_path / "data")
    assert rebuilt.exit_code == 1 and "Replayed 1 game." in rebuilt.output and "Game 2 cannot be read" in rebuilt.output


@pytest.mark.parametrize("name", ["hearts.json", "hearts.sqlite"])
def test_a_backup_or_restore_of_a_damaged_game_names_it_in_one_line_and_keeps_nothing(tmp_path, name):
    source = damaged(tmp_path / "data")
    if name.endswith(".json"):
        answer = scorekeeper("backup", str(tmp_path / name), instance=source)
        assert answer.exit_code == 1 and not (tmp_path / name).exists()
        assert answer.output.splitlines()[-1].startswith(f"Error: No backup was written to {tmp_path / name}: Game 1 ")
        return
    assert scorekeeper("backup", str(tmp_path / name), instance=source).exit_code == 0  # a copy, as it is
    answer = scorekeeper("restore", str(tmp_path / name), instance=tmp_path / "new")
    assert answer.exit_code == 1 and "Traceback" not in answer.output
    assert answer.output.splitlines()[-1].startswith(f"Error: Nothing was restored. {tmp_path / name}: Game 1 does no")
    assert exported(tmp_path / "new")["games"] == []


def test_a_file_nested_too_deeply_is_refused_in_one_line(tmp_path):
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    answer = scorekeeper("restore", str(tmp_path / "deep.json"), instance=tmp_path / "data")
    assert answer.exit_code == 1 and answer.output.splitlines()[-1] == (
        f"Error: Nothing was restored. {tmp_path / 'deep.json'}: This file nests its values too deeply to be an "
        "export of the app."
    )
    assert exported(tmp_path / "data")["games"] == []


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le"])
def test_restore_reads_an_export_as_any_editor_saved_it_like_the_import_page(tmp_path, client, encoding):
    text = write_export(tmp_path / "plain.json").read_text()
    (tmp_path / "saved.json").write_bytes(text.encode(encoding))
    answer = scorekeeper("restore", str(tmp_path / "saved.json"), instance=tmp_path / "data")
    assert answer.exit_code == 0 and "Restored 1 game" in answer.output, answer.output
    page = client.post("/history/import", data={"export": (io.BytesIO(text.encode(encoding)), "saved.json")})
    assert page.status_code == 302


def test_a_backup_written_to_a_link_goes_to_the_file_it_links_to(tmp_path):
    assert scorekeeper("restore", str(write_export(tmp_path / "x.json")), instance=tmp_path / "data").exit_code == 0
    (tmp_path / "backups").mkdir()
    (tmp_path / "latest.json").symlink_to(tmp_path / "backups" / "monday.json")
    answer = scorekeeper("backup", str(tmp_path / "latest.json"), instance=tmp_path / "data")
    assert answer.exit_code == 0, answer.output
    assert (tmp_path / "latest.json").is_symlink()
    assert len(json.loads((tmp_path / "backups" / "monday.json").read_text())["games"]) == 1


def test_a_backup_is_never_written_over_what_is_not_a_regular_file(tmp_path):
    assert scorekeeper("restore", str(write_export(tmp_path / "x.json")), instance=tmp_path / "data").exit_code == 0
    os.mkfifo(tmp_path / "pipe.json")
    answer = scorekeeper("backup", str(tmp_path / "pipe.json"), instance=tmp_path / "data")
    assert answer.exit_code == 1 and answer.output.splitlines() == [
        f"Error: Nothing was written: {tmp_path / 'pipe.json'} is not a regular file. Give the backup a file name of "
        "its own."
    ]
    assert stat.S_ISFIFO((tmp_path / "pipe.json").stat().st_mode)
