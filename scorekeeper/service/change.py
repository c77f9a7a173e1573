"""A game changed under its lock: what every change of games.py does first (the game's row held, the game as it
was loaded) and last (the replay's records kept, the change committed and told to the phones following); and the
rollback of whatever a change that fails began."""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from flask_babel import gettext as _
from sqlalchemy import Update, select, update
from sqlalchemy.exc import IntegrityError

from .. import rules
from ..store import models, news, scope
from ..store.db import db
from . import groups
from .loaded import GameNotFound, LoadedGame, game_row, kept, replayed, version_of
from .rows import keep_records

P = ParamSpec("P")
R = TypeVar("R")


def changes_a_game(change: Callable[P, R]) -> Callable[P, R]:
    """Nothing is stored by a change that fails: roll back whatever it began."""

    @functools.wraps(change)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return change(*args, **kwargs)
        except Exception:
            db.session.rollback()
            raise

    return run


@dataclass(frozen=True)
class Locked:
    """A game's row, held for a change, and the game as it was before the change."""

    row: models.Game
    loaded: LoadedGame


def locked(game_id: int, hands: bool = True) -> Locked:
    """Load a game for a change, holding its row so concurrent changes wait their turn.

    The game as it was is the one kept for the version read just before, when the row is locked at that very
    version (nothing changed it in between): no replay. ``hands``: whether the change reads the hand rows
    (recording a hand only adds one).
    """
    groups.hold_for_change(scope.current())
    table = models.Game
    before = db.session.scalar(select(table.updated_at).where(table.id == game_id))
    loaded = None if before is None else kept(version_of(game_id, before))
    lock = update(table).where(table.id == game_id).values(updated_at=models.utcnow())
    touched = lock_row(lock.where(table.updated_at == before)) if loaded is not None else 0
    if not touched:  # nothing kept, or the game changed since: locked as it is now, and loaded from its rows
        loaded, touched = None, lock_row(lock)
    if not touched:
        raise GameNotFound(_("There is no game %(game)d.", game=game_id))
    db.session.expire_all()
    row = game_row(game_id, hands)
    return Locked(row, loaded or replayed(row))


def lock_row(statement: Update) -> int:
    """How many rows the UPDATE touched (and so holds until the commit)."""
    touched = db.session.execute(statement, execution_options={"synchronize_session": False})
    return int(touched.rowcount)  # type: ignore[attr-defined]


def stored_hand(loaded: LoadedGame, number: int) -> None:
    """GameNotFound unless the game has a hand ``number``."""
    if not 1 <= number <= len(loaded.state.hands):
        raise GameNotFound(_("Game %(game)d has no hand %(number)d.", game=loaded.id, number=number))


def hands_of(loaded: LoadedGame) -> list[rules.Hand]:
    """The facts of the game's hands, to replay with one changed."""
    return [scored.hand for scored in loaded.state.hands]


def commit(held: Locked, state: rules.GameState) -> LoadedGame:
    """The change stored, with the records of ``state`` (the game replayed with it), and told to the phones
    following; the game as it is now. A hand another phone stored first is a conflict."""
    keep_records(held.row, state)
    # Kept for this change's updated_at, in place of the state before the change that loading kept
    # for it. (Were the commit to fail, that updated_at is never stored: nothing asks for it.)
    after = replayed(held.row, state)
    try:
        with news.told({after.id: after.tag}):
            db.session.commit()
    except IntegrityError:
        # The unique (game, number) constraint: another phone stored this hand first.
        raise rules.RuleError(_("Another phone recorded this hand first: reload to see it."), conflict=True) from None
    return after
