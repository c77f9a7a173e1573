"""Loading games: a stored game with its state replayed from the hands, one game or many.

A replay is kept while its game is unchanged, so the pages every phone at the
table polls don't replay a long game each time.
"""

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import models, rules
from ..db import db
from ..rules import Standing, TableSetup
from .names import short_names
from .rows import facts_of, house_rules_of, search_key


class GameNotFound(LookupError):
    """No such game, or no such hand in it."""


@dataclass(frozen=True)
class LoadedGame:
    """A stored game with its state replayed from the hands."""

    game: models.Game
    players: list[str]
    state: rules.GameState

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def rules(self) -> rules.HouseRules:
        return self.state.rules

    @functools.cached_property
    def short_names(self) -> list[str]:
        """The names where space is short (scoreboard, chips, column heads): never two alike."""
        return short_names(self.players)

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
    def winner_names(self) -> list[str]:
        return [self.players[seat] for seat in self.state.outcome.winners]


REPLAYS_KEPT = 256
_replays: OrderedDict[tuple[str, datetime, int], rules.GameState] = OrderedDict()
_replays_lock = threading.Lock()


def replayed(game: models.Game) -> LoadedGame:
    """The game with its replayed state; a replay is kept while the game is unchanged (every change
    touches updated_at), so pages polled by every phone at the table don't replay a long game each time."""
    key = (game.uid, game.updated_at, len(game.hands))
    with _replays_lock:
        state = _replays.get(key)
        if state is not None:
            _replays.move_to_end(key)
    if state is None:
        state = rules.replay(len(game.players), house_rules_of(game), [facts_of(hand) for hand in game.hands])
        remember_replay(key, state)
    return LoadedGame(game, [player.name for player in game.players], state)


def remember_replay(key: tuple[str, datetime, int], state: rules.GameState) -> None:
    with _replays_lock:
        _replays[key] = state
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)


def load_game(game_id: int) -> LoadedGame:
    game = db.session.get(
        models.Game, game_id, options=[selectinload(models.Game.players), selectinload(models.Game.hands)]
    )
    if game is None:
        raise GameNotFound(f"There is no game {game_id}.")
    return replayed(game)


def all_games(batch: int = 500) -> Iterator[LoadedGame]:
    """Every game, oldest first, replayed."""
    return (replayed(game) for game in stored_games(batch))


def stored_games(batch: int = 500) -> Iterator[models.Game]:
    """Every game row with its players and hands, oldest first, loaded ``batch`` at a time."""
    after = 0
    while True:
        query = (
            select(models.Game)
            .where(models.Game.id > after)
            .order_by(models.Game.id)
            .limit(batch)
            .options(selectinload(models.Game.players), selectinload(models.Game.hands))
        )
        found = db.session.scalars(query).all()
        if not found:
            return
        yield from found
        after = found[-1].id


def version(game_id: int) -> str | None:
    """A tag that changes with every change to the game (every change touches updated_at)."""
    changed = db.session.scalar(select(models.Game.updated_at).where(models.Game.id == game_id))
    return None if changed is None else f"{game_id}-{changed.isoformat()}"


def last_game() -> LoadedGame | None:
    """The game started most recently, to offer its players and rules again."""
    game = db.session.scalars(select(models.Game).order_by(models.Game.id.desc()).limit(1)).first()
    return replayed(game) if game else None


def list_games(
    limit: int, before: int | None = None, finished: bool | None = None, player: str | None = None
) -> tuple[list[LoadedGame], bool]:
    """Newest first, ``limit`` games with an id below ``before``; and whether more follow."""
    query = select(models.Game).order_by(models.Game.id.desc()).limit(limit + 1)
    if player:
        key = search_key(player)
        if key is None:
            return [], False
        # Walk the player's index newest first rather than every game.
        seated = select(models.Player.game_id).where(models.Player.name_key == key)
        if before is not None:
            seated = seated.where(models.Player.game_id < before)
        if finished is None:
            seated = seated.order_by(models.Player.game_id.desc()).limit(limit + 1)
        query = query.where(models.Game.id.in_(seated))
    query = query.options(selectinload(models.Game.players), selectinload(models.Game.hands))
    if before is not None:
        query = query.where(models.Game.id < before)
    if finished is not None:
        query = query.where(models.Game.finished == finished)
    games = db.session.scalars(query).all()
    return [replayed(game) for game in games[:limit]], len(games) > limit
