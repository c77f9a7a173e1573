"""Each game keeps the uid its facts give it, so that a backup or export without uids finds it here.

A database upgraded by the first release of 0005 gave its games random uids, while a
backup taken before that update, restored now, gives the same games uids made from
what they hold (the functions below): every game would be added again. Each game keeps
that content uid beside its own, and a restore skips a game found by either.

Revision ID: 0006
Revises: 0005
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

revision = "0006"
down_revision = "0005"
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


def upgrade() -> None:
    # A plain ADD COLUMN: a batch copy of the games table is not needed for it (see 0004).
    op.add_column("games", sa.Column("content_uid", sa.String(32), nullable=True))
    op.create_index("ix_games_content_uid", "games", ["content_uid"])
    fill(op.get_bind(), "content_uid")


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_content_uid")
        games.drop_column("content_uid")
