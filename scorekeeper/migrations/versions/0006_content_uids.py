"""Each game keeps the uid its facts give it, so that a backup or export without uids finds it here.

A database upgraded by the first release of 0005 gave its games random uids, while a
backup taken before that update, restored now, gives the same games uids made from
what they hold (scorekeeper/uids.py): every game would be added again. Each game keeps
that content uid beside its own, and a restore skips a game found by either.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper import uids

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN: a batch copy of the games table is not needed for it (see 0004).
    op.add_column("games", sa.Column("content_uid", sa.String(32), nullable=True))
    op.create_index("ix_games_content_uid", "games", ["content_uid"])
    uids.fill(op.get_bind(), "content_uid")


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_index("ix_games_content_uid")
        games.drop_column("content_uid")
