"""The database handle, and the SQLite settings that keep a table's games safe."""

import itertools
import sqlite3
import weakref
from typing import TYPE_CHECKING

from flask import Flask
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)

# Flask-SQLAlchemy makes db.Model at run time; for the type checker it is the Base it extends.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model


def init_app(app: Flask) -> None:
    """The app's database: its engine made (the driver loaded), each new SQLite connection tuned as it opens."""
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", tune_sqlite)


def tune_sqlite(connection: sqlite3.Connection, _record: object) -> None:
    # WAL lets the phones that follow a game read while a hand is written; the
    # busy timeout makes a second writer wait its turn instead of failing.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


_engines: "weakref.WeakKeyDictionary[Engine, int]" = weakref.WeakKeyDictionary()
_numbers = itertools.count(1)


def engine_number() -> int:
    """The app's database connection, numbered within the process: what is kept from one database is never taken
    for another's, be it another app's (a restore reads a backup through an app of its own) or one on the same
    address emptied and filled again."""
    return _engines.setdefault(db.engine, next(_numbers))


# s between two batches of a long write on SQLite (an import, a group's deletion): long enough for a waiting
# phone's write to take the lock
WRITES_PAUSE = 0.05


def is_busy(problem: OperationalError) -> bool:
    """SQLite's write lock held past the busy timeout: another change (a long import) is under way."""
    return "locked" in str(problem.orig)
