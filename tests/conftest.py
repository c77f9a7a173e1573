"""Fixtures: an app with its own database per test, and a `table` that plays through the API."""

import os

import pytest
import sqlalchemy

import scorekeeper
from scorekeeper import create_app
from scorekeeper.db import db

pytest_plugins = ["engines"]  # every engine a test opens is closed when it ends


@pytest.fixture(autouse=True, scope="session")
def data_folder(tmp_path_factory):
    """The tests' own data folder: never the clone's instance/, its settings or its secret key."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path_factory.mktemp("data")))
        yield


@pytest.fixture
def database_url(tmp_path):
    """A fresh database for one test: PostgreSQL when DATABASE_URL says so, else a SQLite file."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    url = scorekeeper.database_url(url)
    drop_everything(url)
    yield url
    drop_everything(url)


def drop_everything(url):
    """Drop every table, Alembic's too, so the next test starts from an empty database."""
    engine = sqlalchemy.create_engine(url)
    tables = sqlalchemy.MetaData()
    tables.reflect(bind=engine)
    tables.drop_all(bind=engine)
    engine.dispose()


@pytest.fixture
def app(database_url, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url,
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


class Table:
    """A table's actions, through the JSON API: tests read like a game night."""

    def __init__(self, client):
        self.client = client
        self.game_id = None

    def start_game(self, players=("Ann", "Ben", "Cat", "Dan"), **rules):
        answer = self.client.post("/api/games", json={"players": list(players), "rules": rules})
        assert answer.status_code == 201, answer.json
        self.game_id = answer.json["id"]
        return answer.json

    def record_hand(self, hearts, queen, expect=201, **more):
        answer = self.client.post(f"/api/games/{self.game_id}/hands", json={"hearts": hearts, "queen": queen, **more})
        assert answer.status_code == expect, answer.json
        return answer.json

    def preview(self, hearts, queen, **more):
        answer = self.client.post(f"/api/games/{self.game_id}/preview", json={"hearts": hearts, "queen": queen, **more})
        assert answer.status_code == 200, answer.json
        return answer.json

    def correct(self, number, hearts, queen, expect=200, **more):
        body = {"hearts": hearts, "queen": queen, **more}
        answer = self.client.put(f"/api/games/{self.game_id}/hands/{number}", json=body)
        assert answer.status_code == expect, answer.json
        return answer.json

    def undo(self, number, expect=200):
        answer = self.client.delete(f"/api/games/{self.game_id}/hands/{number}")
        assert answer.status_code == expect, answer.json
        return answer.json

    def game(self):
        return self.client.get(f"/api/games/{self.game_id}").json


@pytest.fixture
def table(client):
    return Table(client)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    from browser import CHROMIUM, CHROMIUM_ARGS, need_chromium

    need_chromium()
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture
def live_server(app):
    """The app served on loopback for a real browser."""
    from browser import served

    with served(app) as base:
        yield base


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, playwright):
    return {**browser_context_args, **playwright.devices["iPhone 13"]}
