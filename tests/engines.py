"""Every database engine a test opened is closed when the test ends.

An app or engine a test builds keeps its pooled connections until the garbage
collector finds it, and a psycopg connection collected open is a ResourceWarning
(an error here) in whichever later test happens to be running. Closing them at
the end of the test that opened them keeps each test's failures its own.
"""

import weakref

import pytest
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

opened: "weakref.WeakSet[Engine]" = weakref.WeakSet()


@event.listens_for(Engine, "engine_connect")
def remember(connection: Connection) -> None:
    opened.add(connection.engine)


@pytest.fixture(autouse=True)
def close_engines():
    yield
    for engine in list(opened):
        engine.dispose()
    opened.clear()
