"""A backup or export from before uids, restored after the update: its games are found here, not added again."""

import json
import shutil
import sqlite3
import uuid
from contextlib import closing
from datetime import datetime

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app, migrate
from scorekeeper.cli.main import main
from scorekeeper.service.exported import read_games
from scorekeeper.store import uids
from scorekeeper.store.db import db

from conftest import as_host

HOUSE = {"target": 100, "pass_cycle": "left-right-across-hold", "moon": "choose", "sun": False, "omnibus": False,
         "tie": "play-on", "first_dealer": 0, "exact_reset": False}  # fmt: skip
NIGHT = datetime(2025, 3, 1, 20, 0)
GAMES = [  # names, house rules changed, hands (hearts, queen, jack, moon option), minutes after NIGHT it started
    (["Ann", "Ben", "Cat", "Dan"], {"target": 50}, [([4, 0, 9, 0], 1, None, None), ([0, 13, 0, 0], 1, None, "add")], 0),
    (["Ann", "Ben", "Cat", "Dan"], {"target": 50}, [([4, 0, 9, 0], 1, None, None)], 40),
    (["Eve", "Ann", "Gus"], {"pass_cycle": "left-right-hold"}, [([13, 0, 0], 0, None, "subtract")], 0),
    (["Eve", "Fay", "Gus", "Hal", "Ivy"], {"pass_cycle": "left-right-hold", "omnibus": True},
     [([3, 3, 3, 2, 2], 4, 0, None)], 5),
    (["José", "Zoë", "Ann"], {"pass_cycle": "none", "exact_reset": True, "first_dealer": 2}, [], 90),
    (["Ann", "Ben", "Cat", "Dan"], {"moon": "add", "sun": True}, [([2, 3, 4, 4], 0, None, None)], 120),
]  # fmt: skip


def database_at(url, revision):
    """The database as an older version of the app left it, at ``revision``."""
    old = Flask(f"at-{revision}")
    old.config["SQLALCHEMY_DATABASE_URI"] = url
    db.init_app(old)
    migrate.init_app(old, db)
    with as_host(old):
        upgrade(revision=revision)
        db.engine.dispose()


def six_games_before_uids(url):
    """The six games, stored by a version without uids (revision 0004)."""
    database_at(url, "0004")
    engine = sa.create_engine(url)
    tables = sa.MetaData()
    tables.reflect(bind=engine)
    games, players, hands = tables.tables["games"], tables.tables["players"], tables.tables["hands"]
    with engine.begin() as connection:
        for names, house, played, minutes in GAMES:
            moment = NIGHT.replace(minute=minutes % 60, hour=20 + minutes // 60)
            game_id = connection.execute(
                games.insert().values(**{**HOUSE, **house}, finished=False, created_at=moment, updated_at=moment)
            ).inserted_primary_key[0]
            for seat, name in enumerate(names):
                connection.execute(
                    players.insert().values(game_id=game_id, seat=seat, name=name, name_key=name.lower())
                )
            for number, (hearts, queen, jack, option) in enumerate(played, start=1):
                connection.execute(hands.insert().values(game_id=game_id, number=number, hearts=hearts, queen=queen,
                                                         jack=jack, moon_option=option, created_at=moment))  # fmt: skip
    engine.dispose()


def export_before_uids():
    """The six games as the JSON export of a version without uids wrote them."""
    written = []
    for names, house, played, minutes in GAMES:
        moment = NIGHT.replace(minute=minutes % 60, hour=20 + minutes // 60).isoformat() + "Z"
        hands = [{"hearts": hearts, "queen": queen, "jack": jack, "all_tricks": None,
                  "moon": {"shooter": queen, "option": option} if option else None}
                 for hearts, queen, jack, option in played]  # fmt: skip
        written.append({"players": names, "rules": {**HOUSE, **house}, "hands": hands, "created_at": moment})
    return {"format": "hearts-scorekeeper", "version": 1, "games": written}


def upgraded(url):
    """Started by this version: the schema upgraded on the way."""
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "t", "TESTING": True})
    with as_host(app):
        db.engine.dispose()


