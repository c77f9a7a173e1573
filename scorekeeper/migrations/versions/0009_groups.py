"""Groups: every game, player record and sign-in belongs to one group; limits an open server keeps per address.

The games already stored become the first group's, the group a server that is one group's serves at the
site's root; when the server is opened to many groups, that group gets its own address like any other.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import hashlib
import secrets
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

NAME_KEY_MAX = 72
SUMMED = ("games", "finished", "wins", "shared_wins", "points", "hands", "moons", "queens")
RECORD_COLUMNS = ("game_id", "total", "hands_played", "game_finished", "won", "shared_win", "moons", "queens")


def new_key() -> tuple[str, str]:
    """A group's key as this revision makes it (144 random bits, URL-safe) and the digest it is looked up by."""
    key = secrets.token_urlsafe(18)
    return key, hashlib.sha256(key.encode()).hexdigest()


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    groups = op.create_table(
        "groups",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("key_digest", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("passcode_hash", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_used", sa.DateTime(), nullable=False),
    )
    key, digest = new_key()
    now = datetime.now(UTC).replace(tzinfo=None)
    op.bulk_insert(groups, [{"id": 1, "key": key, "key_digest": digest, "name": "", "passcode_hash": None,
                             "created_at": now, "last_used": now}])  # fmt: skip
    if not sqlite:  # the id given by hand above: the sequence goes on after it
        op.execute("SELECT setval(pg_get_serial_sequence('groups', 'id'), 1)")

    op.add_column("games", sa.Column("group_id", sa.Integer(), nullable=True))
    op.execute("UPDATE games SET group_id = 1")
    with op.batch_alter_table(
        "games", recreate="always" if sqlite else "auto", table_kwargs={"sqlite_autoincrement": True}
    ) as games:
        games.alter_column("group_id", existing_type=sa.Integer(), nullable=False)
        games.create_foreign_key("fk_games_group_id_groups", "groups", ["group_id"], ["id"], ondelete="CASCADE")
        games.drop_index("ix_games_uid")
        games.drop_index("ix_games_content_uid")
        games.drop_index("ix_games_finished")
        games.create_unique_constraint("uq_games_group_uid", ["group_id", "uid"])
        games.create_index("ix_games_group_content_uid", ["group_id", "content_uid"])
        games.create_index("ix_games_group", ["group_id", "id"])
        games.create_index("ix_games_group_finished", ["group_id", "finished", "id"])

    op.add_column("players", sa.Column("group_id", sa.Integer(), nullable=True))
    op.execute("UPDATE players SET group_id = 1")
    with op.batch_alter_table("players") as players:
        players.alter_column("group_id", existing_type=sa.Integer(), nullable=False)
        players.create_foreign_key("fk_players_group_id_groups", "groups", ["group_id"], ["id"], ondelete="CASCADE")
        players.drop_index("ix_players_record")
        players.drop_index("ix_players_finished_total")
        players.create_index("ix_players_record", ["group_id", "name_key", *RECORD_COLUMNS])
        players.create_index("ix_players_finished_total", ["group_id", "name_key", "game_finished", "total"])

    op.create_table(
        "player_summaries_by_group",
        sa.Column("group_id", sa.Integer(), sa.ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("name_key", sa.String(NAME_KEY_MAX), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        *(sa.Column(column, sa.Integer(), nullable=False) for column in SUMMED),
    )
    columns = ", ".join(("name_key", "name", *SUMMED))
    op.execute(f"INSERT INTO player_summaries_by_group (group_id, {columns}) SELECT 1, {columns} FROM player_summaries")
    op.drop_table("player_summaries")
    op.rename_table("player_summaries_by_group", "player_summaries")

    with op.batch_alter_table("sign_ins") as sign_ins:
        sign_ins.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        sign_ins.create_foreign_key("fk_sign_ins_group_id_groups", "groups", ["group_id"], ["id"], ondelete="CASCADE")

    op.create_table(
        "allowances",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("used", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_allowances_since", "allowances", ["since"])


def downgrade() -> None:
    """Every group's games in one again (a uid two groups share then stops the downgrade)."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.drop_index("ix_allowances_since", "allowances")
    op.drop_table("allowances")
    with op.batch_alter_table("sign_ins") as sign_ins:
        sign_ins.drop_constraint("fk_sign_ins_group_id_groups", type_="foreignkey")
        sign_ins.drop_column("group_id")
    op.create_table(
        "player_summaries_together",
        sa.Column("name_key", sa.String(NAME_KEY_MAX), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        *(sa.Column(column, sa.Integer(), nullable=False) for column in SUMMED),
    )
    sums = ", ".join(f"SUM({column})" for column in SUMMED)
    op.execute(f"INSERT INTO player_summaries_together (name_key, name, {', '.join(SUMMED)}) "
               f"SELECT name_key, MIN(name), {sums} FROM player_summaries GROUP BY name_key")  # fmt: skip
    op.drop_table("player_summaries")
    op.rename_table("player_summaries_together", "player_summaries")
    with op.batch_alter_table("players") as players:
        players.drop_index("ix_players_record")
        players.drop_index("ix_players_finished_total")
        players.drop_constraint("fk_players_group_id_groups", type_="foreignkey")
        players.drop_column("group_id")
        players.create_index("ix_players_record", ["name_key", *RECORD_COLUMNS])
        players.create_index("ix_players_finished_total", ["name_key", "game_finished", "total"])
    with op.batch_alter_table(
        "games", recreate="always" if sqlite else "auto", table_kwargs={"sqlite_autoincrement": True}
    ) as games:
        games.drop_index("ix_games_group_finished")
        games.drop_index("ix_games_group")
        games.drop_index("ix_games_group_content_uid")
        games.drop_constraint("uq_games_group_uid", type_="unique")
        games.drop_constraint("fk_games_group_id_groups", type_="foreignkey")
        games.drop_column("group_id")
        games.create_index("ix_games_uid", ["uid"], unique=True)
        games.create_index("ix_games_content_uid", ["content_uid"])
        games.create_index("ix_games_finished", ["finished"])
    op.drop_table("groups")
