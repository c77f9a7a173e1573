"""A lock's sign-ins read by their group, the latest first: a new sign-in past the ones a lock keeps read every
group's (a scan of the whole table, half a second at 320,000 rows on SQLite, while its write lock was held).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_sign_ins_group_last_seen", "sign_ins", ["group_id", "last_seen", "signed_in_at"])


def downgrade() -> None:
    op.drop_index("ix_sign_ins_group_last_seen", "sign_ins")
