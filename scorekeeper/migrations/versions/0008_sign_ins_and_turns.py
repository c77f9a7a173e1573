"""Sign-ins the server keeps (signing out ends a session everywhere), and turns for the passcode's budgets.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sign_ins",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("signed_in_at", sa.DateTime(), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_sign_ins_last_seen", "sign_ins", ["last_seen"])
    op.add_column("sign_in_attempts", sa.Column("turn_at", sa.DateTime(), nullable=True))
    op.create_index("ix_sign_in_attempts_last_failure", "sign_in_attempts", ["last_failure"])


def downgrade() -> None:
    op.drop_index("ix_sign_in_attempts_last_failure", "sign_in_attempts")
    op.drop_column("sign_in_attempts", "turn_at")
    op.drop_index("ix_sign_ins_last_seen", "sign_ins")
    op.drop_table("sign_ins")
