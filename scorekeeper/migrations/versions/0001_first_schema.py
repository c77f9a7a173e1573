"""The first schema: games, their players by seat, their hands.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("pass_cycle", sa.String(32), nullable=False),
        sa.Column("moon", sa.String(16), nullable=False),
        sa.Column("sun", sa.Boolean(), nullable=False),
        sa.Column("omnibus", sa.Boolean(), nullable=False),
        sa.Column("tie", sa.String(16), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_index("ix_games_finished", "games", ["finished"])
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(24), nullable=False),
        sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_index("ix_players_name_key", "players", ["name_key", "game_id"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("hearts", sa.JSON(), nullable=False),
        sa.Column("queen", sa.Integer(), nullable=False),
        sa.Column("jack", sa.Integer(), nullable=True),
        sa.Column("all_tricks", sa.Integer(), nullable=True),
        sa.Column("moon_option", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("game_id", "number"),
    )


def downgrade() -> None:
    op.drop_table("hands")
    op.drop_table("players")
    op.drop_table("games")