def upgraded_by_the_first_release_of_0005(url):
    """Upgraded by the version whose migration 0005 drew random uids, then by this one."""
    database_at(url, "0005")
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        for (game_id,) in connection.execute(sa.text("SELECT id FROM games")).all():
            connection.execute(
                sa.text("UPDATE games SET uid = :uid WHERE id = :id"), {"uid": uuid.uuid4().hex, "id": game_id}
            )
    engine.dispose()
    upgraded(url)


def scorekeeper(*arguments, instance, database_url):
    env = {
        "SCOREKEEPER_INSTANCE": str(instance),
        "DATABASE_URL": database_url,
        "SECRET_KEY": "uids-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc",
    }
    return CliRunner().invoke(main, list(arguments), env=env, catch_exceptions=False)


def count_games(url):
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        count = connection.execute(sa.text("SELECT count(*) FROM games")).scalar()
    engine.dispose()
    return count


@pytest.mark.parametrize("update", [upgraded, upgraded_by_the_first_release_of_0005])
@pytest.mark.parametrize("kind", ["sqlite", "json"])
def test_restoring_the_backup_taken_before_the_update_adds_no_game(empty_database_url, tmp_path, kind, update):
    database_url = empty_database_url
    six_games_before_uids(database_url)
    backup = tmp_path / f"hearts-before-update.{kind}"
    if kind == "json":
        backup.write_text(json.dumps(export_before_uids()))
    elif database_url.startswith("sqlite"):
        shutil.copy(database_url.removeprefix("sqlite:///"), backup)  # as `scorekeeper backup` wrote it then
    else:
        pytest.skip("a PostgreSQL database's backups are JSON exports")
    update(database_url)
    for _ in range(2):
        answer = scorekeeper("restore", str(backup), instance=tmp_path, database_url=database_url)
        assert answer.exit_code == 0 and "Restored 0 games" in answer.output and "6 were already here" in answer.output
        assert count_games(database_url) == 6
    checked = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert checked.exit_code == 0 and "Checked 6 games" in checked.output, checked.output


def test_check_finds_a_game_stored_twice(empty_database_url, tmp_path):
    database_url = empty_database_url
    six_games_before_uids(database_url)
    upgraded(database_url)
    engine = sa.create_engine(database_url)
    with engine.begin() as connection:  # as a restore of the first release left them: known by no content uid
        connection.execute(sa.text("UPDATE games SET content_uid = NULL, uid = :uid WHERE id = 1"), {"uid": "0" * 32})
    engine.dispose()
    (tmp_path / "old.json").write_text(json.dumps(export_before_uids()))
    answer = scorekeeper("restore", str(tmp_path / "old.json"), instance=tmp_path, database_url=database_url)
    assert "Restored 1 game" in answer.output and count_games(database_url) == 7
    found = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert found.exit_code == 1 and (
        "Games 1, 7 hold the same players, house rules, hands and start, to the second: one game stored 2 times. "
        "Keep game 1 and delete the others in the app: /games/7/delete." in found.output
    ), found.output
    assert "rebuild-records keeps both" in found.output and "rebuild-records` stores" not in found.output


def four_games_alike_but_for_the_new_rules():
    """Four games of one table started in the same second, told apart only by rules and cards added after uids."""
    plain = {"hearts": [4, 0, 9, 0], "queen": 1}
    games = [
        ({}, plain),
        ({"subtract_floor": False}, plain),
        ({"black_maria": True}, {**plain, "king": 2, "ace": 3}),
        ({"black_maria": True}, {**plain, "king": 3, "ace": 2}),
    ]
    return {"format": "hearts-scorekeeper", "version": 1, "games": [
        {"players": ["Ann", "Ben", "Cat", "Dan"], "rules": given, "hands": [hand], "created_at": "2025-03-01T20:00:00Z"}
        for given, hand in games
    ]}  # fmt: skip


