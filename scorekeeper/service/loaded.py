"""Loading games: a stored game with its state replayed from the hands; a page of games as their rows keep them is
listed.py's (a list replays nothing), a walk through every game every_game.py's.

A loaded game is kept while its game is unchanged (every change touches the
game's updated_at), so the pages every phone at the table polls neither load
the rows nor replay a long game each time: one small query says whether the
kept one is still the game.
"""

import functools
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import rules
from ..rules import PenaltyCard, Standing, TableSetup
from ..store import models
from ..store.db import db, engine_number
from .listed import ListedGame
from .names import ShownName, shown_names
from .rows import facts_of, house_rules_of


class GameNotFound(LookupError):
    """No such game, or no such hand in it."""


@dataclass(frozen=True)
class LoadedGame:
    """A stored game as it was at one version: its facts, and its state replayed from the hands.

    Plain values only, no database row: the same one serves every request until the game changes.
    """

    id: int
    uid: str
    created_at: datetime
    updated_at: datetime
    players: list[str]
    state: rules.GameState

    @property
    def version(self) -> "Version":
        return version_of(self.id, self.updated_at)

    @property
    def tag(self) -> str:
        """The tag ``version`` answers for this game while it is unchanged: a page says which version it shows."""
        return version_tag(self.id, self.updated_at)

    @property
    def rules(self) -> rules.HouseRules:
        return self.state.rules

    @functools.cached_property
    def names(self) -> list[ShownName]:
        """Each player's name in the forms the pages show where space is short: never two alike."""
        return shown_names(self.players)

    @property
    def short_names(self) -> list[str]:
        """The names as a phone's scoreboard, chips and column heads show them (the page scripts' too)."""
        return [shown.narrow for shown in self.names]

    @property
    def standings(self) -> list[Standing]:
        return rules.standings(self.state)

    @property
    def ranked(self) -> list[Standing]:
        return rules.ranked(self.state)

    @property
    def setup(self) -> TableSetup:
        return rules.table_setup(len(self.players))

    @property
    def cards(self) -> tuple[PenaltyCard, ...]:
        """The penalty cards this game plays, in the order the hand form asks for them."""
        return rules.in_play(self.rules)

    @property
    def winner_names(self) -> list[str]:
        return [self.players[seat] for seat in self.state.outcome.winners]

    @property
    def listed(self) -> ListedGame:
        """The game as a list shows it, from its replay."""
        state = self.state
        return ListedGame(self.id, self.created_at, self.updated_at, self.players, state.finished, len(state.hands),
                          list(state.totals), list(state.outcome.winners))  # fmt: skip


Version = tuple[int, int, datetime]  # the database connection, the game's id, its updated_at
T = TypeVar("T")


class KeptByVersion(Generic[T]):
    """What a game gives at one version, for the ``size`` versions asked for most recently.

    Every change to a game touches its updated_at, so a kept value is good as long as its version is asked for.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
        return value

    def put(self, key: Hashable, value: T) -> T:
        with self._lock:
            self._kept[key] = value
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value


_kept: KeptByVersion[LoadedGame] = KeptByVersion(256)


def version_of(game_id: int, updated_at: datetime) -> Version:
    """Which game, in which state: a deleted game's id is never given again, and a change touches updated_at."""
    return (engine_number(), game_id, updated_at)


def kept(version: Version) -> LoadedGame | None:
    return _kept.get(version)


def keep(loaded: LoadedGame) -> LoadedGame:
    return _kept.put(version_of(loaded.id, loaded.updated_at), loaded)


def replayed(game: models.Game, state: rules.GameState | None = None, *, keep_it: bool = True) -> LoadedGame:
    """A game row, loaded: the one kept for its version, else replayed now (or given ``state``) and kept.

    ``keep_it`` is off for a walk through every game (an export), which would push the tables' games out.
    """
    if state is None:
        found = kept(version_of(game.id, game.updated_at))
        if found is not None:
            return found
        state = rules.replay(len(game.players), house_rules_of(game), [facts_of(hand) for hand in game.hands])
    players = [player.name for player in game.players]
    loaded = LoadedGame(game.id, game.uid, game.created_at, game.updated_at, players, state)
    return keep(loaded) if keep_it else loaded


def load_game(game_id: int) -> LoadedGame:
    """The game as it is now: the one kept for its version, or loaded from its rows."""
    changed = db.session.scalar(select(models.Game.updated_at).where(models.Game.id == game_id))
    found = None if changed is None else kept(version_of(game_id, changed))
    return found or replayed(game_row(game_id))


def game_row(game_id: int, hands: bool = True) -> models.Game:
    """The game's row with its players and (unless told otherwise) its hands, for a change to them."""
    # A query, not Session.get: the group in scope applies to it, whatever this session has loaded before.
    options = WHOLE_GAME if hands else WHOLE_GAME[:1]
    game = db.session.scalar(select(models.Game).where(models.Game.id == game_id).options(*options))
    if game is None:
        raise GameNotFound(gettext("There is no game %(game)d.", game=game_id))
    return game


WHOLE_GAME = (selectinload(models.Game.players), selectinload(models.Game.hands))


def version(game_id: int) -> str | None:
    """A tag that changes with every change to the game (every change touches updated_at)."""
    changed = db.session.scalar(select(models.Game.updated_at).where(models.Game.id == game_id))
    return None if changed is None else version_tag(game_id, changed)


def version_tag(game_id: int, updated_at: datetime) -> str:
    return f"{game_id}-{updated_at.isoformat()}"


def last_game() -> LoadedGame | None:
    """The game started most recently, to offer its players and rules again."""
    game = db.session.scalars(select(models.Game).order_by(models.Game.id.desc()).limit(1)).first()
    return replayed(game) if game else None
