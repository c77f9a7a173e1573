"""Each seat's record, replayed from the hands, for the players' pages.

The columns start at zero: the app replays every game once after any upgrade
(scorekeeper.startup.open_database), with the rules of the code that runs then.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

RECORD_COLUMNS = ("total", "hands_played", "game_finished", "won", "shared_win", "moons", "queens")


def upgrade() -> None:
    with op.batch_alter_table("players") as players:
        for name in ("total", "hands_played", "moons", "queens"):
            players.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        for name in ("game_finished", "won", "shared_win"):
            players.add_column(sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false()))
        players.drop_index("ix_players_name_key")
        players.create_index("ix_players_record", ["name_key", "game_id", *RECORD_COLUMNS])


def downgrade() -> None:
    with op.batch_alter_table("players") as players:
        players.drop_index("ix_players_record")
        for name in RECORD_COLUMNS:
            players.drop_column(name)
        players.create_index("ix_players_name_key", ["name_key", "game_id"])
