"""Games get a uid and never reuse an id; names match across Unicode spellings; each player's summary.

Each game's uid is made from what it holds (scorekeeper/uids.py), so that a backup taken before this
update, restored after it, finds its games already here. (The first release of this revision drew random
uids; 0006 mends the databases it upgraded.)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

from scorekeeper import uids

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

NAME_KEY_MAX = 72  # three times the 24 characters of a name: case-folding "ﬃ" gives "ffi"
SUMMED = ("finished", "wins", "shared_wins", "points", "hands", "moons", "queens")


def name_key(name: str) -> str:
    """The key of a name as this revision defines it (NFC, trimmed, case-folded)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).strip().casefold())


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.add_column("games", sa.Column("uid", sa.String(32), nullable=True))
    uids.fill(op.get_bind(), "uid")
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
