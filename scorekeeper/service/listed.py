"""A page of games as their rows keep them: what a list shows of each game, no hand read, nothing replayed."""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import rules
from ..store import models
from ..store.db import db
from .rows import search_key


@dataclass(frozen=True)
class ListedGame:
    """A game as a list shows it: what its rows keep of its replay (the game's finished, each seat's total, hands
    and win, refreshed with every change: rows.keep_records), no hand replayed."""

    id: int
    created_at: datetime
    updated_at: datetime
    players: list[str]
    finished: bool
    hand_count: int
    totals: list[int]
    winners: list[int]  # seats

    @property
    def winner_names(self) -> list[str]:
        return [self.players[seat] for seat in self.winners]

    @property
    def next_hand(self) -> int:
        return rules.hand_after(self.hand_count)

    @property
    def leaders(self) -> list[int]:
        """The seats that lead (the lowest total, once a hand has been played, while the game goes on)."""
        leading = rules.leads(self.totals, bool(self.hand_count), self.finished)
        return [seat for seat, leads in enumerate(leading) if leads]


def listed(game: models.Game) -> ListedGame:
    seats = game.players
    return ListedGame(
        game.id,
        game.created_at,
        game.updated_at,
        [seat.name for seat in seats],
        game.finished,
        seats[0].hands_played if seats else 0,
        [seat.total for seat in seats],
        [seat.seat for seat in seats if seat.won or seat.shared_win],
    )


def list_games(
    limit: int, before: int | None = None, finished: bool | None = None, player: str | None = None
) -> tuple[list[ListedGame], bool]:
    """Newest first, ``limit`` games with an id below ``before``; and whether more follow. Each as its rows keep
    it, no hand read: a list of a hundred games of five hundred hands takes two queries, however it is paged."""
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
    if before is not None:
        query = query.where(models.Game.id < before)
    if finished is not None:
        query = query.where(models.Game.finished == finished)
    games = db.session.scalars(query.options(selectinload(models.Game.players))).all()
    return [listed(game) for game in games[:limit]], len(games) > limit
