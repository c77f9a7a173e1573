"""Black Maria (the K♠ and the A♠ score too) and the moon's subtraction below 0, as house rules.

Old games keep today's meaning: the subtraction stops at 0, no Black Maria, and
their hands name no K♠ or A♠.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs, not a batch copy: on SQLite, copying the games table drops the
    # old one, and with foreign keys on that deletes every player and hand.
    op.add_column("games", sa.Column("subtract_floor", sa.Boolean(), nullable=False, server_default=sa.true()))
    op.add_column("games", sa.Column("black_maria", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("hands", sa.Column("king", sa.Integer(), nullable=True))
    op.add_column("hands", sa.Column("ace", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("hands", "ace")
    op.drop_column("hands", "king")
    op.drop_column("games", "black_maria")
    op.drop_column("games", "subtract_floor")
