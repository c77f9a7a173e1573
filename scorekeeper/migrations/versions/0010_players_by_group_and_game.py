"""The seats of a page of games, read by their group and game: a page of past games reads as many rows however
many games the group has played (the group's other indexes led the planner through all of its seats).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05
"""

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_players_group_game", "players", ["group_id", "game_id"])


def downgrade() -> None:
    op.drop_index("ix_players_group_game", "players")
