"""Fixtures: an app with its own database per test, and a `table` that plays through the API."""

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import sqlite3
import threading
from typing import NoReturn

import pytest
import sqlalchemy
from playwright.sync_api import expect

import scorekeeper
from scorekeeper import create_app
from scorekeeper.store import scope
from scorekeeper.store.db import db

pytest_plugins = ["engines"]  # every engine a test opens is closed when it ends

# How long a browser test waits for what it expects to see: long enough for a busy 2-core machine (CI runs the
# suite beside a database server), where Playwright's 5 s once timed out. An expectation met returns at once.
expect.set_options(timeout=20_000)


def pytest_collection_modifyitems(items):
    """The long tests first (in their order), the others after them as collected: on several workers, the long
    ones start at once, side by side, and the short ones fill in around them."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def missing(message: str) -> NoReturn:
    """Skip a test for a program this machine lacks (``message`` says how to install it), except in CI, where
    .ci/run installs it: there it fails."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def run_apart(coroutine):
    """asyncio.run in a thread of its own: a worker that ran a browser test holds Playwright's event loop in its
    thread, where asyncio.run refuses to start another."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def until(condition, seconds=30):
    """Once ``condition`` holds, looked at every few milliseconds (a failure past ``seconds``: a cap on a hang, never
    a measure)."""
    looked = threading.Event()
    for _ in range(seconds * 100):
        if condition():
            return
        looked.wait(0.01)
    raise AssertionError("never came true")


@contextlib.contextmanager
def as_host(app):
    """The app's context as a host's command has it: every group's games in scope (outside a request, none is)."""
    with app.app_context():
        scope.see_everything()
        yield


@pytest.fixture(autouse=True, scope="session")
def data_folder(tmp_path_factory):
    """The tests' own data folder: never the clone's instance/, its settings or its secret key."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path_factory.mktemp("data")))
        yield


def migrate(url):
    """Build the schema as the app does on its first start, and let go of the database."""
    app = create_app({"TESTING": True, "SECRET_KEY": "migrate", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def server_url():
    """The PostgreSQL database DATABASE_URL names, else None (SQLite files). Under pytest-xdist (`-n`), each
    worker has a database of its own beside it, made if missing: `<name>_gw0`, `<name>_gw1`..."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None
    url = scorekeeper.database_url(url)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return own_database(url, f"{sqlalchemy.make_url(url).database}_{worker}") if worker else url


def own_database(server_url, name):
    """The URL of database ``name`` on ``server_url``'s server, made if it is not there yet."""
    server = sqlalchemy.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        there = connection.exec_driver_sql("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).first()
        if not there:
            connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    server.dispose()
    return sqlalchemy.make_url(server_url).set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def migrated(data_folder, server_url, tmp_path_factory):
    """The schema, migrated once for the whole run.

    On SQLite, a file each test gets a copy of. On PostgreSQL, where making a database from a
    template takes longer than migrating, DATABASE_URL's own database, each test starting with its
    tables emptied: the names of those tables.
    """
    if server_url is None:
        path = tmp_path_factory.mktemp("migrated") / "migrated.sqlite"
        migrate(f"sqlite:///{path}")
        with contextlib.closing(sqlite3.connect(path)) as connection:  # all of it in the file, none in a WAL
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        yield path
        return
    drop_everything(server_url)
    migrate(server_url)
    engine = sqlalchemy.create_engine(server_url)
    names = [name for name in sqlalchemy.inspect(engine).get_table_names() if name != "alembic_version"]
    engine.dispose()
    yield names
    drop_everything(server_url)


def drop_everything(url):
    """Drop every table, Alembic's too: the next run starts from an empty database."""
    engine = sqlalchemy.create_engine(url)
    tables = sqlalchemy.MetaData()
    tables.reflect(bind=engine)
    tables.drop_all(bind=engine)
    engine.dispose()


@pytest.fixture
def database_url(server_url, migrated, tmp_path):
    """A database of one's own for one test, its schema already migrated: PostgreSQL when DATABASE_URL says so,
    else a SQLite file."""
    if server_url is None:
        copy = tmp_path / "test.sqlite"
        shutil.copyfile(migrated, copy)
        return f"sqlite:///{copy}"
    engine = sqlalchemy.create_engine(server_url)
    with engine.begin() as connection:  # ids from 1 again, as in a new database
        connection.exec_driver_sql(f"TRUNCATE {', '.join(migrated)} RESTART IDENTITY CASCADE")
    engine.dispose()
    return server_url


@pytest.fixture
def empty_database_url(server_url, tmp_path):
    """A database with nothing in it yet, for a test of the migrations themselves."""
    if server_url is None:
        yield f"sqlite:///{tmp_path / 'empty.sqlite'}"
        return
    url = sqlalchemy.make_url(server_url)
    name = f"{url.database}_empty_{os.getpid()}"
    server = sqlalchemy.create_engine(server_url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield url.set(database=name).render_as_string(hide_password=False)
    with server.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
    server.dispose()


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


@pytest.fixture
def phone(browser):
    """A new small phone (its own browser context) each call, light or dark, asking for ``locale``'s language if
    given; ``offline_ready`` waits for the service worker."""
    from browser import SMALL_PHONE
    from playwright.sync_api import expect

    contexts = []

    def open_phone(url: str, scheme: str = "light", offline_ready: bool = False, locale: str | None = None):
        context = browser.new_context(**SMALL_PHONE, color_scheme=scheme, **({"locale": locale} if locale else {}))
        contexts.append(context)
        page = context.new_page()
        page.goto(url)
        if offline_ready:
            expect(page.locator("html[data-offline-ready=yes]")).to_have_count(1)
        return page

    yield open_phone
    for context in contexts:
        context.close()


@pytest.fixture
def five(client, live_server):
    """Five long, alike names, three hands played: hand 4 is next. The table page's address, and the game's in
    the API."""
    from browser import ALIKE_NAMES

    game = client.post("/api/games", json={"players": ALIKE_NAMES}).json
    for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)]:
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": hearts, "queen": queen})
    return f"{live_server}/games/{game['id']}", f"/api/games/{game['id']}"


@pytest.fixture
def alike(client, live_server):
    """Five long names, three alike for long (the third evening's); `alike(3)`: three hands played. Gives the
    table page's address and the game's in the API."""
    from browser import ALIKE_LONG

    def start(played: int = 0):
        made = client.post("/api/games", json={"players": ALIKE_LONG}).json
        for hearts, queen in [([4, 0, 9, 0, 0], 1), ([2, 3, 4, 4, 0], 4), ([0, 0, 1, 12, 0], 0)][:played]:
            client.post(f"/api/games/{made['id']}/hands", json={"hearts": hearts, "queen": queen})
        return f"{live_server}/games/{made['id']}", f"/api/games/{made['id']}"

    return start
