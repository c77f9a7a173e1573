"""News of the games: a change told to the phones that follow the game, instead of each phone asking every second.

A change to a game is told as it commits, with the game's new version tag. The phones' streams wait in the
production server's event loop (server/streams.py); ``tell`` may come from any thread (the worker that saved a hand).
On PostgreSQL several processes may share one database: the change is also NOTIFYed inside its transaction
(``told``, around the commit), which PostgreSQL delivers to every process listening as the transaction commits,
and never when it rolls back; each process's listener tells its own streams (server/streams.py). A process with no
stream (a command, the tests' own server) tells nobody, at the cost of nothing.
"""

import asyncio
import os
import secrets
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

from flask import current_app
from sqlalchemy import func, select

from .db import db

CHANNEL = "scorekeeper_games"  # PostgreSQL's channel for the games' news, in the database the processes share
SENDER = f"{os.getpid()}-{secrets.token_hex(4)}"  # this process, in what it NOTIFYs: its own news it told already


class Followers:
    """The streams of one app following its games, by game: each one woken with the game's newest version."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.waiting: dict[int, set[Callable[[str], None]]] = {}
        # Streams on their way (the app is answering them): every game's news, so that none made meanwhile is lost.
        self.opening: set[Callable[[int, str], None]] = set()

    def serve_in(self, loop: asyncio.AbstractEventLoop | None) -> None:
        """The event loop the streams wait in (None: the server stopped, nobody to tell)."""
        self.loop = loop

    def follow(self, game_id: int, told: Callable[[str], None]) -> None:
        """``told(version)`` at each change of the game from now on (in the loop's thread; call it from there)."""
        self.waiting.setdefault(game_id, set()).add(told)

    def leave(self, game_id: int, told: Callable[[str], None]) -> None:
        followers = self.waiting.get(game_id, set())
        followers.discard(told)
        if not followers:
            self.waiting.pop(game_id, None)

    def tell(self, game_id: int, version: str) -> None:
        """The game changed (or was deleted: ``version`` ""); from any thread."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.deliver, game_id, version)

    def deliver(self, game_id: int, version: str) -> None:
        """In the loop's thread: each of the game's streams told, and the streams on their way."""
        for told in list(self.waiting.get(game_id, ())):
            told(version)
        for heard in list(self.opening):
            heard(game_id, version)

    def heard(self, payload: str) -> None:
        """A NOTIFY of the channel (``sender game version``), in the loop's thread: another process's news."""
        sender, _space, rest = payload.partition(" ")
        game, _space, version = rest.partition(" ")
        if sender != SENDER and game.isdigit():
            self.deliver(int(game), version)


def followers() -> Followers:
    """The current app's followers."""
    found: Followers = current_app.extensions["followers"]
    return found


@contextmanager
def told(versions: Mapping[int, str]) -> Iterator[None]:
    """Around the commit of changes to games (each game's new version; "" for one deleted): their news NOTIFYed in
    the transaction on PostgreSQL, and this process's streams told once it commits (not when it fails)."""
    if db.engine.dialect.name == "postgresql":
        for game_id, version in versions.items():
            db.session.execute(select(func.pg_notify(CHANNEL, f"{SENDER} {game_id} {version}")))
    yield
    for game_id, version in versions.items():
        followers().tell(game_id, version)
