"""Games get a uid and never reuse an id; names match across Unicode spellings; each player's summary.

Each game's uid is made from what it holds (the functions below, frozen), so that a backup taken before this
update, restored after it, finds its games already here. (The first release of this revision drew random
uids; 0006 mends the databases it upgraded.)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

import hashlib
import json
import unicodedata
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


# The content uid as this revision makes it, frozen here: scorekeeper/uids.py may change, this migration never does.
# The house rules and hand fields of this revision, in its order, each read as its type.
HOUSE_FIELDS: dict[str, Callable[[Any], object]] = {
    "target": int,
    "pass_cycle": str,
    "moon": str,
    "sun": bool,
    "omnibus": bool,
    "tie": str,
    "first_dealer": int,
    "exact_reset": bool,
}
HAND_FIELDS = ("queen", "jack", "all_tricks", "moon_option")  # after each seat's hearts


def content_uid(names: Sequence[str], house: Mapping[Any, Any], hands: Iterable[Mapping[Any, Any]],
                created: datetime | None) -> str:  # fmt: skip
    played = [[*map(int, hand["hearts"]), *(hand.get(name) for name in HAND_FIELDS)] for hand in hands]
    facts = [
        [unicodedata.normalize("NFC", name).strip() for name in names],
        {key: read(house[key]) for key, read in HOUSE_FIELDS.items()},
        played,
        created.replace(microsecond=0).isoformat() if created else None,
    ]
    return digest_uid(json.dumps(facts, ensure_ascii=False))


def digest_uid(text: str) -> str:
    return uuid.UUID(bytes=hashlib.sha256(text.encode()).digest()[:16], version=4).hex


def stored_content_uids(connection: sa.Connection) -> list[tuple[int, str]]:
    games = sa.table("games", sa.column("id"), sa.column("created_at", sa.DateTime()), *map(sa.column, HOUSE_FIELDS))
    players = sa.table("players", sa.column("game_id"), sa.column("seat"), sa.column("name"))
    hands = sa.table("hands", sa.column("game_id"), sa.column("number"), sa.column("hearts", sa.JSON()),
                     *map(sa.column, HAND_FIELDS))  # fmt: skip
    names: dict[int, list[str]] = defaultdict(list)
    for game_id, name in connection.execute(sa.select(players.c.game_id, players.c.name).order_by("game_id", "seat")):
        names[game_id].append(name)
    played: dict[int, list[Mapping[Any, Any]]] = defaultdict(list)
    for hand in connection.execute(sa.select(hands).order_by("game_id", "number")).mappings():
        played[hand["game_id"]].append(hand)
    return [
        (game["id"], content_uid(names[game["id"]], game, played[game["id"]], game["created_at"]))
        for game in connection.execute(sa.select(games).order_by("id")).mappings()
    ]


def fill(connection: sa.Connection, column: str) -> None:
    """Write each stored game's content uid in its ``column``; a second copy of one game gets a uid of its own."""
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column(column, sa.String(32)))
    copies: Counter[str] = Counter()
    chosen = {}
    for game_id, uid in stored_content_uids(connection):
        copies[uid] += 1
        chosen[game_id] = uid if copies[uid] == 1 else digest_uid(f"{uid} copy {copies[uid]}")
    if chosen:
        change = games.update().where(games.c.id == sa.bindparam("game")).values({column: sa.bindparam("made")})
        connection.execute(change, [{"game": game, "made": uid} for game, uid in chosen.items()])


NAME_KEY_MAX = 72  # three times the 24 characters of a name: case-folding "ﬃ" gives "ffi"
SUMMED = ("finished", "wins", "shared_wins", "points", "hands", "moons", "queens")


def name_key(name: str) -> str:
    """The key of a name as this revision defines it (NFC, trimmed, case-folded)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).strip().casefold())


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.add_column("games", sa.Column("uid", sa.String(32), nullable=True))
    fill(op.get_bind(), "uid")
    # On SQLite only AUTOINCREMENT stops a deleted game's id being given again (PostgreSQL's sequences
    # never reuse one), and only a new table gets it: the one copy here, with every change to games.
    with op.batch_alter_table(
        "games", recreate="always" if sqlite else "auto", table_kwargs={"sqlite_autoincrement": True}
    ) as games:
        games.alter_column("uid", existing_type=sa.String(32), nullable=False)
        games.create_index("ix_games_uid", ["uid"], unique=True)
    with op.batch_alter_table("players") as players:
        players.alter_column("name_key", existing_type=sa.String(24), type_=sa.String(NAME_KEY_MAX))
        players.create_index("ix_players_finished_total", ["name_key", "game_finished", "total"])
    fill_name_keys(op.get_bind())
    op.create_table(
        "player_summaries",
        sa.Column("name_key", sa.String(NAME_KEY_MAX), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        *(sa.Column(column, sa.Integer(), nullable=False) for column in SUMMED),
    )
    fill_summaries(op.get_bind())


def fill_name_keys(connection: sa.Connection) -> None:
    players = sa.table("players", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                       sa.column("name_key", sa.String()))  # fmt: skip
    for player_id, name in connection.execute(sa.select(players.c.id, players.c.name)).all():
        connection.execute(players.update().where(players.c.id == player_id).values(name_key=name_key(name)))


def fill_summaries(connection: sa.Connection) -> None:
    """Each player's summary added up from the seats' records (as `rebuild-records` does)."""
    seat = sa.table(
        "players",
        *(sa.column(name, sa.Integer()) for name in ("total", "hands_played", "moons", "queens")),
        *(sa.column(name, sa.Boolean()) for name in ("game_finished", "won", "shared_win")),
        sa.column("name", sa.String()),
        sa.column("name_key", sa.String()),
    )
    summaries = sa.table("player_summaries", *(sa.column(c) for c in ("name_key", "name", "games", *SUMMED)))
    flags = [sa.cast(seat.c[name], sa.Integer()) for name in ("game_finished", "won", "shared_win")]
    counts = [seat.c.total, seat.c.hands_played, seat.c.moons, seat.c.queens]
    totals = sa.select(
        seat.c.name_key, sa.func.min(seat.c.name), sa.func.count(), *(sa.func.sum(c) for c in [*flags, *counts])
    ).group_by(seat.c.name_key)
    connection.execute(summaries.insert().from_select(["name_key", "name", "games", *SUMMED], totals))


def downgrade() -> None:
    op.drop_table("player_summaries")
    with op.batch_alter_table("players") as players:
        players.drop_index("ix_players_finished_total")
        players.alter_column("name_key", existing_type=sa.String(NAME_KEY_MAX), type_=sa.String(24))
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_uid")
        games.drop_column("uid")
