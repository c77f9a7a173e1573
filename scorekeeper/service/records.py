"""Looking back: the players seen and each one's record, read from their summaries (summary.py).

A player's summary is kept up to date with every change to a game, so these
pages read one row a player however many games were played.
"""

from dataclasses import dataclass

from sqlalchemy import func, select

from ..store import models
from ..store.db import db
from .rows import search_key


@dataclass(frozen=True)
class PlayerSeen:
    name: str
    games: int


@dataclass(frozen=True)
class PlayerRecord:
    name: str
    games: int
    finished: int
    wins: int
    shared_wins: int
    points: int
    hands: int
    moons: int
    queens: int
    best: int | None
    worst: int | None

    @property
    def win_rate(self) -> float | None:
        """Outright wins per finished game; shared wins are counted apart."""
        return self.wins / self.finished if self.finished else None

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None


def players_seen() -> list[PlayerSeen]:
    """Every player name seen, once per name (case and spaces ignored), most games first."""
    seen = models.PlayerSummary
    rows = db.session.execute(
        select(seen.name, seen.games).where(seen.games > 0).order_by(seen.games.desc(), seen.name)
    )
    return [PlayerSeen(name, games) for name, games in rows]


def player_record(name: str) -> PlayerRecord | None:
    key = search_key(name)
    summaries = models.PlayerSummary
    found = db.session.scalar(select(summaries).where(summaries.name_key == key)) if key is not None else None
    if found is None or not found.games:
        return None
    best, worst = _best_and_worst(found.name_key)
    return PlayerRecord(
        name=found.name,
        games=found.games,
        finished=found.finished,
        wins=found.wins,
        shared_wins=found.shared_wins,
        points=found.points,
        hands=found.hands,
        moons=found.moons,
        queens=found.queens,
        best=best,
        worst=worst,
    )


def _best_and_worst(key: str) -> tuple[int | None, int | None]:
    """The lowest and highest total of a player's finished games (two lookups in ix_players_finished_total)."""
    player = models.Player
    finished = select(player.total).where(player.name_key == key, player.game_finished.is_(True))
    best = db.session.scalar(finished.with_only_columns(func.min(player.total)))
    worst = db.session.scalar(finished.with_only_columns(func.max(player.total)))
    return best, worst
