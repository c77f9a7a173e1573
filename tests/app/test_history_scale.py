"""Past games as quick at 10,000 games as at 100: each history page runs as many statements, and SQLite does about
as much work for them (its virtual machine's steps, counted: not a time), however many games the group played.

scripts/bench_history.py times the same pages."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.service.records import players_seen
from scorekeeper.store import scope
from scorekeeper.store.db import db

from server import ROOT

pytestmark = pytest.mark.long

SMALL, LARGE = 100, 10_000
STEP = 100  # SQLite's virtual machine instructions between two counts


class Work:
    """The statements an app's database runs, and SQLite's steps for them."""

    def __init__(self, app) -> None:
        self.statements, self.steps = 0, 0
        with app.app_context():
            engine = db.engine
            engine.dispose()  # every connection from now on is counted
        event.listen(engine, "connect", self.count_steps)
        event.listen(engine, "before_cursor_execute", self.count_statement)

    def count_steps(self, connection: sqlite3.Connection, _record) -> None:
        connection.set_progress_handler(self.step, STEP)

    def step(self) -> int:
        self.steps += 1
        return 0  # go on

    def count_statement(self, *_args) -> None:
        self.statements += 1

    def of(self, client, path: str) -> tuple[int, int]:
        client.get(path)  # what is kept from a first answer (a game's replay) is kept at any size
        self.statements = self.steps = 0
        assert client.get(path).status_code == 200
        return self.statements, self.steps


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """Two one-group servers' apps, with 100 and with 10,000 past games (scripts/seed_history.py's)."""
    import sys

    sys.path.insert(0, str(ROOT / "scripts"))
    from seed_history import seed

    apps = {}
    for games in (SMALL, LARGE):
        file = Path(tmp_path_factory.mktemp(f"history-{games}")) / "history.sqlite"
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{file}", "SECRET_KEY": "scale-test"})
        seed(app, games)
        with app.app_context():
            scope.see_everything()
            regular = players_seen()[0].name
        apps[games] = (app, Work(app), regular)
    yield apps
    for app, _work, _regular in apps.values():
        with app.app_context():
            db.engine.dispose()


@pytest.mark.parametrize(
    "page", ["/history", "/history?player={regular}", "/players", "/players/{regular}", "/games/50/review"]
)
def test_a_history_page_does_as_much_at_10000_games_as_at_100(seeded, page):
    done = {}
    for games, (app, work, regular) in seeded.items():
        done[games] = work.of(app.test_client(), page.format(regular=regular))
    (small_statements, small_steps), (large_statements, large_steps) = done[SMALL], done[LARGE]
    assert large_statements == small_statements
    assert large_steps <= 1.5 * small_steps, (small_steps, large_steps)
