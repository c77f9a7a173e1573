"""Each player's record over every game, kept up to date with each change to a game.

The players' pages read one row a player (models.PlayerSummary) instead of
adding up every seat they ever sat in. Whatever writes a seat's record
(rows.keep_records) or deletes a game notes here what that changes; the notes
are added to the summaries in the same transaction, just before it commits, so
the summaries move in step with the seats whichever code path commits.
"""

import functools
from dataclasses import dataclass, fields
from typing import Any

from flask_babel import gettext
from sqlalchemy import Integer, Select, Table, bindparam, cast, delete, event, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, scoped_session

from .. import rules
from ..store import models
from ..store.db import db

PENDING = "player_summary_changes"


@dataclass(frozen=True)
class Counts:
    """What one seat adds to its player's summary."""

    games: int = 0
    finished: int = 0
    wins: int = 0
    shared_wins: int = 0
    points: int = 0
    hands: int = 0
    moons: int = 0
    queens: int = 0

    def minus(self, other: "Counts") -> "Counts":
        return Counts(*(getattr(self, f.name) - getattr(other, f.name) for f in fields(Counts)))


SUMMED = tuple(f.name for f in fields(Counts))


def seat_counts(player: models.Player) -> Counts:
    """What a seat row adds now: nothing while no record was given to it yet."""
    return Counts() if player.total is None else record_counts(player)


def record_counts(record: rules.SeatRecord | models.Player) -> Counts:
    """What a seat adds with this record; a seat row names its columns as rules.SeatRecord names its fields."""
    return Counts(
        games=1,
        finished=int(record.game_finished),
        wins=int(record.won),
        shared_wins=int(record.shared_win),
        points=record.total,
        hands=record.hands_played,
        moons=record.moons,
        queens=record.queens,
    )


def note(player: models.Player, before: Counts, after: Counts) -> None:
    """Remember, until the transaction commits, that this seat now adds ``after`` instead of ``before``."""
    pending: dict[tuple[int, str], tuple[str, Counts]] = db.session.info.setdefault(PENDING, {})
    key = (player.group_id, player.name_key)
    name, counted = pending.get(key, (player.name, Counts()))
    change = after.minus(before)
    pending[key] = (name, Counts(*(getattr(counted, k) + getattr(change, k) for k in SUMMED)))


def forget_game(game: models.Game) -> None:
    """A game about to be deleted: its seats no longer count."""
    for player in game.players:
        note(player, seat_counts(player), Counts())


@functools.cache
def upsert(dialect: str) -> Any:
    """Add a change to a player's summary (a row for a new player): one statement, made once for each kind of
    database, on the table itself (no ORM work), its values bound per player."""
    table: Table = models.PlayerSummary.__table__  # type: ignore[assignment]  # a mapped class's table is a Table
    columns = ["group_id", "name_key", "name", *SUMMED]
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)
    statement = statement.values({column: bindparam(column) for column in columns})
    added = {column: table.c[column] + statement.excluded[column] for column in SUMMED}
    return statement.on_conflict_do_update(index_elements=["group_id", "name_key"], set_=added)


def init_session(session: scoped_session[Any]) -> None:
    """A change's summaries are written as the session commits it (once, however many apps share the session)."""
    for name, listener in (("before_commit", _add_pending), ("after_soft_rollback", _drop_pending)):
        if not event.contains(session, name, listener):
            event.listen(session, name, listener)


def _add_pending(session: Session) -> None:
    pending: dict[tuple[int, str], tuple[str, Counts]] = session.info.pop(PENDING, {})
    if not pending:
        return
    # Every player of the change (a hand: the table's four) in one call, in key order, so two transactions
    # changing the same players never wait on each other in a circle.
    rows = [
        {"group_id": group, "name_key": key, "name": name, **vars(change)}
        for (group, key), (name, change) in sorted(pending.items())
    ]
    session.execute(upsert(session.get_bind().dialect.name), rows)


def _drop_pending(session: Session, _transaction: object) -> None:
    session.info.pop(PENDING, None)


def rebuild() -> None:
    """Every summary added up again from the seats' records (of the groups in scope)."""
    db.session.execute(delete(models.PlayerSummary))
    columns = ["group_id", "name_key", "name", *SUMMED]
    db.session.execute(insert(models.PlayerSummary).from_select(columns, _added_up()))


def mismatches() -> list[str]:
    """The players whose stored summary is not what their seats' records add up to."""
    expected = {(row[0], row[1]): tuple(row[3:]) for row in db.session.execute(_added_up())}
    summaries = models.PlayerSummary
    columns = [getattr(summaries, column) for column in SUMMED]
    stored: dict[tuple[int, str], tuple[int, ...]] = {
        (row[0], row[1]): tuple(row[2:])
        for row in db.session.execute(select(summaries.group_id, summaries.name_key, *columns))
    }
    keys = expected.keys() | {key for key, counts in stored.items() if counts[0]}  # games 0: all deleted
    return [
        gettext("The summary of the player “%(key)s” differs from their seats' records.", key=key)
        for group, key in sorted(keys)
        if expected.get((group, key)) != stored.get((group, key))
    ]


def _added_up() -> Select[*tuple[Any, ...]]:
    """Each group's players: the group, the name key, a name, and the sums of SUMMED over their seats."""
    player = models.Player
    sums = (func.coalesce(func.sum(column), 0) for column in _seat_columns())
    keys = (player.group_id, player.name_key)
    return select(*keys, func.min(player.name), func.count(), *sums).group_by(*keys)


def _seat_columns() -> list[object]:
    """The seat columns in the order of SUMMED after ``games``."""
    player = models.Player
    flags = [cast(column, Integer) for column in (player.game_finished, player.won, player.shared_win)]
    return [*flags, player.total, player.hands_played, player.moons, player.queens]
