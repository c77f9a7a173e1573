"""The exact_reset house rule: a total landing exactly on the target goes back to 0.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN, not a batch copy: on SQLite, copying the games table
    # drops the old one, and with foreign keys on that deletes every player and hand.
    op.add_column("games", sa.Column("exact_reset", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("games", "exact_reset")
