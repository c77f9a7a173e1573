"""Upgrades without loss: the schema's history, and a database of the first version upgraded."""

from datetime import datetime

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from flask_migrate import upgrade

from scorekeeper import create_app, migrate
from scorekeeper.store.db import db

from conftest import as_host


def test_the_migrations_build_exactly_the_models(app):
    with as_host(app), db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []


def first_version(url):
    """A database at revision 0001, as the foundation left it."""
    old = Flask("first-version")
    old.config["SQLALCHEMY_DATABASE_URI"] = url
    db.init_app(old)
    migrate.init_app(old, db)
    with as_host(old):
        upgrade(revision="0001")
        db.engine.dispose()


GAMES = [  # players, rules, hands (hearts, queen, moon option)
    (["Ann", "Ben", "Cat", "Dan"], dict(target=50), [([4, 0, 9, 0], 1, None), ([0, 13, 0, 0], 1, "add"),
                                                      ([0, 0, 13, 0], 0, None), ([3, 3, 3, 4], 3, None)]),
    (["Eve", "Ann", "Gus"], dict(target=100), [([13, 0, 0], 0, "subtract"), ([2, 5, 6], 2, None)]),
]  # fmt: skip


def insert_first_version_data(url):
    engine = sa.create_engine(url)
    meta = sa.MetaData()
    meta.reflect(bind=engine)
    games, players, hands = meta.tables["games"], meta.tables["players"], meta.tables["hands"]
    now = datetime(2025, 3, 1, 20, 0)
    with engine.begin() as connection:
        for names, given, played in GAMES:
            house = {"pass_cycle": "left-right-hold" if len(names) != 4 else "left-right-across-hold", "moon": "choose",
                     "sun": False, "omnibus": False, "tie": "play-on", "first_dealer": 0, **given}  # fmt: skip
            game_id = connection.execute(
                games.insert().values(**house, finished=False, created_at=now, updated_at=now)
            ).inserted_primary_key[0]
            for seat, name in enumerate(names):
                connection.execute(
                    players.insert().values(game_id=game_id, seat=seat, name=name, name_key=name.lower())
                )
            for number, (hearts, queen, option) in enumerate(played, start=1):
                connection.execute(
                    hands.insert().values(game_id=game_id, number=number, hearts=hearts, queen=queen,
                                          moon_option=option, created_at=now)
                )  # fmt: skip
    engine.dispose()


def test_a_first_version_database_upgrades_with_every_game_and_total(empty_database_url):
    database_url = empty_database_url
    first_version(database_url)
    insert_first_version_data(database_url)
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "t", "TESTING": True})
    client = app.test_client()
    listed = client.get("/api/games").json["games"]
    assert [game["totals"] for game in listed] == [[2, 5, 19], [46, 16, 51, 43]]
    assert [game["status"] for game in listed] == ["in-progress", "finished"]
    home = client.get("/").get_data(as_text=True)  # the finished flag was brought in step with the replay
    assert home.index("Games in progress") < home.index("Eve · Ann · Gus") < home.index("Recently finished")
    assert client.get(f"/api/games/{listed[1]['id']}").json["hands"][1]["moon"] == {"shooter": 1, "option": "add"}
    old = client.get(f"/api/games/{listed[0]['id']}").json  # Eve's moon at 0 points stayed at 0: the floor is on
    assert (old["rules"]["subtract_floor"], old["rules"]["black_maria"], "king" in old["hands"][0]) == (
        True,
        False,
        False,
    )
    # the new per-seat records were filled by replaying the old hands
    ann = client.get("/players/Ann").get_data(as_text=True)
    assert "<dt>Games</dt><dd>2</dd>" in ann and "<dt>Q♠ taken</dt><dd>1</dd>" in ann
    with as_host(app):
        version = db.session.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        head = ScriptDirectory.from_config(migrate.get_config()).get_current_head()
        db.session.remove()
        db.engine.dispose()
    assert version == head