def test_games_told_apart_by_a_rule_or_card_added_later_are_as_many_games(database_url, tmp_path):
    (tmp_path / "four.json").write_text(json.dumps(four_games_alike_but_for_the_new_rules()))
    for added, here in ((4, ""), (0, "4 were already here")):
        answer = scorekeeper("restore", str(tmp_path / "four.json"), instance=tmp_path, database_url=database_url)
        assert f"Restored {added} games" in answer.output and here in answer.output, answer.output
    assert count_games(database_url) == 4
    checked = scorekeeper("check", instance=tmp_path, database_url=database_url)
    assert checked.exit_code == 0 and "Checked 4 games" in checked.output, checked.output


def test_the_same_game_gets_the_same_uid_from_an_export_and_from_a_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    six_games_before_uids(url)
    upgraded(url)
    with closing(sqlite3.connect(tmp_path / "old.sqlite")) as stored:
        from_database = [uid for (uid,) in stored.execute("SELECT uid FROM games ORDER BY id")]
    from_export = [game.uid for game in read_games(export_before_uids())]
    assert from_database == from_export
    # Two games of the same table, the second started 40 minutes later with one hand fewer, are two games.
    assert len(set(from_export)) == 6


def test_a_games_content_uid_is_the_one_the_version_that_brought_uids_gave_it():
    old_export = {"format": "hearts-scorekeeper", "version": 1, "games": [
        {"players": ["Ann", "Ben", "Cat", "Dan"], "rules": {"target": 50}, "created_at": "2025-03-01T20:00:00Z",
         "hands": [{"hearts": [4, 0, 9, 0], "queen": 1},
                   {"hearts": [0, 13, 0, 0], "queen": 1, "moon": {"shooter": 1, "option": "add"}}]},
        {"players": ["Eve", "Ann", "Gus"], "hands": []},
    ]}  # fmt: skip
    # Computed by that version (hashing its house rules whole): imports it made must still be found.
    assert [game.uid for game in read_games(old_export)] == [
        "b5b12c64744843429f6c4d00a45d5148",
        "03002acfff2741e38a1c32fdd043a1c7",
    ]


def test_a_house_rule_added_later_does_not_change_a_content_uid():
    hand = {"hearts": [4, 0, 9, 0], "queen": 1, "jack": None, "all_tricks": None, "moon_option": None, "king": None}
    before = uids.content_uid(["Ann", "Ben", "Cat"], HOUSE, [hand], NIGHT)
    with_new_rules = {**HOUSE, "black_maria": False, "subtract_floor": True}
    assert uids.content_uid(["Ann", "Ben", "Cat"], with_new_rules, [hand], NIGHT) == before
    assert uids.content_uid(["Ann", "Ben", "Cat"], {**HOUSE, "target": 50}, [hand], NIGHT) != before


def test_an_export_with_random_uids_finds_the_games_restored_from_a_copy_without(database_url, tmp_path):
    (tmp_path / "old.json").write_text(json.dumps(export_before_uids()))
    assert (
        scorekeeper("restore", str(tmp_path / "old.json"), instance=tmp_path, database_url=database_url).exit_code == 0
    )
    # The same games as a database upgraded by the first release of 0005 exports them: each with a random uid.
    drawn = export_before_uids()
    for game in drawn["games"]:
        game["uid"] = uuid.uuid4().hex
    (tmp_path / "drawn.json").write_text(json.dumps(drawn))
    answer = scorekeeper("restore", str(tmp_path / "drawn.json"), instance=tmp_path, database_url=database_url)
    assert "Restored 0 games" in answer.output and count_games(database_url) == 6
    # Two games with uids of their own are two games, whatever they hold.
    twice = {**drawn, "games": [{**game, "uid": uuid.uuid4().hex} for game in drawn["games"] * 2]}
    (tmp_path / "twice.json").write_text(json.dumps(twice))
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    answer = scorekeeper("restore", str(tmp_path / "twice.json"), instance=tmp_path / "other", database_url=other)
    assert "Restored 12 games" in answer.output and count_games(other) == 12
