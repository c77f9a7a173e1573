"""Each seat's record, replayed from the hands, for the players' pages.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper import rules

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

RECORD_COLUMNS = ("total", "hands_played", "game_finished", "won", "shared_win", "moons", "queens")


def upgrade():
    with op.batch_alter_table("players") as players:
        for name in ("total", "hands_played", "moons", "queens"):
            players.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default="0"))
        for name in ("game_finished", "won", "shared_win"):
            players.add_column(sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false()))
        players.drop_index("ix_players_name_key")
        players.create_index("ix_players_record", ["name_key", "game_id", *RECORD_COLUMNS])
    fill_records(op.get_bind())


def fill_records(connection) -> None:
    """Replay every stored game through the rules and write each seat's record and the game's status."""
    meta = sa.MetaData()
    games = sa.Table("games", meta, autoload_with=connection)
    players = sa.Table("players", meta, autoload_with=connection)
    hands = sa.Table("hands", meta, autoload_with=connection)
    for game in connection.execute(sa.select(games)).mappings():
        house = rules.HouseRules(**{key: game[key] for key in rules.HouseRules().as_dict()})
        seats = (
            connection.execute(sa.select(players.c.id).where(players.c.game_id == game["id"]).order_by(players.c.seat))
            .scalars()
            .all()
        )
        facts = [
            rules.Hand(tuple(row.hearts), row.queen, row.jack, row.all_tricks, row.moon_option)
            for row in connection.execute(
                sa.select(hands).where(hands.c.game_id == game["id"]).order_by(hands.c.number)
            )
        ]
        state = rules.replay(len(seats), house, facts)
        connection.execute(games.update().where(games.c.id == game["id"]).values(finished=state.finished))
        for player_id, record in zip(seats, rules.seat_records(state), strict=True):
            connection.execute(
                players.update()
                .where(players.c.id == player_id)
                .values(
                    total=record.total,
                    hands_played=record.hands,
                    game_finished=record.finished,
                    won=record.won,
                    shared_win=record.shared_win,
                    moons=record.moons,
                    queens=record.queens,
                )
            )


def downgrade():
    with op.batch_alter_table("players") as players:
        players.drop_index("ix_players_record")
        for name in RECORD_COLUMNS:
            players.drop_column(name)
        players.create_index("ix_players_name_key", ["name_key", "game_id"])
